"""The Company's writes and reads (issue 15, "The Company"; DT §Debts, §Reputation,
§Alignment): the table roles and the marching order, the debt ledger, the Factions and
the reputation ledger, each change undone by a reversal entry. The Guide writes; every
member reads. Same conventions as advancement.py (locks first, CampaignError)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Sum

from campaigns.models import IMP_ROLES, Campaign, Membership
from campaigns.services import CampaignError, check_text
from characters.systems.errant.apps import KEY
from characters.systems.errant.builds import alignment_for, for_sheets
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant.company import debt_doubled, most_extreme_alignment, reputation_band
from rules.engine.errant.data.company import REPUTATION_MAX, REPUTATION_MIN, TABLE_ROLES

from .company_models import (
    FACTION_NAME_LENGTH,
    ROLE_KEYS,
    ErrantCompany,
    ErrantDebtEntry,
    ErrantFaction,
    ErrantReputationEntry,
)

NOTE_LENGTH = 300
MAX_DEBT = 10**12  # far beyond any table; the column holds it
REPUTATION_START = 7  # AMB-E-C3: a Faction first met is Neutral (6-8), 7 unless the Guide says


def company_of(campaign: Campaign) -> ErrantCompany:
    company, _ = ErrantCompany.objects.get_or_create(campaign=campaign)
    return company


def lock_company(campaign: Campaign) -> ErrantCompany:
    company_of(campaign)
    return ErrantCompany.objects.select_for_update().select_related("campaign").get(
        campaign_id=campaign.pk)


def require_guide(campaign: Campaign, by, what: str) -> None:
    if Membership.objects.role_of(by, campaign) not in IMP_ROLES:
        raise CampaignError(f"Only the Guide may {what}.", "not_guide")


def _in_company(campaign: Campaign):
    """The Errants of the Company: the campaign's characters of this game."""
    return ErrantCharacter.objects.filter(campaign=campaign, system=KEY)


def _company_errants(campaign: Campaign):
    """The Company's Errants in the Company's order, with their XP (with_progress) and
    players."""
    return _in_company(campaign).with_progress().select_related("owner").order_by("pk")


def members(campaign: Campaign) -> list[ErrantCharacter]:
    """The Company's Errants with what their sheets read loaded (for_sheets)."""
    return list(for_sheets(_company_errants(campaign)))


def member_pks(campaign: Campaign):
    """The ids of the Company's Errants, unevaluated: `pk__in=` it is a subquery of the
    query it narrows, where a check of who is in the Company needs nothing more."""
    return _in_company(campaign).values_list("pk", flat=True)


def roll_of(campaign: Campaign) -> list[ErrantCharacter]:
    """The Company's Errants as the Company page lists them, and as a check of who is in
    the Company needs them: without what only their sheets read (no sheet is computed)."""
    return list(_company_errants(campaign))


def debt(company: ErrantCompany) -> int:
    return company.debt_entries.aggregate(total=Sum("amount"))["total"] or 0


def reputation(faction: ErrantFaction) -> int:
    return faction.entries.aggregate(total=Sum("change"))["total"] or 0


def marching(company: ErrantCompany, errants) -> list:
    """The members front first: those in the stored order, then the rest as they joined."""
    by_pk = {e.pk: e for e in errants}
    ordered = [by_pk[pk] for pk in company.marching_order if pk in by_pk]
    return ordered + [e for e in errants if e.pk not in company.marching_order]


RECENT_REPUTATION = 5  # the Company page lists each Faction's latest changes


@dataclass
class FactionRow:
    faction: ErrantFaction
    score: int
    band: str
    does: str
    entries: list  # the latest RECENT_REPUTATION changes, the newest first


def faction_rows(company: ErrantCompany) -> list[FactionRow]:
    """Each Faction with its reputation (its ledger's sum, as `reputation`) and its latest
    changes: two queries however many Factions and changes."""
    recent = (ErrantReputationEntry.objects.select_related("reversed_by")
              .order_by("-pk")[:RECENT_REPUTATION])
    rows = []
    # The Factions' own order (Meta.ordering is not applied to a query that groups).
    for faction in (company.factions.annotate(total=Sum("entries__change")).order_by("name", "pk")
                    .prefetch_related(Prefetch("entries", queryset=recent,
                                               to_attr="recent_entries"))):
        score = faction.total or 0
        band, does = reputation_band(score)
        rows.append(FactionRow(faction, score, band, does, faction.recent_entries))
    return rows


