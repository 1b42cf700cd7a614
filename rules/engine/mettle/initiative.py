"""Volleyball Initiative as METTLE Core plays it: the shared state machine
(rules/engine/volleyball.py; its Fighter stands Staggered at 0 or below when the system
says so, `stands_staggered`) with METTLE's additions on top.

The Scenes chapter (seed 001) > Staging > Initiative, Movement, Split Actions; Actions >
Defend, Sneak (Surprise); Resources > Specials (Reach). next-games.md §4 lists them:
- who triggers: in an argument, the PCs have the privilege (`who_triggers`);
- Split Actions: the pool splits into parts; the splitter keeps their Action until every
  part is taken, and the target goes next after each part (`split`, `act_part`, `pass_to`);
- Defend: the very next Action after an Attack, and it may interrupt to defend an ally in
  the same Zone, replacing them as the target (`defend`);
- Surprise: the surprised side goes one Round without an Action (`surprise`, AMB-M11b);
- Reach: a Reach weapon steals Initiative from an attacker, unless out of Actions or the
  attacker also uses Reach (`reach_steal`).
- Movement: the Free Move into an adjacent Zone before the Action; hindered or Staggered,
  the Move costs the Action (`move`); Zones are tracked per combatant, and Defend for an
  ally checks the same Zone when both are known;
- Damage: DM + Edge through Soak (`damage`, damage.py): a Felling blow at 0 or below is
  Fallen, or Staggered at one more point if chosen (the combatant stays up), or
  Incapacitated for a Stun Attack or from a Stun-only weapon (RS §Specials, Stun);
- BP armour: the first firearm damage a bulletproof wearer takes after Soak is halved
  (RS §Armor); who has spent theirs is part of the Scene, so a replay (and an undo) knows.

A `Scene` is the shared InitiativeState plus the Split parts still to take this Round,
each combatant's Soak and Zone;
every step returns a new Scene or raises InitiativeError. `apply_step` replays a stored
ledger of steps by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .. import volleyball
from ..volleyball import (
    ACT,
    FOES,
    PARTY,
    PASS,
    SETUP,
    Event,
    Fighter,
    InitiativeError,
    InitiativeState,
    TieError,
)
from .checks import split_pool
from .damage import (
    Felled,
    bulletproof_through,
    damage_through_soak,
    stuns_on_felling,
    take_damage,
)

__all__ = [
    "FOES",
    "PARTY",
    "SETTABLE_STATUSES",
    "STEPS",
    "Scene",
    "act",
    "act_part",
    "affliction",
    "apply_step",
    "burn",
    "damage",
    "defend",
    "end",
    "fighter",
    "interrupt",
    "join",
    "legal_passes",
    "move",
    "new_scene",
    "pass_to",
    "reach_steal",
    "replay",
    "set_burning",
    "split",
    "surprise",
    "trigger",
    "wait",
    "who_triggers",
]

# The statuses a METTLE combatant may carry (EN §Taking Damage, §Status Effects). No
# "grappled": a METTLE Grapple raises Difficulty instead of taking the Action away.
SETTABLE_STATUSES = (
    "afflicted", "blinded", "burning", "dead", "deafened", "encumbered", "fallen",
    "incapacitated", "rattled", "staggered", "surprised",
)
DEFEND = "defend"
MAX_ZONE_LABEL = 40
MAX_DAMAGE = 999


@dataclass(frozen=True)
class Scene:
    state: InitiativeState
    splits: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (actor, dice of parts left)
    soaks: tuple[tuple[str, int], ...] = ()  # (key, Soak: FRAME + armour)
    zones: tuple[tuple[str, str], ...] = ()  # (key, the Zone they are in; "" unknown)
    bulletproof: tuple[str, ...] = ()  # keys wearing BP armour (RS §Armor)
    bp_spent: tuple[str, ...] = ()  # keys whose BP has halved its first firearm damage
    # Burning (Scenery > Fire): the fire's damage each Burning combatant takes again each
    # Round, and the last Round it took it (AMB-M-FIRE-1).
    burns: tuple[tuple[str, int], ...] = ()
    burned: tuple[tuple[str, int], ...] = ()

    def parts_left(self, key: str) -> tuple[int, ...]:
        return dict(self.splits).get(key, ())

    def burn_amount(self, key: str) -> int | None:
        """The fire's damage a Burning combatant takes each Round, if known."""
        return dict(self.burns).get(key)

    def burn_due(self, key: str) -> int | None:
        """The fire's damage `key` still has to take this Round while Burning ("continue
        to take the same damage each Round until extinguished or burnt to cinders"), or
        None: not Burning, the damage not known yet, already taken this Round, Dead, or
        Initiative not running."""
        state = self.state
        if not state.running:
            return None
        me = state.fighter(key)
        amount = self.burn_amount(key)
        if ("burning" not in me.statuses or amount is None or "dead" in me.statuses
                or (me.mob and me.fallen)):
            return None
        if dict(self.burned).get(key, 0) >= state.round:
            return None
        return amount

    def soak(self, key: str) -> int:
        return dict(self.soaks).get(key, 0)

    def zone(self, key: str) -> str:
        return dict(self.zones).get(key, "")

    def with_state(self, state: InitiativeState, splits=None, zones=None) -> Scene:
        """The new state; a new Round lapses every Split."""
        if splits is None:
            splits = self.splits
        if state.round != self.state.round:
            splits = ()
            state = self._burning_notes(state)
        return replace(self, state=state,
                       splits=tuple((k, parts) for k, parts in splits if parts),
                       zones=self.zones if zones is None else zones)

    def _burning_notes(self, state: InitiativeState) -> InitiativeState:
        """A new Round's Burning notes are METTLE's: "the same damage each Round"
        (Scenery > Fire), not the shared machine's 1d6 (Eldritch Gambit's)."""
        start = len(self.state.log)
        shared = " is Burning: 1d6 fire damage now."
        log = state.log[:start] + tuple(event for event in state.log[start:]
                                        if not (event.kind == "note"
                                                and event.text.endswith(shared)))
        for f in state.fighters:
            if "burning" in f.statuses and "dead" not in f.statuses:
                amount = self.burn_amount(f.key)
                text = (f"{f.name} is Burning: {amount} fire damage again this Round, "
                        "through Soak." if amount is not None else
                        f"{f.name} is Burning: give the fire's damage to repeat each Round.")
                log += (Event(state.round, "note", text, f.key, ()),)
        return replace(state, log=log)


