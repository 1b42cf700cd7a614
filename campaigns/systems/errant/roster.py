"""Errant's adjutants, rosters and training at the table (issue 14; ER §Adjutants,
§Rosters; DT §Improving Attributes). The rows are characters.systems.errant.roster_models
(the sheet reads the training); the writes are here.

As advancement.py: keyword-only, one transaction each with the Company's row locked first
(two clicks run one after the other, the second sees the first), `request_key` makes a
double submission count once, a refusal raises CampaignError with a stable code and a
message for the field, and writes nothing. The Guide (and co-Guides) may do everything;
a player acts for their own Errants.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from campaigns.models import IMP_ROLES, Campaign, Membership, Session
from campaigns.services import CampaignError, lock_character, progress, xp_entry
from characters.models import CoinEntry, XpEntry
from characters.systems.errant.apps import KEY
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.campaign_settings import CampaignSettingsForm
from characters.systems.errant.models import (
    ErrantAdjutant,
    ErrantCharacter,
    ErrantRosterSwap,
    ErrantTradeTraining,
    ErrantTraining,
    ErrantXpShare,
)
from characters.systems.errant.roster_models import TRADE_LENGTH
from rules.engine.errant import trades
from rules.engine.errant.advancement import (
    ADJUTANT_MIN_RENOWN,
    TRAINING_DICE,
    TRAINING_SIDES,
    adjutant_split,
    p_training,
    renown_for_xp,
    training_cost,
)
from rules.engine.errant.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES

from . import company as company_services

NOTE_LENGTH = 300
MAX_PENNIES = 100_000_000  # as advancement.py: a sum no table reaches
TRAINER_MIN, TRAINER_MAX = 1, 20  # a trainer's Attribute: any score the app can hold
_SYSTEM_RANDOM = random.SystemRandom()


def renown_of(character) -> int:
    return renown_for_xp(max(progress(character)[1], 0))


def is_guide(user, campaign_id: int | None) -> bool:
    return campaign_id is not None and Membership.objects.role_of(user, campaign_id) in IMP_ROLES


def _may_act(by, errant) -> bool:
    return is_guide(by, errant.campaign_id) or (by is not None and errant.owner_id == by.pk)


def _errant_of(campaign: Campaign, character, field: str) -> ErrantCharacter:
    pk = character if isinstance(character, int) else getattr(character, "pk", None)
    errant = ErrantCharacter.objects.filter(pk=pk, campaign_id=campaign.pk,
                                            system=KEY).first() if pk else None
    if errant is None:
        raise CampaignError("Choose an Errant of this Company.", "not_in_campaign",
                            field=field)
    return errant


# -- Adjutants ------------------------------------------------------------------------------

def link_of(character) -> ErrantAdjutant | None:
    """The character's adjutant link, as the Errant (with its adjutant still there) or as
    the adjutant; None if neither."""
    pk = character if isinstance(character, int) else character.pk
    return (ErrantAdjutant.objects.select_related("master", "adjutant")
            .filter(master_id=pk, adjutant__isnull=False).first()
            or ErrantAdjutant.objects.select_related("master", "adjutant")
            .filter(adjutant_id=pk).first())


def links_of(characters) -> dict[int, ErrantAdjutant]:
    """`link_of` for many characters in one query: {pk: link} for those that have one
    (the link as the Errant, with its adjutant still there, first; else as the
    adjutant)."""
    pks = {c.pk for c in characters}
    rows = list(ErrantAdjutant.objects.select_related("master", "adjutant")
                .filter(Q(master_id__in=pks, adjutant__isnull=False) | Q(adjutant_id__in=pks))
                .order_by("pk"))
    links = {link.master_id: link for link in rows
             if link.master_id in pks and link.adjutant_id is not None}
    for link in rows:
        if link.adjutant_id in pks:
            links.setdefault(link.adjutant_id, link)
    return links


def adjutant_refusal(master, adjutant) -> CampaignError | None:
    """Why `adjutant` may not become `master`'s adjutant (ER §Adjutants), or None. Both are
    Errants of one campaign; the caller checks who asks."""
    if master.pk == adjutant.pk:
        return CampaignError("An Errant cannot be their own adjutant.", "adjutant_self",
                             field="adjutant")
    if master.owner_id != adjutant.owner_id:
        return CampaignError(f"{adjutant.display_name} is another player's Errant: a player "
                             "controls their Errant and their adjutant (ER §Adjutants).",
                             "adjutant_other_player", field="adjutant")
    renown = renown_of(master)
    if renown < ADJUTANT_MIN_RENOWN:
        return CampaignError(f"{master.display_name} is Renown {renown}: an Errant attracts "
                             f"an adjutant from Renown {ADJUTANT_MIN_RENOWN} (ER §Adjutants).",
                             "adjutant_renown", field="master")
    earlier = ErrantAdjutant.objects.filter(master_id=master.pk).first()
    if earlier is not None:
        name = earlier.adjutant.display_name if earlier.adjutant else earlier.adjutant_name
        return CampaignError(f"{master.display_name} already attracted an adjutant ({name}): "
                             "one in a lifetime, never replaced (ER §Adjutants).",
                             "adjutant_once", field="master")
    as_adjutant = ErrantAdjutant.objects.filter(adjutant_id=master.pk).select_related(
        "master").first()
    if as_adjutant is not None:
        return CampaignError(f"{master.display_name} is {as_adjutant.master.display_name}'s "
                             "adjutant: only once their Errant is gone may they attract "
                             "their own (ER §Adjutants).", "adjutant_is_adjutant",
                             field="master")
    taken = ErrantAdjutant.objects.filter(adjutant_id=adjutant.pk).select_related(
        "master").first()
    if taken is not None:
        return CampaignError(f"{adjutant.display_name} is already "
                             f"{taken.master.display_name}'s adjutant.", "adjutant_taken",
                             field="adjutant")
    if ErrantAdjutant.objects.filter(master_id=adjutant.pk).exists():
        return CampaignError(f"{adjutant.display_name} has attracted an adjutant of their "
                             "own: they cannot be one.", "adjutant_is_master",
                             field="adjutant")
    theirs = renown_of(adjutant)
    if theirs != 1:
        return CampaignError(f"{adjutant.display_name} is Renown {theirs}: an adjutant "
                             "starts at Renown 1, and can never be the same Renown as "
                             "their Errant (ER §Adjutants).", "adjutant_not_new",
                             field="adjutant")
    return None


def adjutant_candidates(master, errants) -> list:
    """The Errants among `errants` that `master` may take as adjutant now."""
    return [e for e in errants if adjutant_refusal(master, e) is None]


@transaction.atomic
def adjutant_attach(*, campaign: Campaign, master, adjutant, by) -> ErrantAdjutant:
    """ER §Adjutants: "When an Errant reaches Renown 2, they ... may ... attract an
    adjutant": an Errant of the same player at Renown 1 (a new one, built for the
    Company, or one not yet anyone's). The master's player or the Guide. A second click
    for the same pair finds the link made and returns it."""
    company_services.lock_company(campaign)
    master = _errant_of(campaign, master, "master")
    adjutant = _errant_of(campaign, adjutant, "adjutant")
    lock_character(master.pk)
    lock_character(adjutant.pk)
    if not _may_act(by, master):
        raise CampaignError(f"Only {master.display_name}'s player or the Guide may choose "
                            "their adjutant.", "not_allowed", field="master")
    earlier = ErrantAdjutant.objects.filter(master_id=master.pk, adjutant_id=adjutant.pk).first()
    if earlier is not None:
        return earlier
    refusal = adjutant_refusal(master, adjutant)
    if refusal is not None:
        raise refusal
    return ErrantAdjutant.objects.create(master=master, adjutant=adjutant,
                                         adjutant_name=adjutant.display_name[:120],
                                         campaign=campaign, created_by=by)


@transaction.atomic
def adjutant_undo(*, campaign: Campaign, link_pk: int, by) -> None:
    """The Guide takes back a link made by mistake, while no XP was divided through it
    (undo those grants first): the Errant may then attract an adjutant again."""
    company_services.require_guide(campaign, by, "undo an adjutant")
    company_services.lock_company(campaign)
    link = ErrantAdjutant.objects.filter(pk=link_pk, campaign_id=campaign.pk).first()
    if link is None:
        raise CampaignError("That adjutant link does not exist (any more).", "no_such_link")
    standing = [s for s in link.shares.all()
                if not XpEntry.objects.filter(reverses_id=s.share_id).exists()]
    if standing:
        raise CampaignError(f"XP was divided through this link ({len(standing)} grant(s)): "
                            "undo those XP entries first.", "link_has_shares")
    link.delete()


@dataclass(frozen=True)
class Division:
    """How XP earned by `earner` is divided in its pair: its own part, and the partner's."""

    link: ErrantAdjutant
    earned: int
    own: int
    partner: ErrantCharacter
    partner_xp: int
    earner_is_master: bool


