"""Errant's advancement writes (issue 14, Advancement): XP from money wasted, entered by
the Guide with its source into the generic XP ledger (undone with the generic undo, the
ritual's hooks reversing what came with it); the Attributes raised at each Renown gained
(the Company's first, through the Guide; the player's different second); the Fame roll;
the Ancestry's once-per-session ability.

As campaigns/services.py: keyword-only, one transaction each, the rows locked before
anything is read (two clicks run one after the other), `request_key` makes a grant
idempotent, a refusal raises CampaignError with a stable code and writes nothing.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from campaigns.models import IMP_ROLES, Membership, Session
from campaigns.services import (
    CampaignError,
    check_text,
    lock_character,
    progress,
    xp_entry,
)
from characters.models import Character, CoinEntry, XpEntry
from characters.systems.errant.apps import KEY
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant.advancement import renown_for_xp
from rules.engine.errant.company import (
    FAME_DIE,
    SPENT_SOURCES,
    WASTE_SOURCE_KEYS,
    xp_for_waste,
)
from rules.engine.errant.data import ANCESTRIES, ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, RENOWN_MAX
from rules.engine.errant.data.company import CONSUMPTION_KINDS, WASTE_SOURCES

from . import company as company_services
from . import roster
from .advancement_models import ErrantAncestryUse, ErrantFameRoll, ErrantRenownPick, ErrantWaste
from .company_models import ErrantDebtEntry

Kind = XpEntry.Kind
NOTE_LENGTH = 300
# A sum no table reaches (and BigIntegerField's range, and the XP column's, are far off).
MAX_PENNIES = 100_000_000
SOURCE_LABELS = {key: label for key, label, _ in WASTE_SOURCES}
SOURCE_SECTIONS = {key: section for key, _, section in WASTE_SOURCES}
CONSUMPTION = {key: (label, attribute) for key, label, attribute in CONSUMPTION_KINDS}
_SYSTEM_RANDOM = random.SystemRandom()


def is_guide(user, campaign_id: int | None) -> bool:
    return campaign_id is not None and Membership.objects.role_of(user, campaign_id) in IMP_ROLES


def _require_errant_member(character: Character, campaign) -> None:
    if character.system != KEY or character.campaign_id != campaign.pk:
        raise CampaignError(f"{character.display_name} is not an Errant of this Company "
                            "(any more).", "not_in_campaign", field="characters")


# -- XP from money wasted ---------------------------------------------------------------


def _reused() -> CampaignError:
    return CampaignError("That request was already used for something else.",
                         "request_key_reused")


@transaction.atomic
def waste_grant(*, campaign, characters, source: str, pennies: int, by, consumption: str = "",
                from_purse: bool = False, note: str = "", session: Session | None = None,
                request_key: str | None = None) -> list[XpEntry]:
    """The Guide records money wasted (or an investment lost) and its XP: 1 XP per penny
    (ER §Renown; DT §Funerals), a setback's base investment cost divided equally among the
    Errants invested (DT §Setbacks, AMB-E-C1). Each Errant chosen gets one XP ledger
    entry. Paid from the purse (money wasted, Conspicuous Consumption, a funeral): a coin
    entry takes it; Conspicuous Consumption beyond the purse puts the surplus on the
    Company's debt (DT §Conspicuous Consumption), and none may be engaged in while the
    Company owes a debt (DT §Debts)."""
    characters = sorted({c.pk: c for c in characters}.values(), key=lambda c: c.pk)
    # Every grant locks the Company first: two clicks of one request run one after the
    # other, and the second finds the first's entries.
    company = company_services.lock_company(campaign)
    if request_key and characters:
        existing = list(XpEntry.objects.filter(
            request_key__in=[f"{request_key}:{c.pk}" for c in characters]).order_by("pk"))
        if existing:
            # Entries before the Money wasted kind existed were Imp adjustments.
            if any(e.kind not in (Kind.WASTE, Kind.IMP_ADJUSTMENT) for e in existing):
                raise _reused()
            return existing
    if not is_guide(by, campaign.pk):
        raise CampaignError("Only the Guide may record XP from money wasted.", "not_guide")
    if not characters:
        raise CampaignError("Choose the Errant(s) who gain it.", "no_characters",
                            field="characters")
    if source not in WASTE_SOURCE_KEYS:
        raise CampaignError("Choose where the XP comes from.", "bad_source", field="source")
    if not isinstance(pennies, int) or not 1 <= pennies <= MAX_PENNIES:
        raise CampaignError(f"Give a sum of 1 to {MAX_PENNIES:,} pennies.", "bad_pennies",
                            field="pennies")
    if source == "conspicuous":
        if consumption not in CONSUMPTION:
            raise CampaignError("Choose the kind of Conspicuous Consumption.",
                                "bad_consumption", field="consumption")
    else:
        consumption = ""
    if from_purse and source not in SPENT_SOURCES:
        raise CampaignError(f"{SOURCE_LABELS[source]} is not paid from the purse.",
                            "not_spent", field="from_purse")
    note = check_text(note, field="note", length=NOTE_LENGTH)
    if source == "conspicuous" and company_services.debt(company) > 0:
        raise CampaignError("While the Company owes a debt, no Errant may engage in "
                            "Conspicuous Consumption (DT §Debts).", "company_in_debt",
                            field="source")
    locked = [lock_character(c) for c in characters]
    for character in locked:
        _require_errant_member(character, campaign)
    invested = len(locked) if source == "setback" else 1
    xp = xp_for_waste(pennies, source, invested)
    if xp < 1:
        raise CampaignError(f"{pennies} p divided among {invested} Errants gives each less "
                            "than 1 XP.", "share_too_small", field="pennies")
    label = SOURCE_LABELS[source]
    if consumption:
        label = f"{label} ({CONSUMPTION[consumption][0]})"
    share = f", a {invested}-way share of {pennies:,} p" if invested > 1 else f", {pennies:,} p"
    text = f"Money wasted: {label}{share}" + (f": {note}" if note else "")
    # ER §Adjutants: XP an Errant or their adjutant earns is divided, ¾ and ¼, each part
    # its own entry (the partner's linked to the earner's, undone with it).
    divisions = {}
    for character in locked:
        found = roster.division(character, xp)
        if found is not None:
            roster.check_division(character, found)
            divisions[character.pk] = found
    entries = []
    for character in locked:
        found = divisions.get(character.pk)
        key = f"{request_key}:{character.pk}" if request_key else None
        entry = xp_entry(character, kind=Kind.WASTE, by=by,
                         xp_change=found.own if found else xp,
                         note=text + (f" ({'¾' if found.earner_is_master else '¼'} of {xp:,} XP, "
                                      f"divided with {found.partner.display_name})"
                                      if found else ""),
                         request_key=key)
        if found is not None:
            roster.record_share(found, entry, by=by, text=text, request_key=key)
        coin = debt_entry = None
        if from_purse:
            purse = max(character.coins_cp, 0)
            paid = min(purse, pennies) if source == "conspicuous" else pennies
            if source != "conspicuous" and purse < pennies:
                raise CampaignError(f"{character.display_name} has only {purse:,} p.",
                                    "not_enough_money", field="pennies")
            if paid:
                coin = CoinEntry.objects.create(character=character,
                                                kind=CoinEntry.Kind.PURCHASE,
                                                amount_cp=-paid, note=text[:NOTE_LENGTH],
                                                created_by=by)
            if pennies > paid:
                debt_entry = ErrantDebtEntry.objects.create(
                    company=company, kind=ErrantDebtEntry.Kind.OWED, amount=pennies - paid,
                    created_by=by,
                    note=f"{character.display_name}'s Conspicuous Consumption beyond the "
                         "purse")
        ErrantWaste.objects.create(campaign=campaign, xp_entry=entry, coin_entry=coin,
                                   debt_entry=debt_entry, session=session, source=source,
                                   consumption=consumption, pennies=pennies,
                                   invested=invested)
        entries.append(entry)
    return entries


def waste_undone(entry: XpEntry, by) -> None:
    """The ritual's undo hook, and the Turn log's (turns.py, a Turn's XP put back): an XP
    entry for money wasted is undone with the money paid
    back to the purse and the debt it made taken off (each a reversal entry), and with
    the other part of XP divided between an Errant and their adjutant (ER §Adjutants)."""
    partner = roster.partner_entry(entry)
    if partner is not None and not XpEntry.objects.filter(reverses=partner).exists():
        lock_character(partner.character_id)
        xp_entry(partner.character, kind=Kind.REVERSAL, by=by, xp_change=-partner.xp_change,
                 reverses=partner, note=f"Undone with XP entry #{entry.pk}")
    for undone in (entry, partner):
        if undone is not None:
            _waste_paid_back(undone, entry, by)


def _waste_paid_back(undone: XpEntry, entry: XpEntry, by) -> None:
    waste = ErrantWaste.objects.filter(xp_entry=undone).select_related(
        "coin_entry", "debt_entry").first()
    if waste is None:
        return
    if waste.coin_entry is not None and not CoinEntry.objects.filter(
            reverses=waste.coin_entry).exists():
        CoinEntry.objects.create(character_id=waste.coin_entry.character_id,
                                 kind=CoinEntry.Kind.REVERSAL,
                                 amount_cp=-waste.coin_entry.amount_cp,
                                 reverses=waste.coin_entry, created_by=by,
                                 note=f"Undone with XP entry #{entry.pk}: "
                                      f"{waste.coin_entry.note}"[:NOTE_LENGTH])
    if waste.debt_entry is not None and not ErrantDebtEntry.objects.filter(
            reverses=waste.debt_entry).exists():
        company = company_services.lock_company(waste.debt_entry.company.campaign)
        ErrantDebtEntry.objects.create(company=company, kind=ErrantDebtEntry.Kind.REVERSAL,
                                       amount=-waste.debt_entry.amount,
                                       reverses=waste.debt_entry, created_by=by,
                                       note=f"Undone with XP entry #{entry.pk}")


# -- Renown raises --------------------------------------------------------------------------


def renown_of(character) -> int:
    return renown_for_xp(max(progress(character)[1], 0))


def standing_picks(character) -> dict[tuple[int, bool], ErrantRenownPick]:
    return {(p.renown, p.by_company): p for p in
            ErrantRenownPick.objects.filter(character_id=character.pk, undone_at__isnull=True)}


def raise_rows(character, raises, renown: int, picks) -> list[dict]:
    """Each Renown gained (2 ... Renown): its two Attributes, chosen or pending, and the
    picks that can be undone. `raises` is the stored pairs, `picks` standing_picks()."""
    rows = []
    for number in range(2, max(renown, len(raises) + 1) + 1):
        index = number - 2
        pair = raises[index] if index < len(raises) else None
        company = picks.get((number, True))
        player = picks.get((number, False))
        rows.append({
            "renown": number,
            "company": pair[0] if pair else (company.attribute if company else ""),
            "player": pair[1] if pair else "",
            "company_pick": company, "player_pick": player,
            "done": pair is not None,
            "next": pair is None and index == len(raises),
        })
    return rows


def _lock_errant(character) -> ErrantCharacter:
    pk = character if isinstance(character, int) else character.pk
    lock_character(pk)  # the generic row: every writer of this Errant locks it
    return ErrantCharacter.objects.select_related("campaign").get(pk=pk)


@transaction.atomic
def renown_pick(*, character, attribute: str, by, by_company: bool) -> ErrantRenownPick:
    """ER §Renown: at each Renown gained two Attributes rise by 1; "the rest of the
    Company decides the first ... After this, the Errant may themselves decide the
    second ...; they may not select the same Attribute the Company selected." The Guide
    records the Company's pick, the Errant's player the second; the pair is then stored
    (ErrantCharacter.renown_raises) and the sheet follows. Renown by Renown, in order."""
    errant = _lock_errant(character)
    if errant.campaign_id is None:
        raise CampaignError(f"{errant.display_name} is in no Company.", "no_campaign")
    if by_company and not is_guide(by, errant.campaign_id):
        raise CampaignError("The Company's Attribute is recorded by the Guide.", "not_guide",
                            field="attribute")
    if not by_company and (by is None or errant.owner_id != by.pk):
        raise CampaignError(f"The second Attribute is {errant.display_name}'s player's to "
                            "choose.", "not_the_player", field="attribute")
    if attribute not in ATTRIBUTE_KEYS:
        raise CampaignError("Choose one of phys, skill, mind and pres.", "bad_attribute",
                            field="attribute")
    raises = [list(pair) for pair in errant.renown_raises]
    number = len(raises) + 2
    renown = renown_of(errant)
    if number > min(renown, RENOWN_MAX):
        raise CampaignError(f"{errant.display_name} has no Renown raise to choose (Renown "
                            f"{renown}, {len(raises)} chosen).", "no_raise_pending",
                            field="attribute")
    picks = standing_picks(errant)
    company = picks.get((number, True))
    if by_company:
        if company is not None:
            raise CampaignError(f"The Company already chose {company.attribute} for Renown "
                                f"{number}.", "already_chosen", field="attribute")
        return ErrantRenownPick.objects.create(character=errant, renown=number,
                                               by_company=True, attribute=attribute,
                                               created_by=by)
    if company is None:
        raise CampaignError(f"The Company chooses Renown {number}'s first Attribute before "
                            "you choose the second.", "company_first", field="attribute")
    if attribute == company.attribute:
        raise CampaignError(f"The Company chose {ATTRIBUTE_NAMES[attribute]} ({attribute}): "
                            "choose a different Attribute.", "same_attribute",
                            field="attribute")
    pick = ErrantRenownPick.objects.create(character=errant, renown=number, by_company=False,
                                           attribute=attribute, created_by=by)
    errant.renown_raises = [*raises, [company.attribute, attribute]]
    errant.save(update_fields=["renown_raises"])
    return pick


@transaction.atomic
def renown_pick_undo(*, pick: ErrantRenownPick | int, by) -> ErrantRenownPick:
    """Undo a pick, the latest first: the player's (the pair leaves the sheet; it must be
    the last pair stored), then the Company's (once the player's is undone). The Guide
    undoes either; the player their own."""
    pk = pick if isinstance(pick, int) else pick.pk
    character_id = ErrantRenownPick.objects.filter(pk=pk).values_list(
        "character_id", flat=True).first()
    if character_id is None:
        raise CampaignError("That choice does not exist.", "no_such_pick")
    errant = _lock_errant(character_id)
    pick = ErrantRenownPick.objects.get(pk=pk)
    guide = is_guide(by, errant.campaign_id)
    if not guide and (pick.by_company or by is None or errant.owner_id != by.pk):
        raise CampaignError("Only the Guide, or the player for their own choice, may undo "
                            "it.", "not_allowed")
    if pick.undone_at is not None:
        raise CampaignError("That choice was undone already.", "already_undone")
    raises = [list(pair) for pair in errant.renown_raises]
    if pick.by_company:
        if ErrantRenownPick.objects.filter(character=errant, renown=pick.renown,
                                           by_company=False, undone_at__isnull=True).exists():
            raise CampaignError(f"Undo the player's choice for Renown {pick.renown} first.",
                                "player_first")
    else:
        if pick.renown != len(raises) + 1:
            raise CampaignError(f"Undo the later Renown raises first (Renown {len(raises) + 1}"
                                ").", "later_first")
        errant.renown_raises = raises[:-1]
        errant.save(update_fields=["renown_raises"])
    pick.undone_at = timezone.now()
    pick.undone_by = by
    pick.save(update_fields=["undone_at", "undone_by"])
    return pick


def check_xp_undo(entry: XpEntry, character) -> None:
    """Undoing XP that a Renown raise stands on is refused: undo the raise first (for the
    other part of divided XP too: it is undone with it)."""
    partner = roster.partner_entry(entry)
    if partner is not None and not XpEntry.objects.filter(reverses=partner).exists():
        _check_xp_undo(partner, partner.character)
    _check_xp_undo(entry, character)


def _check_xp_undo(entry: XpEntry, character) -> None:
    _, xp = progress(character)
    after = renown_for_xp(max(xp - entry.xp_change, 0))
    errant = ErrantCharacter.objects.filter(pk=character.pk).first()
    if errant is None:
        return
    chosen = len(errant.renown_raises) + 1
    picked = max((p.renown for p in standing_picks(errant).values()), default=1)
    if after < max(chosen, picked):
        raise CampaignError(
            f"Without that XP {errant.display_name} is Renown {after}, but Renown "
            f"{max(chosen, picked)}'s raise is chosen: undo the raise first.", "renown_raised")


# -- the Fame roll, the Ancestry ability ----------------------------------------------------


@transaction.atomic
def fame_roll(*, character, by, session: Session | None = None,
              rng: random.Random | None = None) -> ErrantFameRoll:
    """ER §Renown: "roll a D10 and attempt to roll equal or under their Renown; if they
    are successful, their reputation precedes them". The player or the Guide rolls."""
    errant = _lock_errant(character)
    if not (is_guide(by, errant.campaign_id) or (by is not None and errant.owner_id == by.pk)):
        raise CampaignError("Only the Errant's player or the Guide may roll.", "not_allowed")
    die = (rng or _SYSTEM_RANDOM).randint(1, FAME_DIE)
    return ErrantFameRoll.objects.create(character=errant, session=session, die=die,
                                         renown=renown_of(errant), created_by=by)