def _checked(statuses: Iterable[str]) -> tuple[str, ...]:
    statuses = tuple(statuses)
    for key in statuses:
        if key not in SETTABLE_STATUSES:
            raise InitiativeError(f"Unknown status {key!r}.", "statuses")
    return statuses


def fighter(key: str, name: str, *, side: str = PARTY, mettle_max: int,
            mettle: int | None = None, mob: bool = False, members: int = 1,
            statuses: Iterable[str] = ()) -> Fighter:
    """A combatant with its Mettle as the shared machine's HP (an NPC pool's Mettle is the
    pool: GD §NPC Creation); Staggered, it stays up at 0 or below (EN §Taking Damage)."""
    return volleyball.fighter(key, name, side=side, hp_max=mettle_max, hp=mettle, mob=mob,
                              members=members, statuses=_checked(statuses),
                              stands_staggered=True)


def _zone(zone: str) -> str:
    zone = " ".join((zone or "").split())
    if len(zone) > MAX_ZONE_LABEL:
        raise InitiativeError(f"Keep the Zone's name to {MAX_ZONE_LABEL} characters.", "zone")
    return zone


def new_scene(fighters: Iterable[Fighter], *, soaks: Mapping[str, int] | None = None,
              zones: Mapping[str, str] | None = None,
              bulletproof: Iterable[str] = ()) -> Scene:
    """The fighters with their Soak (FRAME + armour; an NPC pool's FRAME), Zone and whether
    they wear BP armour (RS §Armor)."""
    state = volleyball.new_scene(fighters)
    soaks = soaks or {}
    zones = zones or {}
    bulletproof = set(bulletproof)
    return Scene(state, soaks=tuple((f.key, max(int(soaks.get(f.key, 0)), 0))
                                    for f in state.fighters),
                 zones=tuple((f.key, _zone(zones.get(f.key, ""))) for f in state.fighters),
                 bulletproof=tuple(f.key for f in state.fighters if f.key in bulletproof))


def join(scene: Scene, newcomer: Fighter, *, soak: int = 0, zone: str = "",
         bulletproof: bool = False) -> Scene:
    """Reinforcements join with their Action for this Round (the shared `join`)."""
    new = scene.with_state(volleyball.join(scene.state, newcomer))
    return replace(new, soaks=new.soaks + ((newcomer.key, max(soak, 0)),),
                   zones=new.zones + ((newcomer.key, _zone(zone)),),
                   bulletproof=new.bulletproof + ((newcomer.key,) if bulletproof else ()))


def who_triggers(state: InitiativeState, claimants: Iterable[str],
                 choice: str | None = None) -> str:
    """SC §Initiative: the first to declare a hostile Action triggers it; "in an argument,
    PCs get the privilege". Of several claimants the PCs win; several PCs (or several
    foes with no PC) settle it among themselves: `choice` names who, else TieError."""
    keys = list(dict.fromkeys(claimants))
    if not keys:
        raise InitiativeError("Choose who declares the first hostile Action.", "claimants")
    pcs = [k for k in keys if state.fighter(k).side == PARTY]
    pool = pcs or keys
    if choice is not None:
        if choice not in pool:
            raise InitiativeError("Choose one of the claimants"
                                  + (" on the PCs' side." if pcs else "."), "choice")
        return choice
    if len(pool) > 1:
        names = " and ".join(state.name(k) for k in pool)
        raise TieError(f"{names} both claim the first Action: choose who.", tuple(pool))
    return pool[0]


