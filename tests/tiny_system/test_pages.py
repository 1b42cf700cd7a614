"""The tiny test-only system driven through the generic character pages: choose it on
New character, build, preview, save, the page, the list, print and PDF, duplicate,
compare, delete; and the pages only Eldritch Gambit has answer 404 for it."""

import re

import pytest
from django.urls import reverse

from characters.models import Character
from rules import systems
from tests.characters import pdf_tools
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory
from tests.tiny_system.fixtures import make_tiny
from tests.tiny_system.models import TinyCharacter
from tests.tiny_system.system import KEY, LICENCE, NAME

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tiny")]


def stats(response) -> dict:
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def test_new_character_with_two_systems_lists_each_with_its_licence(player):
    response = player.get(reverse("characters:create"))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="system-choice"' in body
    assert NAME in body and LICENCE in body
    assert "Eldritch Gambit" in body and "CC BY 4.0" in body
    assert f"?system={KEY}" in body and 'name="grit"' not in body


def test_one_system_goes_straight_to_the_builder(player):
    # Eldritch Gambit alone: every other system leaves for this test.
    others = [system for system in systems.all_systems()
              if system.key != systems.ELDRITCH_GAMBIT]
    for system in others:
        systems.unregister(system.key)
    try:
        body = player.get(reverse("characters:create")).content.decode()
    finally:
        for system in others:
            systems.register(system)
    assert 'id="system-choice"' not in body
    assert 'name="strength"' in body or 'name="str"' in body
    assert 'name="system" value="eldritch-gambit"' in body


def test_the_chosen_system_builds_its_own_form(player):
    response = player.get(f"{reverse('characters:create')}?system={KEY}")
    body = response.content.decode()
    assert response.status_code == 200
    assert 'name="grit"' in body and 'name="wits"' in body and 'name="str"' not in body
    assert f'name="system" value="{KEY}"' in body
    assert LICENCE in body  # the system line on the builder
    assert stats(response)["toughness"] == "3"  # the initial Grit 1, Wits 1


@pytest.mark.parametrize("value", ["nope", "x" * 500, "eldritch-gambit ", "%00", "1' OR 1=1"])
def test_a_bad_system_is_a_400_with_the_choice(player, value):
    response = player.get(reverse("characters:create"), {"system": value})
    body = response.content.decode()
    assert response.status_code == 400
    assert "There is no game system" in body and 'id="system-choice"' in body


def test_a_post_without_a_system_asks_for_one(player):
    response = player.post(reverse("characters:create"), {"grit": "3", "wits": "2"})
    assert response.status_code == 400
    assert "Choose a game system first" in response.content.decode()
    assert not Character.objects.exists()


