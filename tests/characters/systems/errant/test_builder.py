"""The Errant builder: the live preview's numbers are the engine's, each rule problem is
said beside its field with nothing typed lost, the dice helpers show their dice and stay
legal, the kit comes in one step, and an item's place is one select the numbers follow."""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from characters.models import XpEntry
from characters.systems.errant.builds import build_from
from characters.systems.errant.demo import wren
from characters.systems.errant.forms import ErrantForm
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import DERIVED_NAMES, compute_sheet

from .helpers import make_wren, posted, stats

pytestmark = pytest.mark.django_db
NEW = f"{reverse('characters:create')}?system=errant"


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def errors(response, field) -> str:
    match = re.search(rf'id="errors-{field}"[^>]*>(.*?)</div>\s*(?:</div>|<)',
                      response.content.decode(), re.S)
    return match.group(1) if match else ""


def row_of(data, name) -> int:
    return next(int(key.split("_")[1]) for key, value in data.items()
                if key.endswith("_name") and value == name)


def test_the_preview_numbers_are_the_engines(player):
    response = player.post(reverse("characters:preview"), posted())
    shown = stats(response)
    sheet = compute_sheet(build_from(wren()))
    assert {name: shown[name] for name in DERIVED_NAMES} == {
        name: sheet[name].display for name in DERIVED_NAMES}
    # Wren with the kit and a small shield: 6 slots of 13 (Encumbrance 1, SPD 13 - 1);
    # backpack off, the medium weapon and the shield in hand: 2 slots, Encumbrance 0.
    assert [shown[n] for n in ("slots_filled", "encumbrance", "spd", "movement_dice")] == \
        ["6", "1", "12", "3"]
    assert [shown[n] for n in ("slots_filled_no_backpack", "encumbrance_no_backpack",
                               "spd_no_backpack")] == ["2", "0", "13"]
    body = response.content.decode()
    assert "SPD 12 = skill 13 - Encumbrance 1" in body
    assert "Encumbrance 1 = slots filled 6 (+1 at 3¼, 6½, 9¾, 13 slots filled" in body


