"""A fight's state as the fold of its steps (issue 15, "Initiative Turns"): pure Python over
the rules engine (rules/engine/errant/initiative.py and wounds.py), no database. The same
pattern as the encounters tracker: each step is (kind, payload) with its dice already
rolled, `apply` checks it against the state and the rules and returns the next state or
raises FightError; `fold` replays the steps not undone.

Errant SRD: IT §Combat Distance, §Surprise, §Determining Initiative Turn Order,
§Initiative Turn Actions, §Attacking, §Gambits, §Hit Protection & Damage, §Death & Dying,
§Morale, §Warbands, §NPC Attributes. docs/RULES.md "Initiative Turns at the table".
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from fractions import Fraction

from rules.engine.errant import initiative as ini
from rules.engine.errant import wounds as wo
from rules.engine.errant.checks import p_success, succeeds
from rules.engine.errant.data.initiative_tables import (
    SURPRISE_COMPANY,
    SURPRISE_NONE,
    SURPRISE_NPCS,
    WOUND_COLUMNS,
    WOUND_TABLES,
)
from rules.engine.errant.gear import DAMAGE_STEPS, die_label

ERRANT, NPC = "errant", "npc"
COMPANION = "companion"  # a Beast Master's animal companion (ER §The Deviant; AMB-E-BEAST)
ATTRIBUTES = ("phys", "skill", "mind", "pres")
NAME_LENGTH = 60
TEXT_LENGTH = 120
MAX_DICE = 5  # dice in one Attack Roll (a Violent's combat dice, a monster's several)
ATTACK_DEFAULTS = {"enhance": 0, "impair": 0, "blocks": 0, "bonus": 0, "reduction": 0}
STEP_KINDS = ("setup", "errant", "npc", "turn", "pace", "act", "attack", "save", "wound",
              "stabilise", "morale", "effect", "next_phase", "end_turn", "end", "hazard",
              "fire")


class FightError(ValueError):
    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


@dataclass
class Fighter:
    key: str
    name: str
    side: str  # ini.COMPANY or ini.NPCS
    kind: str  # ERRANT or NPC
    hp: int
    hp_max: int
    damage_sides: int
    character_pk: int | None = None
    attributes: dict = field(default_factory=dict)  # an Errant's phys, skill, mind, pres
    renown: int = 1
    alert: bool = False  # a Deviant's Awareness mastery: acts while surprised (AMB-E-ALERT)
    sneak_dice: int = 0  # a sneak attack's damage dice: a Deviant's 2, 3 with Assassin
    threat: int = 0
    att: str = ""
    mv: str = ""
    morale: int = 0
    alignment: str = ""
    warband: int = 0  # members besides the leader; 0 = an individual
    armour: str = "none"
    band_hp: int = 0
    out: bool = False  # out of action (a failed 0-HP Save, or a wound that says so)
    stunned: int = 0  # Initiative Turns of no action left, the current one included
    knocked_out: int = 0  # "Knocked out for D12 Initiative Turns": Turns left, as stunned
    on_fire: bool = False  # IT §Drowning, Falling, Burning (AMB-E10, AMB-E-FIRE)
    fire_turns: int = 0  # Initiative Turns on fire whose damage was rolled
    doused: int = 0  # actions taken to put the fire out: 1D6 fewer each
    burnt_in_turn: int = -1  # the Initiative Turn whose fire damage was last rolled
    dead: bool = False
    fled: bool = False  # Morale broke
    wounds: list = field(default_factory=list)  # [(column, row, text)]
    carried: int = 0  # the first wounds, carried in from the sheet (AMB-E-WOUND-1)
    pending_save: int | None = None  # the DV of the phys Save due at 0 HP
    pending_wound: int = 0  # damage beyond 0 awaiting its wound
    clock: wo.DeathClock | None = None

    @property
    def active(self) -> bool:
        return not (self.dead or self.fled)

    @property
    def limits(self) -> wo.WoundLimits:
        """What the wounds taken forbid (can't move, walk, run, cast, hold; AMB-E-FIGHT-6)."""
        return wo.wound_limits(WOUND_TABLES[column][row - 1] for column, row, _ in self.wounds)

    @property
    def taken(self) -> list:
        """The wounds taken in this fight (those carried in from the sheet excluded)."""
        return self.wounds[self.carried:]

    @property
    def wound_exhaustion(self) -> int:
        """The points of Exhaustion the wounds taken in this fight give ("Concussed ... and
        1 point of Exhaustion", IT §Death & Dying)."""
        return sum(WOUND_TABLES[column][row - 1].exhaustion for column, row, _ in self.taken)

    @property
    def lasting(self) -> list:
        """The wounds taken in this fight that outlast it: (column, row, text) of each row
        without a stated duration (IT §Death & Dying; AMB-E-WOUND-1)."""
        return [w for w in self.taken if wo.lasts(WOUND_TABLES[w[0]][w[1] - 1])]

    @property
    def fire_dice(self) -> int:
        """The D6s the fire deals in its next Turn: n D6 in the n-th, less 1 per dousing."""
        return wo.burning_dice(self.fire_turns + 1, self.doused) if self.on_fire else 0

    @property
    def damage_die(self) -> str:
        return die_label(self.damage_sides)

    @property
    def category(self) -> str:
        return wo.warband_category_by_hp(self.band_hp, self.armour) if self.warband else ""

    @property
    def p_morale_breaks(self) -> Fraction | None:
        return wo.p_morale_breaks(self.morale) if self.kind == NPC else None

    @property
    def save_attribute(self) -> int:
        """phys for an Errant's 0-HP Save; an NPC saves on Threat + 8 (IT §NPC Attributes);
        an animal companion on its Deviant's skill (AMB-E-BEAST)."""
        if self.kind == COMPANION:
            return self.attributes.get("skill", 0)
        return self.attributes.get("phys", 0) if self.kind == ERRANT else self.threat + 8


@dataclass
class FightState:
    set_up: bool = False
    distance_die: int = 0
    distance: int = 0
    surprise_die: int = 0
    surprise: str = ""
    npc_faces: int = 2
    fighters: dict = field(default_factory=dict)  # key -> Fighter, in the order added
    turn: ini.InitiativeTurn | None = None
    turn_number: int = 0
    order: ini.OrderRoll | None = None
    errant_turn: int | None = None  # the Turn log's row of the current Initiative Turn
    carried: tuple = ()  # effects carried into the next Turn
    expired: tuple = ()  # effects that expired at the last Turn's end
    ended: bool = False
    log: list = field(default_factory=list)  # (public text, guide text)

    def fighter(self, key: str, label: str = "combatant") -> Fighter:
        f = self.fighters.get(key)
        if f is None:
            raise FightError("unknown", f"Choose a {label} of this fight.", label)
        return f

    @property
    def in_turn(self) -> bool:
        return self.turn is not None and not self.turn.over and not self._closed

    _closed: bool = False

    @property
    def phase_label(self) -> str:
        if not self.in_turn:
            return ""
        side, pace = self.turn.acting
        return f"{side_label(side)} act {pace}ly"

    def acting_now(self) -> list[Fighter]:
        """The combatants whose phase it is (pace chosen, side and pace of the phase)."""
        if not self.in_turn:
            return []
        side, pace = self.turn.acting
        return [self.fighters[c.key] for c in self.turn.combatants
                if c.side == side and c.pace == pace and not c.out_of_action]


def side_label(side: str) -> str:
    return "The Company" if side == ini.COMPANY else "The NPCs"


def _int(payload: dict, name: str, low: int, high: int, label: str) -> int:
    value = payload.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise FightError("bad_" + name, f"{label} must be a whole number from {low} to {high}.",
                         name)
    return value


def _text(payload: dict, name: str, length: int, label: str, *, required: bool = True) -> str:
    value = payload.get(name, "")
    if not isinstance(value, str):
        raise FightError("bad_" + name, f"{label} must be text.", name)
    value = " ".join(value.split())
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in value):
        raise FightError("bad_" + name, f"{label}: no control characters.", name)
    if required and not value:
        raise FightError("bad_" + name, f"Give the {label.lower()}.", name)
    if len(value) > length:
        raise FightError("bad_" + name, f"{label}: at most {length} characters.", name)
    return value


