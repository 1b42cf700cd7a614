"""The printed sheet's AF box: 10 + AGI without the shield ("the +Shield box is for
those wielding one", Characters > Defenses > Agility Factor)."""

import pytest

from rules.engine.eldritch_gambit import (
    Attributes,
    CharacterBuild,
    GearPiece,
    Kind,
    ShieldStats,
    compute_sheet,
)

SHIELD = GearPiece("Shield, medium", Kind.SHIELD, equipped=True, shield=ShieldStats(2, 3))


@pytest.mark.parametrize(("agi", "gear", "statuses", "base", "af"), [
    (1, (), frozenset(), 11, 11),  # Asphodel
    (3, (SHIELD,), frozenset(), 13, 15),  # the shield goes in the +Shield box
    (2, (SHIELD,), frozenset({"fallen"}), 12, 0),  # Fallen: AF 0 in play, the box stays
    (-1, (), frozenset(), 9, 9),
])
def test_af_base_is_ten_plus_agility_alone(agi, gear, statuses, base, af):
    sheet = compute_sheet(CharacterBuild(attributes=Attributes(agi=agi), gear=gear,
                                         statuses=statuses))

    assert sheet.value("af_base") == base
    assert sheet.value("af") == af
    assert sheet["af_base"].explanation.startswith(f"AF {base} = 10 + AGI {agi}")
