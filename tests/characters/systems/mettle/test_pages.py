"""A METTLE Core character through the generic pages: the system choice, the page with
every data-stat, the list, print and PDF, duplicate and compare, and who may see what,
with hostile input on each."""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from characters.models import Character
from characters.systems.mettle.apps import KEY, LICENCE, NAME
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.inventory import legacy_gear, lines_of
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle import DERIVED_NAMES
from tests.characters import pdf_tools
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

from .helpers import make_viktor, posted, stats

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def test_new_character_offers_both_games_with_their_licence(player):
    body = player.get(reverse("characters:create")).content.decode()
    assert 'id="system-choice"' in body and NAME in body and LICENCE in body
    assert f"?system={KEY}" in body and "Eldritch Gambit" in body


def test_the_page_shows_every_number_with_its_explanation(player, user):
    viktor = make_viktor(user)
    response = player.get(viktor.get_absolute_url())
    assert response.status_code == 200
    shown = stats(response)
    sheet = sheet_for(viktor)
    assert {name: shown[name] for name in DERIVED_NAMES} == {
        name: sheet[name].display for name in DERIVED_NAMES}
    body = response.content.decode()
    for name in DERIVED_NAMES:
        assert escape(sheet[name].explanation) in body
    # Viktor's sheet (next-games.md M14): Mettle 9, the sword cane's Hit 5 and DM 5.
    assert (shown["mettle_max"], shown["credit_afford"], shown["load"]) == ("9", "99", "1")
    assert "Attack 5D = NATURE 3 + Sword Hit 2D" in body and "DM 5 = FRAME 3 + Sword 2" in body
    assert NAME in body and "CC BY 4.0" in body and "Itinerant gambler" in body
    assert reverse("characters:edit", args=[viktor.pk]) in body


def test_the_list_shows_the_pools(player, user):
    make_viktor(user)
    CharacterFactory(owner=user, name="Asphodel")
    body = player.get(reverse("characters:list")).content.decode()
    assert "CONCEPT 5 FRAME 3 MOTIVE 4 NATURE 3 POISE 2 · METTLE Core" in body