def _rules(error: ini.InitiativeError | wo.CombatError, field: str | None = None) -> FightError:
    return FightError(error.code, str(error), field)


def _say(state: FightState, public: str, guide: str | None = None) -> None:
    state.log.append((public, guide or public))


def _mark_out(state: FightState, key: str) -> None:
    """Out of the current Turn's actions too, if it has them in it."""
    if state.turn is not None and key in {c.key for c in state.turn.combatants}:
        state.turn = ini.set_out_of_action(state.turn, key)


def _need_turn(state: FightState) -> ini.InitiativeTurn:
    if not state.in_turn:
        raise FightError("no_turn", "Start an Initiative Turn first (the odd-or-even call).")
    return state.turn


# -- the steps --------------------------------------------------------------------------------

def _setup(state: FightState, p: dict) -> None:
    if state.set_up:
        raise FightError("set_up", "This fight is already set up.")
    state.distance_die = _int(p, "distance_die", 1, 6, "The distance die")
    state.surprise_die = _int(p, "surprise_die", 1, 6, "The surprise die")
    state.npc_faces = _int(p, "npc_faces", 0, 6, "The NPCs' surprise range")
    state.distance = ini.combat_distance(state.distance_die)
    state.surprise = ini.surprise(state.surprise_die, npc_faces=state.npc_faces)
    state.set_up = True
    who = {SURPRISE_NPCS: "the NPCs surprise the Company", SURPRISE_COMPANY:
           "the Company surprises the NPCs", SURPRISE_NONE: "nobody is surprised"}
    _say(state, f"Combat distance: D6 {state.distance_die} x 10 = {state.distance}. "
                f"Surprise: d6 {state.surprise_die}, {who[state.surprise]}.")


def _errant(state: FightState, p: dict) -> None:
    key = f"e{_int(p, 'character_pk', 1, 2**31, 'The Errant')}"
    if key in state.fighters:
        raise FightError("already_in", "That Errant is already in the fight.", "character_pk")
    attrs = {a: _int(p, a, 0, 99, a) for a in ATTRIBUTES}
    hp_max = _int(p, "hp_max", 0, 99, "HP maximum")
    state.fighters[key] = Fighter(
        key=key, name=_text(p, "name", NAME_LENGTH, "Name"), side=ini.COMPANY, kind=ERRANT,
        hp=_int(p, "hp", 0, hp_max, "HP"), hp_max=hp_max,
        damage_sides=_sides(p), character_pk=p["character_pk"], attributes=attrs,
        renown=_int(p, "renown", 1, 99, "Renown"), alert=p.get("alert") is True,
        sneak_dice=_int({"sneak_dice": p.get("sneak_dice", 0)}, "sneak_dice", 0, MAX_DICE,
                        "Sneak attack dice"))
    errant = state.fighters[key]
    errant.wounds = _carried(p)
    errant.carried = len(errant.wounds)
    carries = ", ".join(errant.limits.labels)
    _say(state, f"{errant.name} joins the fight"
                + (" (Alert: acts even when surprised)" if errant.alert else "")
                + (f", carrying {errant.carried} wound{'s' if errant.carried != 1 else ''}"
                   f"{': ' + carries if carries else ''}" if errant.carried else "") + ".")
    companion = p.get("companion")
    if companion is not None:
        _companion(state, errant, companion if isinstance(companion, dict) else {})