def surprise(scene: Scene, side: str) -> Scene:
    """Sneak > Surprise: "The surprised side goes a Round without an Action." Set before
    Initiative is triggered; the shared machine ends Surprised at the next Round."""
    state = scene.state
    if state.phase != SETUP:
        raise InitiativeError("Surprise is set before Initiative is triggered.")
    for f in state.fighters:
        if f.side == side:
            state = volleyball.set_statuses(state, f.key, f.statuses | {"surprised"})
    return scene.with_state(state)


# -- acting, with Split Actions ----------------------------------------------------------------


def _take(scene: Scene, actor: str, targets: Iterable[str], action: str, *,
          keep_action: bool, text: str) -> InitiativeState:
    """The holder's Action (or one part of it), taken by the shared `act`; a splitter with
    parts left keeps their Action."""
    return volleyball.act(scene.state, actor, targets, action, keep_action=keep_action,
                          text=text)


def act(scene: Scene, actor: str, targets: Iterable[str] = (), action: str = "") -> Scene:
    """A whole Action (the shared machine's), refused while Split parts are left."""
    if scene.parts_left(actor):
        raise InitiativeError(f"{scene.state.name(actor)} has split their Action: take the "
                              "next part.")
    return scene.with_state(volleyball.act(scene.state, actor, targets, action))


def split(scene: Scene, actor: str, dice: int, parts: int,
          caps: Sequence[int | None] | None = None, targets: Iterable[str] = (),
          action: str = "") -> Scene:
    """SC §Split Actions: the holder declares `parts` Actions from a pool of `dice`, split as
    evenly as possible (checks.split_pool: each part at least 1 die, capped by a smaller
    Attribute), and takes the first part now."""
    if scene.parts_left(actor):
        raise InitiativeError("This Action is already split.")
    try:
        shares = split_pool(dice, parts, caps)
    except ValueError as error:
        raise InitiativeError(str(error), "parts") from None
    name = scene.state.name(actor)
    shown = ", ".join(f"{n}D" for n in shares)
    text = f"{name} splits {dice}D into {parts} Actions ({shown}); part 1, {shares[0]}D"
    state = _take(scene, actor, targets, action, keep_action=parts > 1, text=text)
    return scene.with_state(state, scene.splits + ((actor, shares[1:]),))


def act_part(scene: Scene, actor: str, targets: Iterable[str] = (), action: str = "") -> Scene:
    """The next part of a Split Action; the last one spends the Action."""
    left = scene.parts_left(actor)
    if not left:
        raise InitiativeError(f"{scene.state.name(actor)} has no Split parts left.")
    text = f"{scene.state.name(actor)} takes the next part of the Split Action, {left[0]}D"
    state = _take(scene, actor, targets, action, keep_action=len(left) > 1, text=text)
    splits = tuple((k, parts[1:] if k == actor else parts) for k, parts in scene.splits)
    return scene.with_state(state, splits)


def pass_to(scene: Scene, to: str) -> Scene:
    """The shared pass, and one more: a splitter whose target has no Action may pass to
    themselves and take the parts back-to-back (SC §Split Actions)."""
    state = scene.state
    if (state.phase == PASS and to == state.holder and scene.parts_left(to)
            and not state.bound_targets and not state.deciding):
        me = state.fighter(to)
        state = replace(state, phase=ACT, last_targets=(), round_start=False,
                        imp_decides=False, passed_by=to, passed_targeted=False, attacked=(),
                        log=state.log + (Event(state.round, "pass",
                                               f"{me.name} keeps Initiative for the next part.",
                                               to, (to,)),))
        return scene.with_state(volleyball.settle(state))
    return scene.with_state(volleyball.pass_to(state, to))


def legal_passes(scene: Scene) -> tuple[str, ...]:
    """Who the holder may pass to: the shared rules, and themselves for a splitter whose
    target has no Action left."""
    state = scene.state
    keys = state.legal_passes()
    if (state.phase == PASS and scene.parts_left(state.holder) and not state.bound_targets
            and not state.deciding and state.holder not in keys):
        keys += (state.holder,)
    return keys


def _event(state: InitiativeState, kind: str, text: str, actor: str = "",
           targets: tuple[str, ...] = ()) -> InitiativeState:
    return replace(state, log=state.log + (Event(state.round, kind, text, actor, targets),))


def _put(state: InitiativeState, new: Fighter) -> InitiativeState:
    return replace(state, fighters=tuple(new if f.key == new.key else f
                                         for f in state.fighters))


