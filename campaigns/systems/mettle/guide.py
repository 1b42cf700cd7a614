"""The Guide's tools for a METTLE Core campaign: writes (services) and the screen's reads.

GD §NPC Creation (NPC pools), §Faction Tracker (the Villain, Backer and Rival: Resources
1d6+3, the relations by d6, Faction Checks). The rules are rules/engine/mettle/guide.py;
this module stores the Guide's choices and the dice, and computes the rest from them.

Every write is keyword-only and one transaction; writes to the triangle lock its row
(select_for_update), so two clicks on two tabs run one after the other and the Resources
read inside are current. A `request_key` makes a write idempotent (the same submission
twice is recorded once). A refusal raises CampaignError with a stable code and the field
it belongs to; nothing is written then.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import Sum

from campaigns.models import Campaign
from campaigns.services import CampaignError, check_text, require_imp
from rules.engine.mettle import guide as engine
from rules.engine.mettle.checks import POOL_MAX, CheckRoll
from rules.engine.mettle.data import ARMOR, ATTRIBUTE_KEYS

from .guide_models import (
    NOTES_LENGTH,
    NPC_NAME_LENGTH,
    MettleFaction,
    MettleFactionCheck,
    MettleNpc,
    MettleRelation,
    MettleResourcesEntry,
    MettleTriangle,
)

# The table's dice: the operating system's source. Tests pass a seeded random.Random.
RNG = random.SystemRandom()
ARMOUR_SOAK = {armor.name: armor.soak for armor in ARMOR}
NOTE_LENGTH = 300
Kind = MettleResourcesEntry.Kind


def _rng(rng: random.Random | None) -> random.Random:
    return rng if rng is not None else RNG


def _d6(rng: random.Random, count: int = 1) -> list[int]:
    return [rng.randint(1, 6) for _ in range(count)]


def _guide(campaign: Campaign | int, by, what: str) -> None:
    require_imp(campaign, by, what)


def _create(model, request_key: str | None, **fields):
    """One row, or the row an earlier submission with the same key made."""
    if request_key:
        existing = model.objects.filter(request_key=request_key).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            return model.objects.create(request_key=request_key or None, **fields), True
    except IntegrityError as error:
        raise CampaignError("That request was already used for something else.",
                            "request_key_reused") from error


# -- NPC pools -----------------------------------------------------------------------------


def npc_pool(npc: MettleNpc) -> engine.NpcPool:
    """The engine's NPC pool of a saved NPC."""
    higher = ((npc.higher_attribute, npc.higher_pool),) if npc.higher_attribute else ()
    return engine.NpcPool(npc.name, npc.pool, higher)


@dataclass(frozen=True)
class NpcLine:
    npc: MettleNpc
    pool: engine.NpcPool
    soak: int
    armour_soak: int

    @property
    def mettle(self) -> int:
        return self.pool.mettle


def npc_line(npc: MettleNpc) -> NpcLine:
    armour_soak = ARMOUR_SOAK.get(npc.armour, 0)
    pool = npc_pool(npc)
    return NpcLine(npc=npc, pool=pool, soak=engine.npc_soak(pool, armour_soak),
                   armour_soak=armour_soak)


def _check_npc(*, name: str, pool: int, higher_attribute: str, higher_pool: int | None,
               armour: str, notes: str) -> dict:
    name = check_text(name, field="name", length=NPC_NAME_LENGTH,
                      required="Give the NPC a name.")
    notes = check_text(notes, field="notes", length=NOTES_LENGTH)
    if not 1 <= pool <= POOL_MAX:
        raise CampaignError(f"An NPC pool is 1 to {POOL_MAX} dice.", "pool_range",
                            field="pool")
    higher_attribute = higher_attribute or ""
    if higher_attribute and higher_attribute not in ATTRIBUTE_KEYS:
        raise CampaignError("Choose one of the five Attributes.", "no_such_attribute",
                            field="higher_attribute")
    if bool(higher_attribute) != (higher_pool is not None):
        field = "higher_pool" if higher_attribute else "higher_attribute"
        raise CampaignError("Give both the higher Attribute and its pool, or neither.",
                            "higher_incomplete", field=field)
    if higher_pool is not None and not pool < higher_pool <= POOL_MAX:
        raise CampaignError(f"The noted Attribute is higher than the pool ({pool}D), at "
                            f"most {POOL_MAX}.", "higher_not_higher", field="higher_pool")
    if armour and armour not in ARMOUR_SOAK:
        raise CampaignError("Choose armour from the list.", "no_such_armour", field="armour")
    return {"name": name, "pool": pool, "higher_attribute": higher_attribute,
            "higher_pool": higher_pool, "armour": armour or "", "notes": notes}