def _carried(p: dict) -> list:
    """The lasting wounds the Errant brings from the sheet, [[table, row], ...]: they limit
    them in this fight too and count as received (AMB-E-WOUND-1)."""
    pairs = p.get("wounds", [])
    if not isinstance(pairs, list) or len(pairs) > 99:
        raise FightError("bad_wounds", "The wounds carried are a list of [table, row].",
                         "wounds")
    out = []
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise FightError("bad_wounds", "Each wound carried is [table, row].", "wounds")
        try:
            w = wo.wound_at(*pair)
        except wo.CombatError as error:
            raise _rules(error, "wounds") from None
        out.append((pair[0], w.row, w.text))
    return out


def _companion(state: FightState, errant: Fighter, p: dict) -> None:
    """ER §The Deviant, Beast Master: "you gain an animal companion. It takes its own actions
    during Initiative Turns, though it obeys all your commands. All Checks made by your
    animal companion are resolved using your skill. It has HP and SPD equal to your skill,
    a damage die of D6, and can perform sneak attacks." It joins on the Company's side with
    its Deviant; no Morale (it obeys), and at 0 HP it dies as an NPC does (AMB-E-BEAST)."""
    key = f"c{errant.character_pk}"
    hp = _int(p, "hp", 1, 99, "The companion's HP")
    skill = _int(p, "skill", 0, 99, "The companion's skill")
    state.fighters[key] = Fighter(
        key=key, name=f"{errant.name}'s animal companion"[:NAME_LENGTH], side=ini.COMPANY,
        kind=COMPANION, hp=hp, hp_max=hp, damage_sides=_sides(p), attributes={"skill": skill},
        sneak_dice=_int(p, "sneak_dice", 0, MAX_DICE, "Sneak attack dice"))
    _say(state, f"{state.fighters[key].name} joins the fight (HP {hp}, "
                f"{state.fighters[key].damage_die}, Checks on skill {skill}).")


def _sides(p: dict) -> int:
    sides = p.get("damage_sides")
    if sides not in DAMAGE_STEPS:
        raise FightError("bad_damage_sides", "Choose a damage die: "
                         + ", ".join(die_label(s) for s in DAMAGE_STEPS) + ".", "damage_sides")
    return sides


def _npc(state: FightState, p: dict) -> None:
    key = _text(p, "key", 12, "Key")
    if key in state.fighters:
        raise FightError("already_in", "That key is taken.", "name")
    name = _text(p, "name", NAME_LENGTH, "Name")
    mv = _text(p, "mv", 12, "MV")
    try:
        movement = tuple(int(x) for x in mv.split("/"))
    except ValueError:
        raise FightError("bad_mv", "MV is a number of movement dice, or two as 2/4.",
                         "mv") from None
    npc = wo.Npc(name, _int(p, "threat", *wo.THREAT_RANGE, "Threat"),
                 _int(p, "hp", 1, 999, "HP"), _text(p, "att", TEXT_LENGTH, "ATT"), movement,
                 _int(p, "morale", *wo.MORALE_RANGE, "Morale"),
                 _text(p, "alignment", 12, "Alignment"))
    for name_, message in wo.npc_problems(npc):
        raise FightError("bad_" + name_, message, {"movement": "mv"}.get(name_, name_))
    members = _int(p, "warband", 0, 20, "Warband members")
    armour = p.get("armour") or "none"
    if armour not in wo.WARBAND_ARMOUR_HP:
        raise FightError("bad_armour", "Armour is none, mail or plate.", "armour")
    state.fighters[key] = Fighter(
        key=key, name=name, side=ini.NPCS, kind=NPC, hp=npc.hp, hp_max=npc.hp,
        damage_sides=_sides(p), threat=npc.threat, att=npc.attacks, mv=mv,
        morale=npc.morale, alignment=npc.alignment, warband=members, armour=armour,
        band_hp=wo.warband_hp(members, armour) if members else 0)
    band = f" leading a Warband of {members}" if members else ""
    _say(state, f"{name}{band} joins the fight.",
         f"{name}{band} joins the fight (Threat {npc.threat}, HP {npc.hp}, ATT {npc.attacks}, "
         f"MV {mv}, Morale {npc.morale}, {npc.alignment}).")


