"""Encounter rules (seed 004): three rounds of a four-combatant fight through the event
ledger, as the tracker will run it (issue #16): a haste, a run before an attack, a
defence of the other kind that aborts, a wait that steps in mid-action, a hold-over and
the Recovery step; then every prefix of the ledger replays (undo) without error."""

from rules.engine.encounters.tracker import INITIATIVE, apply, fold

LEDGER = [
    ("add", {"key": "wren", "name": "Wren", "side": "party", "quickness": 3,
             "stamina": 7, "stamina_max": 7}),
    ("add", {"key": "osk", "name": "Osk", "side": "party", "command": 4,
             "stamina": 4, "stamina_max": 6}),
    ("add", {"key": "brak", "name": "Brak", "side": "raiders", "quickness": 2,
             "stamina": 6, "stamina_max": 6}),
    ("add", {"key": "lisk", "name": "Lisk", "side": "raiders", "quickness": 5,
             "stamina": 3, "stamina_max": 5}),
    ("start", {}),
    # Round 1.
    ("initiative", {"key": "wren", "mode": "maneuver", "roll": 10}),
    ("initiative", {"key": "osk", "mode": "concentrate", "roll": 9}),
    ("initiative", {"key": "brak", "mode": "maneuver", "roll": 7}),
    ("initiative", {"key": "lisk", "mode": "maneuver", "roll": 12}),
    ("declare", {"key": "wren", "items": [{"kind": "haste"}, {"kind": "major",
                                                               "label": "spear thrust",
                                                               "skill": "physical"}]}),
    ("declare", {"key": "osk", "items": [{"kind": "major", "label": "binding word",
                                          "skill": "mental"}]}),
    ("begin_actions", {}),
    ("wait", {"key": "lisk"}),                       # Lisk waits at 12
    ("take", {"key": "wren"}),                       # Wren's thrust at 12 (haste)
    ("declare", {"key": "brak", "items": [{"kind": "run", "yards": 15},
                                          {"kind": "major", "label": "axe",
                                           "skill": "physical"}]}),
]


class Table:
    """Applies each event and keeps the ledger, as the tracker's views will."""

    def __init__(self, ledger):
        self.ledger = list(ledger)
        self.state = fold(self.ledger)

    def __call__(self, kind, payload):
        self.state = apply(self.state, kind, payload)
        self.ledger.append((kind, payload))
        return self.state


def test_three_rounds():
    table = Table(LEDGER)
    state = table.state
    # Osk (9) then Brak's run (7, 5) and axe (3).
    assert [(e.actor, e.initiative) for e in state.queue()] == [
        ("osk", 9), ("brak", 7), ("brak", 5), ("brak", 3)]
    # Brak's axe comes at Osk, who concentrates: defending physically aborts the word.
    state = table("defend", {"key": "osk", "skill": "physical"})
    assert "aborts binding word" in state.log[-1].text
    state = table("take", {"key": "brak"})
    # Mid-action: Lisk rolled 12 over Brak's 7 and steps in between the run and the axe.
    state = table("step_in", {"key": "lisk"})
    assert state.log[-1].text == "Lisk stops waiting and acts, before Brak's run 15 yd (2 of 2)."
    state = table("declare", {"key": "lisk", "items": [
        {"kind": "major", "label": "knife", "skill": "physical"}]})
    state = table("take", {"key": "lisk"})
    state = table("take", {"key": "brak"})
    state = table("take", {"key": "brak"})
    state = table("damage", {"key": "wren", "track": "stamina", "amount": 2})
    state = table("end_actions", {})
    state = table("recover", {})
    assert state.log[-2].text == "Recovery: nobody recovers."  # everyone acted or was hit
    # Round 2: Osk waits and holds; the others act.
    for key, mode, roll in (("wren", "maneuver", 8), ("osk", "concentrate", 11),
                            ("brak", "maneuver", 6), ("lisk", "maneuver", 4)):
        state = table("initiative", {"key": key, "mode": mode, "roll": roll})
    state = table("begin_actions", {})
    state = table("wait", {"key": "osk"})
    state = table("hold", {"key": "osk"})
    for key in ("wren", "brak", "lisk"):
        state = table("declare", {"key": key, "items": [
            {"kind": "major", "label": "strike", "skill": "physical"}]})
        state = table("take", {"key": key})
    state = table("end_actions", {})
    state = table("recover", {})
    # Osk took no action, is OK and unhurt: a Stamina hit back.
    assert state.fighter("osk").combatant.stamina == 5
    # Round 3: Osk goes first without a roll.
    assert state.phase == INITIATIVE and state.round == 3
    state = table("initiative", {"key": "osk", "mode": "concentrate"})
    for key, roll in (("wren", 20), ("brak", 3), ("lisk", 9)):
        state = table("initiative", {"key": key, "mode": "maneuver", "roll": roll})
    state = table("begin_actions", {})
    assert [e.actor for e in state.queue()] == ["osk", "wren", "lisk", "brak"]
    # The ledger folds into the same state, and every prefix of it (undo) replays.
    assert fold(table.ledger) == state
    undone = fold(table.ledger[:-1])
    assert undone.phase == INITIATIVE
    for end in range(len(table.ledger)):
        fold(table.ledger[:end])