def test_moving_the_torch_is_one_select_and_the_numbers_follow(player):
    data = posted()
    torch = row_of(data, "Torch")
    assert data[f"item_{torch}_location"] == "backpack"
    data[f"item_{torch}_location"] = "handy"
    shown = stats(player.post(reverse("characters:preview"), data))
    assert (shown["slots_filled"], shown["slots_filled_no_backpack"]) == ("6", "2½")
    # phys 7: thresholds 1¾, 3½, 5¼, 7; backpack off 3 -> 3½ slots crosses the second.
    heavy = posted(dice_phys="1 2 2 2", kit_choice="heavy_weapon",
                   gear=[line for line in wren()["gear"] if line["name"] != "Shield, small"]
                   + [{"name": "Heavy weapon", "quarters": 8, "quantity": 1,
                       "location": "handy", "kind": "weapon"}])
    before = stats(player.post(reverse("characters:preview"), heavy))
    heavy[f"item_{row_of(heavy, 'Torch')}_location"] = "handy"
    after = stats(player.post(reverse("characters:preview"), heavy))
    assert (before["encumbrance_no_backpack"], after["encumbrance_no_backpack"]) == ("1", "2")
    assert (before["spd_no_backpack"], after["spd_no_backpack"]) == ("12", "11")
    assert before["encumbrance"] == after["encumbrance"] == "4"  # 7 of 7 slots, on or off


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"dice_phys": "3 4 5 1"}, "dice_phys", "4 D4 faces from 1 to 4, like 3 4 2 1."),
    ({"dice_mind": "2 2 2"}, "dice_mind", "4 D4 faces from 1 to 4"),
    ({"dice_pres": ""}, "dice_pres", "Roll 4D4 for pres, or type the four dice"),
    ({"swap": "phys-phys"}, "swap", "Choose one of the listed Swap values."),
    ({"method": "guide", "guide_phys": "12", "guide_skill": "9", "guide_mind": "8",
      "guide_pres": "10"}, "guide_note", "Attributes set by the Guide need a note of why."),
    ({"method": "guide", "guide_note": "inherited"}, "guide_phys",
     "Enter phys as the Guide set it (1 to 40)."),
    ({"kit_choice": "grimoires"}, "kit_choice", "The Violent starts with one of"),
    ({"age": "20"}, "age", "Age 20 is below the rolled minimum starting age 31."),
    ({"item_0_location": "hand", "item_2_location": "hand"}, "item_rows",
     "slots in hand; there are 2 hand"),
    ({"item_3_size": "5"}, "item_3_size", "Choose one of the listed Size of item 4 values."),
    ({"item_3_quantity": "0"}, "item_3_quantity", "from 1 to 999"),
    ({"item_3_uses": "3"}, "item_3_uses", "Torch: Depletion 3 is above its full 2."),
    ({"item_rows": "99"}, "item_rows", "Item lines is a whole number from 0 to 40."),
    ({"exhaustion": "13"}, None, "Exhaustion 13 has reached phys 13: the Errant dies."),
])
def test_each_problem_is_said_beside_its_field(player, changes, field, message):
    response = player.post(reverse("characters:preview"), posted(**changes))
    assert response.status_code == 200
    if field:
        assert message in errors(response, field), response.content.decode()[:200]
    else:
        assert message in response.content.decode()


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"renown_2_company": "phys", "renown_2_player": "phys"}, "renown_raises",
     "Renown 2: the player's Attribute must differ from the Company's (phys)."),
    ({"renown_2_company": "phys"}, "renown_2_player",
     "Choose your Attribute raised at Renown 2."),
    ({"renown_2_player": "mind"}, "renown_2_company",
     "Choose the Company's Attribute raised at Renown 2."),
    ({"renown_3_company": "phys", "renown_3_player": "mind"}, "renown_3_company",
     "Choose Renown 2's raises first."),
    ({"renown_2_company": "luck", "renown_2_player": "mind"}, "renown_2_company",
     "Choose one of the listed Renown 2, the Company's values."),
])
def test_the_renown_raises_are_two_different_attributes(player, user, changes, field,
                                                        message):
    """ER §Renown: 6,000 XP is Renown 3, two raises; each pair beside its selects."""
    errant = make_wren(user)
    XpEntry.objects.create(character=errant, kind=XpEntry.Kind.ADJUSTMENT, xp_change=6_000)
    response = player.post(reverse("characters:preview", args=[errant.pk]), posted(**changes))
    assert escape(message) in errors(response, field), response.content.decode()[:300]


def test_renown_raises_raise_the_attributes_and_are_saved(player, user):
    errant = make_wren(user)
    XpEntry.objects.create(character=errant, kind=XpEntry.Kind.ADJUSTMENT, xp_change=6_000)
    page = player.get(reverse("characters:edit", args=[errant.pk])).content.decode()
    assert 'name="renown_3_player"' in page and 'name="renown_4_player"' not in page
    data = posted(renown_2_company="phys", renown_2_player="pres", renown_3_company="pres",
                  renown_3_player="mind")
    shown = stats(player.post(reverse("characters:preview", args=[errant.pk]), data))
    assert [shown[k] for k in ("phys", "skill", "mind", "pres")] == ["14", "13", "9", "11"]
    player.post(reverse("characters:edit", args=[errant.pk]), data)
    errant.refresh_from_db()
    assert errant.renown_raises == [["phys", "pres"], ["pres", "mind"]]
    page = player.get(reverse("characters:edit", args=[errant.pk])).content.decode()
    assert '<option value="mind" selected>' in page


def test_a_new_errant_shows_no_numbers_before_the_dice(player):
    body = player.get(NEW).content.decode()
    assert "data-no-dice" in body and 'data-stat="phys"' not in body
    assert "Roll 4D4 for each Attribute" in body and "Take the starting kit" in body