def division(character, xp: int) -> Division | None:
    """ER §Adjutants: "An Errant and their adjutant divide XP among themselves, with the
    Errant receiving ¾ of the XP, and the adjutant receiving the remaining ¼" (AMB-E21:
    the Errant ⌊¾⌋, the adjutant the rest). XP either of them earns is divided; None when
    the character has no adjutant or Errant (still there)."""
    link = link_of(character)
    if link is None or link.adjutant_id is None:
        return None
    master_xp, adjutant_xp = adjutant_split(xp)
    is_master = link.master_id == character.pk
    partner = ErrantCharacter.objects.get(pk=link.adjutant_id if is_master else link.master_id)
    return Division(link, xp, master_xp if is_master else adjutant_xp, partner,
                    adjutant_xp if is_master else master_xp, is_master)


def check_division(character, found: Division) -> None:
    """Refuse XP that would bring the adjutant to their Errant's Renown ("can never be the
    same Renown as the Errant to whom they are attached")."""
    master, adjutant = ((character, found.partner) if found.earner_is_master
                        else (found.partner, character))
    master_gain = found.own if found.earner_is_master else found.partner_xp
    adjutant_gain = found.partner_xp if found.earner_is_master else found.own
    master_renown = renown_for_xp(max(progress(master)[1] + master_gain, 0))
    adjutant_renown = renown_for_xp(max(progress(adjutant)[1] + adjutant_gain, 0))
    if adjutant_renown >= master_renown:
        raise CampaignError(f"That XP would bring {adjutant.display_name} (adjutant) to Renown "
                            f"{adjutant_renown}, and {master.display_name} is Renown "
                            f"{master_renown}: an adjutant can never be the same Renown as "
                            "their Errant (ER §Adjutants).", "adjutant_renown_reached",
                            field="pennies")


