"""The Scenes chapter as data (rules/engine/eldritch_gambit/scenes.py).

Eldritch Gambit SRD, Scenes (Staging, Actions, Montages, Scenery) and Basics > Checks >
Gambits (STANDARD CRITICALS / STANDARD BOTCHES). Completeness is checked against the
seed text itself: every `###` heading under Actions, Montages, Scenery and Staging must
have an entry.
"""

import re
from pathlib import Path

import pytest

from rules.engine.eldritch_gambit import scenes
from rules.engine.eldritch_gambit.statuses import STATUSES

SEED = Path("/work/shared/srd/seeds/000_7e7bff8ff9445542.txt")
BASICS = Path("/work/shared/srd/eldritch-gambit/Eldritch_Gambit_SRD_Basics.md")
needs_srd = pytest.mark.skipif(not SEED.exists(), reason="the SRD seed text is not here")


def headings_by_chapter(text: str) -> dict[str, list[str]]:
    chapters: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if match := re.match(r"^##\s+(.+?)\s*$", line):
            current = match.group(1)
            chapters.setdefault(current, [])
        elif (match := re.match(r"^###\s+(.+?)\s*$", line)) and current:
            chapters[current].append(match.group(1))
    return chapters


@needs_srd
@pytest.mark.parametrize(("chapter", "entries"), [
    ("Actions", lambda: scenes.ACTIONS_ONLY),
    ("Montages", lambda: scenes.MONTAGES),
    ("Scenery", lambda: scenes.SCENERY),
    ("Staging", lambda: scenes.STAGING),
])
def test_every_heading_of_the_seed_text_has_an_entry(chapter, entries):
    headings = headings_by_chapter(SEED.read_text(encoding="utf-8"))[chapter]
    assert headings, f"no ### headings found under ## {chapter}"
    assert [entry.name for entry in entries()] == headings  # all of them, in SRD order


@needs_srd
def test_the_seed_text_has_the_chapters_the_brief_names():
    chapters = headings_by_chapter(SEED.read_text(encoding="utf-8"))
    for name in ("Attack, Melee", "Grapple", "Use"):
        assert name in chapters["Actions"]
    for name in ("Cover", "Fire", "Traps"):
        assert name in chapters["Scenery"]


def test_actions_come_before_montages_and_kinds_match():
    kinds = [a.kind for a in scenes.ACTIONS]
    assert kinds == sorted(kinds)  # "action" < "montage": all Actions, then all Montages
    assert len(scenes.ACTIONS_ONLY) == 14 and len(scenes.MONTAGES) == 7
    assert scenes.ACTIONS[0].slug == "attack-melee" and scenes.ACTIONS[-1].slug == "travel"


def test_attack_melee_field_by_field():
    attack = scenes.action("attack-melee")
    assert attack.name == "Attack, Melee"
    assert attack.kind == "action"
    assert attack.check == "DEX vs. AF"
    assert attack.attributes == ("DEX",)
    assert attack.ocs == "All adventurers use d20 for Attacks."
    assert attack.always_d20 is True
    assert attack.default_critical == "Bonus Damage"
    assert attack.default_botch == "Countered"
    assert attack.outcomes.critical == (
        "hit and add Bonus damage equal to the max of your usual damage die."
    )
    assert attack.outcomes.success == "hit & Roll damage + mods."
    assert attack.outcomes.failure.startswith("clash, both sides Roll damage + mods")
    assert attack.outcomes.botch == "Countered: miss & take hit from foe!"
    assert attack.summary.startswith("Do violence to a foe from within the same Zone")
    assert "Split Attacks divide the Action into two attacks, each using a d12 instead of a d20."\
        in " ".join(attack.notes)
    assert attack.section == "Scenes > Actions > Attack, Melee"


def test_markup_is_stripped_everywhere():
    texts = []
    for a in scenes.ACTIONS:
        texts += [a.summary, a.check, a.ocs, a.check_footnote, *a.notes]
        texts += [text for _, text in a.outcomes.items()]
    for entry in (*scenes.SCENERY, *scenes.STAGING):
        texts += entry.text
    for text in texts:
        assert "<" not in text and "span" not in text, text
        assert "**" not in text and "\\" not in text and "{:" not in text, text
        assert text == text.strip() and "  " not in text, text