def company_view(campaign: Campaign) -> dict:
    """Everything the Company page shows. Each Errant's Alignment is its sheet's
    (`alignment_for`); no other number of the sheets is shown, so none is computed."""
    company = company_of(campaign)
    errants = roll_of(campaign)
    alignments = [alignment_for(e) for e in errants]
    return {
        "company": company, "errants": errants,
        "marching": marching(company, errants),
        "roles": [(key, label, getattr(company, f"{key}_id")) for key, label in TABLE_ROLES],
        "debt": debt(company),
        "debt_entries": list(company.debt_entries.select_related("created_by", "reversed_by")
                             .order_by("-pk")[:30]),
        "factions": faction_rows(company),
        "alignments": list(zip(errants, alignments, strict=True)),
        "extreme": most_extreme_alignment(alignments),
    }


# -- roles and marching order -------------------------------------------------------------


@transaction.atomic
def roles_set(*, campaign: Campaign, roles: dict[str, int | None], by) -> ErrantCompany:
    """Each table role to a member Errant or nobody (None)."""
    company = lock_company(campaign)
    require_guide(campaign, by, "set the table roles")
    in_company = set(member_pks(campaign))
    for key in ROLE_KEYS:
        pk = roles.get(key)
        if pk is not None and pk not in in_company:
            raise CampaignError("Choose an Errant of the Company, or nobody.", "not_member",
                                field=key)
        setattr(company, f"{key}_id", pk)
    company.save(update_fields=[f"{key}_id" for key in ROLE_KEYS])
    return company


@transaction.atomic
def march_move(*, campaign: Campaign, character_pk: int, direction: str, by) -> list[int]:
    """Move an Errant one place forward ("up") or back ("down") in the marching order."""
    company = lock_company(campaign)
    require_guide(campaign, by, "change the marching order")
    if direction not in ("up", "down"):
        raise CampaignError("Move forward or back.", "bad_direction")
    order = [e.pk for e in marching(company, roll_of(campaign))]
    if character_pk not in order:
        raise CampaignError("That Errant is not in the Company.", "not_member")
    i = order.index(character_pk)
    j = i - 1 if direction == "up" else i + 1
    if 0 <= j < len(order):
        order[i], order[j] = order[j], order[i]
    company.marching_order = order
    company.save(update_fields=["marching_order"])
    return order


# -- the debt -----------------------------------------------------------------------------


@transaction.atomic
def debt_change(*, campaign: Campaign, kind: str, by, amount: int = 0, note: str = "",
                request_key: str | None = None) -> ErrantDebtEntry:
    """Owed (a loan, a surplus), repaid, or doubled as a Downtime Turn begins (DT §Debts:
    "the remaining amount owed by the Company doubles")."""
    company = lock_company(campaign)
    if request_key:
        existing = ErrantDebtEntry.objects.filter(request_key=request_key).first()
        if existing is not None:
            if existing.company_id != company.pk:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return existing
    require_guide(campaign, by, "change the Company's debt")
    note = check_text(note, field="note", length=NOTE_LENGTH)
    owed = debt(company)
    Kind = ErrantDebtEntry.Kind
    if kind == Kind.DOUBLED:
        if owed <= 0:
            raise CampaignError("The Company owes nothing to double.", "no_debt", field="kind")
        change = debt_doubled(owed)
        note = note or "A Downtime Turn begins: the debt doubles (DT §Debts)."
    elif kind in (Kind.OWED, Kind.REPAID):
        if not isinstance(amount, int) or not 1 <= amount <= MAX_DEBT:
            raise CampaignError(f"Give a sum of 1 to {MAX_DEBT:,} pennies.", "bad_amount",
                                field="amount")
        if kind == Kind.REPAID and amount > owed:
            raise CampaignError(f"The Company owes only {owed:,} p.", "repaid_too_much",
                                field="amount")
        change = amount if kind == Kind.OWED else -amount
    else:
        raise CampaignError("Choose owed, repaid or doubled.", "bad_kind", field="kind")
    if owed + change > MAX_DEBT:
        raise CampaignError(f"The debt would pass {MAX_DEBT:,} p.", "debt_too_large",
                            field="amount")
    return ErrantDebtEntry.objects.create(company=company, kind=kind, amount=change, note=note,
                                          created_by=by, request_key=request_key or None)


