"""The Guide's screen (issue #15): what happens inside an Exploration Turn, in social scenes
and in Chases, recorded in the Turn log (turns.py).

Every write here is the Guide's, in one transaction with the Company's row locked
(`company.lock_company`). An Exploration Turn is declared with `turns.declare`; every
other action is recorded onto the newest Turn of the log: a `turns.note` for the log, the
scene's public state in `turn.state`, the Guide's secrets in `turn.secret`, and what it
changes on an Errant through `turns.change_*` (spiked locks and traps: HP; harvesting: a
line's quantity), so the Turn's undo puts it back.

A page names the newest Turn it showed (`turn_pk`): if the log moved on, the action is
refused as stale. A `request_key` already used on the Turn (kept in
`turn.secret["screen_keys"]`) counts a double submission once.

The keys of `turn.state` written here: "pace" (the Exploration Turn's Pace), "stealth",
"illumination", "door", "breaking_door" (True while a door is being broken down: the
Event Die panel adds one negative Event Die, XT §Doors), "door_break", "lock" (the
picking's progress; the lock's sequence and modifier are in `turn.secret["lock"]`),
"trap", "harvest", "reaction" and "negotiation" (in `turn.secret` instead when the Guide
rolled the Reaction secretly), "chase".

Rules: engines rules/engine/errant/exploration.py (XT), reactions.py (PR §Reaction Rolls,
§Negotiations), chases.py (IT §Chases); the numbers come from there.
"""

from __future__ import annotations

import random
from dataclasses import asdict
from fractions import Fraction

from django.db import transaction

from campaigns.models import Campaign
from campaigns.services import CampaignError, check_text
from characters.models import InventoryItem
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.inventory import carried_lines
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import archetypes, chases, exploration, reactions
from rules.engine.errant.checks import succeeds
from rules.engine.errant.data.downtime_tables import (
    DEFAULT_DISPOSITION_BANDS,
    DISPOSITION_NAMES,
    DISPOSITIONS,
)

from . import turns
from .company import lock_company, members, require_guide
from .turn_models import ErrantTurn

BANDS_KEY = "errant_disposition_bands"  # Campaign.settings: the Guide's 2D6 band tops
KEYS_KEPT = 100  # request keys remembered on a Turn
NAME_LENGTH = 60
MAX_RUNNERS = 12  # a side of a Chase, as listed on the screen
MAX_DICE = 8  # movement dice of an NPC (the engine enumerates 4^dice outcomes)
MAX_NUMBER = 99  # Attributes, MV, Threat, dungeon levels, damage typed by the Guide
ATTRIBUTES = ("phys", "skill", "mind", "pres")


def odds(chance: Fraction) -> str:
    """An exact chance as the fraction and the percent: "3/10 (30%)", "0 (0%)"."""
    percent = f"{float(chance) * 100:.1f}".rstrip("0").rstrip(".")
    if chance.denominator == 1:  # never and always
        return f"{chance.numerator} ({percent}%)"
    return f"{chance.numerator}/{chance.denominator} ({percent}%)"


def _d(rng, faces: int) -> int:
    return rng.randint(1, faces)


def _rng(rng):
    return rng or random.SystemRandom()


# -- the scene: the newest Turn, locked --------------------------------------------------


def _scene(campaign: Campaign, by, what: str, *, turn_pk: int | None,
           request_key: str | None) -> tuple[ErrantTurn, bool]:
    """The newest Turn, with the Company locked; True when `request_key` was seen."""
    require_guide(campaign, by, what)
    company = lock_company(campaign)
    turn = turns.latest(company)
    if turn is None:
        raise CampaignError("Start a Turn first: the screen records onto the newest Turn "
                            "of the log.", "no_turn")
    if turn_pk is not None and turn.pk != turn_pk:
        raise CampaignError("The Turn log moved on since this page was loaded (another "
                            "click or another Guide): here it is again.", "stale")
    keys = list(turn.secret.get("screen_keys", []))
    if request_key and request_key in keys:
        return turn, True
    if request_key:
        turn.secret["screen_keys"] = [*keys, request_key][-KEYS_KEPT:]
    return turn, False


def _save(turn: ErrantTurn) -> None:
    turn.save(update_fields=["state", "secret", "updated_at"])


def _errant(campaign: Campaign, pk, field: str) -> ErrantCharacter:
    errant = ErrantCharacter.objects.filter(pk=pk, campaign=campaign).first() if pk else None
    if errant is None or errant.system != "errant":
        raise CampaignError("Choose an Errant of the Company.", f"{field}_unknown", field=field)
    return errant


