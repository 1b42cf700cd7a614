"""An Errant through the generic pages and its own: the system choice, the page with every
data-stat, moving an item in one action, the list, print and PDF, duplicate and compare,
and who may see what, with hostile input on each."""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from characters.models import Character
from characters.systems.errant.apps import KEY, LICENCE, NAME
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import DERIVED_NAMES
from tests.characters import pdf_tools
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

from .helpers import make_wren, posted, stats

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def torch_index(errant) -> int:
    return next(i for i, line in enumerate(errant.gear) if line["name"] == "Torch")


def test_new_character_offers_errant_with_its_licence(player):
    body = player.get(reverse("characters:create")).content.decode()
    assert NAME in body and escape(LICENCE) in body and f"?system={KEY}" in body


def test_the_page_shows_every_number_with_its_explanation(player, user):
    errant = make_wren(user)
    response = player.get(errant.get_absolute_url())
    assert response.status_code == 200
    shown = stats(response)
    sheet = sheet_for(errant)
    assert {name: shown[name] for name in DERIVED_NAMES} == {
        name: sheet[name].display for name in DERIVED_NAMES}
    for name in (*DERIVED_NAMES, "attack_rolls", "feats_known", "combat_dice"):
        assert escape(sheet[name].explanation) in response.content.decode()
    body = response.content.decode()
    assert "CC BY-SA 4.0" in body and "Rolled [3 4 2 4]" in body
    assert "skill and mind swapped" in body and 'aria-label="Place of Torch"' in body