def record_share(found: Division, entry: XpEntry, *, by, text: str,
                 request_key: str | None) -> XpEntry:
    """The partner's part of `entry`'s XP, as its own ledger entry linked to it."""
    role = "adjutant" if found.earner_is_master else "Errant"
    share = xp_entry(found.partner, kind=XpEntry.Kind.WASTE, by=by, xp_change=found.partner_xp,
                     note=f"{'¼' if found.earner_is_master else '¾'} as "
                          f"{entry.character.display_name}'s {role}: {text}",
                     request_key=f"{request_key}:share" if request_key else None)
    ErrantXpShare.objects.create(link=found.link, entry=entry, share=share,
                                 earned=found.earned)
    return share


def partner_entry(entry: XpEntry) -> XpEntry | None:
    """The other half of a divided grant: the share of an earner's entry, or the reverse."""
    share = ErrantXpShare.objects.filter(entry=entry).select_related("share").first()
    if share is not None:
        return share.share
    share = ErrantXpShare.objects.filter(share=entry).select_related("entry").first()
    return share.entry if share is not None else None


# -- Rosters ---------------------------------------------------------------------------------

def roster_of(campaign: Campaign, player) -> list[ErrantCharacter]:
    return list(ErrantCharacter.objects.filter(campaign=campaign, system=KEY,
                                               owner_id=player.pk).order_by("pk"))


def active_of(campaign: Campaign, player, roster=None) -> ErrantCharacter | None:
    """The Errant `player` plays now: the latest choice, if still theirs in the Company."""
    roster = roster_of(campaign, player) if roster is None else roster
    latest = ErrantRosterSwap.objects.filter(campaign=campaign, player_id=player.pk).first()
    if latest is None:
        return None
    return next((e for e in roster if e.pk == latest.to_character_id), None)