def _start_turn(state: FightState, p: dict) -> None:
    if not state.set_up:
        raise FightError("not_set_up", "Roll the combat distance and surprise first.")
    if state.in_turn:
        raise FightError("turn_open", "End this Initiative Turn first.")
    live = {f.key: f.side for f in state.fighters.values() if f.active}
    if not any(s == ini.COMPANY for s in live.values()) or not any(
            s == ini.NPCS for s in live.values()):
        raise FightError("no_sides", "A fight needs an Errant and an NPC still standing.")
    number = state.turn_number + 1
    surprised = p.get("surprised") or ""
    try:
        if surprised:
            expected = {SURPRISE_NPCS: ini.COMPANY, SURPRISE_COMPANY: ini.NPCS}.get(
                state.surprise)
            if number != 1 or surprised != expected:
                raise FightError("no_surprise", "Only the first Turn after a surprise roll "
                                 "that says so is a surprise Turn.", "call")
            roll = None
        else:
            roll = ini.order_roll(p.get("call"), p.get("errant_die"), p.get("guide_die"))
        alert = tuple(k for k in live if state.fighters[k].alert)
        turn = ini.start_turn(number, roll, live, surprised=surprised, effects=state.carried,
                              alert=alert)
    except ini.InitiativeError as error:
        raise _rules(error, "call") from None
    for f in state.fighters.values():
        if f.active and (f.out or f.stunned or f.knocked_out):
            turn = ini.set_out_of_action(turn, f.key)
    state.turn, state.turn_number, state.order = turn, number, roll
    state.errant_turn = p.get("errant_turn")
    state.expired, state._closed = (), False
    if roll is None:
        acting = [state.fighters[k].name for k in alert if live[k] == surprised]
        _say(state, f"Initiative Turn {number}: a surprise Turn, "
                    f"{side_label(surprised).lower()} cannot act"
                    + (f" (but {', '.join(acting)}, Alert, may)." if acting else "."))
    else:
        caller = _text(p, "caller", NAME_LENGTH, "Caller", required=False) or "The Company"
        _say(state, f"Initiative Turn {number}: {caller} calls {roll.call}; the Errant's d6 "
                    f"{roll.errant_die} + the Guide's d6 {roll.guide_die} = {roll.total} "
                    f"({roll.parity}): "
                    + ("the Company wins." if roll.winner == ini.COMPANY else "the NPCs win."))


def _pace(state: FightState, p: dict) -> None:
    turn = _need_turn(state)
    f = state.fighter(p.get("key"))
    try:
        state.turn = ini.choose_pace(turn, f.key, p.get("pace"))
    except ini.InitiativeError as error:
        raise _rules(error, "pace") from None
    _say(state, f"{f.name} acts {p['pace']}ly "
                f"({ini.ACTIONS_PER_PACE[p['pace']]} action"
                f"{'s' if p['pace'] == ini.SLOW else ''}).")


def _act(state: FightState, p: dict) -> None:
    turn = _need_turn(state)
    f = state.fighter(p.get("key"))
    kind = p.get("kind")
    if kind == "attack":
        raise FightError("use_attack", "Use the Attack form for an Attack Roll.", "kind")
    try:
        state.turn = (ini.immediate_action if p.get("immediate") else ini.act)(turn, f.key, kind)
    except ini.InitiativeError as error:
        raise _rules(error, "kind") from None
    limits = f.limits
    reason = limits.forbids(kind)
    if reason:
        raise FightError("wound_forbids", f"{f.name} {reason} (IT §Death & Dying).", "kind")
    what = _text(p, "note", TEXT_LENGTH, "What they do", required=False)
    walk = (f" (a walk of {wo.NO_RUN_MOVE} feet or yards at most: can't run)"
            if kind == "move" and limits.walks_only else "")
    _say(state, f"{f.name}: {kind}{' (immediate)' if p.get('immediate') else ''}{walk}"
                f"{': ' + what if what else ''}.")


def attack_sides(state: FightState, p: dict) -> tuple[Fighter, Fighter, dict, int]:
    """The attacker, the target, the steps (enhance, impair, Blocks; a Warband's category
    difference added, IT §Warbands) and the die after them."""
    p = {**ATTACK_DEFAULTS, **p}
    attacker = state.fighter(p.get("key"), "attacker")
    target = state.fighter(p.get("target"), "target")
    if target.key == attacker.key:
        raise FightError("self", "Choose another combatant as the target.", "target")
    if not target.active:
        raise FightError("target_gone", f"{target.name} is no longer in the fight.", "target")
    steps = {n: _int(p, n, 0, 10, n.capitalize()) for n in ("enhance", "impair", "blocks")}
    steps["impair"] += attacker.limits.attack_impairment  # both arms gone: unarmed
    if target.warband or attacker.warband:
        cat = {f.key: (f.category if f.warband else "individual") for f in (attacker, target)}
        delta = wo.warband_steps(cat[attacker.key], cat[target.key])
        steps["enhance" if delta > 0 else "impair"] += abs(delta)
    sides = wo.step_damage_die(attacker.damage_sides, steps["enhance"],
                               steps["impair"] + steps["blocks"])
    return attacker, target, steps, sides