def test_the_live_preview_shows_the_derived_number(player):
    response = player.post(reverse("characters:preview"),
                           {"system": KEY, "grit": "4", "wits": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert stats(response)["toughness"] == "10"


def test_the_live_preview_says_what_it_cannot_compute(player):
    response = player.post(reverse("characters:preview"),
                           {"system": KEY, "grit": "11", "wits": "2"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "data-cannot-compute" in body and "Grit is a whole number from 0 to 10." in body


def test_a_preview_for_a_bad_system_is_a_400(player):
    response = player.post(reverse("characters:preview"), {"system": "nope"})
    assert response.status_code == 400


def test_build_save_and_see_the_page(player, user):
    response = player.post(reverse("characters:create"),
                           {"system": KEY, "name": "Pip", "grit": "3", "wits": "2"})
    character = TinyCharacter.objects.get()
    assert response.status_code == 302 and response.url == character.get_absolute_url()
    assert (character.owner, character.system, character.grit, character.wits) == (
        user, KEY, 3, 2)
    page = player.get(character.get_absolute_url())
    body = page.content.decode()
    assert stats(page)["toughness"] == "8"
    assert NAME in body and LICENCE in body
    assert reverse("characters:inventory", args=[character.pk]) not in body
    assert reverse("characters:play", args=[character.pk]) not in body


def test_refused_values_save_nothing(player):
    response = player.post(reverse("characters:create"),
                           {"system": KEY, "grit": "-1", "wits": "x"})
    assert response.status_code == 200
    assert "Nothing was saved" in response.content.decode()
    assert not Character.objects.exists()


def test_edit_and_its_preview(player, user):
    character = make_tiny(user)
    url = reverse("characters:edit", args=[character.pk])
    body = player.get(url).content.decode()
    assert 'value="3"' in body and 'name="system"' not in body
    preview = player.post(reverse("characters:preview", args=[character.pk]),
                          {"grit": "5", "wits": "5"}, HTTP_HX_REQUEST="true")
    assert stats(preview)["toughness"] == "15"
    assert player.post(url, {"name": "Pip", "grit": "5", "wits": "0"}).status_code == 302
    character.refresh_from_db()
    assert (character.grit, character.wits) == (5, 0)


def test_the_list_shows_each_systems_summary(player, user):
    make_tiny(user, name="Pip")
    CharacterFactory(owner=user, name="Asphodel")
    body = player.get(reverse("characters:list")).content.decode()
    assert "Grit 3, Wits 2 · Tiny Test System" in body
    assert "· Eldritch Gambit" in body
    # Each row's standing in its system's words (GameSystem.progress): a Level is
    # Eldritch Gambit's, the XP every system's.
    rows = {name: row for row in re.findall(r"<tr data-system=.*?</tr>", body, re.S)
            for name in ("Pip", "Asphodel") if f">{name}<" in row}
    assert "Level 10 · XP 0" in rows["Asphodel"]
    assert "XP 0" in rows["Pip"] and "Level" not in rows["Pip"]


def test_print_and_pdf(player, user):
    character = make_tiny(user, name="Pip")
    page = player.get(reverse("characters:print", args=[character.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    assert 'data-field="toughness">8<' in body and LICENCE in body
    pdf = player.get(reverse("characters:sheet_pdf", args=[character.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    text = pdf_tools.flat(pdf.content)
    assert "Toughness 8" in text and "Tiny Test System" in text


def test_duplicate_compare_and_delete(player, user):
    character = make_tiny(user, name="Pip", grit=4, wits=1)
    response = player.post(reverse("characters:duplicate", args=[character.pk]))
    copy = TinyCharacter.objects.exclude(pk=character.pk).get()
    assert (copy.name, copy.grit, copy.wits, copy.system) == ("Pip (copy)", 4, 1, KEY)
    compare = player.get(response.url)
    assert compare.status_code == 200
    assert compare.content.decode().count('data-stat="toughness">9<') == 2
    assert player.post(reverse("characters:delete", args=[copy.pk])).status_code == 302
    assert not Character.objects.filter(pk=copy.pk).exists()
    assert not TinyCharacter.objects.filter(pk=copy.pk).exists()


@pytest.mark.parametrize("name", ["characters:inventory", "characters:template",
                                  "characters:play", "characters:roll_log"])
def test_the_pages_only_eldritch_gambit_has_are_404(player, user, name):
    character = make_tiny(user)
    response = player.get(reverse(name, args=[character.pk]))
    assert response.status_code == 404


OWN_PAGES = [("characters:detail", "get"), ("characters:edit", "get"),
             ("characters:edit", "post"), ("characters:preview", "post"),
             ("characters:print", "get"), ("characters:sheet_pdf", "get"),
             ("characters:duplicate", "post"), ("characters:delete", "get"),
             ("characters:delete", "post")]


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_anonymous_users_go_to_the_login(client, user, name, method):
    character = make_tiny(user)
    response = getattr(client, method)(reverse(name, args=[character.pk]))
    assert response.status_code == 302 and "/login/" in response.url


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_another_player_finds_nothing(client, user, name, method):
    character = make_tiny(user)
    client.force_login(UserFactory())
    response = getattr(client, method)(reverse(name, args=[character.pk]),
                                       {"grit": "1", "wits": "1"})
    assert response.status_code == 404
    assert TinyCharacter.objects.get(pk=character.pk).grit == 3


def test_the_imp_reads_the_sheet_but_does_not_edit_it(client, user):
    campaign = CampaignFactory(system=KEY)
    MembershipFactory(campaign=campaign, user=user)
    character = make_tiny(user, campaign=campaign)
    client.force_login(campaign.owner)
    assert stats(client.get(character.get_absolute_url()))["toughness"] == "8"
    assert client.get(reverse("characters:print", args=[character.pk])).status_code == 200
    assert client.get(reverse("characters:edit", args=[character.pk])).status_code == 404
    party = client.get(reverse("campaigns:party_print", args=[campaign.pk]))
    assert 'data-field="toughness">8<' in party.content.decode()


def test_the_about_page_credits_every_registered_system(client):
    body = client.get(reverse("about")).content.decode()
    assert 'id="system-credits"' in body and LICENCE in body
    assert "Eldritch Gambit</strong>: Based on Eldritch Gambit" in body
    assert "Text from <cite>Errant</cite>" in body  # the existing credits stay


def test_an_eldritch_gambit_sheet_names_its_system_and_licence(player, user):
    hero = CharacterFactory(owner=user)
    for url in (hero.get_absolute_url(), reverse("characters:edit", args=[hero.pk])):
        body = player.get(url).content.decode()
        assert 'data-system="eldritch-gambit"' in body and "CC BY 4.0" in body
