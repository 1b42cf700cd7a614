"""METTLE Core Checks and Twists for a character, written to the roll log (rolls.py).

The numbers come from the rules engine (rules/engine/mettle/checks.py: the dice, the exact
odds, the Twist; damage.surge_limit: the Mettle Surge) and the character's sheet (its pools
as modified, its current Mettle). Every function is one transaction that locks the
character's row first (select_for_update), so two clicks at once are served one after the
other: the same `request_key` again gets the roll it made (a double click spends no second
Mettle), a Twist is refused once its Check has one (and the one-to-one link holds it).
docs/RULES.md, "Checks at the table (METTLE)", records the readings (AMB-M-CHK-*).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from campaigns.models import IMP_ROLES, Membership, Session
from campaigns.services import CampaignError
from characters.models import Character
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle.checks import CheckRoll, check_odds, roll_check, roll_twist
from rules.engine.mettle.damage import surge_limit
from rules.engine.mettle.data import MOTIVE
from rules.engine.mettle.statuses import rally_refusal

from .rolls import MettleRoll

_SYSTEM_RANDOM = random.SystemRandom()
RALLY = "Rally"  # data.ACTIONS' name


class RollRefused(CampaignError):
    """A refused roll: a message for the table, a stable code, and the form field."""


@dataclass(frozen=True)
class CheckRequest:
    """What the Play page asks to roll: the pool and every modifier, apart (the log
    shows each), and the Difficulty. `dice` is the sum, never below 0 (EN §Check
    Modifiers)."""

    label: str
    attribute: str
    pool: int
    difficulty: int
    difficulty_from: str = MettleRoll.DifficultyFrom.LADDER
    action: str = ""
    backstory: str = ""
    bonus: int = 0
    penalty: int = 0
    surge: int = 0
    teamwork: int = 0
    raises: int = 0
    split: dict = field(default_factory=dict)

    @property
    def dice(self) -> int:
        return max(self.pool + self.bonus + self.surge + self.teamwork - self.penalty, 0)


def may_roll_for(character: Character, user) -> bool:
    """The character's player, or the Guide (or a co-Guide) of its campaign."""
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


def odds_of(dice: int, difficulty: int, raises: int) -> dict[str, str]:
    """The odds shown before the roll, exact fractions as strings ("35/54")."""
    odds = check_odds(dice, difficulty, raises)
    return {"success": str(odds.p_success), "with_twist": str(odds.p_success_with_twist),
            "twist_allowed": str(odds.p_twist_allowed)}


def mettle_now(character: MettleCharacter, sheet=None) -> tuple[int, int]:
    """(current Mettle, MOTIVE) from the sheet (current Mettle None is "at maximum");
    `sheet`: the character's, if the caller has built it already."""
    sheet = sheet or sheet_for(character)
    return sheet.stats["mettle_current"].value, sheet.attributes[MOTIVE]


def surge_allowed(character: MettleCharacter, sheet=None) -> int:
    """The most Mettle a Surge may spend now: at most MOTIVE, never bringing Mettle to 0
    (EN §Mettle Surges; damage.surge_limit)."""
    current, motive = mettle_now(character, sheet)
    return surge_limit(motive, current)


def _lock(character: Character, by) -> MettleCharacter:
    locked = MettleCharacter.objects.select_for_update().get(pk=character.pk)
    if not may_roll_for(locked, by):
        raise RollRefused(
            f"Only {locked.display_name}'s player or the campaign's Guide may roll for it.",
            "not_your_character")
    return locked


def _same_request(request_key: str | None, character: Character) -> MettleRoll | None:
    if not request_key:
        return None
    existing = MettleRoll.objects.filter(request_key=request_key).first()
    if existing is not None and existing.character_id != character.pk:
        raise RollRefused("This form was already used: reload the page.", "request_key_reused")
    return existing