def swap_this_session(campaign: Campaign, player, session: Session | None):
    if session is None:
        return None
    return ErrantRosterSwap.objects.filter(campaign=campaign, player_id=player.pk,
                                           session=session, is_swap=True).select_related(
        "from_character", "to_character").first()


def _latest_session(campaign: Campaign) -> Session | None:
    return Session.objects.filter(campaign=campaign).order_by("-number").first()


@transaction.atomic
def roster_choose(*, campaign: Campaign, character, by,
                  request_key: str | None = None) -> ErrantRosterSwap:
    """ER §Rosters: the player plays one Errant of their roster; they "may only swap
    control among Errants in their roster when it makes sense to do so ... and can only do
    so once per game session". The first choice is no swap; a swap needs a session (the
    campaign's latest) and is refused the second time in it. The player or the Guide."""
    company_services.lock_company(campaign)
    if request_key:
        earlier = ErrantRosterSwap.objects.filter(request_key=request_key).first()
        if earlier is not None:
            if earlier.campaign_id != campaign.pk:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return earlier
    errant = _errant_of(campaign, character, "character")
    if not _may_act(by, errant):
        raise CampaignError(f"Only {errant.display_name}'s player or the Guide may choose "
                            "whom they play.", "not_allowed", field="character")
    player = errant.owner
    current = active_of(campaign, player)
    if current is not None and current.pk == errant.pk:
        raise CampaignError(f"{player.username} already plays {errant.display_name}.",
                            "already_active", field="character")
    session = _latest_session(campaign)
    if current is None:
        return ErrantRosterSwap.objects.create(campaign=campaign, player=player,
                                               session=session, is_swap=False,
                                               to_character=errant, created_by=by,
                                               request_key=request_key or None)
    if session is None:
        raise CampaignError("Swaps are counted per game session: start a session first.",
                            "no_session", field="character")
    done = swap_this_session(campaign, player, session)
    if done is not None:
        raise CampaignError(f"{player.username} already swapped in session {session.number} "
                            f"({done.from_character.display_name if done.from_character else '?'}"
                            f" to {done.to_character.display_name}): once per game session "
                            "(ER §Rosters).", "swapped_this_session", field="character")
    return ErrantRosterSwap.objects.create(campaign=campaign, player=player, session=session,
                                           is_swap=True, from_character=current,
                                           to_character=errant, created_by=by,
                                           request_key=request_key or None)


# -- Training Attributes ----------------------------------------------------------------------

def standing_trainings(character):
    return ErrantTraining.objects.filter(character_id=character.pk, undone_at__isnull=True)


def next_attempt(character) -> tuple[int, int]:
    """(n, its cost): the n-th attempt, counted across all Attributes (DT §Improving
    Attributes: "This amount is cumulative across all Attributes")."""
    attempt = standing_trainings(character).count() + 1
    return attempt, training_cost(attempt)


@dataclass(frozen=True)
class Odds:
    attribute: str
    name: str
    current: int
    chance: Fraction

    @property
    def percent(self) -> str:
        return f"{float(self.chance) * 100:.1f}%"


def training_odds(character, trainer: int | None = None) -> list[Odds]:
    """Each Attribute's chance to rise now: P(5D4 drop the lowest > current), 0 once the
    trainer's Attribute is reached."""
    attributes = sheet_for(character).attributes
    return [Odds(key, ATTRIBUTE_NAMES[key], attributes[key],
                 p_training(attributes[key], trainer)) for key in ATTRIBUTE_KEYS]


def roll_training(rng: random.Random | None = None) -> tuple[int, ...]:
    rng = rng or _SYSTEM_RANDOM
    return tuple(rng.randint(1, TRAINING_SIDES) for _ in range(TRAINING_DICE))


