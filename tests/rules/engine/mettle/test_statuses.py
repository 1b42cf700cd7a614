"""The statuses a METTLE character keeps on its sheet (EN §Taking Damage, §Status Effects;
AMB-M-STAT-1): what each does, which outlast the Scene, when Staggered ends."""

import pytest

from rules.engine.mettle import CharacterBuild, compute_sheet
from rules.engine.mettle.initiative import SETTABLE_STATUSES
from rules.engine.mettle.statuses import (
    LASTING_STATUSES,
    STATUS_EFFECTS,
    staggered_allowed,
    status_issues,
    statuses_after_scene,
)


def test_every_status_the_tracker_knows_has_its_effect():
    assert set(SETTABLE_STATUSES) <= set(STATUS_EFFECTS)
    assert set(LASTING_STATUSES) <= set(SETTABLE_STATUSES)
    assert all(effect.strip() for effect in STATUS_EFFECTS.values())


@pytest.mark.parametrize(("mettle", "allowed"), [(None, False), (5, False), (1, False),
                                                 (0, True), (-3, True)])
def test_staggered_lasts_while_mettle_is_zero_or_below(mettle, allowed):
    assert staggered_allowed(mettle) is allowed
    assert ("staggered" in statuses_after_scene({"staggered"}, mettle)) is allowed
    assert bool(status_issues({"staggered"}, mettle)) is not allowed


def test_the_scene_ends_fallen_rattled_surprised_and_incapacitated():
    held = {"fallen", "rattled", "surprised", "incapacitated", "encumbered", "staggered",
            "blinded", "afflicted", "burning", "deafened", "dead"}
    assert statuses_after_scene(held, -2) == ("afflicted", "blinded", "burning", "deafened",
                                              "staggered", "dead")
    assert statuses_after_scene(held, None) == ("afflicted", "blinded", "burning",
                                                "deafened", "dead")


def test_a_staggered_sheet_is_not_fallen_and_shows_the_effects():
    sheet = compute_sheet(CharacterBuild(mettle_current=-3,
                                         statuses=frozenset({"staggered", "blinded"})))
    assert sheet.statuses == ("blinded", "staggered")
    assert [key for key, _, _ in sheet.status_effects] == ["blinded", "staggered"]
    assert "+3 Difficulty" in {k: e for k, _, e in sheet.status_effects}["blinded"]
    assert sheet.value("check_penalty") == 3 and not sheet.errors
    fallen = compute_sheet(CharacterBuild(mettle_current=-3))
    assert fallen.statuses == ("fallen",)


def test_staggered_with_mettle_above_zero_is_a_problem_on_the_statuses_field():
    sheet = compute_sheet(CharacterBuild(mettle_current=4, statuses=frozenset({"staggered"})))
    assert [(i.code, i.field) for i in sheet.errors] == [("staggered_above_zero", "statuses")]


def test_burning_and_staggered_forbid_a_rally():
    """Scenery > Fire: Burning "cannot Rally"; EN §Taking Damage: Staggered "also cannot
    Rally"; the others do not forbid it."""
    from rules.engine.mettle.statuses import rally_refusal

    assert rally_refusal(["burning"]) == "Burning characters cannot Rally (Scenery > Fire)."
    assert "Staggered" in rally_refusal(["staggered", "afflicted"])
    assert rally_refusal(["afflicted", "blinded", "rattled"]) == ""
    assert rally_refusal([]) == ""


def test_max_mettle_an_affliction_took_forbids_a_rally_until_it_recovers():
    """Scenery > Affliction's summary: "lose Rally if any damage" (AMB-M-AFF-8): from the
    first max Mettle taken until the maximum has recovered, Afflicted ticked or not."""
    from rules.engine.mettle.statuses import rally_refusal

    assert rally_refusal(["afflicted"], 0) == ""  # no damage yet
    refusal = rally_refusal(["afflicted"], 2)
    assert "lowered max Mettle by 2" in refusal and "lose Rally if any damage" in refusal
    assert rally_refusal([], 1) != ""  # the affliction has ended, the loss is still there
    assert rally_refusal(["burning"], 1) == "Burning characters cannot Rally (Scenery > Fire)."