@transaction.atomic
def npc_create(*, campaign: Campaign, by, name: str, pool: int, higher_attribute: str = "",
               higher_pool: int | None = None, armour: str = "", notes: str = "",
               request_key: str | None = None) -> MettleNpc:
    """The Guide saves a named NPC pool for the campaign."""
    _guide(campaign, by, "keep NPC pools")
    fields = _check_npc(name=name, pool=pool, higher_attribute=higher_attribute,
                        higher_pool=higher_pool, armour=armour, notes=notes)
    npc, _ = _create(MettleNpc, request_key, campaign=campaign, created_by=by, **fields)
    return npc


@transaction.atomic
def npc_update(*, npc: MettleNpc, by, name: str, pool: int, higher_attribute: str = "",
               higher_pool: int | None = None, armour: str = "",
               notes: str = "") -> MettleNpc:
    _guide(npc.campaign_id, by, "edit NPC pools")
    npc = MettleNpc.objects.select_for_update().get(pk=npc.pk)
    for field, value in _check_npc(name=name, pool=pool, higher_attribute=higher_attribute,
                                   higher_pool=higher_pool, armour=armour,
                                   notes=notes).items():
        setattr(npc, field, value)
    npc.save()
    return npc


@transaction.atomic
def npc_delete(*, npc: MettleNpc, by) -> None:
    _guide(npc.campaign_id, by, "delete NPC pools")
    MettleNpc.objects.filter(pk=npc.pk).delete()  # twice is the same as once


# -- the Faction triangle ---------------------------------------------------------------------


def _lock_triangle(campaign: Campaign | int) -> MettleTriangle | None:
    pk = campaign if isinstance(campaign, int) else campaign.pk
    return MettleTriangle.objects.select_for_update().filter(campaign_id=pk).first()


@transaction.atomic
def triangle_roll(*, campaign: Campaign, by, rng: random.Random | None = None
                  ) -> MettleTriangle:
    """GD §Faction Tracker: a seed name for each Faction (FACTION SEEDS, a d6 each), its
    Resources (1d6+3, the lowest die to the Rival) and the six relations (a d6 each,
    AMB-M-GD-1). Once per campaign: asked again, the triangle already rolled answers."""
    _guide(campaign, by, "roll the Faction triangle")
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    existing = MettleTriangle.objects.filter(campaign=campaign).first()
    if existing is not None:
        return existing
    rng = _rng(rng)
    resource_dice = _d6(rng, 3)
    resources = engine.faction_resources(resource_dice)
    # The die each Faction got: the lowest to the Rival, the others in the order rolled.
    remaining = list(resource_dice)
    rival_die = remaining.pop(remaining.index(min(remaining)))
    dice = {engine.VILLAIN: remaining[0], engine.BACKER: remaining[1], engine.RIVAL: rival_die}
    triangle = MettleTriangle.objects.create(campaign=campaign, created_by=by)
    for column, role in enumerate((engine.VILLAIN, engine.BACKER, engine.RIVAL)):
        seed = _d6(rng)[0]
        faction = MettleFaction.objects.create(
            triangle=triangle, role=role, name=engine.FACTION_SEEDS[seed][column],
            seed_roll=seed)
        MettleResourcesEntry.objects.create(
            faction=faction, kind=Kind.ROLL, change=resources[role], die=dice[role],
            note=f"1d6+3: {dice[role]}+{engine.RESOURCES_BASE}", created_by=by)
    for (source, target), roll in zip(engine.RELATION_ARROWS, _d6(rng, 6), strict=True):
        MettleRelation.objects.create(triangle=triangle, source=source, target=target,
                                      roll=roll)
    return triangle


def resources_of(triangle: MettleTriangle) -> dict[str, int]:
    """Each Faction's Resources: the sum of its ledger."""
    sums = dict(MettleResourcesEntry.objects.filter(faction__triangle=triangle)
                .values_list("faction__role").annotate(total=Sum("change")))
    return {role: sums.get(role, 0) for role in engine.FACTIONS}


def _faction(triangle: MettleTriangle, role: str) -> MettleFaction:
    faction = triangle.factions.filter(role=role).first()
    if faction is None:
        raise CampaignError("Choose the Villain, the Backer or the Rival.", "no_such_faction",
                            field="faction")
    return faction


@transaction.atomic
def faction_rename(*, campaign: Campaign, by, role: str, name: str) -> MettleFaction:
    _guide(campaign, by, "name the Factions")
    triangle = _lock_triangle(campaign)
    if triangle is None:
        raise CampaignError("Roll the Faction triangle first.", "no_triangle")
    faction = _faction(triangle, role)
    faction.name = check_text(name, field="name", length=NPC_NAME_LENGTH,
                              required="Give the Faction a name.")
    faction.save(update_fields=["name"])
    return faction


