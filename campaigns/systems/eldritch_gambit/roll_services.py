"""Checks, Gambits, Rolls, Rerolls and Roll-offs for a character, written to the roll log.

The dice come from rules.engine.rolling (d20 with a random source: SystemRandom unless a
test passes a seeded one); the numbers from the rules engine (the sheet, the Check odds).
Every function is one transaction. A Reroll locks the character's row (select_for_update)
before it reads WP, so two clicks at once spend one WP each or are refused at the floor,
and the Roll row's one-to-one link makes a second Reroll of the same Roll fail.
docs/RULES.md, "Checks and Rolls", records the readings.
"""

from __future__ import annotations

import random

from django.db import IntegrityError, transaction

from campaigns.models import IMP_ROLES, Membership, Session
from campaigns.services import CampaignError
from characters.models import Character
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.checks import CheckSpec, check_odds
from rules.engine.eldritch_gambit.rolls import RollResult, RollSpec
from rules.engine.eldritch_gambit.scenes import STANDARD_BOTCHES, STANDARD_CRITICALS
from rules.engine.rolling import roll as roll_dice

from .rolls import Roll

CRITICAL_EFFECTS = dict(STANDARD_CRITICALS)
BOTCH_EFFECTS = dict(STANDARD_BOTCHES)


class RollRefused(CampaignError):
    """A refused roll: a message for the table, a stable code, and the form field."""


def may_roll_for(character: Character, user) -> bool:
    """The character's player, or the Imp or a co-Imp of its campaign."""
    if user is None or not user.is_authenticated:
        return False
    if character.owner_id == user.pk:
        return True
    return character.campaign_id is not None and Membership.objects.filter(
        campaign_id=character.campaign_id, user=user, role__in=IMP_ROLES).exists()


def _require_may_roll(character: Character, by) -> None:
    if not may_roll_for(character, by):
        raise RollRefused(
            f"Only {character.display_name}'s player or the campaign's Imp may roll for it.",
            "not_your_character")


require_may_roll = _require_may_roll  # for the Roll kinds that read the log first (a clash)


def current_session(character: Character) -> Session | None:
    """The campaign's current session: the latest by number (None outside a campaign or
    before its first session)."""
    if character.campaign_id is None:
        return None
    return (Session.objects.filter(campaign_id=character.campaign_id)
            .order_by("-number").first())


def _record(character: Character, by, *, request_key: str | None = None, **fields) -> Roll:
    if request_key:
        existing = Roll.objects.filter(request_key=request_key).first()
        if existing is not None:
            if existing.character_id != character.pk:
                raise RollRefused("This form was already used.", "request_key_reused")
            return existing
    try:
        with transaction.atomic():
            return Roll.objects.create(
                character=character, rolled_by=by, session=current_session(character),
                request_key=request_key or None, **fields)
    except IntegrityError:
        existing = Roll.objects.filter(request_key=request_key).first() if request_key else None
        if existing is None:
            raise
        return existing


def _refuse_reused_key(request_key: str | None) -> None:
    """A key already spent on another roll: a stale form, not a double click."""
    if request_key and Roll.objects.filter(request_key=request_key).exists():
        raise RollRefused("This form was already used: reload the page.", "request_key_reused")


def _defaults(action) -> dict:
    if action is None:
        return {"default_critical": "", "default_botch": ""}
    return {
        "default_critical": action.default_critical,
        "default_critical_effect": CRITICAL_EFFECTS.get(action.default_critical, ""),
        "default_botch": action.default_botch,
        "default_botch_effect": BOTCH_EFFECTS.get(action.default_botch, ""),
        "critical_text": action.outcomes.critical,
        "success_text": action.outcomes.success,
        "failure_text": action.outcomes.failure,
        "botch_text": action.outcomes.botch,
    }