def test_rolling_shows_every_die_and_clears_the_swap(player):
    response = player.post(NEW, {**posted(swap="phys-mind"), "action": "roll_attributes",
                                 "seed": "7"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="builder")
    body = response.content.decode()
    assert body.count('class="die"') == 16 and 'data-roll="Physique (phys), 4D4"' in body
    shown = stats(response)
    dice = re.findall(r'name="dice_(\w+)" value="([1-4 ]+)"', body)
    assert len(dice) == 4
    for key, faces in dice:
        assert shown[key] == str(sum(map(int, faces.split())))
    assert '<option value="" selected>No swap</option>' in body
    # What was rolled is legal as it stands: a save takes it.
    faces = {f"dice_{key}": value for key, value in dice}
    assert ErrantForm(posted(swap="", **faces)).is_valid()


@pytest.mark.parametrize(("action", "field"), [("roll_keepsake", "keepsake"),
                                               ("roll_profession", "failed_profession"),
                                               ("roll_age", "minimum_age")])
def test_each_table_roll_fills_its_field(player, action, field):
    response = player.post(NEW, {**posted(**{field: "", "age": ""}), "action": action,
                                 "seed": "3"})
    body = response.content.decode()
    value = re.search(rf'name="{field}"[^>]*value="([^"]*)"', body)
    assert value and value.group(1), body[:300]
    assert "Dice rolled" in body


def test_the_kit_comes_in_one_step(player):
    data = posted(gear=[], archetype="occult", kit_choice="grimoires")
    body = player.post(NEW, {**data, "action": "take_kit"}).content.decode()
    assert "the common kit with 4 Supply, and 4 Grimoires: 11 lines" in body
    assert 'value="Grimoire"' in body and 'value="Torch"' in body
    # Not the Archetype's choice: the first of its own, said so.
    body = player.post(NEW, {**posted(gear=[], kit_choice="relic"),
                             "action": "take_kit"}).content.decode()
    assert "a heavy weapon taken" in body and 'value="Heavy weapon"' in body


def test_adding_a_line_keeps_what_is_typed(player):
    body = player.post(NEW, {**posted(name="Wren the Bold"), "action": "add_item"}
                       ).content.decode()
    assert 'name="item_11_name"' in body and 'value="Wren the Bold"' in body


def test_create_then_update(player, user):
    response = player.post(NEW, posted())
    errant = ErrantCharacter.objects.get()
    assert response.status_code == 302 and response.url == errant.get_absolute_url()
    assert (errant.owner, errant.system, errant.swap, errant.dice[0]) == \
        (user, "errant", ("skill", "mind"), [3, 4, 2, 4])
    assert errant.gear == wren()["gear"]
    data = posted(name="Wren", exhaustion="2", swap="")
    data[f"item_{row_of(data, 'Torch')}_location"] = "handy"
    data[f"item_{row_of(data, 'Rope, 50' + chr(39))}_name"] = ""  # cleared: removed
    player.post(reverse("characters:edit", args=[errant.pk]), data)
    errant.refresh_from_db()
    assert (errant.exhaustion, errant.swap) == (2, None)
    assert [line["location"] for line in errant.gear if line["name"] == "Torch"] == ["handy"]
    assert len(errant.gear) == len(wren()["gear"]) - 1
    page = player.get(reverse("characters:edit", args=[errant.pk])).content.decode()
    assert 'value="3 4 2 4"' in page and "Torch" in page


def test_a_refused_save_keeps_everything_typed(player):
    response = player.post(NEW, posted(name="Kept name", dice_phys="9 9 9 9",
                                       keepsake="A bent coin"))
    body = response.content.decode()
    assert response.status_code == 200 and not ErrantCharacter.objects.exists()
    assert 'value="Kept name"' in body and 'value="9 9 9 9"' in body and "A bent coin" in body
    assert "Nothing was saved" in body


def test_the_update_keeps_what_the_builder_does_not_edit(player, user):
    errant = make_wren(user)
    ErrantCharacter.objects.filter(pk=errant.pk).update(times_at_zero_hp=2)
    player.post(reverse("characters:edit", args=[errant.pk]), posted())
    errant.refresh_from_db()
    assert errant.times_at_zero_hp == 2


def test_a_deviants_proficiencies(player, user):
    """ER §The Deviant: 2 points at Renown 1; Fitness mastery is Fleet-footed (an
    Encumbrance of 4 or less does not reduce SPD)."""
    deviant = posted(archetype="deviant", kit_choice="burglars_tools",
                     proficiency_fitness="2")
    shown = stats(player.post(reverse("characters:preview"), deviant))
    assert (shown["spd"], shown["proficiency_points"], shown["jettons"]) == ("13", "2", "15")
    over = player.post(reverse("characters:preview"), {**deviant, "proficiency_stealth": "1"})
    assert "3 Proficiency points spent, 2 owned at Renown 1." in errors(over,
                                                                      "proficiency_points")
    bad = player.post(reverse("characters:preview"), {**deviant, "proficiency_lore": "3"})
    assert "Choose one of the listed Lore values." in errors(bad, "proficiency_lore")
    player.post(reverse("characters:create"), deviant)
    errant = ErrantCharacter.objects.get()
    assert errant.proficiencies == [["fitness", 2]]
    page = player.get(reverse("characters:edit", args=[errant.pk])).content.decode()
    assert '<option value="2" selected>Mastery (2 points)</option>' in page


def test_a_deviant_with_lore_mastery_shows_sorcery_depletion(player, user):
    """ER §The Deviant, Lore mastery: "your Sorcery Depletion is 1" (AMB-E-LORE), shown in
    the builder's preview, on the sheet and on the printed sheet; expertise shows none."""
    deviant = posted(archetype="deviant", kit_choice="burglars_tools", proficiency_lore="2")
    shown = stats(player.post(reverse("characters:preview"), deviant))
    assert shown["sorcery_depletion"] == "1" and shown["jettons"] == "15"
    expert = posted(archetype="deviant", kit_choice="burglars_tools", proficiency_lore="1",
                    proficiency_stealth="1")
    assert "sorcery_depletion" not in stats(player.post(reverse("characters:preview"),
                                                        expert))
    errant = make_wren(user, archetype="deviant", kit_choice="burglars_tools",
                       proficiencies=[["lore", 2]])
    assert stats(player.get(errant.get_absolute_url()))["sorcery_depletion"] == "1"
    printed = player.get(reverse("characters:print", args=[errant.pk])).content.decode()
    assert 'Sorcery Depletion</th><td data-field="sorcery_depletion">1<' in printed


def test_a_deviants_pack_rat_beast_master_and_assassin_on_the_pages(player, user):
    """ER §The Deviant masteries shown where they apply: the builder's preview, the sheet
    and the printed sheet (AMB-E-PACKRAT, AMB-E-BEAST; Assassin's three sneak dice)."""
    deviant = posted(archetype="deviant", kit_choice="burglars_tools",
                     proficiency_survival="2")
    shown = stats(player.post(reverse("characters:preview"), deviant))
    assert shown["companion_hp"] == shown["skill"] == shown["companion_spd"]
    assert shown["companion_damage_die"] == "D6" and shown["sneak_attack_dice"] == "2"
    assert "retrieve" not in shown
    errant = make_wren(user, archetype="deviant", kit_choice="burglars_tools",
                       proficiencies=[["sleight_of_hand", 2], ["stealth", 1]])
    page = stats(player.get(errant.get_absolute_url()))
    assert page["retrieve"] == "free action" and page["sneak_attack_dice"] == "2"
    assert "companion_hp" not in page
    assassin = make_wren(user, name="Moth", archetype="deviant",
                         kit_choice="burglars_tools", proficiencies=[["stealth", 2]])
    printed = player.get(reverse("characters:print", args=[assassin.pk])).content.decode()
    assert 'Sneak attack dice</th><td data-field="sneak_attack_dice">3<' in printed