@pytest.mark.parametrize(("slug", "check", "attributes"), [
    ("attack-ranged", "DEX vs. AF", ("DEX",)),
    ("dispel", "WIS vs. WP", ("WIS",)),
    ("dodge", "AGI vs. Attack result", ("AGI",)),
    ("grapple", "DEX vs. AF", ("DEX",)),
    ("insight", "WIS vs. WP or variable DF (usually 10)", ("WIS",)),
    ("move", "none, or AGI vs. DF of the obstacle", ("AGI",)),
    ("parley", "CHA vs. WP", ("CHA",)),
    ("sneak", "AGI vs. WP", ("AGI",)),
    ("rally", "recover 1d4* + END HP", ("END",)),
    ("recovery", "WIS vs. DF of local Travel, Disease, or -HP", ("WIS",)),
    ("travel", "AGI vs. DF of named Zone (weakest-link)", ("AGI",)),
])
def test_check_lines(slug, check, attributes):
    entry = scenes.action(slug)
    assert entry.check == check
    assert entry.attributes == attributes


@pytest.mark.parametrize(("slug", "critical", "botch"), [
    ("attack-ranged", "Bonus Damage", "Friendly fire"),
    ("dispel", "", "Countered"),
    ("dodge", "", "Stumble"),
    ("grapple", "Bonus Damage", "Countered"),
    ("move", "Assist Ally or Hinder foe", "Stumble"),
    ("crafting", "", "Waste"),
    ("shopping", "", "Waste"),
    ("travel", "", "Lost"),
    ("parley", "", ""),
    ("insight", "", ""),
])
def test_named_defaults(slug, critical, botch):
    entry = scenes.action(slug)
    assert entry.default_critical == critical
    assert entry.default_botch == botch


def test_default_options_are_standard_names_except_lost():
    for entry in scenes.ACTIONS:
        for name in entry.default_critical_options:
            assert scenes.standard_critical(name), (entry.slug, name)
        for name in entry.default_botch_options:
            if name != "Lost":  # Travel's own Botch, not in the standard table
                assert scenes.standard_botch(name), (entry.slug, name)
        if entry.default_critical and " or " not in entry.default_critical:
            assert entry.default_critical_options == (entry.default_critical,)
        if entry.default_botch:
            assert entry.default_botch_options == (entry.default_botch,)
    assert scenes.action("move").default_critical_options == ("Assist Ally", "Hinder foe")


def test_always_d20_only_where_the_ocs_line_says_all_adventurers_use_d20():
    always = {a.slug for a in scenes.ACTIONS if a.always_d20}
    assert always == {"attack-melee", "attack-ranged", "dodge", "grapple"}
    for entry in scenes.ACTIONS:
        assert entry.always_d20 == entry.ocs.startswith("All adventurers use d20")


def test_entries_without_a_check_have_no_outcomes():
    for slug in ("guard", "overcast", "research", "training"):
        entry = scenes.action(slug)
        assert entry.check == "" and entry.ocs == "" and not entry.has_check
        assert not entry.outcomes
        assert entry.default_critical == entry.default_botch == ""
        assert entry.summary


def test_rally_is_a_roll_with_its_footnote():
    rally = scenes.action("rally")
    assert rally.check_label == "Roll"
    assert rally.check_footnote == "*unarmored - armor improves this die."
    assert not rally.outcomes


def test_every_entry_with_a_check_has_four_outcomes():
    for entry in scenes.ACTIONS:
        if entry.check and entry.slug != "rally":
            assert all(text for _, text in entry.outcomes.items()), entry.slug


def test_montage_field_checks():
    crafting = scenes.action("crafting")
    assert crafting.kind == "montage"
    assert crafting.check == "WIS vs. situational DF"
    assert "Weapons: DF is 5 + the max on the Damage die." in crafting.summary
    assert crafting.outcomes.botch == "Waste Resources: lost materials!"
    fellowship = scenes.action("fellowship")
    assert fellowship.outcomes.critical == "Everyone involved regains 4 WP!"
    assert fellowship.section == "Scenes > Montages > Fellowship"