def chances_of(spec: CheckSpec) -> dict[str, str]:
    """The odds shown before the roll, as exact fractions ("11/20")."""
    odds = check_odds(spec)
    return {
        "success": str(odds.p_success),
        "critical": str(odds.p_critical),
        "botch": str(odds.p_botch),
        "lost_by_gambit": str(odds.p_fail_after_success_gambit),
        "saved_by_gambit": str(odds.p_saved_by_gambit),
    }


@transaction.atomic
def make_check(*, character: Character, by, spec: CheckSpec, label: str, action=None,
               detail: dict | None = None, rng: random.Random | None = None,
               request_key: str | None = None) -> Roll:
    """Roll the Check's die; success at or above the DF (natural 1 fails, the top face
    succeeds). The odds shown and the Action's default Critical and Botch are kept."""
    _require_may_roll(character, by)
    rolled = roll_dice(f"1d{spec.die}", rng)
    natural = rolled.dice[0]
    return _record(
        character, by, request_key=request_key, kind=Roll.Kind.CHECK, label=label,
        expression=f"d{spec.die}{spec.modifier:+d} vs DF {spec.df}", dice=[natural],
        total=spec.total(natural), die=spec.die, modifier=spec.modifier, df=spec.df,
        outcome=spec.outcome(natural), chances=chances_of(spec),
        action=action.slug if action else "",
        detail={**(detail or {}), **_defaults(action), "confused": spec.confused},
    )


def spec_of(check: Roll) -> CheckSpec:
    return CheckSpec(check.die, check.modifier, check.df,
                     confused=bool(check.detail.get("confused")))


@transaction.atomic
def call_gambit(*, check: Roll, by, rng: random.Random | None = None,
                request_key: str | None = None) -> Roll:
    """Basics > Checks > Gambits: the same die and Modifier again, once per Check.

    The same request again (a double click: the same `request_key`) gets the Gambit it
    made; another request for a Gambited Check is refused."""
    check = Roll.objects.select_for_update().select_related("character").get(pk=check.pk)
    _require_may_roll(check.character, by)
    if check.kind != Roll.Kind.CHECK:
        raise RollRefused("Only a Check can be Gambited.", "not_a_check")
    existing = Roll.objects.filter(gambit_of=check).first()
    if existing is not None and request_key and existing.request_key == request_key:
        return existing
    _refuse_reused_key(request_key)
    if existing is not None:
        raise RollRefused("This Check was already Gambited: one Gambit per Check.",
                          "gambit_once")
    spec = spec_of(check)
    natural = roll_dice(f"1d{spec.die}", rng).dice[0]
    outcome = spec.outcome(check.dice[0], natural)
    try:
        with transaction.atomic():
            return Roll.objects.create(
                character=check.character, rolled_by=by, session=check.session,
                kind=Roll.Kind.GAMBIT, label=check.label,
                expression=check.expression, dice=[natural], total=spec.total(natural),
                die=spec.die, modifier=spec.modifier, df=spec.df, outcome=outcome,
                chances=check.chances, action=check.action,
                detail={**check.detail, "first_outcome": check.outcome}, gambit_of=check,
                request_key=request_key or None)
    except IntegrityError as error:
        raise RollRefused("This Check was already Gambited: one Gambit per Check.",
                          "gambit_once") from error


def _spec_detail(spec: RollSpec, result: RollResult) -> dict:
    return {
        "count": spec.count, "sides": spec.sides, "modifier": spec.modifier,
        "bonus": spec.bonus, "multiplier": spec.multiplier, "rerollable": spec.rerollable,
        "note": spec.note, "dice_total": result.dice_total, "halved": spec.halved,
    }


def _spec_from(roll: Roll) -> RollSpec:
    d = roll.detail
    return RollSpec(roll.label, d["count"], d["sides"], d["modifier"], d["bonus"],
                    d["multiplier"], d["rerollable"], d.get("note", ""), d.get("halved", False))


