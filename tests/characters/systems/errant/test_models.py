"""The ErrantCharacter table: what the database refuses (two swaps' worth, the Guide's
scores without a note, an unknown Ancestry...), the engine glue (builds.py), and the demo."""

import pytest
from django.db import IntegrityError, transaction

from characters.models import XpEntry
from characters.systems.errant.builds import (
    build_from,
    item_from_line,
    kit_lines,
    line_from_item,
    sheet_for,
    values_of,
)
from characters.systems.errant.demo import seed_demo, wren
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import compute_sheet
from rules.engine.errant.archetypes import starting_kit
from rules.engine.errant.sheet import items_from_kit

from .helpers import make_wren

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("changes", [
    {"swap_first": "phys", "swap_second": "phys"},
    {"swap_first": "phys", "swap_second": ""},
    {"swap_first": "luck", "swap_second": "phys"},
    {"method": "dreamt"},
    {"method": "guide", "guide_phys": 10, "guide_skill": 10, "guide_mind": 10,
     "guide_pres": 10, "guide_note": ""},
    {"method": "guide", "guide_phys": 41, "guide_skill": 10, "guide_mind": 10,
     "guide_pres": 10, "guide_note": "inherited"},
    {"method": "guide", "guide_note": "inherited"},
    {"ancestry": "giant"}, {"archetype": "bard"}, {"alignment": "L4"},
    {"covenant_alignment": "N"}, {"exhaustion": -1}, {"hp_current": 100},
    {"age": -3}, {"favour_deeds": 100},
])
def test_the_database_refuses_what_the_rules_forbid(user, changes):
    with pytest.raises(IntegrityError), transaction.atomic():
        make_wren(user, **changes)


def test_the_guide_mode_is_stored_with_its_note(user):
    errant = make_wren(user, method="guide", guide_phys=12, guide_skill=9, guide_mind=7,
                       guide_pres=14, guide_note="Inherited from her mother (IT §Death)")
    sheet = sheet_for(errant)
    assert [sheet.value(k) for k in ("phys", "skill", "mind", "pres")] == [12, 9, 7, 14]
    assert sheet["phys"].explanation == "phys 12 = set by the Guide 12"


def test_the_stored_build_is_the_engines_build(user):
    errant = make_wren(user)
    assert sheet_for(errant).derived() == compute_sheet(build_from(wren())).derived()
    sheet = sheet_for(errant)
    # 3+4+2+4 = 13 phys; skill 8 and mind 13 swapped (ER §Determine Attributes).
    assert [sheet.value(k) for k in ("phys", "skill", "mind", "pres")] == [13, 13, 8, 9]
    assert sheet["skill"].explanation == "skill 13 = rolled as mind 13"
    assert not sheet.errors


def test_renown_comes_from_the_xp_ledger(user):
    errant = make_wren(user)
    XpEntry.objects.create(character=errant, kind=XpEntry.Kind.ADJUSTMENT, xp_change=6_000)
    sheet = sheet_for(ErrantCharacter.objects.get(pk=errant.pk))
    assert (sheet.value("renown"), sheet.value("xp_next")) == (3, 14_000)
    assert {issue.code for issue in sheet.warnings} >= {"renown_raises_pending"}


def test_hp_now_is_stored_and_never_above_phys(user):
    sheet = sheet_for(make_wren(user, hp_current=5))
    assert sheet.value("hp_current") == 5 and sheet["hp_current"].explanation == \
        "HP now 5 = HP 13 - lost 8"
    assert {i.code for i in sheet_for(make_wren(user, hp_current=20)).errors} == {"hp_over_max"}


def test_a_kit_line_round_trips_in_quarter_slots():
    for item in items_from_kit(starting_kit("occult", "grimoires")):
        assert item_from_line(line_from_item(item)) == item
    torch = next(line for line in kit_lines("violent", "heavy_weapon") if line["name"] == "Torch")
    assert (torch["quarters"], torch["location"], torch["uses"], torch["kind"]) == \
        (2, "backpack", 2, "light")


def test_values_of_reads_every_build_column(user):
    errant = make_wren(user)
    assert values_of(errant)["gear"] == wren()["gear"]
    assert values_of(errant)["swap_first"] == "skill"


def test_the_demo_seeds_wren_once(db):
    first = seed_demo()
    seed_demo()
    assert first["users"][0][0] == "player2"
    wren_row = ErrantCharacter.objects.get(owner__username="player2")
    assert wren_row.name == "Wren" and ErrantCharacter.objects.count() == 1
    assert not sheet_for(wren_row).errors


def test_the_admin_lists_and_opens_an_errant(client, user):
    from django.contrib.auth import get_user_model
    admin = get_user_model().objects.create_superuser("boss", "b@example.com", "pw-x-12345")
    errant = make_wren(user)
    client.force_login(admin)
    assert client.get("/admin/errant/errantcharacter/").status_code == 200
    assert client.get(f"/admin/errant/errantcharacter/{errant.pk}/change/").status_code == 200


def test_the_admin_lists_and_opens_errant_items_and_trades(client, user):
    from django.contrib.auth import get_user_model

    from characters.models import CoinEntry
    from characters.systems.errant import market
    from characters.systems.errant.models import ErrantItem
    admin = get_user_model().objects.create_superuser("boss", "b@example.com", "pw-x-12345")
    errant = make_wren(user)
    CoinEntry.objects.create(character=errant, kind=CoinEntry.Kind.ADJUSTMENT, amount_cp=100)
    trade = market.buy(character=errant, key="Light|Lantern", by=user, tier=3)
    item = ErrantItem.objects.filter(item__character=errant).first()
    client.force_login(admin)
    trades = client.get("/admin/errant/erranttrade/")
    assert trades.status_code == 200 and "Lantern" in trades.content.decode()
    assert client.get(f"/admin/errant/erranttrade/{trade.pk}/change/").status_code == 200
    listing = client.get("/admin/errant/errantitem/?q=" + item.item.name)
    assert listing.status_code == 200 and item.item.name in listing.content.decode()
    assert client.get(f"/admin/errant/errantitem/{item.pk}/change/").status_code == 200