@transaction.atomic
def train(*, campaign: Campaign, character, attribute: str, by, trainer: int | None = None,
          rng: random.Random | None = None, dice: tuple[int, ...] | None = None,
          request_key: str | None = None) -> ErrantTraining:
    """DT §Improving Attributes: with a trainer in the Settlement (the Guide's word), the
    Errant pays 1,000 x 2^(n-1) p for the n-th attempt, rolls 5D4 and drops the lowest; if
    the total is higher than the Attribute, it rises by 1, never above the trainer's. The
    Errant's player or the Guide. `dice` are given only by tests."""
    company_services.lock_company(campaign)
    if request_key:
        earlier = ErrantTraining.objects.filter(request_key=request_key).first()
        if earlier is not None:
            if earlier.campaign_id != campaign.pk:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return earlier
    errant = _errant_of(campaign, character, "character")
    lock_character(errant.pk)
    errant = ErrantCharacter.objects.get(pk=errant.pk)
    if not _may_act(by, errant):
        raise CampaignError(f"Only {errant.display_name}'s player or the Guide may train "
                            "them.", "not_allowed", field="attribute")
    if attribute not in ATTRIBUTE_KEYS:
        raise CampaignError("Choose one of phys, skill, mind and pres.", "bad_attribute",
                            field="attribute")
    if trainer is not None and (not isinstance(trainer, int)
                                or not TRAINER_MIN <= trainer <= TRAINER_MAX):
        raise CampaignError(f"Give the trainer's {attribute} as a whole number from "
                            f"{TRAINER_MIN} to {TRAINER_MAX}, or leave it blank.",
                            "bad_trainer", field="trainer")
    current = sheet_for(errant).attributes[attribute]
    if trainer is not None and current >= trainer:
        raise CampaignError(f"{errant.display_name}'s {attribute} is {current}: a trainer whose "
                            f"{attribute} is {trainer} cannot train it higher (DT §Improving "
                            "Attributes).", "trainer_reached", field="trainer")
    chance = p_training(current, trainer)
    if chance == 0:
        raise CampaignError(f"{errant.display_name}'s {attribute} is {current}: 5D4 without the "
                            "lowest never beat it, so the attempt cannot succeed.",
                            "cannot_improve", field="attribute")
    attempt, cost = next_attempt(errant)
    purse = errant.coins_cp
    if purse < cost:
        raise CampaignError(f"Attempt {attempt} costs {cost:,} p and {errant.display_name} has "
                            f"{max(purse, 0):,} p.", "not_enough_money", field="attribute")
    if dice is None:
        dice = roll_training(rng)
    if len(dice) != TRAINING_DICE or any(not 1 <= d <= TRAINING_SIDES for d in dice):
        raise ValueError("five D4")
    total = sum(dice) - min(dice)
    raised = total > current
    coin = CoinEntry.objects.create(
        character=errant, kind=CoinEntry.Kind.PURCHASE, amount_cp=-cost, created_by=by,
        note=f"Training {attribute} (attempt {attempt}, DT §Improving Attributes)")
    return ErrantTraining.objects.create(
        character=errant, campaign=campaign, session=_latest_session(campaign),
        attribute=attribute, attempt=attempt, cost=cost, before=current, trainer=trainer,
        dice=list(dice), total=total, raised=raised, coin_entry=coin, created_by=by,
        request_key=request_key or None)


@transaction.atomic
def training_undo(*, campaign: Campaign, training_pk: int, by) -> ErrantTraining:
    """Undo an Errant's latest training attempt: the money back (a reversal in the coin
    ledger), the raise off the sheet, the attempt no longer counted for the next cost."""
    company_services.lock_company(campaign)
    training = ErrantTraining.objects.filter(pk=training_pk, campaign_id=campaign.pk).first()
    if training is None:
        raise CampaignError("That training attempt does not exist.", "no_such_training")
    errant = _errant_of(campaign, training.character_id, "training")
    return _undo_latest_paid(
        training, errant, by, standing=standing_trainings,
        first=lambda latest: f"Undo {errant.display_name}'s latest attempt first (attempt "
                             f"{latest.attempt}, {latest.attribute}).")