def _attack(state: FightState, p: dict) -> None:
    p = {**ATTACK_DEFAULTS, **p}
    turn = _need_turn(state)
    attacker, target, steps, _ = attack_sides(state, p)
    sneak = p.get("sneak") is True
    if sneak and len(p.get("faces") or ()) != sneak_dice(attacker):
        raise FightError("bad_faces", f"{attacker.name}'s sneak attack rolls "
                         f"{attacker.sneak_dice} damage dice.", "sneak")
    try:
        state.turn = (ini.immediate_action if p.get("immediate") else ini.act)(
            turn, attacker.key, "attack")
        roll = wo.attack_roll(attacker.damage_sides, tuple(p.get("faces") or ()),
                              enhance=steps["enhance"], impair=steps["impair"],
                              blocks=steps["blocks"],
                              bonus=_int(p, "bonus", -10, 10, "Bonus"))
    except (ini.InitiativeError, wo.CombatError) as error:
        raise _rules(error, "faces") from None
    damage = roll.damage
    notes = [f"{attacker.name} {'sneak attacks' if sneak else 'attacks'} {target.name}: "
             + (f"{len(roll.faces)} " if sneak else "") + f"{die_label(roll.sides)} rolled "
             f"{', '.join(map(str, roll.faces))}"
             + (f" {roll.bonus:+d}" if roll.bonus else "") + f" = {damage} damage"]
    if attacker.limits.attack_impairment:
        notes.append(f"unarmed, both arms gone: impaired {attacker.limits.attack_impairment} "
                     "steps")
    if p["blocks"]:
        notes.append(f"{p['blocks']} Block{'s' if p['blocks'] > 1 else ''} used")
    reduction = _int(p, "reduction", 0, 99, "The gambit's reduction")
    if reduction:
        try:
            g = wo.gambit(damage, reduction)
        except wo.CombatError as error:
            raise _rules(error, "reduction") from None
        save = _int(p, "gambit_save", 1, 20, "The target's Save")
        attribute = _gambit_attribute(target, p)
        works = not succeeds(save, attribute, g.save_dv)
        what = _text(p, "gambit", TEXT_LENGTH, "Gambit")
        damage = g.damage
        chance = p_success(attribute, g.save_dv)
        notes.append(f"gambit '{what}' for {reduction} less damage: {target.name}'s Save "
                     f"d20 {save} against DV {g.save_dv} ({chance.numerator}/"
                     f"{chance.denominator} to save): "
                     + ("fails, the gambit works" if works else "succeeds, no gambit"))
        if works:
            state.turn = ini.add_effect(state.turn, what, attacker.name)
    public = list(notes)
    guide = list(notes)
    if roll.weapon_quality_lost:
        msg = f"{attacker.name}'s weapon loses {roll.weapon_quality_lost} Quality (a 1)"
        public.append(msg)
        guide.append(msg)
    if roll.target_may_act:
        msg = f"{target.name} may take an immediate action (a 1 rolled)"
        public.append(msg)
        guide.append(msg)
    if target.kind == ERRANT and roll.armour_quality_lost:
        msg = f"{target.name}'s armour loses {roll.armour_quality_lost} Quality (maximum)"
        public.append(msg)
        guide.append(msg)
    hurt_public, hurt_guide = _hurt(state, target, damage)
    public += hurt_public
    guide += hurt_guide
    _say(state, "; ".join(public) + ".", "; ".join(guide) + ".")


def sneak_dice(attacker: Fighter) -> int:
    """ER §The Deviant, Sneak Attack: "When you make an Attack Roll against someone unaware
    of your presence ... rolling two damage dice" (three with Assassin); a Beast Master's
    companion "can perform sneak attacks" (AMB-E-BEAST). Refused for anyone else: an NPC's
    several dice are typed as Dice."""
    if not attacker.sneak_dice:
        raise FightError("no_sneak", f"{attacker.name} cannot make a sneak attack (a "
                         "Deviant's, or a Beast Master's companion's).", "sneak")
    return attacker.sneak_dice


def _gambit_attribute(target: Fighter, p: dict) -> int:
    if target.kind == NPC:
        return target.threat + 8
    if target.kind == COMPANION:
        return target.attributes["skill"]
    name = p.get("gambit_attribute") or "phys"
    if name not in ATTRIBUTES:
        raise FightError("bad_gambit_attribute", "Choose phys, skill, mind or pres.",
                         "gambit_attribute")
    return target.attributes[name]


def _hurt(state: FightState, target: Fighter, damage: int) -> tuple[list, list]:
    """The damage on the target: an NPC (its Warband first) dies at 0 HP; an Errant at 0
    owes a phys Save against the damage, and damage beyond 0 a wound."""
    if target.kind in (NPC, COMPANION):
        before = target.hp
        if target.warband:
            band_before = target.band_hp
            target.band_hp, target.hp, _ = wo.damage_warband(target.band_hp, target.hp, damage)
            guide = [f"{target.name}'s Warband {band_before} to {target.band_hp} HP "
                     f"({target.category}), {target.name} {before} to {target.hp} HP"]
        else:
            target.hp = max(0, target.hp - damage)
            guide = [f"{target.name} {before} to {target.hp} HP"]
        public = guide if target.kind == COMPANION else []  # the Company's own: no secret
        if target.hp == 0:
            target.dead = True
            _mark_out(state, target.key)
            return [*public, f"{target.name} falls"], [*guide, f"{target.name} falls"]
        return public, guide
    h = wo.hit(target.hp, damage)
    lines = [f"{target.name} {h.hp_before} to {h.hp_after} HP"]
    target.hp = h.hp_after
    if h.save_dv is not None:
        target.pending_save = h.save_dv
        chance = p_success(target.attributes["phys"], h.save_dv)
        lines.append(f"phys Save against DV {h.save_dv} due ({chance.numerator}/"
                     f"{chance.denominator})")
    if h.wound_damage:
        target.pending_wound = h.wound_damage
        lines.append(f"a wound of {h.wound_damage} damage beyond 0")
    return lines, lines


def _save(state: FightState, p: dict) -> None:
    f = state.fighter(p.get("key"))
    if f.pending_save is None:
        raise FightError("no_save", f"{f.name} owes no Save.", "key")
    roll = _int(p, "roll", 1, 20, "The d20")
    ok = succeeds(roll, f.attributes["phys"], f.pending_save)
    text = (f"{f.name}'s phys Save: d20 {roll} against DV {f.pending_save} with phys "
            f"{f.attributes['phys']}: " + ("stays in action" if ok else "out of action"))
    f.pending_save = None
    if not ok:
        f.out = True
        _mark_out(state, f.key)
    _say(state, text + ".")