def test_action_raises_keyerror_for_unknown_slug():
    with pytest.raises(KeyError):
        scenes.action("fireball")


def basics_table(text: str, title: str) -> list[tuple[str, str]]:
    """The rows (name, effect) of a Basics table, without its header and rule lines."""
    rows = []
    for line in text.split(f"**{title}**", 1)[1].splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-:"):
                rows.append((cells[0], cells[1]))
        elif rows:
            break
    return rows[1:]


@needs_srd
def test_standard_criticals_and_botches_match_the_basics_tables():
    text = BASICS.read_text(encoding="utf-8")
    assert list(scenes.STANDARD_CRITICALS) == basics_table(text, "STANDARD CRITICALS")
    assert list(scenes.STANDARD_BOTCHES) == basics_table(text, "STANDARD BOTCHES")
    assert len(scenes.STANDARD_CRITICALS) == len(scenes.STANDARD_BOTCHES) == 8
    assert dict(scenes.STANDARD_CRITICALS)["Bonus Damage"] == (
        "Add max of one die as bonus to the damage Roll."
    )
    assert dict(scenes.STANDARD_BOTCHES)["Countered"] == (
        "Take retaliatory damage or other setback from target."
    )
    assert scenes.standard_botch("friendly FIRE").startswith("Harm ally instead of target")
    assert scenes.standard_critical("Nope") == ""


def test_scenery_structured_text():
    cover = scenes.rule("scenery", "cover")
    assert cover.group == "scenery" and cover.section == "Scenes > Scenery > Cover"
    table = next(b for b in cover.blocks if b.kind == "table")
    assert table.headers == ("Examples", "Type", "Penalty")
    assert table.rows[-1] == ("Wall, boulder, tree", "Hard", "-4*")
    assert table.footnote == "*only after targeting another from Hard Cover"
    fire = scenes.rule("scenery", "fire")
    assert "A medium one like a campfire does 2d6" in fire.text
    falling = scenes.rule("scenery", "falling")
    assert falling.text[0].startswith("The ignoble doom of the unlucky and unsung. Falls inflict "
                                      "1d6 damage per 5-meter zone fallen, up to 10d6.")
    deprivation = scenes.rule("scenery", "deprivation")
    assert any(t.startswith("Suffocation: a character can hold their breath for 1d12 +END")
               for t in deprivation.text)


def test_initiative_is_a_staging_entry():
    initiative = scenes.rule("staging", "initiative")
    assert initiative.name == "Initiative"
    assert initiative.text[0].startswith("This decides who-goes-when in Action Scenes")
    assert any("Wait" in t for t in initiative.text)
    assert initiative.section == "Scenes > Staging > Initiative"
    with pytest.raises(KeyError):
        scenes.rule("scenery", "initiative")


def test_chapter_intros():
    assert set(scenes.CHAPTERS) == {"staging", "actions", "montages", "scenery"}
    assert scenes.CHAPTERS["actions"].intro[1].text.startswith(
        "The combat-focused Actions (Attack, Grapple) all Check with a d20"
    )


def test_every_engine_status_has_its_srd_text():
    """Characters > Defenses: HP Status Effects and Status, the same thirteen statuses."""
    assert [s.key for s in scenes.STATUS_TEXTS] == [rule.key for rule in STATUSES]
    staggered = scenes.STATUS_TEXT_BY_KEY["staggered"]
    assert staggered.plain == (
        "Staggered combatants have taken a nasty wound. They lose their Free Move until "
        "Recovery and all Checks are made on a d12 instead of d20."
    )
    assert staggered.section == "Characters > Defenses > Hit Points (HP)"
    encumbered = scenes.STATUS_TEXT_BY_KEY["encumbered"]
    assert encumbered.lead == "Encumbered:"
    assert "Load over STR + END." in encumbered.text