def test_print_and_pdf(player, user):
    viktor = make_viktor(user, backstories=["Raised in Odesa (Russian)"])
    page = player.get(reverse("characters:print", args=[viktor.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    for field, value in (("mettle_max", 9), ("soak", 3), ("load", 1), ("concept", 5),
                         ("credit_afford", 99), ("pool_total", 22)):
        assert f'data-field="{field}">{value}<' in body
    assert LICENCE in body and "Raised in Odesa (Russian)" in body and "Sword cane" in body
    assert "mettle-print.css" in body
    pdf = player.get(reverse("characters:sheet_pdf", args=[viktor.pk]), {"paper": "a4"})
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf_tools.pages(pdf.content) == 1
    text = pdf_tools.flat(pdf.content)
    for words in ("Viktor", "METTLE Core", "Sword cane", "Itinerant gambler", "Oleg",
                  "Creative Commons Attribution 4.0"):
        assert words in text


def test_duplicate_and_compare(player, user):
    viktor = make_viktor(user)
    response = player.post(reverse("characters:duplicate", args=[viktor.pk]))
    copy = MettleCharacter.objects.exclude(pk=viktor.pk).get()
    assert (copy.name, legacy_gear(lines_of(copy)), copy.contacts) == (
        "Viktor (copy)", legacy_gear(lines_of(viktor)), viktor.contacts)
    body = player.get(response.url).content.decode()
    assert len(re.findall(r'data-stat="mettle_max"[^>]*>9<', body)) == 2


def test_the_guide_reads_the_sheet_but_does_not_edit_it(client, user):
    campaign = CampaignFactory(system=KEY)
    MembershipFactory(campaign=campaign, user=user)
    viktor = make_viktor(user)
    Character.objects.filter(pk=viktor.pk).update(campaign=campaign)
    client.force_login(campaign.owner)
    assert stats(client.get(viktor.get_absolute_url()))["mettle_max"] == "9"
    assert client.get(reverse("characters:print", args=[viktor.pk])).status_code == 200
    assert client.get(reverse("characters:edit", args=[viktor.pk])).status_code == 404
    party = client.get(reverse("campaigns:party_print", args=[campaign.pk]))
    assert 'data-field="mettle_max">9<' in party.content.decode()


OWN_PAGES = [("characters:detail", "get"), ("characters:edit", "get"),
             ("characters:edit", "post"), ("characters:preview", "post"),
             ("characters:print", "get"), ("characters:sheet_pdf", "get"),
             ("characters:export", "get"), ("characters:duplicate", "post"),
             ("characters:delete", "get"), ("characters:delete", "post")]


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_anonymous_users_go_to_the_login(client, user, name, method):
    viktor = make_viktor(user)
    response = getattr(client, method)(reverse(name, args=[viktor.pk]))
    assert response.status_code == 302 and "/login/" in response.url


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_another_player_finds_nothing(client, user, name, method):
    viktor = make_viktor(user)
    client.force_login(UserFactory())
    response = getattr(client, method)(reverse(name, args=[viktor.pk]), posted(concept=2))
    assert response.status_code == 404
    assert MettleCharacter.objects.get(pk=viktor.pk).concept == 5


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_the_owner_is_served(player, user, name, method):
    viktor = make_viktor(user)
    response = getattr(player, method)(reverse(name, args=[viktor.pk]), posted())
    assert response.status_code in (200, 302)


HOSTILE = ["", "\x00", "7" * 400, "-1e9", "<script>alert(1)</script>", "' OR 1=1 --",
           "NaN", "٣", "1.5", "🙂" * 50]


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("field", ["concept", "method", "budget", "credit", "mettle_current",
                                   "armor", "weapon_1", "weapon_1_concept", "gear",
                                   "backstories", "contacts", "name", "concept_descriptor"])
def test_hostile_input_is_refused_or_kept_never_a_500(player, user, field, value):
    viktor = make_viktor(user)
    for url in (reverse("characters:create"), reverse("characters:preview"),
                reverse("characters:edit", args=[viktor.pk]),
                reverse("characters:preview", args=[viktor.pk])):
        response = player.post(url, posted(**{field: value}), HTTP_HX_REQUEST="true")
        assert response.status_code in (200, 204), (url, response.status_code)
        assert "<script>alert(1)</script>" not in response.content.decode()
    for character in MettleCharacter.objects.all():
        character.full_clean()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_full_sheet_still_prints_on_one_page(player, user, paper):
    viktor = make_viktor(
        user, credit=9, contacts=[f"Contact number {n}, who owes a favour" for n in range(9)],
        backstories=[f"Backstory {n}: " + "a long tale of cards and trains " * 4
                     for n in range(5)],
        weapons=[{"name": f"Weapon {n}", "weapon": "Rifle, assault", "concept": False}
                 for n in range(4)],
        gear=[{"name": f"Gear line {n} with a longish name", "load": None, "quantity": 2}
              for n in range(20)])
    pdf = player.get(reverse("characters:sheet_pdf", args=[viktor.pk]), {"paper": paper})
    assert pdf_tools.pages(pdf.content) == 1
    assert "Gear line 19" in pdf_tools.flat(pdf.content)


def test_a_character_built_for_a_mettle_campaign_joins_it(player, user):
    campaign = CampaignFactory(system=KEY)
    MembershipFactory(campaign=campaign, user=user)
    url = f"{reverse('characters:create')}?campaign={campaign.pk}"
    body = player.get(url).content.decode()
    assert 'name="weapon_1"' in body and 'id="system-choice"' not in body
    response = player.post(reverse("characters:create"),
                           {**posted(), "campaign": campaign.pk, "system": "eldritch-gambit"})
    assert response.status_code == 302
    viktor = MettleCharacter.objects.get()
    assert viktor.campaign == campaign and viktor.system == KEY


def test_a_long_inventory_pages_on_the_page(player, user):
    """Issue 12: the Resources list shows a page of lines and a pager to the next."""
    from characters.models import InventoryItem
    from characters.views import GEAR_PER_PAGE

    viktor = make_viktor(user)
    InventoryItem.objects.bulk_create(
        InventoryItem(character=viktor, name=f"Chip {n:03}", load=0)
        for n in range(GEAR_PER_PAGE + 5))
    lines = viktor.items.count()

    def gear(body):
        return re.findall(r"<li>[^<]*?(Chip \d+)", body[body.index("data-gear"):])

    first = player.get(viktor.get_absolute_url()).content.decode()
    assert "Page 1 of 2" in first and 'href="?gear=2#gear-heading"' in first
    second = player.get(viktor.get_absolute_url(), {"gear": "2"}).content.decode()
    assert len(gear(first)) + len(gear(second)) == GEAR_PER_PAGE + 5
    listed = re.search(r"<ul class=\"mb-0\" data-gear>(.*?)</ul>", second, re.S).group(1)
    assert listed.count("<li>") == lines - GEAR_PER_PAGE
    assert player.get(viktor.get_absolute_url(), {"gear": "xyz"}).status_code == 200


# -- what the page costs (issue 12) -------------------------------------------------------------


def test_the_pages_queries_are_flat_in_the_ledgers_and_none_for_contacts_not_named(
        player, user):
    """The page reads each METTLE ledger it shows once (the raises' and the Credit's sums,
    the Vouchers' sum, the Contacts' events), however long they are; a character that
    names no Contacts costs no Contacts query (none can be lost)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from characters.systems.mettle.ledgers import ContactEvent, VoucherEntry
    from characters.systems.mettle.models import CreditEntry

    def page_queries(character):
        with CaptureQueriesContext(connection) as queries:
            response = player.get(character.get_absolute_url())
        assert response.status_code == 200
        return len(queries), response.content.decode()

    viktor = make_viktor(user)
    short, _ = page_queries(viktor)
    for _ in range(6):
        VoucherEntry.objects.create(character=viktor, kind="grant", change=1)
        CreditEntry.objects.create(character=viktor, kind="guide", change=0)
        ContactEvent.objects.create(character=viktor, contact="Oleg", kind="regained")
    ContactEvent.objects.create(character=viktor, contact="Oleg", kind="lost")
    long, page = page_queries(viktor)
    assert long == short
    assert 'data-contact-lost' in page and 'data-stat="vouchers">6<' in page
    loner = make_viktor(user, name="Loner", contacts=[])
    alone, page = page_queries(loner)
    assert alone == short - 1 and "None named yet." in page
