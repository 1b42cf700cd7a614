"""The Guide's declaration, one action a line (campaigns/systems/encounters/
declaring_text.py), read into the engine's items."""

import pytest

from campaigns.systems.encounters.declaring_text import items_from_text
from rules.engine.encounters import EncounterError, Settings, combatant
from rules.engine.encounters.declaring import declare


def test_every_kind_of_line():
    items = items_from_text("haste\nrun 25\nmajor physical strike\n\ndefend\n"
                            "minor draw a dagger\nride 60 30\nstand\ndismount\nleap\n"
                            "shout a warning")
    assert items == [
        {"kind": "haste"}, {"kind": "run", "yards": "25"},
        {"kind": "major", "skill": "physical", "label": "strike"},
        {"kind": "defend", "label": ""}, {"kind": "minor", "label": "draw a dagger"},
        {"kind": "ride", "yards": "60", "mount_pace": "30"}, {"kind": "stand"},
        {"kind": "mount"}, {"kind": "leap"}, {"kind": "major", "label": "shout a warning"}]


def test_a_long_action_and_an_engrossing_one():
    [item] = items_from_text("major physical pick the lock x3 engrossing")
    assert item == {"kind": "major", "skill": "physical", "label": "pick the lock",
                    "rounds": "3", "engrossing": True}
    who = combatant("a", "A", "party", quickness=2)
    slots = declare(who, "maneuver", [item], Settings()).slots
    assert (slots[0].rounds, slots[0].engrossing) == (3, True)


@pytest.mark.parametrize(("text", "words"), [
    ("", "at least one action"), ("run", "needs the yards"),
    ("ride 40", "mount's pace"), ("x" * 2001, "At most 2000"),
    ("strike\n" * 31, "At most 30 lines")])
def test_what_cannot_be_read_is_refused_on_the_items_field(text, words):
    with pytest.raises(EncounterError) as refused:
        items_from_text(text)
    assert refused.value.field == "items" and words in refused.value.message