def wound_result(state: FightState, p: dict) -> tuple[Fighter, wo.WoundResult]:
    """The combatant and the wound their pending damage gives in the chosen table."""
    f = state.fighter(p.get("key"))
    if not f.pending_wound:
        raise FightError("no_wound", f"{f.name} has no wound to take.", "key")
    column = p.get("column")
    if column not in WOUND_COLUMNS:
        raise FightError("bad_column", "Choose one of the four wound tables.", "column")
    received = [row for col, row, _ in f.wounds if col == column]
    return f, wo.wound(column, f.pending_wound, received)


def _wound(state: FightState, p: dict) -> None:
    """IT §Death & Dying's wounds table. A row that puts the Errant out of action ("out of
    action", "Unconscious") takes them out as a failed Save does: no action until the fight
    is over (AMB-E-FIGHT-4); "Knocked out for D12 Initiative Turns" for the D12 rolled
    (`knocked_out_turns`, AMB-E-FIGHT-6)."""
    f, result = wound_result(state, p)
    column = result.column
    f.pending_wound = 0
    if result.dead:
        f.dead = True
        _mark_out(state, f.key)
    if result.wound is not None:
        f.wounds.append((column, result.row, result.wound.text))
        clock = wo.clock_for(result.wound, f.renown)
        if clock is not None and not (f.clock and f.clock.kind == wo.REAPER):
            f.clock = clock
    text = f"{f.name}'s wound ({WOUND_COLUMNS[column]}, {result.damage}): {result.text}"
    if result.wound is not None and result.wound.out_of_action and not f.dead:
        if not f.out:
            text += f" {f.name} is out of action."
        f.out = True
        _mark_out(state, f.key)
    if result.wound is not None and not f.dead:
        text += _wound_effects(state, f, result.wound, p)
    if f.clock and not f.clock.stopped:
        text += f" {_clock_text(f.clock)}"
    _say(state, text)


def _wound_effects(state: FightState, f: Fighter, w, p: dict) -> str:
    """What a wound's row does in the fight besides the clock and out of action
    (AMB-E-FIGHT-5): "HP halved" halves the maximum, rounded down (CR §Rounding; AMB-E89),
    and HP with it if above; "Stunned for an Initiative Turn" takes no action for that many
    Turns, the current one included (AMB-E87): the rest of this Turn, or the next if it
    comes between Turns."""
    text = ""
    if w.knocked_out_die:
        text += _knock_out(state, f, w, p)
    if w.halves_hp:
        before = f.hp_max
        f.hp_max = wo.max_hp_with_wounds(f.hp_max, [w])
        f.hp = min(f.hp, f.hp_max)
        text += f" {f.name}'s HP maximum is halved: {before} to {f.hp_max}."
    if w.stunned_turns and not f.out:
        f.stunned = max(f.stunned, w.stunned_turns)
        if state.in_turn:
            _mark_out(state, f.key)
            text += f" {f.name} is stunned: no action this Initiative Turn."
        else:
            text += f" {f.name} is stunned: no action next Initiative Turn."
    return text


def _knock_out(state: FightState, f: Fighter, w, p: dict) -> str:
    """"Knocked out for D12 Initiative Turns" (shock 3; AMB-E-FIGHT-6): no action for the
    D12 rolled when the wound was taken (kept in the step, so the fold replays it), counted
    as every duration is (AMB-E87): the Turn it lands in is the first, or the next when it
    lands between Turns. They come to at the end of the last, at the HP they have (0
    unless healed), still out if a failed Save put them out. A wound stored before the die
    was rolled (no `knocked_out_turns`) keeps its reading then: out for the fight."""
    turns = p.get("knocked_out_turns")
    if turns is None:
        f.out = True
        _mark_out(state, f.key)
        return f" {f.name} is out of action."
    turns = _int(p, "knocked_out_turns", 1, w.knocked_out_die, "The knocked-out die")
    f.knocked_out = max(f.knocked_out, turns)
    if state.in_turn:
        _mark_out(state, f.key)
    when = "this" if state.in_turn else "the next"
    return (f" {f.name} is knocked out: D{w.knocked_out_die} {turns}, no action for "
            f"{turns} Initiative Turn{'s' if turns != 1 else ''} from {when} one.")


def _clock_text(clock: wo.DeathClock) -> str:
    name = "On death's door" if clock.kind == wo.DEATHS_DOOR else "Consigned to the reaper"
    unit = "Initiative" if clock.unit == wo.INITIATIVE_TURNS else "Exploration"
    return f"{name}: {clock.turns_left} {unit} Turn{'s' if clock.turns_left != 1 else ''} left."


def clock_text(f: Fighter) -> str:
    return _clock_text(f.clock) if f.clock and not f.clock.stopped and not f.dead else ""


def _stabilise(state: FightState, p: dict) -> None:
    f = state.fighter(p.get("key"))
    if f.clock is None or f.clock.stopped:
        raise FightError("no_clock", f"{f.name} is not dying.", "key")
    try:
        f.clock = wo.stabilise(f.clock)
    except wo.CombatError as error:
        raise _rules(error, "key") from None
    _say(state, f"{f.name} is saved from death's door (a healer's kit).")


