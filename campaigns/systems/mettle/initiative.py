"""METTLE Core's Initiative tracker: its writes and its replay (the Scenes chapter, seed
001 > Staging > Initiative, Movement, Split Actions; Actions > Defend, Sneak; RS Reach).

As Eldritch Gambit's tracker (campaigns/systems/eldritch_gambit/initiative.py): the state
is never stored, it is the rules engine's replay (rules/engine/mettle/initiative.py) of the
combatants (setup) and the ledger of steps (MettleInitiativeStep). Every write is one
transaction that locks the encounter row (select_for_update), checks the version the page
was drawn from (a stale page's click, a double click, is refused), replays, lets the
engine validate the new step and records it. docs/RULES.md, "Volleyball Initiative,
METTLE's version".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Prefetch
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.services import CampaignError
from characters.systems.mettle.builds import for_sheets, sheet_for
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle import initiative as engine
from rules.engine.mettle.data import ATTRIBUTE_KEYS
from rules.engine.mettle.guide import NpcPool
from rules.engine.mettle.initiative import (
    SETTABLE_STATUSES,
    Fighter,
    InitiativeError,
    Scene,
)
from rules.engine.mettle.statuses import statuses_after_scene
from rules.engine.volleyball import ENDED, SETUP

from .encounters import MettleCombatant, MettleEncounter, MettleInitiativeStep

NAME_LENGTH = 120
MAX_POOL = 30
MAX_ARMOR_SOAK = 20
MAX_MEMBERS = 999
STALE = ("This page was out of date: someone else changed the tracker first. Here is the "
         "tracker as it is now; nothing was recorded.")


@dataclass
class Row:
    """A combatant with its state in the fight, for the templates."""

    combatant: MettleCombatant
    fighter: Fighter
    soak: int
    zone: str
    parts_left: tuple[int, ...]
    label: str  # "Thug 4D (FRAME 6)" for an NPC pool, the name for a PC
    bulletproof: bool = False  # wears BP armour (RS §Armor), as the fight knows it
    bp_spent: bool = False  # its BP has halved the first firearm damage
    # Burning (Scenery > Fire): the fire's damage it takes each Round (None: not given
    # yet), and what it still has to take this Round (None: nothing due).
    burn_amount: int | None = None
    burn_due: int | None = None

    @property
    def key(self) -> str:
        return self.fighter.key


@dataclass
class Tracker:
    encounter: MettleEncounter
    scene: Scene
    rows: list[Row]
    failed: list[str]

    @property
    def state(self):
        return self.scene.state

    def row(self, key: str) -> Row:
        return next(row for row in self.rows if row.key == key)

    @property
    def holder(self) -> Row | None:
        return self.row(self.state.holder) if self.state.holder else None


def _error(error: InitiativeError) -> CampaignError:
    return CampaignError(error.message, "initiative", field=error.field)


def npc_pool(combatant: MettleCombatant) -> NpcPool:
    higher = tuple((k, int(v)) for k, v in combatant.higher if k in ATTRIBUTE_KEYS)
    return NpcPool(combatant.name, max(combatant.pool or 1, 1), higher)


def _numbers(combatant: MettleCombatant) -> tuple[int, int, bool]:
    """(maximum Mettle, Soak, wears BP armour): a PC's from its sheet (EN §Mettle, §Taking
    Damage; RS §Armor: the worn armour's BP); an NPC pool's Mettle is the pool, its Soak
    FRAME (the pool or its higher FRAME) + armour, and its BP is ticked on the hit (its
    armour is only a Soak number)."""
    if combatant.character_id is not None:
        sheet = sheet_for(combatant.character)
        return (sheet.value("mettle_max"), sheet.value("soak"),
                bool(sheet.armor and sheet.armor.bulletproof))
    pool = npc_pool(combatant)
    return pool.mettle, pool.attribute("frame") + combatant.armor_soak, False


def _fighter(combatant: MettleCombatant, mettle_max: int) -> Fighter:
    statuses = [s for s in combatant.statuses_start if s in SETTABLE_STATUSES]
    mettle = combatant.mettle_start
    if mettle is not None:
        mettle = min(mettle, mettle_max)
    return engine.fighter(combatant.key, combatant.name, side=combatant.side,
                          mettle_max=max(mettle_max, 1), mettle=mettle, mob=combatant.is_mob,
                          members=combatant.members, statuses=statuses)


def _combatants(encounter: MettleEncounter) -> list[MettleCombatant]:
    characters = for_sheets(MettleCharacter.objects.with_progress())
    return list(encounter.combatants.prefetch_related(
        Prefetch("character", queryset=characters)).order_by("position", "pk"))


def _ticked_in_fight(steps) -> dict[str, int]:
    """The max Mettle each combatant's afflictions changed during the fight (its
    `affliction` steps): the sheet's maximum already counts them, the fight starts from
    the maximum before them and replays them in their place (AMB-M-AFF-4)."""
    changed: dict[str, int] = {}
    for step in steps:
        if step.kind == "affliction":
            key = str(step.payload.get("key"))
            changed[key] = changed.get(key, 0) + int(step.payload.get("change", 0))
    return changed


def load(encounter: MettleEncounter, steps=None, pending: dict[str, int] | None = None
         ) -> Tracker:
    """The encounter replayed: its combatants as the engine sees them, then every step.
    `pending`: the max Mettle an affliction's tick has just changed on a sheet, its step
    not recorded yet (record_affliction)."""
    combatants = _combatants(encounter)
    if steps is None:
        steps = list(encounter.steps.order_by("number"))
    ticked = _ticked_in_fight(steps)
    for key, change in (pending or {}).items():
        ticked[key] = ticked.get(key, 0) + change
    numbers = {}
    for c in combatants:
        mettle_max, soak, bulletproof = _numbers(c)
        numbers[c.key] = (mettle_max - ticked.get(c.key, 0), soak, bulletproof)
    by_key = {c.key: c for c in combatants}
    first = [c for c in combatants if not c.joined_midway]
    scene = engine.new_scene((_fighter(c, numbers[c.key][0]) for c in first),
                             soaks={c.key: numbers[c.key][1] for c in first},
                             zones={c.key: c.zone for c in first},
                             bulletproof=[c.key for c in first if numbers[c.key][2]])
    failed = []
    for step in steps:
        try:
            if step.kind == "join":
                joiner = by_key.get(step.payload.get("key"))
                if joiner is None:
                    raise InitiativeError("that combatant was taken out.")
                scene = engine.join(scene, _fighter(joiner, numbers[joiner.key][0]),
                                    soak=numbers[joiner.key][1], zone=joiner.zone,
                                    bulletproof=numbers[joiner.key][2])
            else:
                scene = engine.apply_step(scene, step.kind, step.payload)
        except InitiativeError as error:
            failed.append(f"Step {step.number} ({step.kind}) no longer applies: {error.message}")
    present = {f.key for f in scene.state.fighters}
    rows = []
    for combatant in combatants:
        if combatant.key not in present:
            continue
        label = combatant.name if combatant.character_id else npc_pool(combatant).label
        key = combatant.key
        rows.append(Row(combatant, scene.state.fighter(key), scene.soak(key), scene.zone(key),
                        scene.parts_left(key), label, bulletproof=key in scene.bulletproof,
                        bp_spent=key in scene.bp_spent, burn_amount=scene.burn_amount(key),
                        burn_due=scene.burn_due(key)))
    return Tracker(encounter, scene, rows, failed)


def _locked(encounter_id: int, version: int | None) -> MettleEncounter:
    encounter = MettleEncounter.objects.select_for_update().get(pk=encounter_id)
    if version is not None and version != encounter.version:
        raise CampaignError(STALE, "stale")
    return encounter


def _bump(encounter: MettleEncounter, scene: Scene | None = None) -> None:
    encounter.version += 1
    fields = ["version"]
    if scene is not None:
        state = scene.state
        encounter.status = {SETUP: MettleEncounter.Status.SETUP,
                            ENDED: MettleEncounter.Status.ENDED}.get(
            state.phase, MettleEncounter.Status.RUNNING)
        encounter.round = state.round
        encounter.holder_id = int(state.holder) if state.holder else None
        sides = {f.side for f in state.fighters if "surprised" in f.statuses}
        encounter.surprised = sides.pop() if len(sides) == 1 and state.round <= 1 else ""
        fields += ["status", "round", "holder", "surprised"]
    encounter.save(update_fields=fields)


# --- setup ----------------------------------------------------------------------------------
def create(*, campaign: Campaign, by, name: str, session=None) -> MettleEncounter:
    name = " ".join((name or "").split())
    if not name:
        raise CampaignError("Name the fight, e.g. “Ambush on the quay”.", "name", field="name")
    if len(name) > NAME_LENGTH:
        raise CampaignError(f"Keep the name to {NAME_LENGTH} characters.", "name", field="name")
    if session is not None and session.campaign_id != campaign.pk:
        raise CampaignError("Choose a session of this campaign.", "session", field="session")
    return MettleEncounter.objects.create(campaign=campaign, session=session, name=name,
                                          created_by=by)


def _require_open(encounter: MettleEncounter) -> None:
    if encounter.status == MettleEncounter.Status.ENDED:
        raise CampaignError("Initiative has ended.", "ended")


def _next_number(steps) -> int:
    return (steps[-1].number if steps else 0) + 1


def _record_join(encounter: MettleEncounter, combatant: MettleCombatant, by) -> None:
    """A combatant added during Initiative enters with a ledger step of its own."""
    steps = list(encounter.steps.order_by("number"))
    tracker = load(encounter, steps)  # the newcomer (joined_midway) is not in it yet
    mettle_max, soak, bulletproof = _numbers(combatant)
    try:
        scene = engine.join(tracker.scene, _fighter(combatant, mettle_max), soak=soak,
                            zone=combatant.zone, bulletproof=bulletproof)
    except InitiativeError as error:
        raise _error(error) from None
    MettleInitiativeStep.objects.create(
        encounter=encounter, number=_next_number(steps), kind="join",
        payload={"key": combatant.key}, round=scene.state.round, created_by=by,
        text=scene.state.log[-1].text)
    _bump(encounter, scene)


def _next_position(encounter: MettleEncounter) -> int:
    return (encounter.combatants.aggregate(m=Max("position"))["m"] or 0) + 1


# What a character's Load makes it (CH §Encumbrance), worked out on its sheet, never
# stored on the character: Encumbered (two Moves a Zone) or Incapacitated (no Action).
LOAD_STATUSES = ("encumbered", "incapacitated")


def _statuses_brought(character) -> list[str]:
    """The statuses a character brings into the fight: those chosen on it, and what its
    Load makes it as it joins (its sheet's). Kept with the combatant, as its Mettle is,
    so that the fight replays the same whatever the inventory does later."""
    chosen = [key for key in character.statuses or () if key in SETTABLE_STATUSES]
    carried = [key for key in sheet_for(character).statuses
               if key in LOAD_STATUSES and key not in chosen]
    return chosen + carried


def add_characters(*, encounter_id: int, version: int | None, characters, by=None
                   ) -> list[MettleCombatant]:
    """The campaign's characters join the party side (those already in are skipped),
    bringing their current Mettle; during Initiative, each with a join step."""
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        _require_open(encounter)
        present = set(encounter.combatants.exclude(character=None)
                      .values_list("character_id", flat=True))
        running = encounter.status == MettleEncounter.Status.RUNNING
        added = []
        position = _next_position(encounter)
        for character in characters:
            if character.campaign_id != encounter.campaign_id:
                raise CampaignError(f"{character.display_name} is not in this campaign.",
                                    "character")
            if character.pk in present:
                continue
            added.append(MettleCombatant.objects.create(
                encounter=encounter, position=position, character=character,
                name=character.display_name[:NAME_LENGTH], side="party",
                mettle_start=character.mettle_current, joined_midway=running,
                statuses_start=_statuses_brought(character)))
            position += 1
        if not added:
            raise CampaignError("Every character of the campaign is already in this fight.",
                                "nobody")
        if running:
            for combatant in added:
                _record_join(encounter, combatant, by)
        else:
            _bump(encounter)
        return added


def add_npc(*, encounter_id: int, version: int | None, name: str, pool: int,
            higher: list[tuple[str, int]] = (), armor_soak: int = 0, is_mob: bool = False,
            members: int = 1, side: str = "foes", zone: str = "", by=None) -> MettleCombatant:
    """An NPC pool (GD §NPC Creation: one pool for every Attribute and Mettle, the odd
    higher Attribute noted) or a Mob sharing one pool."""
    name = " ".join((name or "").split())
    if not name:
        raise CampaignError("Name the combatant.", "name", field="name")
    if not 1 <= pool <= MAX_POOL:
        raise CampaignError(f"An NPC pool is between 1 and {MAX_POOL} dice.", "pool",
                            field="pool")
    for key, value in higher:
        if key not in ATTRIBUTE_KEYS:
            raise CampaignError(f"{key!r} is not an Attribute.", "higher", field="higher")
        if not pool < value <= MAX_POOL:
            raise CampaignError(f"A higher Attribute is above the pool ({pool}) and at most "
                                f"{MAX_POOL}.", "higher", field="higher_value")
    if not 0 <= armor_soak <= MAX_ARMOR_SOAK:
        raise CampaignError(f"Armour Soak is between 0 and {MAX_ARMOR_SOAK}.", "armor",
                            field="armor_soak")
    if is_mob and not 2 <= members <= MAX_MEMBERS:
        raise CampaignError(f"A Mob has between 2 and {MAX_MEMBERS} members.", "members",
                            field="members")
    if side not in ("party", "foes"):
        raise CampaignError("Choose a side.", "side", field="side")
    zone = " ".join((zone or "").split())
    if len(zone) > engine.MAX_ZONE_LABEL:
        raise CampaignError(f"Keep the Zone's name to {engine.MAX_ZONE_LABEL} characters.",
                            "zone", field="zone")
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        _require_open(encounter)
        running = encounter.status == MettleEncounter.Status.RUNNING
        combatant = MettleCombatant.objects.create(
            encounter=encounter, position=_next_position(encounter), name=name[:NAME_LENGTH],
            side=side, pool=pool, higher=[[k, v] for k, v in higher], armor_soak=armor_soak,
            is_mob=is_mob, members=members if is_mob else 1, zone=zone,
            joined_midway=running)
        if running:
            _record_join(encounter, combatant, by)
        else:
            _bump(encounter)
        return combatant


def set_zone(*, encounter_id: int, version: int | None, combatant_id: int, zone: str) -> None:
    """Where a combatant stands when the fight starts (setup only: later, Moves)."""
    zone = " ".join((zone or "").split())
    if len(zone) > engine.MAX_ZONE_LABEL:
        raise CampaignError(f"Keep the Zone's name to {engine.MAX_ZONE_LABEL} characters.",
                            "zone", field="zone")
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        if encounter.status != MettleEncounter.Status.SETUP:
            raise CampaignError("During Initiative a combatant changes Zone by moving.",
                                "not_setup")
        if not encounter.combatants.filter(pk=combatant_id).update(zone=zone):
            raise CampaignError("That combatant is not in this fight.", "combatant")
        _bump(encounter)


def remove(*, encounter_id: int, version: int | None, combatant_id: int) -> None:
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        if encounter.status != MettleEncounter.Status.SETUP:
            raise CampaignError("Combatants are taken out only before Initiative is "
                                "triggered.", "not_setup")
        deleted, _ = encounter.combatants.filter(pk=combatant_id).delete()
        if not deleted:
            raise CampaignError("That combatant is not in this fight.", "combatant")
        encounter.steps.filter(payload__key=str(combatant_id)).delete()
        _bump(encounter)


# --- steps ----------------------------------------------------------------------------------
def step(*, encounter_id: int, version: int | None, kind: str, payload: dict, by
         ) -> MettleInitiativeStep:
    """One step of the fight, validated by the rules engine against the replayed state."""
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        _require_open(encounter)
        steps = list(encounter.steps.order_by("number"))
        tracker = load(encounter, steps)
        if kind == "join":
            raise CampaignError("Add reinforcements with the form.", "join")
        if kind in ("damage", "burn"):  # soaked by the armour worn now, whatever the sheet
            # says later (AMB-M-INI-7)
            payload = {**payload, **engine.worn(tracker.scene, payload.get("key"))}
        try:
            scene = engine.apply_step(tracker.scene, kind, payload)
        except InitiativeError as error:
            raise _error(error) from None
        new_events = scene.state.log[len(tracker.state.log):]
        record = MettleInitiativeStep.objects.create(
            encounter=encounter, number=_next_number(steps), kind=kind, payload=payload,
            round=scene.state.round, created_by=by,
            text=" ".join(event.text for event in new_events))
        _bump(encounter, scene)
        if scene.state.phase == ENDED:
            _write_back(tracker, scene)
        return record


def _write_back(tracker: Tracker, scene: Scene) -> None:
    """Initiative over: the party's characters keep the fight's Mettle on their sheets
    (refilled if above zero: engine.end) and the statuses that outlast the Scene
    (AMB-M-STAT-1: Staggered while Mettle is 0 or below, Afflicted, Blinded...; Fallen
    follows from the Mettle, Rattled and Surprised end here)."""
    for row in tracker.rows:
        character = row.combatant.character
        if character is None:
            continue
        fighter = scene.state.fighter(row.key)
        mettle = None if fighter.hp >= fighter.hp_max else max(fighter.hp, -99)
        # updated_at too: the pages that poll the party (the Guide's screen) see the news.
        MettleCharacter.objects.filter(pk=character.pk).update(
            mettle_current=mettle, statuses=list(statuses_after_scene(fighter.statuses, mettle)),
            updated_at=timezone.now())


def fight_of(character_id: int) -> MettleEncounter | None:
    """The fight not yet ended the character is in, if any."""
    return (MettleEncounter.objects.filter(combatants__character_id=character_id)
            .exclude(status=MettleEncounter.Status.ENDED).first())


def record_affliction(*, encounter: MettleEncounter, character_id: int, change: int,
                      afflicted: bool | None, hazard_pk: int, source: str, by
                      ) -> MettleInitiativeStep:
    """The Hazards card's affliction (the dart, or a tick) on a character in this fight,
    recorded in the fight's ledger too (AMB-M-AFF-4): the fight's max Mettle and Afflicted
    follow it at once, and its end writes back what it makes of them. The caller holds the
    encounter's lock (then the character's), in one transaction."""
    steps = list(encounter.steps.order_by("number"))
    combatant = encounter.combatants.get(character_id=character_id)
    tracker = load(encounter, steps, pending={combatant.key: change})
    payload = {"key": combatant.key, "change": change, "hazard": hazard_pk,
               "source": source}
    if afflicted is not None:
        payload["afflicted"] = afflicted
    try:
        scene = engine.apply_step(tracker.scene, "affliction", payload)
    except InitiativeError as error:
        raise _error(error) from None
    record = MettleInitiativeStep.objects.create(
        encounter=encounter, number=_next_number(steps), kind="affliction", payload=payload,
        round=scene.state.round, created_by=by, text=scene.state.log[-1].text)
    _bump(encounter, scene)
    return record


def undo(*, encounter_id: int, version: int | None) -> MettleInitiativeStep:
    """Take back the last step (not the end of Initiative, which changed the sheets); an
    affliction's step takes its Hazards card row back with it."""
    with transaction.atomic():
        encounter = _locked(encounter_id, version)
        last = encounter.steps.order_by("-number").first()
        if last is None:
            raise CampaignError("There is no step to undo.", "nothing")
        if last.kind == "end":
            raise CampaignError("Initiative has ended and the sheets were updated; it cannot "
                                "be undone.", "ended")
        if last.kind == "affliction":
            from . import hazards  # the card's rows; hazards imports this module

            hazards.revert_for_fight(last.payload.get("hazard"))
        last.delete()
        if last.kind == "join":
            encounter.combatants.filter(pk=int(last.payload["key"])).delete()
        _bump(encounter, load(encounter).scene)
        return last