@transaction.atomic
def resources_adjust(*, campaign: Campaign, by, role: str, change: int, note: str = "",
                     request_key: str | None = None) -> MettleResourcesEntry:
    """The Guide changes a Faction's Resources ("these change only from extremely
    impactful events"): a ledger row, kept between 0 and the largest pool (AMB-M-GD-3)."""
    _guide(campaign, by, "change a Faction's Resources")
    triangle = _lock_triangle(campaign)
    if triangle is None:
        raise CampaignError("Roll the Faction triangle first.", "no_triangle")
    if request_key:
        existing = MettleResourcesEntry.objects.filter(request_key=request_key).first()
        if existing is not None:
            return existing
    faction = _faction(triangle, role)
    if change == 0:
        raise CampaignError("A change of 0 changes nothing.", "no_change", field="change")
    note = check_text(note, field="note", length=NOTE_LENGTH)
    try:
        engine.resources_after(resources_of(triangle)[role], change)
    except ValueError as error:
        raise CampaignError(str(error), "resources_range", field="change") from error
    entry, _ = _create(MettleResourcesEntry, request_key, faction=faction,
                       kind=Kind.ADJUSTMENT, change=change, note=note, created_by=by)
    return entry


@transaction.atomic
def resources_undo(*, campaign: Campaign, by, entry_pk: int) -> MettleResourcesEntry:
    """The Guide undoes a roll or an adjustment with a reversal pointing at it; a
    reversal is never reversed and an entry is reversed once (a second click finds the
    first reversal)."""
    _guide(campaign, by, "undo a Resources change")
    triangle = _lock_triangle(campaign)
    entry = (MettleResourcesEntry.objects.select_related("faction")
             .filter(pk=entry_pk, faction__triangle=triangle).first()
             if triangle is not None else None)
    if entry is None:
        raise CampaignError("That Resources entry does not exist.", "no_such_entry")
    if entry.kind == Kind.REVERSAL:
        raise CampaignError("An undo is not undone; change the Resources instead.",
                            "reversal")
    done = MettleResourcesEntry.objects.filter(reverses=entry).first()
    if done is not None:
        return done
    role = entry.faction.role
    try:
        engine.resources_after(resources_of(triangle)[role], -entry.change)
    except ValueError as error:
        raise CampaignError(str(error), "resources_range") from error
    return MettleResourcesEntry.objects.create(
        faction=entry.faction, kind=Kind.REVERSAL, change=-entry.change, reverses=entry,
        note=f"undoes: {entry.note or entry.get_kind_display()}"[:NOTE_LENGTH],
        created_by=by)


def sitting_out(triangle: MettleTriangle) -> set[str]:
    """The Factions that sit out this Faction turn: those whose Check in the turn before
    called a Twist (GD: "dealing with the fallout from their plotting instead of taking
    part in the next Faction turn"; AMB-M-GD-2)."""
    return set(MettleFactionCheck.objects.filter(
        triangle=triangle, turn=triangle.turn - 1, twist_faces__isnull=False)
        .values_list("actor", flat=True))


def check_roll(check: MettleFactionCheck) -> CheckRoll:
    return engine.faction_check(len(check.faces), check.difficulty, check.faces,
                                check.twist_faces)


@transaction.atomic
def faction_check_make(*, campaign: Campaign, by, actor: str, target: str,
                       rng: random.Random | None = None,
                       request_key: str | None = None) -> MettleFactionCheck:
    """A Faction Checks its Resources against the other's Resources as Difficulty."""
    _guide(campaign, by, "roll Faction Checks")
    triangle = _lock_triangle(campaign)
    if triangle is None:
        raise CampaignError("Roll the Faction triangle first.", "no_triangle")
    if request_key:
        existing = MettleFactionCheck.objects.filter(request_key=request_key).first()
        if existing is not None:
            return existing
    for field, role in (("actor", actor), ("target", target)):
        if role not in engine.FACTIONS:
            raise CampaignError("Choose the Villain, the Backer or the Rival.",
                                "no_such_faction", field=field)
    if actor == target:
        raise CampaignError("A Faction Checks against another Faction.", "same_faction",
                            field="target")
    if actor in sitting_out(triangle):
        raise CampaignError(f"The {engine.FACTION_NAMES[actor]} sits out this Faction turn "
                            "(its Twist last turn).", "sits_out", field="actor")
    resources = resources_of(triangle)
    faces = _d6(_rng(rng), resources[actor])
    engine.faction_check(resources[actor], resources[target], faces)
    check, _ = _create(MettleFactionCheck, request_key, triangle=triangle,
                       turn=triangle.turn, actor=actor, target=target,
                       difficulty=resources[target], faces=faces, created_by=by)
    return check