@transaction.atomic
def debt_undo(*, campaign: Campaign, entry_pk: int, by) -> ErrantDebtEntry:
    company = lock_company(campaign)
    require_guide(campaign, by, "undo a debt entry")
    entry = ErrantDebtEntry.objects.filter(company=company, pk=entry_pk).first()
    if entry is None:
        raise CampaignError("That debt entry does not exist.", "no_such_entry")
    if entry.kind == ErrantDebtEntry.Kind.REVERSAL:
        raise CampaignError("An undo cannot be undone: record a new entry.", "reversal")
    if ErrantDebtEntry.objects.filter(reverses=entry).exists():
        raise CampaignError("That entry was undone already.", "already_undone")
    if debt(company) - entry.amount < 0:
        raise CampaignError("Undoing it would leave a negative debt: undo the repayment "
                            "first.", "negative_debt")
    return ErrantDebtEntry.objects.create(company=company, kind=ErrantDebtEntry.Kind.REVERSAL,
                                          amount=-entry.amount, reverses=entry, created_by=by,
                                          note=f"Undo: {entry.get_kind_display()}")


# -- Factions and reputation --------------------------------------------------------------


@transaction.atomic
def faction_add(*, campaign: Campaign, name: str, by, score: int = REPUTATION_START
                ) -> ErrantFaction:
    company = lock_company(campaign)
    require_guide(campaign, by, "add a Faction")
    name = check_text(name, field="name", length=FACTION_NAME_LENGTH,
                      required="Name the Faction.")
    if not isinstance(score, int) or not REPUTATION_MIN <= score <= REPUTATION_MAX:
        raise CampaignError(f"A reputation runs {REPUTATION_MIN} to {REPUTATION_MAX}.",
                            "bad_score", field="score")
    if company.factions.filter(name__iexact=name).exists():
        raise CampaignError(f"The Company already has a reputation with {name}.",
                            "faction_exists", field="name")
    try:
        with transaction.atomic():
            faction = ErrantFaction.objects.create(company=company, name=name)
    except IntegrityError as error:
        raise CampaignError(f"The Company already has a reputation with {name}.",
                            "faction_exists", field="name") from error
    ErrantReputationEntry.objects.create(faction=faction, change=score, created_by=by,
                                         note="Where the reputation starts")
    return faction


@transaction.atomic
def reputation_change(*, campaign: Campaign, faction_pk: int, change: int, by, note: str = ""
                      ) -> ErrantReputationEntry:
    """DT §Reputation: "adjusted freely by the Guide at any time", within 2-12."""
    company = lock_company(campaign)
    require_guide(campaign, by, "change a reputation")
    faction = ErrantFaction.objects.filter(company=company, pk=faction_pk).first()
    if faction is None:
        raise CampaignError("No such Faction.", "no_such_faction")
    note = check_text(note, field="note", length=NOTE_LENGTH)
    span = REPUTATION_MAX - REPUTATION_MIN
    if not isinstance(change, int) or change == 0 or abs(change) > span:
        raise CampaignError(f"Give a change of -{span} to +{span}, not 0.", "bad_change",
                            field="change")
    score = reputation(faction)
    if not REPUTATION_MIN <= score + change <= REPUTATION_MAX:
        raise CampaignError(f"{faction.name} is at {score}; a reputation runs "
                            f"{REPUTATION_MIN} to {REPUTATION_MAX}.", "out_of_range",
                            field="change")
    return ErrantReputationEntry.objects.create(faction=faction, change=change, note=note,
                                                created_by=by)


@transaction.atomic
def reputation_undo(*, campaign: Campaign, entry_pk: int, by) -> ErrantReputationEntry:
    company = lock_company(campaign)
    require_guide(campaign, by, "undo a reputation change")
    entry = ErrantReputationEntry.objects.filter(faction__company=company, pk=entry_pk).first()
    if entry is None:
        raise CampaignError("That reputation entry does not exist.", "no_such_entry")
    if entry.reverses_id is not None:
        raise CampaignError("An undo cannot be undone: record a new change.", "reversal")
    if ErrantReputationEntry.objects.filter(reverses=entry).exists():
        raise CampaignError("That change was undone already.", "already_undone")
    if not ErrantReputationEntry.objects.filter(faction=entry.faction, reverses__isnull=True,
                                                pk__lt=entry.pk).exists():
        raise CampaignError("Where the reputation starts is not undone: change it instead.",
                            "first_entry")
    score = reputation(entry.faction) - entry.change
    if not REPUTATION_MIN <= score <= REPUTATION_MAX:
        raise CampaignError("Undoing it would leave the reputation outside 2-12.",
                            "out_of_range")
    return ErrantReputationEntry.objects.create(faction=entry.faction, change=-entry.change,
                                                reverses=entry, created_by=by,
                                                note="Undone")
