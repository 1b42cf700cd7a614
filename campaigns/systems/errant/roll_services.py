"""Errant Checks, Saving Throws and opposed Checks for an Errant, written to the roll log
(rolls.py).

The numbers come from the rules engine (rules/engine/errant/checks.py: the DV's modifiers,
the exact odds, the stakes, the opposed result) and the Errant's sheet (its Attributes,
Encumbrance with the backpack on or off, a Deviant's Proficiencies and Jettons): `plan`
works them out for the odds shown and for the roll alike, so both are the same by
construction. `make_roll` is one transaction that locks the Errant's row first
(select_for_update): two clicks at once are served one after the other, and the same
`request_key` again gets the roll it made. docs/RULES.md, "Checks at the table (Errant)",
records the readings (AMB-E-CHK-*).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from django.db import IntegrityError, transaction

from campaigns.models import IMP_ROLES, Membership, Session
from campaigns.services import CampaignError
from characters.models import Character
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import ErrantSheet, checks, slots
from rules.engine.errant.data import PROFICIENCIES

from .rolls import ErrantRoll

_SYSTEM_RANDOM = random.SystemRandom()
EXPERTISE_POINTS, MASTERY_POINTS = 1, 2  # ER §The Deviant: one point expertise, two mastery


class RollRefused(CampaignError):
    """A refused roll: a message for the table, a stable code, and the form field."""


@dataclass(frozen=True)
class RollRequest:
    """What the Play page asks to roll, as typed (the sheet's numbers are not in it)."""

    kind: str
    attribute: str
    base_dv: int
    label: str = ""
    save_against: str = ""
    physical: bool = False
    backpack_off: bool = False
    proficiency: str = ""
    jettons: int = 0
    position: str = checks.DEFAULT_POSITION
    impact: str = checks.DEFAULT_IMPACT
    opponent: str = ""
    opponent_attribute: int | None = None
    opponent_dv: int | None = None


@dataclass(frozen=True)
class Plan:
    """The roll as the sheet makes it: the Attribute's value, the DV with its terms, the
    stakes and the exact odds."""

    request: RollRequest
    attribute_value: int
    dv: checks.CheckDv
    encumbrance: int
    expertise: bool
    mastery: bool
    stakes: checks.Stakes
    chance: Fraction
    opposed: checks.OpposedOdds | None

    @property
    def dv_text(self) -> str:
        """"DV 4", or with what the sheet changed: "DV 7 = base 4 + 3 Encumbrance"."""
        return self.dv.explanation if self.dv.terms else f"DV {self.dv.value}"

    @property
    def faces(self) -> int:
        return checks.successes(self.attribute_value, self.dv.value)

    def odds(self) -> dict[str, str]:
        odds = {"success": str(self.chance)}
        if self.opposed is not None:
            odds.update(win=str(self.opposed.first_wins), lose=str(self.opposed.second_wins),
                        tie=str(self.opposed.tie), both_fail=str(self.opposed.both_fail))
        return odds


def proficiency_points(sheet) -> dict[str, int]:
    """A Deviant's Proficiencies with at least expertise: {key: points}."""
    return {key: points for key, points in sheet.build.proficiencies
            if key in PROFICIENCIES and points >= EXPERTISE_POINTS}


def jettons_owned(sheet) -> int:
    return sheet.value("jettons") if "jettons" in sheet.stats else 0


def plan(sheet, request: RollRequest) -> Plan:
    """The Check as the sheet and the rules make it; RollRefused (with its field) when the
    sheet does not allow what was asked (a Proficiency not held, more Jettons than owned)."""
    if "dead" in sheet.flags:
        raise RollRefused("This Errant is dead: its Exhaustion has reached its phys.", "dead")
    enc_on, enc_off = sheet.value("encumbrance"), sheet.value("encumbrance_no_backpack")
    if slots.incapable(enc_off if request.backpack_off else enc_on):
        # PR §Encumbrance: "incapable of doing anything" (AMB-E-CHK-8).
        hint = (" Tick “Backpack off”: without it Encumbrance is "
                f"{enc_off}." if not request.backpack_off and not slots.incapable(enc_off)
                else " Drop or hand over items first.")
        raise RollRefused(f"Encumbrance {enc_off if request.backpack_off else enc_on}: at "
                          f"{slots.ENCUMBRANCE_INCAPABLE} or more an Errant can do nothing, "
                          f"no Check at all.{hint}", "incapable", field="backpack_off")
    points = 0
    if request.proficiency:
        points = proficiency_points(sheet).get(request.proficiency, 0)
        if not points:
            raise RollRefused("Choose one of this Errant's Proficiencies.",
                              "proficiency_not_held", field="proficiency")
    if request.jettons:
        owned = jettons_owned(sheet)
        if request.jettons > owned:
            raise RollRefused(f"Jettons spent: at most the {owned} this Errant has.",
                              "jettons_over_owned", field="jettons")
        if not request.proficiency:
            # ER §The Deviant: Jettons lower the DV of Checks "related to your
            # proficiencies" (AMB-E-CHK-2).
            raise RollRefused("Jettons lower the DV only of a Check related to one of your "
                              "Proficiencies: choose it.", "jettons_without_proficiency",
                              field="proficiency")
    saving = request.kind == ErrantRoll.Kind.SAVE
    encumbrance = 0
    if request.physical:
        encumbrance = sheet.value("encumbrance_no_backpack" if request.backpack_off
                                  else "encumbrance")
    dv = checks.check_dv(request.base_dv, encumbrance=encumbrance, physical=request.physical,
                         expertise=points >= EXPERTISE_POINTS, jettons=request.jettons,
                         saving_throw=saving)
    attribute_value = sheet.value(request.attribute)
    mastery = points >= MASTERY_POINTS
    opposed = None
    if request.kind == ErrantRoll.Kind.OPPOSED:
        opposed = checks.opposed_odds((attribute_value, dv.value),
                                      (request.opponent_attribute, request.opponent_dv))
    return Plan(request=request, attribute_value=attribute_value, dv=dv,
                encumbrance=encumbrance if dv.terms and request.physical else 0,
                expertise=points >= EXPERTISE_POINTS and not saving, mastery=mastery,
                stakes=checks.stakes(request.position, request.impact, mastery=mastery),
                chance=checks.p_success(attribute_value, dv.value), opposed=opposed)


def opposed_meaning(stakes: checks.Stakes, result: str) -> str:
    """What an opposed Check's result means for the Errant (AMB-E-CHK-4): winning is a
    success at the Check's Impact, losing a failure at its Position; both failing, "the
    situation gets worse and more complicated for both"; a tie, the Guide's draw or
    another opposed Check (CR §Opposed Checks)."""
    if result == checks.TIE:
        return "A tie: the Guide declares a draw, or asks for another opposed Check."
    if result == checks.BOTH_FAIL:
        return f"Both fail: worse and more complicated for both. {stakes.meaning(False)}"
    return stakes.meaning(result == checks.FIRST)


def may_roll_for(character: Character, user) -> bool:
    """The Errant's player, or the Guide (or a co-Guide) of its campaign."""
    if user is None or not user.is_authenticated:
        return False
    if character.owner_id == user.pk:
        return True
    return character.campaign_id is not None and Membership.objects.filter(
        campaign_id=character.campaign_id, user=user, role__in=IMP_ROLES).exists()


def current_session(character: Character) -> Session | None:
    """The campaign's current session: the latest by number (None outside a campaign or
    before its first session)."""
    if character.campaign_id is None:
        return None
    return (Session.objects.filter(campaign_id=character.campaign_id)
            .order_by("-number").first())


def _same_request(request_key: str | None, character: Character) -> ErrantRoll | None:
    if not request_key:
        return None
    existing = ErrantRoll.objects.filter(request_key=request_key).first()
    if existing is not None and existing.character_id != character.pk:
        raise RollRefused("This form was already used: reload the page.", "request_key_reused")
    return existing


def _label(request: RollRequest) -> str:
    return request.label.strip()[:200]


@transaction.atomic
def make_roll(*, character: Character, by, request: RollRequest,
              rng: random.Random | None = None, request_key: str | None = None,
              sheet: ErrantSheet | None = None) -> ErrantRoll:
    """Roll the d20 (and the opponent's, for an opposed Check) and log the roll with the
    odds shown and what its outcome means. The same `request_key` again returns the first
    roll. `sheet`: the Errant's sheet the roll was asked from (the Play page's, whose
    odds the player saw and whose form checked the request), else it is computed here; a
    roll writes nothing a sheet reads (only its row in the log), so the page's serves
    for the roll and is shown again after it: one sheet a roll, not two."""
    locked = ErrantCharacter.objects.select_for_update().get(pk=character.pk)
    if not may_roll_for(locked, by):
        raise RollRefused(
            f"Only {locked.display_name}'s player or the campaign's Guide may roll for it.",
            "not_your_character")
    existing = _same_request(request_key, locked)
    if existing is not None:
        return existing
    planned = plan(sheet if sheet is not None else sheet_for(locked), request)
    rng = rng or _SYSTEM_RANDOM
    face = checks.roll_d20(rng)
    success = checks.succeeds(face, planned.attribute_value, planned.dv.value)
    opposed_fields = {}
    meaning = planned.stakes.meaning(success)
    if request.kind == ErrantRoll.Kind.OPPOSED:
        their_face = checks.roll_d20(rng)
        their_success = checks.succeeds(their_face, request.opponent_attribute,
                                        request.opponent_dv)
        result = checks.opposed_result((face, success), (their_face, their_success))
        meaning = opposed_meaning(planned.stakes, result)
        opposed_fields = {
            "opponent": request.opponent.strip()[:100] or "the opponent",
            "opponent_attribute": request.opponent_attribute,
            "opponent_dv": request.opponent_dv, "opponent_face": their_face,
            "opponent_success": their_success,
            "opposed_result": result,
        }
    try:
        with transaction.atomic():
            return ErrantRoll.objects.create(
                character=locked, rolled_by=by, session=current_session(locked),
                kind=request.kind, label=_label(request), attribute=request.attribute,
                attribute_value=planned.attribute_value, base_dv=request.base_dv,
                dv=planned.dv.value, dv_explanation=planned.dv_text[:300],
                save_against=request.save_against if request.kind == ErrantRoll.Kind.SAVE
                else "",
                physical=request.physical, encumbrance=planned.encumbrance,
                proficiency=request.proficiency, expertise=planned.expertise,
                mastery=planned.mastery, jettons=request.jettons,
                position=planned.stakes.position, impact=planned.stakes.impact,
                face=face, success=success, automatic=checks.automatic(planned.dv.value),
                meaning=meaning[:200], odds=planned.odds(),
                request_key=request_key or None, **opposed_fields)
    except IntegrityError as error:  # the key taken meanwhile (no lock on another row)
        raise RollRefused("This form was already used: reload the page.",
                          "request_key_reused") from error