@transaction.atomic
def make_check(*, character: Character, by, request: CheckRequest,
               rng: random.Random | None = None, request_key: str | None = None) -> MettleRoll:
    """Roll the Check (raised dice set to six first), spend the Surge's Mettle, and log
    it with the odds shown. The same `request_key` again returns the first roll."""
    locked = _lock(character, by)
    existing = _same_request(request_key, locked)
    if existing is not None:
        if existing.kind != MettleRoll.Kind.CHECK:
            raise RollRefused("This form was already used: reload the page.",
                              "request_key_reused")
        return existing
    if request.action == RALLY:
        refusal = rally_refusal(locked.statuses or (), locked.mettle_max_lost)
        if refusal:
            raise RollRefused(refusal, "no_rally", field="action")
    dice = request.dice
    if request.raises > dice:
        raise RollRefused(f"{request.raises} Raises are more than the {dice} dice of the pool.",
                          "raises_over_pool", field="raises")
    mettle_fields = {}
    if request.surge:
        current, motive = mettle_now(locked)
        most = surge_limit(motive, current)
        if request.surge > most:
            raise RollRefused(
                f"A Surge may spend at most {most} Mettle now (at most MOTIVE {motive}, and "
                f"never bringing current Mettle {current} to 0).", "surge_over_limit",
                field="surge")
        locked.mettle_current = current - request.surge
        locked.save(update_fields=["mettle_current", "updated_at"])
        mettle_fields = {"mettle_before": current, "mettle_after": locked.mettle_current}
    rolled = roll_check(dice, request.difficulty, request.raises, rng or _SYSTEM_RANDOM)
    try:
        with transaction.atomic():
            return MettleRoll.objects.create(
                character=locked, rolled_by=by, session=current_session(locked),
                kind=MettleRoll.Kind.CHECK, label=request.label, action=request.action,
                attribute=request.attribute, backstory=request.backstory, pool=request.pool,
                bonus=request.bonus, penalty=request.penalty, surge=request.surge,
                teamwork=request.teamwork, raises=request.raises, dice=dice,
                difficulty=request.difficulty, difficulty_from=request.difficulty_from,
                faces=list(rolled.faces), score=rolled.score, edge=rolled.edge,
                grade=rolled.quality or "", success=rolled.success,
                odds=odds_of(dice, request.difficulty, request.raises), split=request.split,
                request_key=request_key or None, **mettle_fields)
    except IntegrityError as error:  # the key taken meanwhile (no lock on another row)
        raise RollRefused("This form was already used: reload the page.",
                          "request_key_reused") from error


def engine_roll(check: MettleRoll) -> CheckRoll:
    return CheckRoll(faces=tuple(check.faces), difficulty=check.difficulty)


@transaction.atomic
def call_twist(*, check: MettleRoll, by, price: str, rng: random.Random | None = None,
               request_key: str | None = None) -> MettleRoll:
    """EN §Twists: after a failure with Edge, reroll every Edge die once, the Score dice
    kept, at the price agreed (Delay by default). The same request again (a double click)
    gets the Twist it made; another Twist of the same Check is refused."""
    _lock(check.character, by)
    check = MettleRoll.objects.select_for_update().get(pk=check.pk)
    if check.kind != MettleRoll.Kind.CHECK:
        raise RollRefused("Only a Check can be Twisted.", "not_a_check")
    existing = MettleRoll.objects.filter(twist_of=check).first()
    if existing is not None and request_key and existing.request_key == request_key:
        return existing
    if request_key and MettleRoll.objects.filter(request_key=request_key).exists():
        raise RollRefused("This form was already used: reload the page.", "request_key_reused")
    if existing is not None:
        raise RollRefused("This Check was already Twisted: one Twist per Check.", "twist_once")
    first = engine_roll(check)
    if not first.may_twist:
        reason = "it succeeded" if first.success else "it has no Edge"
        raise RollRefused(f"No Twist for this Check: {reason} (a Twist follows a failure "
                          "with Edge).", "twist_not_allowed")
    twisted = roll_twist(first, rng or _SYSTEM_RANDOM)
    try:
        with transaction.atomic():
            return MettleRoll.objects.create(
                character=check.character, rolled_by=by, session=check.session,
                kind=MettleRoll.Kind.TWIST, label=check.label, action=check.action,
                attribute=check.attribute, backstory=check.backstory, pool=check.pool,
                bonus=check.bonus, penalty=check.penalty, surge=0, teamwork=check.teamwork,
                raises=check.raises, dice=check.dice, difficulty=check.difficulty,
                difficulty_from=check.difficulty_from, faces=list(twisted.final_faces),
                rerolled=list(twisted.twist_faces), score=twisted.score, edge=twisted.edge,
                grade=twisted.quality or "", success=twisted.success, odds=check.odds,
                twist_price=price, twist_of=check, split=check.split,
                request_key=request_key or None)
    except IntegrityError as error:
        raise RollRefused("This Check was already Twisted: one Twist per Check.",
                          "twist_once") from error