def damage(scene: Scene, key: str, amount: int, *, soak_bonus: int = 0, soft: bool = False,
           stun_attack: bool = False, stun_weapon: bool = False, area: bool = False,
           stagger: bool = False, stun_only: bool = False, firearm: bool = False,
           bulletproof: bool = False, soak: int | None = None,
           wears_bp: bool | None = None) -> Scene:
    """A hit of `amount` (DM + Edge, or an Area Attack's 1d6 + DM) through the target's
    Soak plus `soak_bonus` (a Defend's +2 and Edge, +1 on a failure), halved for Soft,
    unarmed or Stun hits (EN §Taking Damage, Attack; damage.damage_through_soak). "A hit
    that drops their Mettle to zero or lower is a Felling blow": Fallen, or Staggered at
    one more point of damage if `stagger` is chosen (they stay up, again on a later
    Felling blow), or Incapacitated for a Stun Attack (damage.take_damage). A Mob's
    Felling blow removes a member (an area one the whole Mob: AMB-M-INI-2).

    A `stun_only` weapon (RS §Specials, Stun: Stun gun, Taser) "does damage but will
    always Stun on a Felling blow": full damage, Incapacitated on a Felling blow, ticked
    as a Stun Attack or not. A `firearm` hit on a BP wearer (known from the setup, or
    `bulletproof` ticked for this hit: an NPC's armour is only a Soak) is halved after
    Soak the first time only (RS §Armor; damage.bulletproof_through, AMB-M-BP-1).

    A hit is soaked by the armour worn when it landed (AMB-M-INI-7): `soak` (FRAME +
    armour, before the Defend's bonus) and `wears_bp` are the target's numbers the step
    recorded as it was taken, so that a later change to a sheet does not rewrite the
    fight; None (a step recorded before they were kept) reads the Scene's."""
    state = scene.state
    if state.phase == volleyball.ENDED:
        raise InitiativeError("Initiative has ended.")
    if not 1 <= amount <= MAX_DAMAGE:
        raise InitiativeError(f"Damage is between 1 and {MAX_DAMAGE}.", "amount")
    if not 0 <= soak_bonus <= MAX_DAMAGE:
        raise InitiativeError(f"A Soak bonus is between 0 and {MAX_DAMAGE}.", "soak_bonus")
    if soak is not None and (type(soak) is not int or not 0 <= soak <= MAX_DAMAGE):
        raise InitiativeError(f"A recorded Soak is between 0 and {MAX_DAMAGE}.", "soak")
    if wears_bp is not None and type(wears_bp) is not bool:
        raise InitiativeError("Whether the target wore BP armour is yes or no.", "wears_bp")
    me = state.fighter(key)
    if "dead" in me.statuses or (me.mob and me.fallen):
        raise InitiativeError(f"{me.name} has already fallen.", "amount")
    soak = (scene.soak(key) if soak is None else soak) + soak_bonus
    stun_attack = stuns_on_felling(stun_attack=stun_attack, stun_only=stun_only)
    through = damage_through_soak(amount, soak, soft=soft, stun_attack=stun_attack,
                                  stun_weapon=stun_weapon or stun_only)
    wears_bp = bulletproof or (key in scene.bulletproof if wears_bp is None else wears_bp)
    spent = key in scene.bp_spent
    through, now_spent = bulletproof_through(through, firearm=firearm, bulletproof=wears_bp,
                                             spent=spent)
    if now_spent and not spent:
        scene = replace(scene, bp_spent=scene.bp_spent + (key,))
        head = (f"{me.name} takes {amount} firearm damage, Soak {soak}: BP armour halves "
                f"its first firearm damage, {through} through")
    else:
        head = f"{me.name} takes {amount} damage, Soak {soak}: {through} through"
    if stagger and (me.mob or me.fallen):
        raise InitiativeError(f"{me.name} cannot choose Staggered"
                              + (" (a Mob)." if me.mob else " (already Fallen)."), "stagger")
    if me.fallen:  # hurt further: a deeper negative Mettle (Aid's Difficulty)
        new = replace(me, hp=me.hp - through)
        return scene.with_state(volleyball.settle(_event(
            _put(state, new), "damage", f"{head} (Mettle {new.hp}/{me.hp_max}).", key)))
    result = take_damage(me.hp, through, stagger=stagger, stun_attack=stun_attack)
    if stagger and result.felled is not Felled.STAGGERED:
        raise InitiativeError("Staggered is chosen only on a Felling blow (a hit that drops "
                              "Mettle to 0 or lower), and not against a Stun Attack or a "
                              "Stun-only weapon.", "stagger")
    if me.mob and result.felling_blow:
        left = 0 if area else me.members - 1
        text = (f"{head}: an area Felling blow, the whole Mob falls." if left == 0 and area
                else f"{head}: a Felling blow, the Mob loses a member ({left} left).")
        new = replace(me, members=left)
    elif result.felled is Felled.STAGGERED:
        new = replace(me, hp=result.mettle, statuses=me.statuses | {"staggered"})
        text = (f"{head}: a Felling blow; Staggered instead of Fallen, one more point "
                f"(Mettle {result.mettle}/{me.hp_max}).")
    elif result.felled is Felled.FALLEN:
        new = replace(me, hp=result.mettle,
                      statuses=(me.statuses - {"staggered"}) | {"fallen"})
        text = f"{head}: a Felling blow, Fallen (Mettle {result.mettle}/{me.hp_max})."
    elif result.felled is Felled.INCAPACITATED:
        new = replace(me, statuses=me.statuses | {"incapacitated"})
        text = (f"{head}: a Stun-only weapon's Felling blow, Incapacitated instead of damage."
                if stun_only else
                f"{head}: a Stun Attack's Felling blow, Incapacitated instead of damage.")
    else:
        new = replace(me, hp=result.mettle)
        text = f"{head} (Mettle {result.mettle}/{me.hp_max})."
    return scene.with_state(volleyball.settle(_event(_put(state, new), "damage", text, key)))