def _morale(state: FightState, p: dict) -> None:
    f = state.fighter(p.get("key"))
    if f.kind != NPC or not f.active:
        raise FightError("not_npc", "Only an NPC still in the fight rolls Morale.", "key")
    faces = p.get("faces") or []
    if len(faces) != 2:
        raise FightError("bad_faces", "Morale is rolled on 2D6.", "key")
    for face in faces:
        if not isinstance(face, int) or not 1 <= face <= 6:
            raise FightError("bad_faces", "Each die is 1 to 6.", "key")
    total = sum(faces)
    breaks = wo.morale_breaks(total, f.morale)
    chance = wo.p_morale_breaks(f.morale)
    if breaks:
        f.fled = True
        _mark_out(state, f.key)
    _say(state, f"{f.name}'s Morale: " + ("breaks, they flee, retreat, surrender or parley"
                                          if breaks else "holds") + ".",
         f"{f.name}'s Morale {f.morale}: 2D6 {faces[0]} + {faces[1]} = {total}, "
         f"{chance.numerator}/{chance.denominator} to break: "
         + ("breaks" if breaks else "holds") + ".")


def _effect(state: FightState, p: dict) -> None:
    turn = _need_turn(state)
    label = _text(p, "label", TEXT_LENGTH, "Effect")
    turns = _int(p, "turns", 1, 99, "Its duration in Initiative Turns")
    source = _text(p, "source", NAME_LENGTH, "Source", required=False)
    state.turn = ini.add_effect(turn, label, source, turns)
    _say(state, f"Effect: {label}{' (' + source + ')' if source else ''}, "
                f"{turns} Initiative Turn{'s' if turns > 1 else ''}.")


def _next_phase(state: FightState, p: dict) -> None:
    turn = _need_turn(state)
    if turn.phase + 1 >= len(ini.PHASES):
        raise FightError("last_phase", "This is the last phase: end the Turn.")
    state.turn = ini.next_phase(turn)
    _say(state, f"Phase {state.turn.phase + 1}: {state.phase_label}.")


def _end_turn(state: FightState, p: dict) -> None:
    turn = _need_turn(state)
    closed, expired = ini.end_turn(turn)
    state.turn, state.carried, state.expired, state._closed = closed, closed.effects, expired, True
    text = f"Initiative Turn {state.turn_number} ends."
    if expired:
        text += " Expired: " + ", ".join(e.label for e in expired) + "."
    for f in state.fighters.values():
        if f.stunned:
            f.stunned -= 1
            if not f.stunned and not f.out and f.active:
                text += f" {f.name} is no longer stunned."
        if f.knocked_out:
            f.knocked_out -= 1
            if not f.knocked_out and not f.dead and f.active:
                text += (f" {f.name} comes to (HP {f.hp})" +
                         (" but is still out of action." if f.out else
                          " but is still stunned." if f.stunned else ": may act again."))
        if f.clock is not None and not f.dead:
            f.clock = wo.tick(f.clock, wo.INITIATIVE_TURNS)
            if f.clock.dead:
                f.dead = True
                text += f" {f.name} dies."
            elif not f.clock.stopped:
                text += f" {f.name}: {_clock_text(f.clock)}"
    _say(state, text)


HAZARDS = {"fire": "on fire", "breath": "out of breath", "fall": "a fall"}


def hazard_dice(state: FightState, p: dict) -> tuple[Fighter, list[int]]:
    """The target and the dice of a hazard (IT §Drowning, Falling, Burning): n D6 in the
    n-th Turn on fire, less 1D6 per action putting it out (AMB-E10); 1D6 a Turn once the
    breath (phys - 10 Turns, AMB-E25) runs out; a fall's 1D6 [x 1Dn] by the table
    (AMB-E24). Not an action: the Guide applies it when it happens."""
    f = state.fighter(p.get("key"))
    if not f.active:
        raise FightError("target_gone", f"{f.name} is no longer in the fight.", "key")
    hazard = p.get("hazard")
    if hazard not in HAZARDS:
        raise FightError("bad_hazard", "Choose fire, breath or a fall.", "hazard")
    try:
        if hazard == "fire":
            count = wo.burning_dice(_int(p, "turns", 1, 99, "Turns on fire"),
                                    _int(p, "douse", 0, 99, "Actions putting it out"))
            return f, [6] * count
        if hazard == "breath":
            if f.kind != ERRANT:
                raise FightError("not_errant", "Breath is counted for Errants (phys).", "key")
            count = wo.suffocation_dice(f.attributes["phys"],
                                        _int(p, "turns", 1, 99, "Turns without air"))
            return f, [6] * count
        dice = wo.fall_dice(_int(p, "feet", 0, 9999, "The fall in feet"))
    except wo.CombatError as error:
        raise _rules(error, "turns") from None
    if dice is None:
        return f, []
    return f, [6] + ([dice[1]] if dice[1] else [])


def _hazard(state: FightState, p: dict) -> None:
    f, sides = hazard_dice(state, p)
    faces = p.get("faces") or []
    if len(faces) != len(sides) or any(
            not isinstance(x, int) or not 1 <= x <= n for x, n in zip(faces, sides,
                                                                       strict=False)):
        raise FightError("bad_faces", "The hazard's dice do not match.", "hazard")
    if p["hazard"] == "fall":
        damage = wo.fall_damage(p["feet"], *faces) if faces else 0
        dice = " x ".join(f"D{n} {x}" for x, n in zip(faces, sides, strict=True))
        what = f"falls {p['feet']} feet"
    else:
        damage = sum(faces)
        dice = " + ".join(str(x) for x in faces)
        what = HAZARDS[p["hazard"]] + f" (Turn {p['turns']})"
    head = f"{f.name} {what}: " + (f"{len(faces)}D6 {dice} = {damage} damage"
                                   if p["hazard"] != "fall" else
                                   (f"{dice} = {damage} damage" if faces else "no damage"))
    if not damage:
        _say(state, head + ".")
        return
    public, guide = _hurt(state, f, damage)
    _say(state, "; ".join([head, *public]) + ".", "; ".join([head, *guide]) + ".")