@transaction.atomic
def make_roll(*, character: Character, by, spec: RollSpec, kind: str,
              rng: random.Random | None = None, request_key: str | None = None) -> Roll:
    """A Roll of the sheet (damage, Rally, a fall, fire, Buildup), at least 0.

    A Buildup Roll adds to the character's Poison Buildup and sets Poisoned (Scenes >
    Scenery > Poison: "This stacks ... Poisoned is a Status, so just write your current
    Buildup result next to it")."""
    _require_may_roll(character, by)
    if request_key and Roll.objects.filter(request_key=request_key).exists():
        return _record(character, by, request_key=request_key)
    result = rolls.roll_spec(spec, rng)
    detail = _spec_detail(spec, result)
    if kind == Roll.Kind.BUILDUP:
        locked = EldritchGambitCharacter.objects.select_for_update().get(pk=character.pk)
        before = locked.poison_buildup
        locked.poison_buildup = min(before + result.total, 999)
        statuses = list(locked.statuses or [])
        if "poisoned" not in statuses:
            statuses.append("poisoned")
        locked.statuses = statuses
        locked.save(update_fields=["poison_buildup", "statuses", "updated_at"])
        base_hp = sheet_for(locked)["hp_base"].value
        detail.update(buildup_before=before, buildup_after=locked.poison_buildup,
                      base_hp=base_hp, takes_effect=locked.poison_buildup > base_hp)
    return _record(character, by, request_key=request_key, kind=kind, label=spec.label,
                   expression=spec.expression, dice=list(result.dice), total=result.total,
                   detail=detail)


def may_pay_for_allies(sheet) -> bool:
    """Characters > Defenses > Willpower: "Normally, one can only spend WP on their own
    Rolls. The exception is that Fallen or Dead characters may spend WP on Rolls made by
    allies." Fallen: the status, or HP 0 or below (the sheet derives it)."""
    return sheet.has_status("fallen") or sheet.has_status("dead")


def _require_ally_payer(payer: Character, sheet, rolled_by_ally: Character) -> None:
    """The payer is Fallen or Dead, and the Roll's character is another of its campaign."""
    if not may_pay_for_allies(sheet):
        raise RollRefused(
            f"{payer.display_name} is neither Fallen nor Dead: only the Fallen or Dead may "
            "spend WP on an ally's Roll (Characters > Willpower).", "payer_not_fallen")
    if payer.campaign_id is None or rolled_by_ally.campaign_id != payer.campaign_id:
        raise RollRefused(
            f"{rolled_by_ally.display_name} is not an ally of {payer.display_name}: WP goes "
            "only on Rolls of the same campaign's characters.", "not_an_ally")


