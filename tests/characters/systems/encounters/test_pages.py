"""An encounter combatant through the generic pages: the system choice, the builder and
its live preview, the page with every data-stat, the list, print and PDF, export and
import, duplicate and compare, the campaign settings, the rules reference, the demo, and
who may see what, with hostile input on each."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape

from campaigns.models import Campaign
from characters.models import Character
from characters.systems.encounters.apps import KEY, LICENCE, NAME
from characters.systems.encounters.builds import sheet_for
from characters.systems.encounters.demo import seed_demo
from characters.systems.encounters.models import EncounterCharacter
from rules.engine.encounters.sheet import NUMBERS
from tests.characters import pdf_tools
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

from .helpers import make_sable, posted, stats

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def test_new_character_offers_the_system_with_its_credit(player):
    body = player.get(reverse("characters:create")).content.decode()
    assert NAME in body and escape(LICENCE) in body and f"?system={KEY}" in body


def test_the_builder_creates_and_the_preview_follows(player, user):
    form = player.get(reverse("characters:create"), {"system": KEY}).content.decode()
    assert all(f'name="{name}"' in form for name in NUMBERS)
    preview = player.post(reverse("characters:preview"), posted(quickness="9", load="50"),
                          HTTP_HX_REQUEST="true")
    shown = stats(preview)
    assert shown["initiative_maneuver"] == "2d6+9" and shown["pace"] == "5"
    assert shown["run_max"] == "20" and shown["push_most"] == "7"
    assert not EncounterCharacter.objects.exists()
    response = player.post(reverse("characters:create"), posted())
    sable = EncounterCharacter.objects.get()
    assert response.status_code == 302 and sable.system == KEY and sable.quickness == 6


@pytest.mark.parametrize(("field", "value", "code"), [
    ("quickness", "x", "invalid"), ("quickness", "1001", "max_value"),
    ("stamina_max", "0", "min_value"), ("load", "101", "max_value"),
    ("load", "-1", "min_value"), ("command", "", "required")])
def test_a_bad_number_is_said_beside_its_field_and_nothing_typed_is_lost(player, field,
                                                                         value, code):
    response = player.post(reverse("characters:create"), posted(**{field: value}))
    assert response.status_code == 200 and not EncounterCharacter.objects.exists()
    assert {e.code for e in response.context["form"].errors.as_data()[field]} == {code}
    body = response.content.decode()
    assert re.search(rf'id="errors-{field}"[^>]*>\s*<div class="invalid-feedback', body)
    assert 'value="Sable"' in body
    preview = player.post(reverse("characters:preview"), posted(**{field: value}),
                          HTTP_HX_REQUEST="true").content.decode()
    assert "data-cannot-compute" in preview


def test_the_page_shows_every_number_with_its_arithmetic(player, user):
    sable = make_sable(user)
    response = player.get(sable.get_absolute_url())
    assert response.status_code == 200
    shown = stats(response)
    sheet = sheet_for(sable)
    body = response.content.decode()
    for stat in sheet.stats:
        assert shown[stat.name] == str(stat.value)
        assert escape(stat.how) in body
    assert shown["quickness"] == "6" and escape(LICENCE) in body
    assert reverse("rules:system_index", kwargs={"system": KEY}) in body


def test_editing_keeps_the_owner_and_changes_the_numbers(player, user):
    sable = make_sable(user)
    response = player.post(reverse("characters:edit", args=[sable.pk]),
                           posted(name="Sable the Swift", quickness="8"))
    assert response.status_code == 302
    sable.refresh_from_db()
    assert (sable.name, sable.quickness, sable.owner) == ("Sable the Swift", 8, user)


def test_the_list_shows_the_summary(player, user):
    make_sable(user)
    body = player.get(reverse("characters:list")).content.decode()
    assert "Quickness 6, Command 2, Stamina 8" in body


def test_print_and_pdf(player, user):
    sable = make_sable(user)
    page = player.get(reverse("characters:print", args=[sable.pk]))
    body = page.content.decode()
    assert page.status_code == 200 and "encounters-print.css" in body
    for field, value in (("quickness", 6), ("command", 2), ("stamina_max", 8),
                         ("pace", "10"), ("run_max", "40"), ("push_most", 7)):
        assert f'data-field="{field}">{value}<' in body, field
    assert body.count('class="n-tick"') == 8 + 10 + 9
    assert escape(LICENCE) in body
    pdf = player.get(reverse("characters:sheet_pdf", args=[sable.pk]), {"paper": "a4"})
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf_tools.pages(pdf.content) == 1
    text = pdf_tools.flat(pdf.content)
    for words in ("Sable", "Encounter rules (seed 004)", "described in our own words",
                  "no text reproduced"):
        assert words in text


def test_huge_tracks_still_print_on_one_page(player, user):
    sable = make_sable(user, stamina_max=1000, health_max=1000, sanity_max=1000,
                       name="N" * 120)
    pdf = player.get(reverse("characters:sheet_pdf", args=[sable.pk]), {"paper": "letter"})
    assert pdf_tools.pages(pdf.content) == 1


def test_export_and_import_round_trip(player, user):
    sable = make_sable(user)
    exported = player.get(reverse("characters:export", args=[sable.pk]))
    data = json.loads(exported.content)
    assert data["format"] == "encounters-character"
    assert data["derived"]["initiative_maneuver"] == "2d6+6"
    data["derived"]["pace"] = "999"  # derived numbers are never trusted
    upload = SimpleUploadedFile("sable.json", json.dumps(data).encode(), "application/json")
    response = player.post(reverse("characters:import"), {"file": upload})
    assert response.status_code == 302
    copy = EncounterCharacter.objects.exclude(pk=sable.pk).get()
    assert {n: getattr(copy, n) for n in NUMBERS} == {n: getattr(sable, n) for n in NUMBERS}


@pytest.mark.parametrize(("key", "value"), [("quickness", "fast"), ("load", 101),
                                            ("stamina_max", 0), ("quickness", True),
                                            ("bogus", 1), ("name", 7), ("xp", -1)])
def test_a_bad_file_is_refused_whole(player, user, key, value):
    data = json.loads(player.get(reverse("characters:export",
                                         args=[make_sable(user).pk])).content)
    data[key] = value
    upload = SimpleUploadedFile("bad.json", json.dumps(data).encode(), "application/json")
    response = player.post(reverse("characters:import"), {"file": upload})
    assert response.status_code == 200 and EncounterCharacter.objects.count() == 1
    assert key in response.content.decode()


def test_duplicate_and_compare(player, user):
    sable = make_sable(user)
    response = player.post(reverse("characters:duplicate", args=[sable.pk]))
    copy = EncounterCharacter.objects.exclude(pk=sable.pk).get()
    assert (copy.name, copy.quickness, copy.load) == ("Sable (copy)", 6, 5)
    body = player.get(response.url).content.decode()
    assert len(re.findall(r'data-stat="initiative_maneuver"[^>]*>2d6\+6<', body)) == 2


OWN_PAGES = [("characters:detail", "get"), ("characters:edit", "get"),
             ("characters:edit", "post"), ("characters:preview", "post"),
             ("characters:print", "get"), ("characters:sheet_pdf", "get"),
             ("characters:export", "get"), ("characters:duplicate", "post"),
             ("characters:delete", "get"), ("characters:delete", "post")]


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_anonymous_users_go_to_the_login(client, user, name, method):
    sable = make_sable(user)
    response = getattr(client, method)(reverse(name, args=[sable.pk]))
    assert response.status_code == 302 and "/login/" in response.url


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_another_player_finds_nothing(client, user, name, method):
    sable = make_sable(user)
    client.force_login(UserFactory())
    response = getattr(client, method)(reverse(name, args=[sable.pk]), posted(quickness=1))
    assert response.status_code == 404
    assert EncounterCharacter.objects.get(pk=sable.pk).quickness == 6


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_the_owner_is_served(player, user, name, method):
    sable = make_sable(user)
    response = getattr(player, method)(reverse(name, args=[sable.pk]), posted())
    assert response.status_code in (200, 302)


def test_the_guide_reads_the_sheet_but_does_not_edit_it(client, user):
    campaign = CampaignFactory(system=KEY)
    MembershipFactory(campaign=campaign, user=user)
    sable = make_sable(user)
    Character.objects.filter(pk=sable.pk).update(campaign=campaign)
    client.force_login(campaign.owner)
    assert stats(client.get(sable.get_absolute_url()))["quickness"] == "6"
    assert client.get(reverse("characters:print", args=[sable.pk])).status_code == 200
    assert client.get(reverse("characters:edit", args=[sable.pk])).status_code == 404


HOSTILE = ["", "\x00", "7" * 400, "-1e9", "<script>alert(1)</script>", "' OR 1=1 --",
           "NaN", "٣", "1.5", "🙂" * 50]


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("field", [*NUMBERS, "name"])
def test_hostile_input_is_refused_or_kept_never_a_500(player, user, field, value):
    sable = make_sable(user)
    for url in (reverse("characters:create"), reverse("characters:preview"),
                reverse("characters:edit", args=[sable.pk]),
                reverse("characters:preview", args=[sable.pk])):
        response = player.post(url, posted(**{field: value}), HTTP_HX_REQUEST="true")
        assert response.status_code in (200, 204), (url, response.status_code)
        assert "<script>alert(1)</script>" not in response.content.decode()
    for character in EncounterCharacter.objects.all():
        character.full_clean()


def test_a_campaigns_settings_are_shown_checked_and_stored(player, user):
    form = player.get(reverse("campaigns:create"), {"system": KEY}).content.decode()
    assert 'name="skill_roll"' in form and 'value="2d6+skill"' in form
    assert "our default" in form
    refused = player.post(reverse("campaigns:create"), {
        "name": "Skirmish", "system": KEY, "skill_roll": "2d6+skill+skill",
        "defence_counting": "each", "pace_formula": "linear"})
    assert refused.status_code == 200 and not Campaign.objects.exists()
    assert "skill_roll" in refused.context["form"].errors
    assert re.search(r'id="errors-skill_roll"[^>]*><div class="invalid-feedback',
                     refused.content.decode())
    for bad in ({"defence_counting": "all"}, {"pace_formula": "cubic"},
                {"skill_roll": "9" * 50}):
        response = player.post(reverse("campaigns:create"), {
            "name": "Skirmish", "system": KEY, "skill_roll": "2d6+skill",
            "defence_counting": "each", "pace_formula": "linear", **bad})
        assert response.status_code == 200 and not Campaign.objects.exists()
    player.post(reverse("campaigns:create"), {
        "name": "Skirmish", "system": KEY, "skill_roll": " 1d10+skill ",
        "defence_counting": "one_for_all", "charge_momentum": "on",
        "pace_formula": "ignored"})
    campaign = Campaign.objects.get(name="Skirmish")
    assert campaign.settings == {"skill_roll": "1d10+skill", "defence_counting": "one_for_all",
                                 "charge_momentum": True, "pace_formula": "ignored"}
    body = player.get(campaign.get_absolute_url()).content.decode()
    assert "skill roll 1d10+skill, defences as one, charge momentum, no encumbrance" in body
    assert "Guide" in body


def test_a_combatant_built_for_a_campaign_uses_its_settings(player, user):
    campaign = CampaignFactory(system=KEY, settings={"skill_roll": "3d6+skill"})
    MembershipFactory(campaign=campaign, user=user)
    url = f"{reverse('characters:create')}?campaign={campaign.pk}"
    # The new character's preview already rolls with the campaign's formula.
    assert stats(player.get(url))["initiative_maneuver"] == "3d6+0"
    response = player.post(reverse("characters:create"), {**posted(), "campaign": campaign.pk})
    assert response.status_code == 302
    sable = EncounterCharacter.objects.get()
    assert sable.campaign == campaign
    assert stats(player.get(sable.get_absolute_url()))["initiative_maneuver"] == "3d6+6"


def test_the_rules_reference_is_served_in_our_words(client):
    index = client.get(reverse("rules:system_index", kwargs={"system": KEY}))
    assert index.status_code == 200
    entry = client.get(reverse("rules:system_entry",
                               kwargs={"system": KEY, "chapter": "round", "slug": "haste"}))
    body = entry.content.decode()
    assert entry.status_code == 200 and "not reproduced" in body
    assert "seed 004, the Encounters chapter" in body


def test_the_demo_seeds_a_combatant_for_each_player_once():
    seed_demo()
    seed_demo()
    owners = dict(EncounterCharacter.objects.values_list("name", "owner__username"))
    assert owners == {"Sable": "player1", "Bram": "player2"}


def test_a_campaigns_generic_pages_show_the_combatant(client, user):
    """The generic campaign pages serve a campaign of these rules: its Guide reads the
    party, the sessions, the stash, the party's printed sheets and Sable's campaign page,
    and a player joins with her from the join page."""
    campaign = CampaignFactory(system=KEY, settings={"skill_roll": "1d10+skill"})
    MembershipFactory(campaign=campaign, user=user)
    sable = make_sable(user)
    client.force_login(user)
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": sable.pk, "request_key": "b" * 32})
    assert response.status_code == 302
    sable.refresh_from_db()
    assert sable.campaign == campaign
    client.force_login(campaign.owner)
    for name in ("campaigns:detail", "campaigns:sessions", "campaigns:stash",
                 "campaigns:party_print", "campaigns:members"):
        response = client.get(reverse(name, args=[campaign.pk]))
        assert response.status_code == 200, name
    body = client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert "Guide" in body and "skill roll 1d10+skill" in body
    party = client.get(reverse("campaigns:party_print", args=[campaign.pk])).content.decode()
    assert 'data-field="initiative_maneuver">1d10+6<' in party and "Sable" in party
    page = client.get(reverse("campaigns:character", args=[campaign.pk, sable.pk]))
    assert page.status_code == 200