def worn(scene: Scene, key) -> dict:
    """What a damage step records of its target as it is taken (AMB-M-INI-7): its Soak and
    whether it wears BP armour, as the Scene has them now; nothing for a key not in it
    (the step is then refused for its key)."""
    soaks = dict(scene.soaks)
    if not isinstance(key, str) or key not in soaks:
        return {}
    return {"soak": soaks[key], "wears_bp": key in scene.bulletproof}


def _ignite(scene: Scene, key: str, amount: int, *, taken_now: bool) -> Scene:
    """`key` is Burning with the fire's damage `amount` to take again each Round;
    `taken_now`: this Round's is the hit that set it alight."""
    state = scene.state
    me = state.fighter(key)
    state = _put(state, replace(me, statuses=me.statuses | {"burning"}))
    burned = tuple((k, r) for k, r in scene.burned if k != key)
    if taken_now:
        burned += ((key, state.round),)
    text = (f"{me.name} is Burning: {amount} fire damage each Round, through Soak, until "
            "extinguished.")
    return replace(scene.with_state(_event(state, "burning", text, key)),
                   burns=tuple((k, a) for k, a in scene.burns if k != key) + ((key, amount),),
                   burned=burned)


def set_burning(scene: Scene, key: str, amount: int) -> Scene:
    """Scenery > Fire: "Flammable targets take on the Burning Status, meaning they cannot
    Rally and continue to take the same damage each Round until extinguished": the
    Guide gives the fire's damage (before Soak) for a combatant Burning without a known
    one (set by hand, or brought in from its sheet), or corrects it."""
    if scene.state.phase == volleyball.ENDED:
        raise InitiativeError("Initiative has ended.")
    if not 1 <= amount <= MAX_DAMAGE:
        raise InitiativeError(f"The fire's damage is between 1 and {MAX_DAMAGE}.", "amount")
    scene.state.fighter(key)
    return _ignite(scene, key, amount, taken_now=False)


def burn(scene: Scene, key: str, *, stagger: bool = False, soak: int | None = None,
         wears_bp: bool | None = None) -> Scene:
    """A Burning combatant's fire damage for this Round, once a Round: the same damage
    as the fire's, soaked by FRAME and armour (`damage`: a Felling blow is Fallen, or
    Staggered if chosen). Refused when not due (`Scene.burn_due`)."""
    amount = scene.burn_due(key)
    if amount is None:
        me = scene.state.fighter(key)
        why = ("is not Burning" if "burning" not in me.statuses else
               "has no fire damage given yet" if scene.burn_amount(key) is None else
               "cannot burn now" if not scene.state.running or "dead" in me.statuses
               else "has already burned this Round")
        raise InitiativeError(f"{me.name} {why}.", "burn")
    state = scene.state
    name = state.name(key)
    scene = scene.with_state(_event(state, "burn", f"{name} burns (Round {state.round}).",
                                    key))
    scene = damage(scene, key, amount, stagger=stagger, soak=soak, wears_bp=wears_bp)
    return replace(scene, burned=tuple((k, r) for k, r in scene.burned if k != key)
                   + ((key, scene.state.round),))


def _statuses_step(scene: Scene, key: str, statuses: Iterable[str]) -> Scene:
    """The Guide's statuses; Burning taken off is extinguished: its fire damage goes."""
    new = scene.with_state(volleyball.set_statuses(scene.state, key, _checked(statuses)))
    if "burning" not in new.state.fighter(key).statuses:
        new = replace(new, burns=tuple((k, a) for k, a in new.burns if k != key),
                      burned=tuple((k, r) for k, r in new.burned if k != key))
    return new