def test_moving_an_item_is_one_action_and_the_numbers_follow(player, user):
    errant = make_wren(user)
    url = reverse("characters:errant_item_move", args=[errant.pk])
    response = player.post(url, {"index": torch_index(errant), "name": "Torch",
                                 "location": "handy"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    shown = stats(response)
    assert (shown["slots_filled"], shown["slots_filled_no_backpack"]) == ("6", "2½")
    assert "Torch moved; the numbers follow." in response.content.decode()
    errant.refresh_from_db()
    assert errant.gear[torch_index(errant)]["location"] == "handy"
    # The same click again changes nothing; without htmx the page reloads.
    again = player.post(url, {"index": torch_index(errant), "name": "Torch",
                              "location": "handy"})
    assert again.status_code == 302 and again.url == errant.get_absolute_url()
    assert ErrantCharacter.objects.get(pk=errant.pk).gear == errant.gear


@pytest.mark.parametrize(("index", "name", "location", "message"), [
    ("0", "Torch", "handy", "no longer on this sheet"),
    ("30", "Torch", "handy", "no longer on this sheet"),
    ("99", "Torch", "handy", "Choose an item of this sheet."),
    ("x", "Torch", "handy", "Choose an item of this sheet."),
    ("-1", "Torch", "handy", "Choose an item of this sheet."),
    ("9" * 40, "Torch", "handy", "Choose an item of this sheet."),
    (None, "Torch", "pocket", "Choose hand, handy, worn"),
    (None, "Torch", "", "Choose hand, handy, worn"),
])
def test_a_stale_or_hostile_move_is_said_and_changes_nothing(player, user, index, name,
                                                            location, message):
    errant = make_wren(user)
    data = {"index": torch_index(errant) if index is None else index, "name": name,
            "location": location}
    response = player.post(reverse("characters:errant_item_move", args=[errant.pk]), data,
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and message in response.content.decode()
    assert ErrantCharacter.objects.get(pk=errant.pk).gear == errant.gear


def test_the_list_shows_the_archetype(player, user):
    make_wren(user)
    CharacterFactory(owner=user, name="Asphodel")
    body = player.get(reverse("characters:list")).content.decode()
    assert "The Violent, Tough · Errant" in body


def test_print_and_pdf(player, user):
    errant = make_wren(user, keepsake="A bent coin", exhaustion=1)
    page = player.get(reverse("characters:print", args=[errant.pk]))
    body = page.content.decode()
    assert page.status_code == 200 and "errant-print.css" in body
    for field, value in (("phys", 13), ("skill", 13), ("hp_max", 13), ("item_slots", 13),
                         ("slots_filled", 7), ("encumbrance", 2), ("spd", 11),
                         ("encumbrance_no_backpack", 0), ("spd_no_backpack", 13),
                         ("attack_rolls", 1), ("damage_die", "D8")):
        assert f'data-field="{field}">{value}<' in body, field
    # The slot grid: 13 rows of four quarters, 7 slots filled, the first one Exhaustion.
    assert body.count('class="e-q e-q-x"') == 4 and body.count('class="e-q e-q-f"') == 24
    assert escape(LICENCE) in body and "A bent coin" in body
    pdf = player.get(reverse("characters:sheet_pdf", args=[errant.pk]), {"paper": "a4"})
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf_tools.pages(pdf.content) == 1
    text = pdf_tools.flat(pdf.content)
    for words in ("Wren", "Errant", "Torch", "Shield, small", "A bent coin", "CC BY-SA 4.0",
                  "Ava Islam"):
        assert words in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_full_sheet_still_prints_on_one_page(player, user, paper):
    gear = [{"name": f"Item line {n} with a longish name", "quarters": 1, "quantity": 2,
             "location": "backpack", "kind": "", "uses": 3, "uses_max": 4, "quality": 2}
            for n in range(40)]
    errant = make_wren(user, gear=gear + [{"name": "Backpack", "quarters": 0,
                                           "location": "worn", "kind": "container"}],
                       keepsake="K" * 200, extra_languages=["Elvish", "Dwarvish", "Orcish"])
    pdf = player.get(reverse("characters:sheet_pdf", args=[errant.pk]), {"paper": paper})
    assert pdf_tools.pages(pdf.content) == 1
    assert "Item line 39" in pdf_tools.flat(pdf.content)


def test_duplicate_and_compare(player, user):
    errant = make_wren(user)
    response = player.post(reverse("characters:duplicate", args=[errant.pk]))
    copy = ErrantCharacter.objects.exclude(pk=errant.pk).get()
    assert (copy.name, copy.gear, copy.dice) == ("Wren (copy)", errant.gear, errant.dice)
    body = player.get(response.url).content.decode()
    assert len(re.findall(r'data-stat="spd"[^>]*>12<', body)) == 2


def test_the_guide_reads_the_sheet_but_does_not_edit_it(client, user):
    campaign = CampaignFactory(system=KEY)
    MembershipFactory(campaign=campaign, user=user)
    errant = make_wren(user)
    Character.objects.filter(pk=errant.pk).update(campaign=campaign)
    client.force_login(campaign.owner)
    body = client.get(errant.get_absolute_url()).content.decode()
    assert stats_of(body)["spd"] == "12" and 'aria-label="Place of Torch"' not in body
    assert client.get(reverse("characters:print", args=[errant.pk])).status_code == 200
    assert client.get(reverse("characters:edit", args=[errant.pk])).status_code == 404
    move = client.post(reverse("characters:errant_item_move", args=[errant.pk]),
                       {"index": torch_index(errant), "name": "Torch", "location": "hand"})
    assert move.status_code == 404
    used = client.post(reverse("characters:errant_item_use", args=[errant.pk]),
                       {"index": torch_index(errant), "name": "Torch", "action": "use"})
    assert used.status_code == 404
    assert ErrantCharacter.objects.get(pk=errant.pk).gear == errant.gear


def stats_of(body: str) -> dict[str, str]:
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', body))


OWN_PAGES = [("characters:detail", "get"), ("characters:edit", "get"),
             ("characters:edit", "post"), ("characters:preview", "post"),
             ("characters:print", "get"), ("characters:sheet_pdf", "get"),
             ("characters:export", "get"), ("characters:duplicate", "post"),
             ("characters:delete", "get"), ("characters:delete", "post"),
             ("characters:errant_item_move", "post"), ("characters:errant_item_use", "post")]


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_anonymous_users_go_to_the_login(client, user, name, method):
    errant = make_wren(user)
    response = getattr(client, method)(reverse(name, args=[errant.pk]))
    assert response.status_code == 302 and "/login/" in response.url


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_another_player_finds_nothing(client, user, name, method):
    errant = make_wren(user)
    client.force_login(UserFactory())
    data = {**posted(dice_phys="1 1 1 1"), "index": "0", "name": "Backpack",
            "location": "hand"}
    response = getattr(client, method)(reverse(name, args=[errant.pk]), data)
    assert response.status_code == 404
    stored = ErrantCharacter.objects.get(pk=errant.pk)
    assert (stored.dice[0], stored.gear) == ([3, 4, 2, 4], errant.gear)


@pytest.mark.parametrize(("name", "method"), OWN_PAGES)
def test_the_owner_is_served(player, user, name, method):
    errant = make_wren(user)
    data = {**posted(), "index": "0", "name": "Backpack", "location": "worn"}
    response = getattr(player, method)(reverse(name, args=[errant.pk]), data)
    assert response.status_code in (200, 302)


def test_another_systems_character_has_no_item_moves(player, user):
    other = CharacterFactory(owner=user)
    response = player.post(reverse("characters:errant_item_move", args=[other.pk]),
                           {"index": "0", "name": "x", "location": "hand"})
    assert response.status_code == 404


HOSTILE = ["", "\x00", "7" * 400, "-1e9", "<script>alert(1)</script>", "' OR 1=1 --",
           "NaN", "٣", "1.5", "🙂" * 50]


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("field", ["dice_phys", "method", "swap", "guide_phys", "guide_note",
                                   "ancestry", "age", "archetype", "kit_choice", "alignment",
                                   "renown_raises", "extra_languages", "hp_current",
                                   "exhaustion", "item_rows", "item_0_name", "item_0_size",
                                   "item_0_location", "item_0_quantity", "item_0_uses_max",
                                   "item_0_magic", "item_0_quality", "proficiency_fitness",
                                   "name"])
def test_hostile_input_is_refused_or_kept_never_a_500(player, user, field, value):
    errant = make_wren(user)
    for url in (reverse("characters:create"), reverse("characters:preview"),
                reverse("characters:edit", args=[errant.pk]),
                reverse("characters:preview", args=[errant.pk])):
        response = player.post(url, posted(**{field: value}), HTTP_HX_REQUEST="true")
        assert response.status_code in (200, 204), (url, response.status_code)
        assert "<script>alert(1)</script>" not in response.content.decode()
    for character in ErrantCharacter.objects.all():
        character.full_clean()


def test_an_errant_built_for_an_errant_campaign_joins_it(player, user):
    campaign = CampaignFactory(system=KEY)
    MembershipFactory(campaign=campaign, user=user)
    url = f"{reverse('characters:create')}?campaign={campaign.pk}"
    body = player.get(url).content.decode()
    assert 'name="dice_phys"' in body and 'id="system-choice"' not in body
    response = player.post(reverse("characters:create"),
                           {**posted(), "campaign": campaign.pk, "system": "eldritch-gambit"})
    assert response.status_code == 302
    errant = ErrantCharacter.objects.get()
    assert errant.campaign == campaign and errant.system == KEY


def test_an_errant_campaigns_pages_show_her(client, user):
    """The generic campaign pages serve an Errant campaign: its Guide reads the party, the
    session list, the stash, the party's printed sheets and her campaign page, and her
    XP (money wasted, written by the Guide) raises her Renown."""
    campaign = CampaignFactory(system=KEY)
    MembershipFactory(campaign=campaign, user=user)
    errant = make_wren(user)
    Character.objects.filter(pk=errant.pk).update(campaign=campaign)
    client.force_login(campaign.owner)
    for name in ("campaigns:detail", "campaigns:sessions", "campaigns:stash",
                 "campaigns:party_print", "campaigns:members"):
        response = client.get(reverse(name, args=[campaign.pk]))
        assert response.status_code == 200, name
        assert "Guide" in response.content.decode() or name != "campaigns:detail"
    party = client.get(reverse("campaigns:party_print", args=[campaign.pk])).content.decode()
    assert 'data-field="spd">12<' in party and "Wren" in party
    page = client.get(reverse("campaigns:character", args=[campaign.pk, errant.pk]))
    assert page.status_code == 200
    client.post(reverse("campaigns:xp_adjust", args=[campaign.pk, errant.pk]),
                {"xp_change": "2000", "note": "A funeral (Conspicuous Consumption)",
                 "request_key": "k" * 32})
    shown = stats(client.get(errant.get_absolute_url()))
    assert (shown["xp"], shown["renown"]) == ("2000", "2")


def test_the_page_draws_the_slot_grid(player, user):
    """13 Item Slots, 6 filled and 1 by Exhaustion: 7 boxes of 13 shaded, the first dark."""
    errant = make_wren(user, exhaustion=1)
    body = player.get(errant.get_absolute_url()).content.decode()
    grid = body.split("data-slot-grid>", 1)[1].split("</div>", 1)[0]
    assert grid.count('class="slot"') == 13
    assert grid.count("q q-x") == 4 and grid.count("q q-f") == 24
    assert 'aria-label="Item Slots: 7 of 13 filled, 1 by Exhaustion"' in body


def test_a_magic_weapon_and_shield_show_their_true_strikes_and_deflects(player, user):
    """PR §Magic Weapons & Armour: a +N weapon has N True Strikes, +N armour N Deflects."""
    gear = [{**line, "magic": 2} if line["name"] == "Medium weapon" else
            {**line, "magic": 1} if line["name"] == "Shield, small" else line
            for line in make_wren(user).gear]
    response = player.post(reverse("characters:create"), posted(gear=gear))
    errant = ErrantCharacter.objects.latest("pk")
    assert response.status_code == 302 and errant.gear == gear
    page = player.get(errant.get_absolute_url()).content.decode()
    assert "+2: <span data-true-strikes>2</span> True Strikes" in page
    assert "+1: <span data-deflects>1</span> Deflects" in page
    edit = player.get(reverse("characters:edit", args=[errant.pk])).content.decode()
    assert 'aria-label="Magic bonus: Medium weapon"' in edit


def use(player, errant, name, action):
    index = next(i for i, line in enumerate(errant.gear) if line["name"] == name)
    response = player.post(reverse("characters:errant_item_use", args=[errant.pk]),
                           {"index": index, "name": name, "action": action},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    errant.refresh_from_db()
    return response.content.decode()


def line(errant, name):
    return next((item for item in errant.gear if item["name"] == name), None)


def test_using_a_torch_and_restoring_it_with_supply(player, user):
    """PR §Burn, §Supply: the torch (1/2 slot, Burn 2) burns down, then 2 Supply restore it;
    the rations (1/4 slot) take 1; with the Supply gone, the next is used up and removed."""
    errant = make_wren(user)
    assert "Torch used: Depletion 1 of 2." in use(player, errant, "Torch", "use")
    use(player, errant, "Torch", "use")
    assert line(errant, "Torch")["uses"] == 0
    assert "Torch is depleted: restore it with Supply first." in use(player, errant, "Torch",
                                                                     "use")
    body = use(player, errant, "Torch", "restore")
    assert "Torch restored with 2 Supply (2 left)." in body
    assert (line(errant, "Torch")["uses"], line(errant, "Supply")["quantity"]) == (2, 2)
    assert 'data-stat="supply"' in body and stats_of(body)["supply"] == "2"
    assert "is not depleted (Depletion 2 of 2): nothing to restore." in use(
        player, errant, "Torch", "restore")
    use(player, errant, "Rations", "use")
    assert "Rations restored with 1 Supply (1 left)." in use(player, errant, "Rations",
                                                             "restore")
    use(player, errant, "Torch", "use")
    use(player, errant, "Torch", "use")
    body = use(player, errant, "Torch", "restore")
    assert "Torch is used up and removed: it needs 2 Supply, and there is 1." in body
    assert line(errant, "Torch") is None and line(errant, "Supply")["quantity"] == 1
    use(player, errant, "Rations", "use")
    use(player, errant, "Rations", "restore")
    assert line(errant, "Supply") is None  # the last Supply spent: its line is gone


@pytest.mark.parametrize(("name", "action", "message"), [
    ("Bedroll", "use", "Bedroll has no Depletion to use or restore."),
    ("Torch", "burn", "Choose to use the item or to restore it"),
    ("Torch", "", "Choose to use the item or to restore it"),
])
def test_a_bad_use_is_said_and_changes_nothing(player, user, name, action, message):
    errant = make_wren(user)
    before = list(errant.gear)
    assert message in use(player, errant, name, action)
    assert errant.gear == before


def test_a_stale_use_is_refused(player, user):
    errant = make_wren(user)
    response = player.post(reverse("characters:errant_item_use", args=[errant.pk]),
                           {"index": "0", "name": "Torch", "action": "use"})
    assert response.status_code == 302
    assert ErrantCharacter.objects.get(pk=errant.pk).gear == errant.gear


def odds(client, errant, **query):
    response = client.get(reverse("characters:errant_check_odds", args=[errant.pk]),
                          {"attribute": "phys", "dv": "10", **query}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("query", "chance", "dv"), [
    # Wren: phys 13, skill 13, Encumbrance 1 (0 backpack off), no Jettons (a Violent).
    ({}, "3/20", "DV 10 = base 10"),
    ({"physical": "on"}, "1/10", "DV 11 = base 10 + 1 Encumbrance"),
    ({"physical": "on", "backpack_off": "on"}, "3/20", "DV 10 = base 10"),
    ({"attribute": "mind", "dv": "4"}, "1/5", "DV 4 = base 4"),
    ({"dv": "13"}, "0/1", "DV 13 = base 13"),
    ({"dv": "-1"}, "1/1", "DV -1 = base -1"),
    ({"dv": "0"}, "13/20", "DV 0 = base 0"),
    ({"dv": "6", "expertise": "on", "saving_throw": "on"}, "7/20", "DV 6 = base 6"),
    ({"dv": "6", "expertise": "on"}, "9/20", "DV 4 = base 6 - 2 expertise"),
])
def test_a_checks_exact_odds_from_the_sheet(player, user, query, chance, dv):
    """CR §Checks: above the DV and at most the Attribute; PR §Encumbrance on physical
    Checks; ER §The Deviant: expertise -2, but not on Saving Throws."""
    body = odds(player, make_wren(user), **query)
    assert f"<strong data-chance>{chance}</strong>" in body and dv in body


def test_a_deviants_jettons_lower_the_dv_up_to_those_owned(player, user):
    errant = make_wren(user, archetype="deviant", kit_choice="burglars_tools")
    assert "DV 7 = base 10 - 3 Jettons" in odds(player, errant, jettons="3")
    assert "Jettons spent: at most the 15 owned." in odds(player, errant, jettons="16")


@pytest.mark.parametrize("query", [{"dv": "x"}, {"dv": "99"}, {"attribute": "luck"},
                                   {"jettons": "-1"}, {"dv": "9" * 400}, {"dv": ""}])
def test_a_bad_check_is_said_beside_its_field(player, user, query):
    body = odds(player, make_wren(user), **query)
    assert "data-chance" not in body and "invalid-feedback" in body


def test_who_may_ask_a_checks_odds(client, user):
    campaign = CampaignFactory(system=KEY)
    errant = make_wren(user)
    Character.objects.filter(pk=errant.pk).update(campaign=campaign)
    url = reverse("characters:errant_check_odds", args=[errant.pk])
    assert client.get(url).status_code == 302  # anonymous: to the login
    client.force_login(UserFactory())
    assert client.get(url, {"attribute": "phys", "dv": "3"}).status_code == 404
    client.force_login(campaign.owner)  # the Guide reads the sheet, and its odds
    assert "data-chance" in odds(client, errant)
    assert client.post(url).status_code == 405


def test_a_double_click_on_use_uses_once(player, user):
    """The page sends the Depletion it showed: the second click of a double click finds it
    changed and is refused (and so is a Restore clicked twice)."""
    errant = make_wren(user)
    url = reverse("characters:errant_item_use", args=[errant.pk])
    click = {"index": torch_index(errant), "name": "Torch", "action": "use", "seen": "2"}
    player.post(url, click, HTTP_HX_REQUEST="true")
    body = player.post(url, click, HTTP_HX_REQUEST="true").content.decode()
    assert "Torch&#x27;s Depletion is 1 now, not 2" in body
    errant.refresh_from_db()
    assert line(errant, "Torch")["uses"] == 1
    page = player.get(errant.get_absolute_url()).content.decode()
    assert 'name="seen" value="1"' in page