def _stat(sheet, name: str) -> int:
    value = sheet.stats[name].value
    return value if isinstance(value, int) else 0


def masters(errant: ErrantCharacter, proficiency: str) -> bool:
    """A Deviant with 2 points in the Proficiency (ER §The Deviant, mastery)."""
    return archetypes.has_mastery(sheet_for(errant).build, proficiency)


def _number(value, field: str, low: int = 0, high: int = MAX_NUMBER) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CampaignError(f"Give a whole number from {low} to {high}.", f"{field}_range",
                            field=field)
    return value


def _hp_now(errant: ErrantCharacter, sheet) -> int:
    return errant.hp_current if errant.hp_current is not None else _stat(sheet, "hp_max")


def _damage(turn: ErrantTurn, errant: ErrantCharacter, damage: int, label: str) -> dict:
    """HP lost by an Errant, through the Turn log (so the Turn's undo puts it back)."""
    errant = ErrantCharacter.objects.select_for_update().get(pk=errant.pk)
    before = _hp_now(errant, sheet_for(errant))
    after = max(0, before - damage)
    turns.change_hp(turn, errant, after, f"{errant.display_name}: {label}", before=before)
    return {"before": before, "after": after}


# -- Exploration: the Turn and its Pace (XT §Pace) -----------------------------------------


@transaction.atomic
def start_exploration(*, campaign: Campaign, by, activity: str = "",
                      pace: list[str] | tuple[str, ...] = (), zoom: bool = False,
                      seen: int | None = None, request_key: str | None = None) -> ErrantTurn:
    """Declare an Exploration Turn with its Pace; `zoom`: from the newest Travel Turn."""
    require_guide(campaign, by, "start an Exploration Turn")
    try:
        result = exploration.exploration_pace(tuple(pace))
    except ValueError as error:
        raise CampaignError(f"{error}.", "pace_bad", field="pace") from error
    parent = None
    if zoom:
        company = lock_company(campaign)
        travel = company.turns.filter(kind=ErrantTurn.Kind.TRAVEL,
                                      undone_at__isnull=True).order_by("-number").first()
        if travel is None:
            raise CampaignError("There is no Travel Turn to zoom in from.", "no_travel",
                                field="zoom")
        parent = travel.pk
    state = {"pace": {"keys": list(pace), "pace": str(result.pace),
                      "positive": result.positive_dice, "negative": result.negative_dice,
                      "detects": result.detects, "overlooks": result.overlooks,
                      "no_mapping": result.no_mapping,
                      "names": [m.name for m in result.modifiers]}}
    turn = turns.declare(campaign=campaign, kind="exploration", by=by, activity=activity,
                         parent=parent, state=state, seen=seen, request_key=request_key)
    if not turn.changes.exists():
        named = ", ".join(m.name.lower() for m in result.modifiers) or "normal"
        turns.note(turn, f"Pace {result.pace} ({named})")
    return turn


# -- Stealth (XT §Stealth) ---------------------------------------------------------------