def affliction(scene: Scene, key: str, change: int = 0, afflicted: bool | None = None,
               source: str = "") -> Scene:
    """An affliction's tick during the fight (Scenery > Affliction: a poison lowers max
    Mettle "by one each Round", recovers "every Round" once it ends; AMB-M-AFF-4): max
    Mettle changes by `change` (-1, 0 or +1), current Mettle above a lowered maximum comes
    down to it ("if it lowers Mettle to 0 or below they still become Staggered or
    Fallen"), a recovery raises the maximum only; `afflicted` sets or clears Afflicted
    (the dart that afflicts, the tick that ends the last affliction). `source` names the
    affliction in the log (never the secret Dose)."""
    state = scene.state
    if state.phase == volleyball.ENDED:
        raise InitiativeError("Initiative has ended.")
    if change not in (-1, 0, 1):
        raise InitiativeError("An affliction's tick changes max Mettle by one at most.")
    me = state.fighter(key)
    maximum = me.hp_max + change
    hp = min(me.hp, maximum) if change < 0 else me.hp
    statuses = me.statuses
    if afflicted is True:
        statuses = statuses | {"afflicted"}
    elif afflicted is False:
        statuses = statuses - {"afflicted"}
    new = replace(me, hp=hp, hp_max=maximum, statuses=statuses)
    source = " ".join(str(source or "an affliction").split())[:80]
    parts = []
    if change:
        parts.append(f"max Mettle {'lowered' if change < 0 else 'recovered'} {me.hp_max} → "
                     f"{maximum}" + (f", Mettle {me.hp} → {hp}" if hp != me.hp else ""))
    if afflicted is True and "afflicted" not in me.statuses:
        parts.append("Afflicted")
    if afflicted is False and "afflicted" in me.statuses:
        parts.append("no longer Afflicted")
    text = f"{me.name}: {source}" + (f", {'; '.join(parts)}" if parts else "") + "."
    return scene.with_state(volleyball.settle(_event(_put(state, new), "affliction",
                                                     text, key)))


def set_mettle(scene: Scene, key: str, mettle: int) -> Scene:
    """The Guide corrects current Mettle (a Rally, Aid, a Surge spent: damage.py)."""
    state = scene.state
    if state.phase == volleyball.ENDED:
        raise InitiativeError("Initiative has ended.")
    me = state.fighter(key)
    if not -MAX_DAMAGE <= mettle <= me.hp_max:
        raise InitiativeError(f"Mettle is between {-MAX_DAMAGE} and the maximum "
                              f"{me.hp_max}.", "mettle")
    new = replace(me, hp=mettle)
    return scene.with_state(volleyball.settle(_event(
        _put(state, new), "set_hp", f"{me.name}'s Mettle set to {mettle}/{me.hp_max}.", key)))


# -- Movement ----------------------------------------------------------------------------------


def move(scene: Scene, actor: str, zone: str, *, hindered: bool = False) -> Scene:
    """SC §Movement: "each combatant gets a Free Move into an adjacent Zone before their
    Action. This only uses up a Checked Action if hindered somehow, such as by an
    obstacle or the Staggered status." The holder moves before acting: free if they still
    have their Free Move and nothing hinders them, else it is their Move Action (a Split
    part if they split)."""
    state = scene.state
    volleyball_running(state)
    if state.phase != ACT or actor != state.holder:
        raise InitiativeError("Only the holder of Initiative moves, before their Action.")
    me = state.fighter(actor)
    zone = _zone(zone)
    if not zone:
        raise InitiativeError("Name the Zone they move into.", "zone")
    if zone == scene.zone(actor):
        raise InitiativeError(f"{me.name} is already in {zone}.", "zone")
    zones = tuple((k, zone if k == actor else z) for k, z in scene.zones)
    if "encumbered" in me.statuses:
        return _encumbered_move(scene, me, zone, zones, hindered=hindered)
    if not hindered and me.has_free_move:
        new = replace(me, free_move_lost=True)
        state = _event(_put(state, new), "move", f"{me.name} takes their Free Move into "
                       f"{zone}.", actor)
        return scene.with_state(state, zones=zones)
    why = "Staggered" if "staggered" in me.statuses else (
        "hindered" if hindered else "the Free Move is used")
    moved = (act_part(scene, actor, (), "Move") if scene.parts_left(actor)
             else act(scene, actor, (), "Move"))
    state = _event(moved.state, "move", f"{me.name} moves into {zone} ({why}): it costs "
                   "the Action.", actor)
    return moved.with_state(state, zones=zones)


def _encumbered_move(scene: Scene, me: Fighter, zone: str, zones, *, hindered: bool) -> Scene:
    """CH §Encumbrance (EN §Status Effects, Encumbered): "every Zone crossed takes up two
    Moves": the Free Move and the Move Action together, so an Encumbered combatant
    crosses one Zone a Round, and only with both in hand (a hindered or used Free Move
    leaves one Move: not enough; AMB-M-INI-6)."""
    if hindered or not me.has_free_move or scene.parts_left(me.key) or not me.has_action:
        why = ("hindered" if hindered else "the Free Move is used" if not me.has_free_move
               else "the Action is split" if scene.parts_left(me.key)
               else "no Action left")
        raise InitiativeError(f"{me.name} is Encumbered: crossing a Zone takes two Moves, the "
                              f"Free Move and the Action, and {why}.", "zone")
    state = _put(scene.state, replace(me, free_move_lost=True))
    moved = act(scene.with_state(state), me.key, (), "Move")
    state = _event(moved.state, "move", f"{me.name} moves into {zone} (Encumbered: two "
                   "Moves, the Free Move and the Action).", me.key)
    return moved.with_state(state, zones=zones)