def _undo_latest_paid(attempt, errant: ErrantCharacter, by, *, standing, first):
    """What undoing a paid attempt (a training, a Trade attempt) does once the campaign is
    locked and the attempt found: only its player or the Guide, only the Errant's latest
    standing attempt (`standing(errant)`; `first(latest)` says which), the money back as a
    coin reversal, the attempt marked undone (who, when)."""
    lock_character(errant.pk)
    if not _may_act(by, errant):
        raise CampaignError(f"Only {errant.display_name}'s player or the Guide may undo it.",
                            "not_allowed")
    attempt.refresh_from_db()
    if attempt.undone_at is not None:
        raise CampaignError("That attempt was undone already.", "already_undone")
    latest = standing(errant).order_by("-pk").first()
    if latest.pk != attempt.pk:
        raise CampaignError(first(latest), "not_latest")
    if attempt.coin_entry is not None and not CoinEntry.objects.filter(
            reverses=attempt.coin_entry).exists():
        CoinEntry.objects.create(character=errant, kind=CoinEntry.Kind.REVERSAL,
                                 amount_cp=-attempt.coin_entry.amount_cp,
                                 reverses=attempt.coin_entry, created_by=by,
                                 note=f"Undone: {attempt.coin_entry.note}"[:NOTE_LENGTH])
    attempt.undone_at = timezone.now()
    attempt.undone_by = by
    attempt.save(update_fields=["undone_at", "undone_by"])
    return attempt


# -- Where the Company is ---------------------------------------------------------------------

@transaction.atomic
def settlement_set(*, campaign: Campaign, tier, by) -> int:
    """The Guide moves the Company: the tier of the Settlement where it is, the campaign
    setting the market's forms start from (PR §Rarity). Validated by the campaign settings
    form itself, so the stored settings stay what the form accepts."""
    company_services.require_guide(campaign, by, "say where the Company is")
    company_services.lock_company(campaign)
    form = CampaignSettingsForm({"settlement_tier": tier})
    if tier in (None, "") or not form.is_valid():
        raise CampaignError("Choose a Settlement tier from 1 (Hamlet) to 5 (Metropolis).",
                            "bad_tier", field="settlement_tier")
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    locked.settings = {**(locked.settings or {}), **form.cleaned_data}
    locked.save(update_fields=["settings"])
    campaign.settings = locked.settings
    return form.cleaned_data["settlement_tier"]


# -- Learning a Trade (DT §Trades) ---------------------------------------------------------------

def standing_trade_trainings(character):
    return ErrantTradeTraining.objects.filter(character_id=character.pk, undone_at__isnull=True)


def _trade_key(trade: str) -> str:
    return " ".join(trade.split()).casefold()


@dataclass(frozen=True)
class TradeStanding:
    """An Errant's standing in one Trade: the level certified (None: a layman), the level
    trained for next with its successes so far, and whether a 7-9 made the next attempt
    an automatic success."""

    trade: str
    certified: str | None
    training_for: trades.TradeLevel | None
    successes: int
    automatic_next: bool


def trade_standings(character) -> list[TradeStanding]:
    attempts = list(standing_trade_trainings(character).order_by("pk"))
    names: dict[str, str] = {}
    for attempt in attempts:
        names.setdefault(_trade_key(attempt.trade), attempt.trade)
    return [trade_standing(character, name, attempts) for name in names.values()]


def trade_standing(character, trade: str, attempts=None) -> TradeStanding:
    key = _trade_key(trade)
    if attempts is None:
        attempts = list(standing_trade_trainings(character).order_by("pk"))
    mine = [a for a in attempts if _trade_key(a.trade) == key]
    certified = None
    for level in trades.LEVELS:
        won = sum(1 for a in mine if a.level == level.key and a.outcome == trades.SUCCESS)
        if won >= level.successes:
            certified = level.key
        else:
            break
    training_for = trades.next_level(certified)
    at_level = [a for a in mine if training_for and a.level == training_for.key]
    successes = sum(1 for a in at_level if a.outcome == trades.SUCCESS)
    automatic_next = bool(at_level) and at_level[-1].outcome == trades.NEXT_AUTOMATIC
    return TradeStanding(trade, certified, training_for, successes, automatic_next)


