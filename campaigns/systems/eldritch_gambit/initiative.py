"""The Initiative tracker's writes and its replay (Scenes > Staging > Initiative).

An encounter's state is never stored: it is the rules engine's replay of the encounter's
combatants (setup) and its ledger of steps (InitiativeStep). Every write is one
transaction that first locks the Encounter row (select_for_update), checks the version
the page was drawn from (a stale page's click is refused), replays, lets the engine
validate the new step, and records it. docs/RULES.md, "Volleyball Initiative".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db import transaction
from django.db.models import Max, Prefetch

from campaigns.models import Campaign
from campaigns.services import CampaignError
from characters.models import Character, InventoryItem
from characters.systems.eldritch_gambit.builds import build_from_character, sheet_for
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit import compute_sheet
from rules.engine.eldritch_gambit import initiative as engine
from rules.engine.eldritch_gambit.initiative import (
    SETTABLE_STATUSES,
    Fighter,
    InitiativeError,
    InitiativeState,
)

from .models import Combatant, Encounter, InitiativeStep

NAME_LENGTH = 120
# A step's payload key for the characters' Armored HP when it was taken (key -> HP).
HP_MAXIMA = "hp_max"
MAX_RECORDED_HP = 32767  # Combatant.hp_max's column
MAX_HP = 9999
MAX_MEMBERS = 999
STALE = ("This page was out of date: someone else changed the tracker first. Here is the "
         "tracker as it is now; nothing was recorded.")


@dataclass
class Row:
    """A combatant with its state in the fight, for the templates."""

    combatant: Combatant
    fighter: Fighter
    af: int | None

    @property
    def key(self) -> str:
        return self.fighter.key


@dataclass
class Tracker:
    encounter: Encounter
    state: InitiativeState
    rows: list[Row]
    failed: list[str]  # ledger steps the replay refused (e.g. a sheet changed meanwhile)
    # The characters' Armored HP on their sheets now (key -> HP), which the next step
    # records, and how long the log was before `state` followed them (the next step's
    # text starts there).
    hp_maxima: dict[str, int] = field(default_factory=dict)
    replayed_log: int = 0

    def row(self, key: str) -> Row:
        return next(row for row in self.rows if row.key == key)

    @property
    def holder(self) -> Row | None:
        return self.row(self.state.holder) if self.state.holder else None


def _error(error: InitiativeError) -> CampaignError:
    return CampaignError(error.message, "initiative", field=error.field)


def _fighter(combatant: Combatant, sheet) -> Fighter:
    """The combatant as it joined: a character's maximum HP is the Armored HP recorded at
    its join (the sheet's now for a fight stored before that was kept), its WP the
    sheet's now (it only settles who triggers, and the trigger step keeps who did)."""
    statuses = [s for s in combatant.statuses_start if s in SETTABLE_STATUSES]
    if combatant.character_id is not None:
        hp_max = combatant.hp_max or sheet.value("hp_armored")
        wp = sheet.value("wp_current")
    else:
        hp_max = combatant.hp_max or 1
        wp = combatant.wp or 0
    hp = combatant.hp_start
    if hp is not None:
        hp = min(hp, hp_max)
    return engine.fighter(combatant.key, combatant.name, side=combatant.side, hp_max=hp_max,
                          hp=hp, wp=wp, mob=combatant.is_mob, members=combatant.members,
                          statuses=statuses)


def _armored_hp(sheet) -> int | None:
    """The Armored HP a character joins with, recorded on its Combatant (None if the
    column could not hold it: the sheet's is then read at each replay, as before)."""
    value = sheet.value("hp_armored")
    return value if 1 <= value <= MAX_RECORDED_HP else None


def _combatants(encounter: Encounter) -> list[Combatant]:
    """The encounter's combatants in order, each character with its Level and XP
    (with_progress) and its inventory with the catalog rows: three queries, whatever
    the party, and the sheets are computed from these rows without another."""
    characters = EldritchGambitCharacter.objects.with_progress().prefetch_related(
        Prefetch("items", queryset=InventoryItem.objects.select_related("catalog_item")))
    return list(encounter.combatants.prefetch_related(Prefetch("character",
                                                               queryset=characters))
                .order_by("position", "pk"))


def _items(character: Character) -> list[InventoryItem]:
    """The character's inventory as _combatants loaded it."""
    return list(character.items.all())


def load(encounter: Encounter, steps=None) -> Tracker:
    """The encounter replayed: its combatants as the engine sees them, then every step."""
    combatants = _combatants(encounter)
    builds = {c.pk: build_from_character(c.character, _items(c.character))
              for c in combatants if c.character is not None}
    sheets = {pk: compute_sheet(build) for pk, build in builds.items()}
    by_key = {c.key: c for c in combatants}
    state = engine.new_scene(_fighter(c, sheets.get(c.pk)) for c in combatants
                             if not c.joined_midway)
    if steps is None:
        steps = encounter.steps.order_by("number")
    failed = []
    for step in steps:
        try:
            # The maxima the step was taken under (armour changed mid-fight counts from
            # the next step on); a step stored before they were recorded has none.
            recorded = step.payload.get(HP_MAXIMA)
            if isinstance(recorded, dict):
                state = engine.follow_hp_maxima(state, recorded)
            if step.kind == "join":
                joiner = by_key.get(step.payload.get("key"))
                if joiner is None:
                    raise InitiativeError("that combatant was taken out.")
                state = engine.join(state, _fighter(joiner, sheets.get(joiner.pk)))
            else:
                state = engine.apply_step(state, step.kind, step.payload)
        except InitiativeError as error:
            failed.append(f"Step {step.number} ({step.kind}) no longer applies: {error.message}")
    present = {f.key for f in state.fighters}
    maxima = {c.key: sheets[c.pk].value("hp_armored") for c in combatants
              if c.character is not None and c.key in present}
    replayed_log = len(state.log)
    if state.phase != engine.ENDED:  # an ended fight keeps the HP it ended with
        try:
            state = engine.follow_hp_maxima(state, maxima)
        except InitiativeError as error:  # never: the sheets' Armored HP is at least 1
            failed.append(error.message)
    rows = []
    for combatant in combatants:
        if combatant.key not in present:
            continue
        fighter = state.fighter(combatant.key)
        if combatant.character is not None:
            build = replace(builds[combatant.pk], statuses=fighter.statuses,
                            hp_current=min(fighter.hp, fighter.hp_max))
            af = compute_sheet(build).value("af")
        elif combatant.af is not None:
            af = engine.combat_af(combatant.af, fighter)
        else:
            af = None
        rows.append(Row(combatant, fighter, af))
    return Tracker(encounter, state, rows, failed, maxima, replayed_log)


def _locked(encounter_id: int, version: int | None) -> Encounter:
    encounter = Encounter.objects.select_for_update().get(pk=encounter_id)
    if version is not None and version != encounter.version:
        raise CampaignError(STALE, "stale")
    return encounter


def _bump(encounter: Encounter, state: InitiativeState | None = None) -> None:
    encounter.version += 1
    fields = ["version"]
    if state is not None:
        encounter.status = {engine.SETUP: Encounter.Status.SETUP,
                            engine.ENDED: Encounter.Status.ENDED}.get(
            state.phase, Encounter.Status.RUNNING)
        encounter.round = state.round
        encounter.holder_id = int(state.holder) if state.holder else None
        fields += ["status", "round", "holder"]
    encounter.save(update_fields=fields)


# --- setup --------------------------------------------------------------------------------
def create(*, campaign: Campaign, by, name: str, session=None) -> Encounter:
    name = " ".join((name or "").split())
    if not name:
        raise CampaignError("Name the fight, e.g. “Ambush at the ford”.", "name", field="name")
    if len(name) > NAME_LENGTH:
        raise CampaignError(f"Keep the name to {NAME_LENGTH} characters.", "name", field="name")
    if session is not None and session.campaign_id != campaign.pk:
        raise CampaignError("Choose a session of this campaign.", "session", field="session")
    return Encounter.objects.create(campaign=campaign, session=session, name=name,
                                    created_by=by)


def _require_setup(encounter: Encounter) -> None:
    if encounter.status != Encounter.Status.SETUP:
        raise CampaignError("Combatants are taken out only before Initiative is triggered.",
                            "not_setup")


def _require_open(encounter: Encounter) -> None:
    if encounter.status == Encounter.Status.ENDED:
        raise CampaignError("Initiative has ended.", "ended")


def _record_join(encounter: Encounter, combatant: Combatant, by) -> None:
    """A combatant added during Initiative enters with a ledger step of its own."""
    steps = list(encounter.steps.order_by("number"))
    tracker = load(encounter, steps)  # the newcomer (joined_midway) is not in it yet
    sheet = sheet_for(combatant.character) if combatant.character_id else None
    try:
        state = engine.join(tracker.state, _fighter(combatant, sheet))
    except InitiativeError as error:
        raise _error(error) from None
    InitiativeStep.objects.create(
        encounter=encounter, number=(steps[-1].number if steps else 0) + 1, kind="join",
        payload={"key": combatant.key, HP_MAXIMA: tracker.hp_maxima}, round=state.round,
        created_by=by, text=_text(state, tracker.replayed_log))
    _bump(encounter, state)


def _next_position(encounter: Encounter) -> int:
    return (encounter.combatants.aggregate(m=Max("position"))["m"] or 0) + 1


def add_characters(*, encounter_id: int, version: int | None, characters, by=None
                   ) -> list[Combatant]:
    """The campaign's characters join the party side (those already in are skipped),
    bringing their current HP and statuses; during Initiative, each with a join step."""
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        _require_open(encounter)
        present = set(encounter.combatants.exclude(character=None)
                      .values_list("character_id", flat=True))
        added = []
        position = _next_position(encounter)
        for character in characters:
            if character.campaign_id != encounter.campaign_id:
                raise CampaignError(f"{character.display_name} is not in this campaign.",
                                    "character")
            if character.pk in present:
                continue
            sheet = sheet_for(character)
            added.append(Combatant.objects.create(
                encounter=encounter, position=position, character=character,
                name=character.display_name[:NAME_LENGTH], side=Combatant.Side.PARTY,
                hp_start=character.hp_current, hp_max=_armored_hp(sheet),
                joined_midway=encounter.status == Encounter.Status.RUNNING,
                statuses_start=[s for s in sheet.statuses if s in SETTABLE_STATUSES]))
            position += 1
        if not added:
            raise CampaignError("Every character of the campaign is already in this fight.",
                                "nobody")
        if encounter.status == Encounter.Status.RUNNING:
            for combatant in added:
                _record_join(encounter, combatant, by)
        else:
            _bump(encounter)
        return added


def add_foe(*, encounter_id: int, version: int | None, name: str, hp_max: int,
            af: int | None = None, wp: int | None = None, is_mob: bool = False,
            members: int = 1, side: str = Combatant.Side.FOES, by=None) -> Combatant:
    name = " ".join((name or "").split())
    if not name:
        raise CampaignError("Name the combatant.", "name", field="name")
    if not 1 <= hp_max <= MAX_HP:
        raise CampaignError(f"HP must be between 1 and {MAX_HP}.", "hp", field="hp_max")
    if is_mob and not 2 <= members <= MAX_MEMBERS:
        raise CampaignError(f"A Mob has between 2 and {MAX_MEMBERS} members.", "members",
                            field="members")
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        _require_open(encounter)
        combatant = Combatant.objects.create(
            encounter=encounter, position=_next_position(encounter), name=name[:NAME_LENGTH],
            side=side, hp_max=hp_max, af=af, wp=wp, is_mob=is_mob,
            members=members if is_mob else 1,
            joined_midway=encounter.status == Encounter.Status.RUNNING)
        if encounter.status == Encounter.Status.RUNNING:
            _record_join(encounter, combatant, by)
        else:
            _bump(encounter)
        return combatant


def remove(*, encounter_id: int, version: int | None, combatant_id: int) -> None:
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        _require_setup(encounter)
        deleted, _ = encounter.combatants.filter(pk=combatant_id).delete()
        if not deleted:
            raise CampaignError("That combatant is not in this fight.", "combatant")
        # Its setup steps (HP or statuses set before the fight) go with it.
        encounter.steps.filter(payload__key=str(combatant_id)).delete()
        _bump(encounter)


# --- steps --------------------------------------------------------------------------------
def step(*, encounter_id: int, version: int | None, kind: str, payload: dict, by
         ) -> InitiativeStep:
    """One step of the fight, validated by the rules engine against the replayed state."""
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        if encounter.status == Encounter.Status.ENDED:
            raise CampaignError("Initiative has ended.", "ended")
        steps = list(encounter.steps.order_by("number"))
        tracker = load(encounter, steps)
        # The characters' Armored HP as their sheets give it now, which the replay of
        # this step will use whatever the sheets say later ("Armour changed mid-fight").
        payload = {**payload, HP_MAXIMA: tracker.hp_maxima}
        try:
            state = engine.apply_step(tracker.state, kind, payload)
        except InitiativeError as error:
            raise _error(error) from None
        record = InitiativeStep.objects.create(
            encounter=encounter, number=(steps[-1].number if steps else 0) + 1, kind=kind,
            payload=payload, round=state.round, created_by=by,
            text=_text(state, tracker.replayed_log))
        _bump(encounter, state)
        if state.phase == engine.ENDED:
            _write_back(tracker, state)
        return record


def _text(state: InitiativeState, since: int) -> str:
    """The step's log lines: from where the replay of the steps before it stopped, so a
    maximum HP that followed an armour change is in the step that records it."""
    return " ".join(event.text for event in state.log[since:])


def _write_back(tracker: Tracker, state: InitiativeState) -> None:
    """Initiative over: the party's characters keep the fight's HP (refilled, or not if
    Fallen or Burning) and statuses on their sheets."""
    for row in tracker.rows:
        character = row.combatant.character
        if character is None:
            continue
        fighter = state.fighter(row.key)
        hp = None if fighter.hp >= fighter.hp_max else fighter.hp
        # What the sheet works out by itself (Incapacitated from Load, Fallen from HP)
        # is not written back as a choice.
        derived = set(sheet_for(character, _items(character)).derived_statuses)
        chosen = [s for s in SETTABLE_STATUSES if s in fighter.statuses and s not in derived]
        EldritchGambitCharacter.objects.filter(pk=character.pk).update(hp_current=hp,
                                                                      statuses=chosen)


def undo(*, encounter_id: int, version: int | None) -> InitiativeStep:
    """Take back the last step (not the end of Initiative, which changed the sheets)."""
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        last = encounter.steps.order_by("-number").first()
        if last is None:
            raise CampaignError("There is no step to undo.", "nothing")
        if last.kind == "end":
            raise CampaignError("Initiative has ended and the sheets were updated; it cannot "
                                "be undone.", "ended")
        last.delete()
        if last.kind == "join":  # the reinforcement leaves with its arrival
            encounter.combatants.filter(pk=int(last.payload["key"])).delete()
        _bump(encounter, load(encounter).state)
        return last