def volleyball_running(state: InitiativeState) -> None:
    if not state.running:
        raise InitiativeError("Initiative is not running.")


# -- Defend and Reach ------------------------------------------------------------------------


def defend(scene: Scene, defender: str, ally: str | None = None) -> Scene:
    """SC §Defend: "the very next Action after the original Attack" (before Initiative is
    passed on), with this Round's Action or a waited Defend. It "can also interrupt
    Initiative to defend an ally in the same Zone, replacing them as the target" (the
    Zone is the Guide's call)."""
    state = scene.state
    if not state.running:
        raise InitiativeError("Initiative is not running.")
    me = state.fighter(defender)
    defended = ally or defender
    if defended not in state.attacked:
        who = "their ally" if ally else me.name
        raise InitiativeError(f"Defend must come right after an Attack on {who}.", "defender")
    if ally == defender:
        ally = None
    if ally and scene.zone(ally) and scene.zone(defender) \
            and scene.zone(ally) != scene.zone(defender):
        raise InitiativeError(f"{me.name} is in {scene.zone(defender)}, "
                              f"{state.name(ally)} in {scene.zone(ally)}: Defend an ally "
                              "in the same Zone only.", "defender")
    if me.waiting:
        if me.waiting.casefold() != DEFEND or not me.can_interrupt:
            raise InitiativeError(f"{me.name} waits with “{me.waiting}” and cannot Defend.")
    elif not me.has_action:
        raise InitiativeError(f"{me.name} has no Action left to Defend with "
                              f"({me.action_state}).")
    # AMB-M-INI-4: a splitter Defends with their next Split part (its dice), keeping the
    # Action while parts are left; anyone else spends this Round's Action (or the Wait).
    left = () if me.waiting else scene.parts_left(defender)
    new = replace(me, waiting="", deciding=False, spent=len(left) <= 1)
    splits = tuple((k, parts[1:] if k == defender else parts) for k, parts in scene.splits)
    fighters = tuple(new if f.key == defender else f for f in state.fighters)

    def swap(keys: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(defender if k == defended else k for k in keys))

    text = (f"{me.name} Defends {state.name(ally)}, taking their place as the target."
            if ally else f"{me.name} Defends (their Action this Round).")
    if left:
        text = text.removesuffix(".").removesuffix(" (their Action this Round)") + (
            f", with the next part of the Split Action ({left[0]}D).")
    state = replace(state, fighters=fighters, attacked=swap(state.attacked),
                    last_targets=swap(state.last_targets),
                    log=state.log + (Event(state.round, "defend", text, defender,
                                           (ally,) if ally else ()),))
    return scene.with_state(volleyball.settle(state), splits)


def reach_steal(scene: Scene, wielder: str, *, attacker_has_reach: bool = False) -> Scene:
    """RS §Specials, Reach: a Reach weapon "steal[s] Initiative from an attacker, unless
    out of Actions or the attacker is also using a Reach weapon". The holder has declared
    an Attack on `wielder`, who takes Initiative and acts first."""
    state = scene.state
    if not state.running or state.phase != ACT:
        raise InitiativeError("Reach steals Initiative from an attacker about to act.")
    me = state.fighter(wielder)
    attacker = state.fighter(state.holder)
    if wielder == attacker.key:
        raise InitiativeError("The attacker cannot steal their own Initiative.")
    if attacker_has_reach:
        raise InitiativeError(f"{attacker.name} also uses a Reach weapon: no steal.")
    if not me.has_action:
        raise InitiativeError(f"{me.name} is out of Actions ({me.action_state}).")
    state = replace(state, holder=wielder, passed_by=attacker.key, passed_targeted=False,
                    attacked=(), log=state.log + (Event(
                        state.round, "reach", f"{me.name}'s Reach steals Initiative from "
                        f"{attacker.name}.", wielder, (attacker.key,)),))
    return scene.with_state(volleyball.settle(state))


def trigger(scene: Scene, key: str) -> Scene:
    """Round 1 begins with `key` holding Initiative (who_triggers settles an argument)."""
    return scene.with_state(volleyball.trigger(scene.state, key))


def wait(scene: Scene, actor: str, action: str) -> Scene:
    """Wait with a declared Action type ("Defend" for a later Defend interrupt)."""
    if scene.parts_left(actor):
        raise InitiativeError("A split Action cannot be held as a Wait.")
    return scene.with_state(volleyball.wait(scene.state, actor, action))