@transaction.atomic
def learn_trade(*, campaign: Campaign, character, trade: str, by, extra: int = 0,
                situational: int = 0, rng: random.Random | None = None,
                dice: tuple[int, int] | None = None,
                request_key: str | None = None) -> ErrantTradeTraining:
    """DT §Trades: "an Errant pays the requisite fee and rolls 2D6 plus any applicable
    bonuses for extra expenditures (each extra 25% of the learning cost adds +1) or
    situational bonuses, to a maximum of +3": for the next level of the Trade (a trainer of
    that level or higher is the Guide's to provide). A 7-9 makes the next attempt an
    automatic success (paid, not rolled). `dice` are given only by tests."""
    company_services.lock_company(campaign)
    if request_key:
        earlier = ErrantTradeTraining.objects.filter(request_key=request_key).first()
        if earlier is not None:
            if earlier.campaign_id != campaign.pk:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return earlier
    errant = _errant_of(campaign, character, "character")
    lock_character(errant.pk)
    errant = ErrantCharacter.objects.get(pk=errant.pk)
    if not _may_act(by, errant):
        raise CampaignError(f"Only {errant.display_name}'s player or the Guide may train "
                            "them.", "not_allowed", field="trade")
    trade = " ".join((trade or "").split())
    if not trade or len(trade) > TRADE_LENGTH or not trade.isprintable():
        raise CampaignError(f"Name the Trade (smithing, fletching, cooking...), at most "
                            f"{TRADE_LENGTH} characters.", "bad_trade", field="trade")
    if not isinstance(extra, int) or not 0 <= extra <= MAX_PENNIES:
        raise CampaignError(f"Extra expenditure is 0 to {MAX_PENNIES:,} pennies.",
                            "bad_extra", field="extra")
    if not isinstance(situational, int) or not 0 <= situational <= trades.BONUS_MAX:
        raise CampaignError(f"A situational bonus is 0 to +{trades.BONUS_MAX}.",
                            "bad_situational", field="situational")
    standing = trade_standing(errant, trade)
    level = standing.training_for
    if level is None:
        raise CampaignError(f"{errant.display_name} is a master of {trade}: a legendary "
                            "artisan is made by quests, not training (DT §Trades).",
                            "trade_mastered", field="trade")
    paid = level.cost + extra
    purse = errant.coins_cp
    if purse < paid:
        raise CampaignError(f"An attempt at {level.name.lower()} costs {level.cost:,} p"
                            f"{f' + {extra:,} p extra' if extra else ''} and "
                            f"{errant.display_name} has {max(purse, 0):,} p.",
                            "not_enough_money", field="extra" if extra else "trade")
    plus = trades.bonus(level.cost, extra, situational)
    if standing.automatic_next:
        rolled, result = [], trades.SUCCESS
    else:
        if dice is None:
            generator = rng or _SYSTEM_RANDOM
            dice = (generator.randint(1, 6), generator.randint(1, 6))
        if len(dice) != 2 or any(not 1 <= d <= 6 for d in dice):
            raise ValueError("2D6")
        rolled, result = list(dice), trades.outcome(sum(dice) + plus)
    coin = CoinEntry.objects.create(
        character=errant, kind=CoinEntry.Kind.PURCHASE, amount_cp=-paid, created_by=by,
        note=f"{trade}: {level.name.lower()} training (DT §Trades)"[:NOTE_LENGTH])
    return ErrantTradeTraining.objects.create(
        character=errant, campaign=campaign, session=_latest_session(campaign), trade=trade,
        level=level.key, cost=level.cost, extra=extra, situational=situational, bonus=plus,
        dice=rolled, automatic=standing.automatic_next, outcome=result, coin_entry=coin,
        created_by=by, request_key=request_key or None)


@transaction.atomic
def trade_undo(*, campaign: Campaign, attempt_pk: int, by) -> ErrantTradeTraining:
    """Undo an Errant's latest Trade attempt, the money back (a coin reversal)."""
    company_services.lock_company(campaign)
    attempt = ErrantTradeTraining.objects.filter(pk=attempt_pk, campaign_id=campaign.pk).first()
    if attempt is None:
        raise CampaignError("That Trade attempt does not exist.", "no_such_training")
    errant = _errant_of(campaign, attempt.character_id, "trade")
    return _undo_latest_paid(
        attempt, errant, by, standing=standing_trade_trainings,
        first=lambda latest: f"Undo {errant.display_name}'s latest Trade attempt first "
                             f"({latest.trade}).")