@transaction.atomic
def reroll(*, roll: Roll, by, payer: Character | None = None,
           rng: random.Random | None = None, request_key: str | None = None) -> Roll:
    """Basics > Rolls > Rerolls: spend one WP, roll the dice again and keep the better
    (both added on a tie). Never a Check or a Gambit, once per Roll, and never below the
    WP floor. The same request again (a double click: the same `request_key`) gets the
    Reroll it made, without spending another WP.

    The WP is the rolling character's own, or with `payer` another character's of the
    same campaign that is Fallen or Dead (Characters > Defenses > Willpower: "Fallen or
    Dead characters may spend WP on Rolls made by allies"): `by` must be the payer's
    player or the campaign's Imp, the floor is the payer's and the payer's WP is
    written; the Reroll stays the ally's Roll and names who paid."""
    ally_pays = payer is not None and payer.pk != roll.character_id
    spender = payer.pk if ally_pays else roll.character_id
    # The characters first, by pk, then the Roll: the payer's Reroll also locks the
    # roller (its new row's key points at it), before the Roll, as the roller's own
    # Reroll does; so two Rerolls of one Roll never wait for each other in a circle.
    locked = {c.pk: c for c in EldritchGambitCharacter.objects.select_for_update()
              .filter(pk__in={spender, roll.character_id}).order_by("pk")}
    character = locked[spender]
    _require_may_roll(character, by)
    original = Roll.objects.select_for_update().get(pk=roll.pk)
    if request_key:
        done = Roll.objects.filter(reroll_of=original, request_key=request_key).first()
        if done is not None:
            return done
        _refuse_reused_key(request_key)
    sheet = sheet_for(character)
    if ally_pays:
        _require_ally_payer(character, sheet, locked[original.character_id])
    if original.kind in (Roll.Kind.CHECK, Roll.Kind.GAMBIT):
        raise RollRefused("Checks cannot be Rerolled, nor their Gambits (Basics > Rerolls).",
                          "reroll_check")
    if original.kind == Roll.Kind.REROLL or Roll.objects.filter(reroll_of=original).exists():
        raise RollRefused("This Roll was already Rerolled: one WP per Roll.", "reroll_once")
    if not original.detail.get("rerollable"):
        raise RollRefused(f"{original.label} is not the character's own Roll to Reroll.",
                          "not_rerollable")
    wp_before = sheet["wp_current"].value
    wp_floor = sheet["wp_floor"].value
    if not rolls.can_spend_wp(wp_before, wp_floor):
        whose = f"{character.display_name}'s WP" if ally_pays else "WP"
        raise RollRefused(
            f"{whose} {wp_before} cannot drop below the floor of {wp_floor}: no WP to spend "
            "on a Reroll.", "wp_floor")
    spec = _spec_from(original)
    again = rolls.roll_spec(spec, rng)
    kept = rolls.reroll_keep(original.detail["dice_total"], again.dice_total)
    wp_after = wp_before - rolls.REROLL_WP_COST
    character.wp_current = wp_after
    character.save(update_fields=["wp_current", "updated_at"])
    detail = _spec_detail(spec, again)
    detail.update(dice_total=kept, first_dice=original.dice, first_total=original.total,
                  tie=original.detail["dice_total"] == again.dice_total,
                  wp_before=wp_before, wp_after=wp_after, wp_floor=wp_floor, rerollable=False)
    if ally_pays:
        detail.update(paid_by=character.display_name, paid_by_id=character.pk)
    try:
        with transaction.atomic():
            return Roll.objects.create(
                character_id=original.character_id, rolled_by=by, session=original.session,
                kind=Roll.Kind.REROLL, label=original.label,
                expression=original.expression, dice=list(again.dice),
                total=spec.total_for(kept), detail=detail, reroll_of=original,
                request_key=request_key or None)
    except IntegrityError as error:
        raise RollRefused("This Roll was already Rerolled: one WP per Roll.",
                          "reroll_once") from error


@transaction.atomic
def roll_off(*, character: Character, by, attacker: str, defender: str, label: str,
             side: str = rolls.ATTACKER, rng: random.Random | None = None,
             request_key: str | None = None) -> Roll:
    """Basics > Rolls > Roll-offs: two Rolls, the higher wins, ties to the attacker; the
    winner inflicts the excess (a clash, a Grapple)."""
    _require_may_roll(character, by)
    if request_key and Roll.objects.filter(request_key=request_key).exists():
        return _record(character, by, request_key=request_key)
    first = roll_dice(attacker, rng)
    second = roll_dice(defender, rng)
    result = rolls.RollOff(rolls.floor_at_zero(first.total), rolls.floor_at_zero(second.total))
    return _record(
        character, by, request_key=request_key, kind=Roll.Kind.ROLLOFF, label=label,
        expression=f"{first.expression} vs {second.expression}",
        dice=list(first.dice + second.dice), total=result.excess, outcome=result.winner,
        detail={
            "side": side,
            "attacker": {"expression": first.expression, "text": first.text,
                         "total": result.attacker},
            "defender": {"expression": second.expression, "text": second.text,
                         "total": result.defender},
            "excess": result.excess,
        },
    )


__all__ = ["RollRefused", "call_gambit", "chances_of", "current_session",
           "make_check", "make_roll", "may_pay_for_allies", "may_roll_for",
           "require_may_roll", "reroll", "roll_off"]
