"""The statuses of Characters > Defenses > Hit Points ("HP Status Effects") and Status."""

import pytest

from rules.engine.eldritch_gambit.statuses import (
    BLINDED_PENALTY,
    CHOOSABLE_STATUSES,
    STATUSES,
    normalize_status,
)

SRD_STATUSES = {
    "Staggered", "Fallen", "Dead", "Blinded", "Burning", "Confused", "Deafened", "Diseased",
    "Encumbered", "Grappled", "Incapacitated", "Poisoned", "Surprised",
}


def test_every_srd_status_is_known():
    assert {rule.name for rule in STATUSES} == SRD_STATUSES


def test_encumbered_follows_from_load_and_is_not_chosen():
    # Encumbered is "a Load over STR + END"; Incapacitated may also come from a Spell or
    # an Affliction, so a player can still mark it.
    chosen = {rule.name for rule in CHOOSABLE_STATUSES}
    assert "Encumbered" not in chosen
    assert "Incapacitated" in chosen


@pytest.mark.parametrize(
    ("name", "key"),
    [("Staggered", "staggered"), (" fallen ", "fallen"), ("SURPRISED", "surprised"),
     ("Sleepy", None), ("", None), (None, None)],
)
def test_normalize_status(name, key):
    assert normalize_status(name) == key


def test_blinded_penalty():
    # "Checks partly reliant on sight face a -4 penalty"
    assert BLINDED_PENALTY == -4


def test_encumbered_cannot_be_chosen_only_earned():
    from rules.engine.eldritch_gambit import CharacterBuild, compute_sheet

    sheet = compute_sheet(CharacterBuild(statuses=frozenset({"Encumbered"})))
    assert "encumbered" not in sheet.statuses
    assert sheet.value("encumbrance") == "none"