@transaction.atomic
def faction_check_twist(*, campaign: Campaign, by, check_pk: int,
                        rng: random.Random | None = None) -> MettleFactionCheck:
    """A Twist on a failed Faction Check with Edge: its Edge dice rerolled (EN §Twists),
    once (AMB-M9); the Faction then sits out the next Faction turn (AMB-M-GD-2)."""
    _guide(campaign, by, "call Twists on Faction Checks")
    triangle = _lock_triangle(campaign)
    check = (MettleFactionCheck.objects.filter(pk=check_pk, triangle=triangle).first()
             if triangle is not None else None)
    if check is None:
        raise CampaignError("That Faction Check does not exist.", "no_such_check")
    if check.twist_faces is not None:
        return check  # a second click: the Twist is already called
    roll = check_roll(check)
    if not roll.may_twist:
        raise CampaignError("A Twist is called only on a failure with Edge.", "no_twist")
    check.twist_faces = _d6(_rng(rng), roll.first_edge)
    check_roll(check)
    check.save(update_fields=["twist_faces"])
    return check


@transaction.atomic
def faction_turn_next(*, campaign: Campaign, by, turn: int) -> MettleTriangle:
    """The next Faction turn. `turn` is the turn the page showed: a second click on the
    same page finds the turn already moved on and changes nothing."""
    _guide(campaign, by, "move the Faction turn on")
    triangle = _lock_triangle(campaign)
    if triangle is None:
        raise CampaignError("Roll the Faction triangle first.", "no_triangle")
    if turn == triangle.turn:
        triangle.turn += 1
        triangle.save(update_fields=["turn"])
    return triangle


# -- the screen's reads ------------------------------------------------------------------------


@dataclass(frozen=True)
class FactionLine:
    faction: MettleFaction
    resources: int
    sits_out: bool
    entries: list


@dataclass(frozen=True)
class RelationLine:
    source: str
    target: str
    roll: int
    name: str
    elaboration: str

    @property
    def source_name(self) -> str:
        return engine.FACTION_NAMES[self.source]

    @property
    def target_name(self) -> str:
        return engine.FACTION_NAMES[self.target]


@dataclass(frozen=True)
class CheckLine:
    check: MettleFactionCheck
    roll: CheckRoll


def percent(chance: Fraction) -> str:
    """An exact chance as the table reads it: "37.5%" (the exact fraction is shown
    beside it by the template)."""
    return f"{float(chance) * 100:.1f}%"


def triangle_view(campaign: Campaign) -> dict | None:
    """The triangle as the Guide's screen shows it, or None before it is rolled."""
    triangle = MettleTriangle.objects.filter(campaign=campaign).first()
    if triangle is None:
        return None
    resources = resources_of(triangle)
    out = sitting_out(triangle)
    entries: dict[int, list] = {}
    for entry in (MettleResourcesEntry.objects.filter(faction__triangle=triangle)
                  .select_related("created_by").order_by("created_at", "pk")):
        entries.setdefault(entry.faction_id, []).append(entry)
    reversed_ids = {e.reverses_id for es in entries.values() for e in es if e.reverses_id}
    for es in entries.values():
        for e in es:
            e.undone = e.pk in reversed_ids
    order = {role: i for i, role in enumerate(engine.FACTIONS)}
    factions = sorted(triangle.factions.all(), key=lambda f: order[f.role])
    lines = [FactionLine(f, resources[f.role], f.role in out, entries.get(f.pk, []))
             for f in factions]
    names = {f.role: f.name for f in factions}
    relations = []
    for relation in triangle.relations.all():
        name, elaboration = engine.faction_relation(relation.roll)
        relations.append(RelationLine(relation.source, relation.target, relation.roll,
                                      name, elaboration))
    arrow = {arrow: i for i, arrow in enumerate(engine.RELATION_ARROWS)}
    relations.sort(key=lambda r: arrow.get((r.source, r.target), 99))
    odds = []
    for actor in engine.FACTIONS:
        for target in engine.FACTIONS:
            if actor != target:
                o = engine.faction_check_odds(resources, actor, target)
                odds.append({"actor": actor, "target": target,
                             "actor_name": engine.FACTION_NAMES[actor],
                             "target_name": engine.FACTION_NAMES[target], "dice": resources[actor],
                             "difficulty": resources[target], "p": o.p_success,
                             "p_twist": o.p_success_with_twist,
                             "p_text": percent(o.p_success),
                             "p_twist_text": percent(o.p_success_with_twist)})
    checks = [CheckLine(c, check_roll(c)) for c in triangle.checks.all()[:10]]
    return {"triangle": triangle, "factions": lines, "names": names,
            "relations": relations, "odds": odds, "checks": checks}