def interrupt(scene: Scene, waiter: str, action: str, targets: Iterable[str] = ()) -> Scene:
    return scene.with_state(volleyball.interrupt(scene.state, waiter, action, targets))


def end(scene: Scene) -> Scene:
    """Initiative ends (the shared end: Waits lapse). Mettle refills only if above zero
    (EN §Mettle: "If above zero, Mettle refills upon starting a new Scene"; AMB-M-INI-1:
    the end of the fight is that new start); the Staggered and Fallen keep theirs."""
    before = scene.state
    state = volleyball.end(before)
    kept = {f.key: f for f in before.fighters if f.hp <= 0 or f.fallen}
    fighters = tuple(replace(f, hp=kept[f.key].hp if f.key in kept else f.hp_max)
                     for f in state.fighters)

    def why(f: Fighter) -> str:
        return "Fallen" if f.fallen else (
            "Staggered" if "staggered" in f.statuses else "at zero or below")

    text = "Initiative ends: Mettle refills to maximum"
    text += (" except for " + ", ".join(f"{f.name} ({why(f)}, Mettle {f.hp})"
                                        for f in kept.values()) + "."
             if kept else " for everyone.")
    state = replace(state, fighters=fighters,
                    log=state.log[:-1] + (replace(state.log[-1], text=text),))
    return scene.with_state(state)


# -- the ledger ------------------------------------------------------------------------------


def _damage_step(scene: Scene, p: Mapping) -> Scene:
    """A stored damage step; `burning`: fire on a flammable target, which is Burning from
    now on with this damage each Round (Scenery > Fire; this Round's is this hit)."""
    new = damage(scene, p["key"], p["amount"], soak_bonus=p.get("soak_bonus", 0),
                 soft=p.get("soft", False), stun_attack=p.get("stun_attack", False),
                 stun_weapon=p.get("stun_weapon", False), area=p.get("area", False),
                 stagger=p.get("stagger", False), stun_only=p.get("stun_only", False),
                 firearm=p.get("firearm", False), bulletproof=p.get("bulletproof", False),
                 soak=p.get("soak"), wears_bp=p.get("wears_bp"))
    if p.get("burning"):
        new = _ignite(new, p["key"], p["amount"], taken_now=True)
    return new


def _lift(step):
    """A shared step (InitiativeState -> InitiativeState) as a Scene step."""
    return lambda scene, payload: scene.with_state(step(scene.state, payload))


STEPS = {
    **{kind: _lift(step) for kind, step in volleyball.STEPS.items()
       if kind not in ("act", "pass", "dodge", "statuses", "damage", "wait", "heal",
                       "set_hp", "end")},
    "end": lambda s, p: end(s),
    "wait": lambda s, p: wait(s, p["actor"], p["action"]),
    "damage": lambda s, p: _damage_step(s, p),
    "set_burning": lambda s, p: set_burning(s, p["key"], p["amount"]),
    "affliction": lambda s, p: affliction(s, p["key"], p.get("change", 0),
                                          p.get("afflicted"), p.get("source", "")),
    "burn": lambda s, p: burn(s, p["key"], stagger=p.get("stagger", False),
                              soak=p.get("soak"), wears_bp=p.get("wears_bp")),
    "set_mettle": lambda s, p: set_mettle(s, p["key"], p["mettle"]),
    "move": lambda s, p: move(s, p["actor"], p["zone"], hindered=p.get("hindered", False)),
    "statuses": lambda s, p: _statuses_step(s, p["key"], p.get("statuses", ())),
    "act": lambda s, p: act(s, p["actor"], p.get("targets", ()), p.get("action", "")),
    "split": lambda s, p: split(s, p["actor"], p["dice"], p["parts"], p.get("caps"),
                                p.get("targets", ()), p.get("action", "")),
    "act_part": lambda s, p: act_part(s, p["actor"], p.get("targets", ()),
                                      p.get("action", "")),
    "pass": lambda s, p: pass_to(s, p["to"]),
    "defend": lambda s, p: defend(s, p["key"], p.get("ally")),
    "reach": lambda s, p: reach_steal(s, p["key"],
                                      attacker_has_reach=p.get("attacker_has_reach", False)),
    "surprise": lambda s, p: surprise(s, p["side"]),
}


def apply_step(scene: Scene, kind: str, payload: Mapping | None = None) -> Scene:
    try:
        step = STEPS[kind]
    except KeyError:
        raise InitiativeError(f"Unknown step {kind!r}.") from None
    try:
        return step(scene, dict(payload or {}))
    except KeyError as missing:
        raise InitiativeError(f"The step {kind!r} needs {missing}.") from None


def replay(scene: Scene, steps: Iterable[tuple[str, Mapping]]) -> Scene:
    for kind, payload in steps:
        scene = apply_step(scene, kind, payload)
    return scene