def ancestry_ability(character) -> tuple[str, str]:
    """(Ancestry's name, its once-per-session ability) from the data (ER §Choose Ancestry)."""
    ancestry = ANCESTRIES[character.ancestry]
    return ancestry.name, ancestry.ability


@transaction.atomic
def ancestry_use(*, character, session: Session, by, note: str = "") -> ErrantAncestryUse:
    """The Ancestry's ability used in `session` (the campaign's latest): once per session
    (ER §Choose Ancestry); a new session makes it available again."""
    errant = _lock_errant(character)
    if session is None or errant.campaign_id != session.campaign_id:
        raise CampaignError("Start a session first: the ability is once per session.",
                            "no_session")
    if not (is_guide(by, errant.campaign_id) or (by is not None and errant.owner_id == by.pk)):
        raise CampaignError("Only the Errant's player or the Guide may mark it.", "not_allowed")
    note = check_text(note, field="note", length=NOTE_LENGTH)
    if ErrantAncestryUse.objects.filter(session=session, character=errant,
                                        undone_at__isnull=True).exists():
        name, _ = ancestry_ability(errant)
        raise CampaignError(f"{errant.display_name} already used the {name} ability in "
                            f"session {session.number}.", "already_used")
    return ErrantAncestryUse.objects.create(session=session, character=errant,
                                            ancestry=errant.ancestry, note=note, created_by=by)


@transaction.atomic
def ancestry_use_undo(*, use: ErrantAncestryUse | int, by) -> ErrantAncestryUse:
    pk = use if isinstance(use, int) else use.pk
    found = ErrantAncestryUse.objects.filter(pk=pk).values_list("character_id", flat=True).first()
    if found is None:
        raise CampaignError("That use does not exist.", "no_such_use")
    errant = _lock_errant(found)
    use = ErrantAncestryUse.objects.get(pk=pk)
    if not (is_guide(by, errant.campaign_id) or (by is not None and errant.owner_id == by.pk)):
        raise CampaignError("Only the Errant's player or the Guide may undo it.", "not_allowed")
    if use.undone_at is not None:
        raise CampaignError("That use was undone already.", "already_undone")
    use.undone_at = timezone.now()
    use.save(update_fields=["undone_at"])
    return use