FIRE_STEPS = ("ignite", "burn", "douse", "out")


def fire_dice(state: FightState, p: dict) -> tuple[Fighter, int]:
    """The burning combatant and the D6s a "burn" rolls (IT §Drowning, Falling, Burning: "1D6
    damage per Initiative Turn they have been on fire (i.e. the first Initiative Turn they
    take 1D6, the second 2D6, and so on). Taking an action to put out the fire removes 1D6
    from the damage they will take"; AMB-E10, AMB-E-FIRE); 0 for the other fire steps."""
    f = state.fighter(p.get("key"))
    if not f.active:
        raise FightError("target_gone", f"{f.name} is no longer in the fight.", "key")
    do = p.get("do")
    if do not in FIRE_STEPS:
        raise FightError("bad_fire", "Set on fire, burn, douse or put out.", "do")
    if do == "ignite":
        if f.on_fire:
            raise FightError("on_fire", f"{f.name} is already on fire.", "key")
        return f, 0
    if not f.on_fire:
        raise FightError("not_on_fire", f"{f.name} is not on fire.", "key")
    if do == "burn":
        if f.burnt_in_turn == state.turn_number:
            raise FightError("burnt", f"{f.name}'s fire has burned this Initiative Turn: "
                             "once a Turn.", "key")
        return f, f.fire_dice
    return f, 0


def _fire(state: FightState, p: dict) -> None:
    f, count = fire_dice(state, p)
    do = p["do"]
    if do == "ignite":
        f.on_fire, f.fire_turns, f.doused, f.burnt_in_turn = True, 0, 0, -1
        _say(state, f"{f.name} is on fire: 1D6 in the first Initiative Turn, one more D6 "
                    "each Turn after, 1D6 fewer per action putting it out.")
    elif do == "out":
        f.on_fire = False
        _say(state, f"{f.name}'s fire is out.")
    elif do == "douse":
        turn = _need_turn(state)
        actor = state.fighter(p.get("actor") or f.key, "actor")
        try:
            state.turn = ini.act(turn, actor.key, "other")
        except ini.InitiativeError as error:
            raise _rules(error, "actor") from None
        f.doused += 1
        text = (f"{actor.name} takes an action to put out {f.name}'s fire: 1D6 fewer")
        if f.fire_dice:
            text += f" (next Turn on fire: {f.fire_dice}D6)."
        else:
            f.on_fire = False
            text += f"; no D6 left, {f.name}'s fire is out."
        _say(state, text)
    else:
        faces = p.get("faces") or []
        if len(faces) != count or any(not isinstance(x, int) or isinstance(x, bool)
                                      or not 1 <= x <= 6 for x in faces):
            raise FightError("bad_faces", "The fire's dice do not match.", "key")
        f.fire_turns += 1
        f.burnt_in_turn = state.turn_number
        head = (f"{f.name} burns (Turn {f.fire_turns} on fire, {f.fire_turns}D6"
                + (f" less {f.doused} doused" if f.doused else "") + "): ")
        if not faces:
            f.on_fire = False
            _say(state, head + "no D6 left, the fire is out.")
            return
        damage = sum(faces)
        head += f"{len(faces)}D6 {' + '.join(map(str, faces))} = {damage} damage"
        public, guide = _hurt(state, f, damage)
        _say(state, "; ".join([head, *public]) + ".", "; ".join([head, *guide]) + ".")


def _end(state: FightState, p: dict) -> None:
    if state.in_turn:
        raise FightError("turn_open", "End this Initiative Turn first.")
    state.ended = True
    _say(state, "The fight is over.")


APPLY = {"setup": _setup, "errant": _errant, "npc": _npc, "turn": _start_turn, "pace": _pace,
         "act": _act, "attack": _attack, "save": _save, "wound": _wound,
         "stabilise": _stabilise, "morale": _morale, "effect": _effect,
         "next_phase": _next_phase, "end_turn": _end_turn, "end": _end, "hazard": _hazard,
         "fire": _fire}


def apply(state: FightState, kind: str, payload: dict) -> FightState:
    """The state after one step, or FightError; `state` itself is left as it was."""
    if kind not in APPLY:
        raise FightError("bad_kind", "Unknown step.")
    if state.ended:
        raise FightError("ended", "This fight is over.")
    if kind != "setup" and not state.set_up:
        raise FightError("not_set_up", "Roll the combat distance and surprise first.")
    after = copy.deepcopy(state)
    try:
        APPLY[kind](after, payload)
    except (ini.InitiativeError, wo.CombatError) as error:
        raise _rules(error) from None
    except FightError as error:
        # the engine names combatants by key: name them as the page does
        names = {k: f.name for k, f in state.fighters.items()}
        error.message = re.sub(r"\b[enc]\d+\b", lambda m: names.get(m[0], m[0]),
                               error.message)
        raise
    return after


def fold(steps) -> FightState:
    state = FightState()
    for kind, payload in steps:
        state = apply(state, kind, payload)
    return state