@transaction.atomic
def stealth(*, campaign: Campaign, by, roller: int, group: list[int] | None = None,
            secret: bool = False, turn_pk: int | None = None, request_key: str | None = None,
            rng=None) -> dict | None:
    """One Errant (DV = their Encumbrance) or a group (one rolls, DV = the group's total
    Encumbrance / 2): a skill Check, rolled."""
    turn, repeated = _scene(campaign, by, "roll stealth", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    who = _errant(campaign, roller, "roller")
    sheet = sheet_for(who)
    if group:
        if who.pk not in group:
            raise CampaignError("The one rolling is a member of the group.", "roller_out",
                                field="roller")
        sheets = [sheet_for(_errant(campaign, pk, "group")) for pk in dict.fromkeys(group)]
        dv = exploration.group_stealth_dv([_stat(s, "encumbrance") for s in sheets])
        whom = f"the group of {len(sheets)} ({who.display_name} rolls)"
    else:
        dv = exploration.stealth_dv(_stat(sheet, "encumbrance"))
        whom = who.display_name
    skill = _stat(sheet, "skill")
    roll = _d(_rng(rng), 20)
    ok = succeeds(roll, skill, dv)
    result = {"who": whom, "skill": skill, "dv": dv, "roll": roll, "success": ok,
              "chance": odds(exploration.p_stealth(skill, dv))}
    (turn.secret if secret else turn.state)["stealth"] = result
    turns.note(turn, f"Stealth, {whom}: skill {skill} vs DV {dv}, d20 {roll}: "
               f"{'unnoticed' if ok else 'noticed'}", character=who, secret=secret)
    _save(turn)
    return result


# -- Illumination (XT §Illumination) -----------------------------------------------------


def lights(errants) -> list[InventoryItem]:
    """The members' lights with Burn left (an ErrantItem of kind "light")."""
    found = []
    for errant in errants:
        for line in carried_lines(errant):
            side = getattr(line, "errant_item", None)
            if side is not None and side.kind == "light" and (side.uses or 0) > 0:
                line.owner_name = errant.display_name
                found.append(line)
    return found


@transaction.atomic
def illuminate(*, campaign: Campaign, by, lit: list[int], discreet: bool = False,
               turn_pk: int | None = None, request_key: str | None = None) -> dict | None:
    """Bright when the lit lights' Burn reaches the Company's size, dim under half of it,
    normal between (exploration.illumination)."""
    turn, repeated = _scene(campaign, by, "set the light", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    errants = members(campaign)
    if not errants:
        raise CampaignError("The Company has no Errant yet.", "no_members", field="lit")
    by_pk = {line.pk: line for line in lights(errants)}
    chosen = [by_pk[pk] for pk in dict.fromkeys(lit) if pk in by_pk]
    if len(chosen) != len(set(lit)):
        raise CampaignError("Choose among the Company's lights with Burn left.",
                            "lit_unknown", field="lit")
    burn = sum(line.errant_item.uses or 0 for line in chosen)
    try:
        level = exploration.illumination(burn, len(errants), discreet_single=discreet)
    except ValueError as error:
        raise CampaignError(f"{str(error).capitalize()}.", "discreet_bad",
                            field="discreet") from error
    turn.state["illumination"] = {"lit": [line.pk for line in chosen],
                                  "names": [line.name for line in chosen], "burn": burn,
                                  "members": len(errants), "level": level}
    turns.note(turn, f"Light: {level} (Burn {burn} for {len(errants)} Errant(s))")
    _save(turn)
    return turn.state["illumination"]


# -- Doors (XT §Doors) --------------------------------------------------------------------


@transaction.atomic
def force_door(*, campaign: Campaign, by, forcer: int, helpers: list[int] = (),
               prybar: bool = False, prybar_helper: int | None = None, width_ft: int = 5,
               base: int = exploration.STUCK_DOOR_DV, turn_pk: int | None = None,
               request_key: str | None = None, rng=None) -> dict | None:
    """A phys Check to force a stuck door (each attempt an Exploration Turn)."""
    turn, repeated = _scene(campaign, by, "force a door", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    _number(width_ft, "width", 5, 200)
    _number(base, "base", 0, 20)
    who = _errant(campaign, forcer, "forcer")
    helper_errants = [_errant(campaign, pk, "helpers") for pk in dict.fromkeys(helpers)]
    if who in helper_errants:
        raise CampaignError("The one forcing the door does not also help.", "helper_self",
                            field="helpers")
    pry = _errant(campaign, prybar_helper, "prybar_helper") if prybar_helper else None
    try:
        door = exploration.force_door(
            [_stat(sheet_for(h), "phys") for h in helper_errants], base=base,
            width_ft=width_ft, prybar=prybar,
            prybar_helper_phys=_stat(sheet_for(pry), "phys") if pry else None)
    except ValueError as error:
        raise CampaignError(f"{str(error).capitalize()}.", "door_bad", field="prybar_helper"
                            ) from error
    phys = _stat(sheet_for(who), "phys")
    roll = _d(_rng(rng), 20)
    ok = succeeds(roll, phys, door.dv)
    result = {"who": who.display_name, "phys": phys, "dv": door.dv, "roll": roll,
              "success": ok, "terms": [list(t) for t in door.terms],
              "refused": list(door.refused), "chance": odds(exploration.p_force_door(phys, door))}
    turn.state["door"] = result
    turns.note(turn, f"Stuck door, {who.display_name} forces it: phys {phys} vs DV {door.dv}, "
               f"d20 {roll}: {'open' if ok else 'still stuck (the attempt took the Turn)'}",
               character=who)
    _save(turn)
    return result


@transaction.atomic
def break_door(*, campaign: Campaign, by, material: str = "wood",
               inappropriate_tools: bool = False, turn_pk: int | None = None,
               request_key: str | None = None) -> dict | None:
    """Breaking a door down: Turns (two for wood) and one negative Event Die
    (turn.state["breaking_door"], read by the Event Die panel)."""
    turn, repeated = _scene(campaign, by, "break a door", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    try:
        result = exploration.break_door(material, inappropriate_tools=inappropriate_tools)
    except ValueError as error:
        raise CampaignError("A door is wood, stone or metal.", "material_bad",
                            field="material") from error
    turn.state["breaking_door"] = True
    turn.state["door_break"] = {"material": material, **asdict(result)}
    takes = (f"{result.turns} Exploration Turns" if result.turns
             else "considerably longer (the Guide's call)")
    tools = "; -1 Quality a Turn to the weapons used" if result.quality_loss_per_turn else ""
    turns.note(turn, f"Breaking down a {material} door: {takes}, one negative Event Die "
               f"on this Turn's roll{tools}")
    _save(turn)
    return turn.state["door_break"]


# -- Locks (XT §Lockpicking) -------------------------------------------------------------


@transaction.atomic
def new_lock(*, campaign: Campaign, by, d12s: tuple[int, int, int] | None = None,
             turn_pk: int | None = None, request_key: str | None = None, rng=None
             ) -> dict | None:
    """A lock from three d12s (material, sequence, modifier), rolled unless given."""
    turn, repeated = _scene(campaign, by, "set a lock", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    faces = tuple(d12s) if d12s else tuple(_d(_rng(rng), 12) for _ in range(3))
    try:
        lock = exploration.generate_lock(*faces)
    except (ValueError, TypeError) as error:
        raise CampaignError("Three d12s, each 1 to 12.", "d12_bad", field="d12s") from error
    turn.secret["lock"] = {"d12s": list(faces), "material": lock.material,
                           "sequence": list(lock.sequence), "modifier": lock.modifier}
    turn.state["lock"] = {"material": lock.material, **asdict(exploration.LockState()),
                          "open": False, "steps": []}
    turns.note(turn, f"A {lock.material.lower()} lock")
    turns.note(turn, f"The lock: d12s {', '.join(map(str, faces))}: "
               f"{'-'.join(lock.sequence)}, {lock.modifier}", secret=True)
    _save(turn)
    return turn.state["lock"]


def lock_of(turn: ErrantTurn | None) -> tuple[exploration.Lock, exploration.LockState] | None:
    if turn is None or "lock" not in turn.secret or "lock" not in turn.state:
        return None
    kept, now = turn.secret["lock"], turn.state["lock"]
    lock = exploration.Lock(kept["material"], tuple(kept["sequence"]), kept["modifier"])
    return lock, exploration.LockState(now["progress"], now["stiff"], now["jammed"],
                                       now["wrongs"], now["jams_ignored"])


@transaction.atomic
def pick_lock(*, campaign: Campaign, by, action: str, picker: int,
              turn_pk: int | None = None, request_key: str | None = None, rng=None
              ) -> dict | None:
    """One twist, tap or turn. A wrong action at a spiked lock: D4 damage to the picker.
    A Locksmith picker (Engineering mastery) ignores the first jam (AMB-E-LOCKSMITH)."""
    turn, repeated = _scene(campaign, by, "pick a lock", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    found = lock_of(turn)
    if found is None:
        raise CampaignError("Set a lock first.", "no_lock", field="action")
    lock, state = found
    who = _errant(campaign, picker, "picker")
    locksmith = masters(who, "engineering")
    try:
        after = exploration.pick(lock, state, action, locksmith=locksmith)
    except ValueError as error:
        raise CampaignError(f"{str(error).capitalize()}.", "pick_bad", field="action") from error
    right = after.progress > state.progress
    # A jam the lock itself ignores (Weathered) stays the Guide's secret; the Locksmith's
    # is the picker's own doing and is said.
    spared = (after.jams_ignored > state.jams_ignored
              and state.jams_ignored >= exploration.jams_ignorable(lock))
    step = {"action": action, "right": right, "who": who.display_name, "damage": None,
            "locksmith": spared}
    outcome = ("right" if right else "wrong") + (
        ": open" if after.open else ": jammed" if after.jammed
        else ": it would jam, the Locksmith ignores the first jam" if spared
        else ": stiff" if after.stiff and not state.stiff else "")
    if not right and exploration.spiked_damage(lock, 1):
        damage = _d(_rng(rng), 4)
        step["damage"] = damage
        hp = _damage(turn, who, damage, f"spiked lock, D4 {damage} damage")
        outcome += f", spikes: D4 {damage} damage (HP {hp['before']} to {hp['after']})"
    turn.state["lock"] = {**turn.state["lock"], **asdict(after), "open": after.open,
                          "steps": [*turn.state["lock"]["steps"], step]}
    turns.note(turn, f"{who.display_name} tries to {action} the lock: {outcome} "
               f"({after.progress}/3)", character=who)
    _save(turn)
    return turn.state["lock"]


# -- Traps (XT §Traps) -------------------------------------------------------------------


@transaction.atomic
def trap(*, campaign: Campaign, by, errant: int, attribute: str, level: int, damage: int = 0,
         secret: bool = False, turn_pk: int | None = None, request_key: str | None = None,
         rng=None) -> dict | None:
    """A Save against a trap, DV = the dungeon level; on a failure the damage the Guide
    gave (0: none) is taken from the Errant's HP."""
    turn, repeated = _scene(campaign, by, "spring a trap", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    if attribute not in ATTRIBUTES:
        raise CampaignError("Choose phys, skill, mind or pres.", "attribute_bad", field="attribute")
    _number(level, "level")
    _number(damage, "damage")
    who = _errant(campaign, errant, "errant")
    value = _stat(sheet_for(who), attribute)
    dv = exploration.trap_dv(level)
    roll = _d(_rng(rng), 20)
    ok = succeeds(roll, value, dv)
    result = {"who": who.display_name, "attribute": attribute, "value": value, "dv": dv,
              "level": level, "roll": roll, "success": ok,
              "chance": odds(exploration.p_avoid_trap(value, level)), "hp": None}
    label = (f"Trap, {who.display_name} saves with {attribute} {value} vs DV {dv}, d20 "
             f"{roll}: {'avoided' if ok else 'sprung'}")
    turns.note(turn, label, character=who, secret=secret)
    if not ok and damage:
        result["hp"] = _damage(turn, who, damage, f"trap, {damage} damage")
    (turn.secret if secret else turn.state)["trap"] = result
    _save(turn)
    return result


# -- Harvesting (XT §Harvesting Materials) -----------------------------------------------


@transaction.atomic
def harvest(*, campaign: Campaign, by, errant: int, threat: int, held: int = 0,
            line: int | None = None, turn_pk: int | None = None,
            request_key: str | None = None, rng=None) -> dict | None:
    """Active components from a creature: skill vs half its Threat. A success adds one to
    the line chosen (the Errant's components), through the log; the kit holds four, six
    for a Chemist (Anatomy mastery, ER §The Deviant)."""
    turn, repeated = _scene(campaign, by, "harvest", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    _number(threat, "threat")
    _number(held, "held", 0, exploration.CHEMIST_KIT_COMPONENTS)
    who = _errant(campaign, errant, "errant")
    sheet = sheet_for(who)
    chemist = archetypes.has_mastery(sheet.build, "anatomy")
    capacity = exploration.kit_capacity(chemist=chemist)
    whose = f"{who.display_name}'s kit holds {capacity}" + (" (Chemist)" if chemist else "")
    if held > capacity:
        raise CampaignError(f"{whose} components at most, not {held}.", "held_over",
                            field="held")
    components = exploration.creature_components(threat)
    if not exploration.kit_room(held, components, chemist=chemist):
        raise CampaignError(f"This component counts {components} toward the kit; {whose} "
                            f"and has {held} already.", "kit_full", field="held")
    target = None
    if line:
        target = (InventoryItem.objects.select_for_update()
                  .filter(pk=line, character_id=who.pk, dropped=False).first())
        if target is None:
            raise CampaignError("Choose a line the harvesting Errant carries.",
                                "line_unknown", field="line")
    skill = _stat(sheet, "skill")
    dv = exploration.harvest_dv(threat)
    roll = _d(_rng(rng), 20)
    ok = succeeds(roll, skill, dv)
    result = {"who": who.display_name, "skill": skill, "dv": dv, "threat": threat,
              "roll": roll, "success": ok, "components": components, "capacity": capacity,
              "chance": odds(exploration.p_stealth(skill, dv)), "line": None}
    turns.note(turn, f"Harvesting, {who.display_name}: skill {skill} vs DV {dv} (Threat "
               f"{threat}), d20 {roll}: {'harvested' if ok else 'ruined'}", character=who)
    if ok and target is not None:
        turns.change_quantity(turn, target, target.quantity + 1,
                              f"{who.display_name}: {target.name} +1 (harvested)")
        result["line"] = target.name
    turn.state["harvest"] = result
    _save(turn)
    return result


# -- Reactions and Negotiations (PR §Reaction Rolls, §Negotiations) ----------------------


def bands_of(campaign: Campaign) -> reactions.DispositionBands:
    """The Guide's 2D6 bands (Campaign.settings), else the default reading; both are
    labelled "not from the text"."""
    tops = campaign.settings.get(BANDS_KEY) if isinstance(campaign.settings, dict) else None
    if isinstance(tops, list) and len(tops) == len(DISPOSITIONS):
        try:
            return reactions.DispositionBands(tuple(zip(DISPOSITIONS, tops, strict=True)))
        except (reactions.SocialError, TypeError):
            pass
    return reactions.DispositionBands()


@transaction.atomic
def set_bands(*, campaign: Campaign, by, tops: list[int]) -> reactions.DispositionBands:
    require_guide(campaign, by, "set the disposition bands")
    if len(tops) != len(DISPOSITIONS) or any(
            isinstance(t, bool) or not isinstance(t, int) or not 2 <= t <= 30 for t in tops):
        raise CampaignError("Give the highest total of each band, 2 to 30.", "bands_bad",
                            field="tops")
    try:
        bands = reactions.DispositionBands(tuple(zip(DISPOSITIONS, tops, strict=True)))
    except reactions.SocialError as error:
        raise CampaignError(str(error), error.code, field="tops") from error
    row = Campaign.objects.select_for_update().get(pk=campaign.pk)
    settings = dict(row.settings) if isinstance(row.settings, dict) else {}
    if list(tops) == [t for _, t in DEFAULT_DISPOSITION_BANDS]:
        settings.pop(BANDS_KEY, None)
    else:
        settings[BANDS_KEY] = list(tops)
    row.settings = settings
    row.save(update_fields=["settings"])
    campaign.settings = settings
    return bands


def company_alignments(campaign: Campaign) -> list[str]:
    return [str(sheet_for(e).stats["alignment"].value) for e in members(campaign)]


@transaction.atomic
def reaction(*, campaign: Campaign, by, npc: str, npc_alignment: str,
             modifiers: list[int] = (), secret: bool = False, negotiate: bool = False,
             speaker: int | None = None, turn_pk: int | None = None,
             request_key: str | None = None, rng=None) -> dict | None:
    """2D6 + the Guide's modifiers (capped at +/-3) + the Company's Alignment against the
    NPC's; the disposition by the Guide's bands, its social DV; a Negotiation begun.
    `speaker`: the Errant the NPC deals with; a Speechcraft master's Reaction is 3D6, all
    summed (ER §The Deviant; AMB-E-SPEECH)."""
    turn, repeated = _scene(campaign, by, "roll a Reaction", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    npc = check_text(npc, field="npc", length=NAME_LENGTH, required="Name the NPC.")
    for m in modifiers:
        _number(m, "modifiers", -MAX_NUMBER, MAX_NUMBER)
    try:
        alignment = reactions.alignment_modifier(company_alignments(campaign), npc_alignment)
    except reactions.SocialError as error:
        raise CampaignError(str(error), error.code, field="npc_alignment") from error
    who = _errant(campaign, speaker, "speaker") if speaker is not None else None
    master = who is not None and masters(who, "speechcraft")
    r = _rng(rng)
    count = reactions.SPEECHCRAFT_DICE if master else reactions.REACTION_DICE
    dice = tuple(_d(r, 6) for _ in range(count))
    roll = reactions.reaction_roll(dice, modifiers, alignment)
    bands = bands_of(campaign)
    disposition = bands.disposition(roll.value)
    result = {"npc": npc, "npc_alignment": npc_alignment, "dice": list(dice),
              "modifier": roll.modifier, "alignment": alignment, "value": roll.value,
              "disposition": disposition, "name": DISPOSITION_NAMES[disposition],
              "dv": reactions.social_dv(disposition), "secret": secret,
              "bands": [list(t) for t in bands.tops],
              "speaker": who.display_name if who else None, "speechcraft": master}
    place = turn.secret if secret else turn.state
    place["reaction"] = result
    (turn.state if secret else turn.secret).pop("reaction", None)
    mastery = f" (Speechcraft master {who.display_name})" if master else ""
    label = (f"Reaction Roll, {npc}: {count}D6{mastery} {'+'.join(map(str, dice))} "
             f"{roll.modifier:+d} (modifiers) "
             f"{alignment:+d} (Alignment) = {roll.value}: {result['name']}, social Checks "
             f"DV {result['dv']:+d}")
    turns.note(turn, label, secret=secret)
    if secret:
        turns.note(turn, f"A Reaction Roll for {npc}, rolled by the Guide in secret")
    turn.state.pop("negotiation", None)
    turn.secret.pop("negotiation", None)
    if negotiate:
        n = reactions.start_negotiation(roll.value)
        place["negotiation"] = {"npc": npc, **_negotiation_dict(n)}
        turns.note(turn, f"A Negotiation with {npc} begins", secret=False)
    _save(turn)
    return result


def _negotiation_dict(n: reactions.Negotiation) -> dict:
    return {"disposition": n.disposition, "tolerance": n.tolerance, "exchanges": n.exchanges,
            "ended": n.ended, "log": [list(e) for e in n.log]}


def negotiation_of(turn: ErrantTurn | None) -> tuple[dict, bool] | None:
    """The Negotiation on the Turn and whether it is kept secret."""
    if turn is None:
        return None
    if "negotiation" in turn.state:
        return turn.state["negotiation"], False
    if "negotiation" in turn.secret:
        return turn.secret["negotiation"], True
    return None


@transaction.atomic
def exchange(*, campaign: Campaign, by, kind: str, success: bool | None = None,
             position: str = "risky", impact: str = "fair", bribe_change: int = 0,
             turn_pk: int | None = None, request_key: str | None = None) -> dict | None:
    """One exchange of the Negotiation: its kind, the Check's success, Position and
    Impact give the outcome; past the NPC's tolerance the disposition drops by 2 each
    exchange until 2, when the NPC ends it."""
    turn, repeated = _scene(campaign, by, "negotiate", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    found = negotiation_of(turn)
    if found is None:
        raise CampaignError("Roll a Reaction and begin a Negotiation first.",
                            "no_negotiation", field="kind")
    kept, secret = found
    _number(bribe_change, "bribe_change", -12, 12)
    n = reactions.Negotiation(kept["disposition"], kept["tolerance"], kept["exchanges"],
                              kept["ended"], tuple(tuple(e) for e in kept["log"]))
    try:
        after = reactions.exchange(n, kind, success=success, position=position,
                                   impact=impact, bribe_change=bribe_change)
    except reactions.SocialError as error:
        field = {"no_check": "success", "bad_stakes": "position"}.get(error.code, "kind")
        raise CampaignError(str(error), error.code, field=field) from error
    _, outcome, change = after.log[-1]
    shown = {**kept, **_negotiation_dict(after)}
    (turn.secret if secret else turn.state)["negotiation"] = shown
    checked = "" if kind == "banal" else (
        f", {'success' if success else 'failure'}, {position}, {impact}")
    turns.note(turn, f"Exchange {after.exchanges} with {kept['npc']}: {kind}{checked}: "
               f"{outcome.replace('_', ' ')} ({change:+d})", secret=secret)
    if after.ended:
        turns.note(turn, f"{kept['npc']} ends the Negotiation")
    _save(turn)
    return shown


# -- Chases (IT §Chases) -----------------------------------------------------------------


def errant_runner(errant: ErrantCharacter) -> dict:
    sheet = sheet_for(errant)
    return {"name": errant.display_name, "errant": errant.pk, "speed": _stat(sheet, "spd"),
            "dice": _stat(sheet, "movement_dice"), "phys": _stat(sheet, "phys"),
            "encumbrance": _stat(sheet, "encumbrance")}


def npc_runner(name: str, mv: int, dice: int, phys: int) -> dict:
    name = check_text(name, field="npcs", length=NAME_LENGTH, required="Name the NPC.")
    _number(mv, "npcs")
    _number(dice, "npcs", 1, MAX_DICE)
    _number(phys, "npcs", 0, MAX_NUMBER)
    return {"name": name, "errant": None, "speed": mv, "dice": dice, "phys": phys,
            "encumbrance": 0}


def _slowest(side: list[dict]) -> dict:
    runners = [chases.Runner(str(i), r["speed"], r["dice"]) for i, r in enumerate(side)]
    return side[int(chases.slowest(runners).key)]


@transaction.atomic
def start_chase(*, campaign: Campaign, by, fugitives: list[int], pursuers: list[int],
                fugitive_npcs: list[tuple] = (), pursuer_npcs: list[tuple] = (),
                turn_pk: int | None = None, request_key: str | None = None) -> dict | None:
    """Two sides: the Company's Errants (SPD, movement dice from their sheets) and NPCs
    typed by the Guide (name, MV, movement dice, phys)."""
    turn, repeated = _scene(campaign, by, "start a Chase", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    if set(fugitives) & set(pursuers):
        raise CampaignError("An Errant runs on one side only.", "both_sides", field="pursuers")
    sides = {}
    for key, pks, npcs in (("fugitives", fugitives, fugitive_npcs),
                           ("pursuers", pursuers, pursuer_npcs)):
        side = [errant_runner(_errant(campaign, pk, key)) for pk in dict.fromkeys(pks)]
        side += [npc_runner(*npc) for npc in npcs]
        if not side:
            raise CampaignError("Each side needs at least one member.", f"{key}_empty", field=key)
        if len(side) > MAX_RUNNERS:
            raise CampaignError(f"At most {MAX_RUNNERS} on a side.", f"{key}_many", field=key)
        sides[key] = side
    turn.state["chase"] = {**sides, "rounds": [], "ended": None}
    names = {k: ", ".join(r["name"] for r in v) for k, v in sides.items()}
    turns.note(turn, f"A Chase: {names['pursuers']} pursue {names['fugitives']}")
    _save(turn)
    return turn.state["chase"]


def _movement(side: list[dict], sprint: bool, r) -> dict:
    roller = _slowest(side)
    dice = roller["dice"]
    out = {"roller": roller["name"], "sprint": sprint, "sprint_roll": None,
           "sprint_ok": None}
    if sprint:
        out["sprint_roll"] = _d(r, 20)
        out["sprint_ok"] = succeeds(out["sprint_roll"], roller["phys"], roller["encumbrance"])
        dice = chases.sprint_dice(dice) if out["sprint_ok"] else 0
    out["faces"] = [_d(r, chases.MOVEMENT_DIE) for _ in range(min(dice, 2 * MAX_DICE))]
    return out


@transaction.atomic
def chase_round(*, campaign: Campaign, by, sprint_fugitives: bool = False,
                sprint_pursuers: bool = False, turn_pk: int | None = None,
                request_key: str | None = None, rng=None) -> dict | None:
    """One Initiative Turn of the Chase: each side's slowest member's movement roll (a
    sprint first needs a phys Check vs their Encumbrance), two 4s, doubles, matching
    faces, and the lower side's D10 development."""
    turn, repeated = _scene(campaign, by, "run a Chase round", turn_pk=turn_pk,
                            request_key=request_key)
    if repeated:
        return None
    chase = turn.state.get("chase")
    if not chase:
        raise CampaignError("Start a Chase first.", "no_chase", field="sprint_fugitives")
    if chase["ended"]:
        raise CampaignError("This Chase has ended.", "chase_ended", field="sprint_fugitives")
    r = _rng(rng)
    f = _movement(chase["fugitives"], sprint_fugitives, r)
    p = _movement(chase["pursuers"], sprint_pursuers, r)
    result = {"fugitives": f, "pursuers": p, "escaped": False, "caught": False,
              "tiebreak": False, "fugitives_act": False, "pursuers_act": False,
              "ranged": False, "development": None}
    if f["faces"] or p["faces"]:
        cr = chases.chase_round(f["faces"], p["faces"])
        result.update(escaped=cr.escaped, caught=cr.caught, tiebreak=cr.tiebreak,
                      fugitives_act=cr.fugitives_act, pursuers_act=cr.pursuers_act,
                      ranged=cr.ranged)
        if cr.development_side:
            d10 = _d(r, chases.DEVELOPMENT_DIE)
            name, text = chases.development(d10)
            result["development"] = {"side": cr.development_side, "d10": d10, "name": name,
                                     "text": text}
    chase["rounds"] = [*chase["rounds"], result]
    if result["escaped"] or result["caught"]:
        chase["ended"] = "escaped" if result["escaped"] else "caught"
    turn.state["chase"] = chase
    turns.note(turn, _round_label(len(chase["rounds"]), result))
    _save(turn)
    return result


def _side_label(side: dict) -> str:
    sprint = ""
    if side["sprint"]:
        sprint = (f", sprints (phys d20 {side['sprint_roll']}: "
                  f"{'doubled dice' if side['sprint_ok'] else 'failed, no roll'})")
    faces = "+".join(map(str, side["faces"])) or "no roll"
    return f"{side['roller']}{sprint}: {faces}"


def _round_label(number: int, result: dict) -> str:
    what = ("the fugitives escape" if result["escaped"] else
            "the pursuers catch them" if result["caught"] else
            "both rolled two 4s: both roll again" if result["tiebreak"] else "it goes on")
    extras = [w for w, on in (("fugitives act", result["fugitives_act"]),
                              ("pursuers act", result["pursuers_act"]),
                              ("ranged attacks", result["ranged"])) if on]
    dev = result["development"]
    development = f"; {dev['side']} D10 {dev['d10']}: {dev['name']}" if dev else ""
    return (f"Chase round {number}: fugitives {_side_label(result['fugitives'])}; pursuers "
            f"{_side_label(result['pursuers'])}: {what}"
            f"{' (' + ', '.join(extras) + ')' if extras else ''}{development}")
