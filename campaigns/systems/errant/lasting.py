"""An Errant's lasting wounds after the fight (IT §Death & Dying: "Wounds without a stated
duration are permanent unless seen to by a physician, though they cannot restore lost body
parts"; docs/RULES.md AMB-E-WOUND-1, -2). fight.py writes them at a fight's end; here they
are read with their effects (the engine's, from the stored rows) and healed:

- by a physician, in a Downtime Turn (GS §Retainers: "Physician: Can treat one disease or
  wound per Downtime Turn"): the Company's newest Turn must be a Downtime Turn, the
  physician is named, and treats one wound in it; never a lost body part;
- by a beneficence (CM §Beneficence: "You may reduce the amount healed by 20 in order to
  cure a wound"), the Guide affirming it.

The Guide writes (each write one transaction with the Company's row and the wound locked,
as company.py), and may undo a healing; nothing is deleted."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.services import CampaignError, check_text
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.wound_models import (
    NAME_LENGTH,
    NOTE_LENGTH,
    ErrantWound,
    ErrantWoundHeal,
    live,
)
from rules.engine.errant import wounds as wo

from . import turns
from .company import lock_company, member_pks, require_guide
from .turn_models import ErrantTurn


@dataclass(frozen=True)
class Carried:
    """An Errant's lasting wounds as the pages show them."""

    wounds: list  # ErrantWound, oldest first, healed or not (each `.heal` loaded)
    effects: wo.LastingEffects  # of the wounds not healed

    @property
    def open(self) -> list:
        return [w for w in self.wounds if w.heal is None]


def carried(errant) -> Carried:
    """The Errant's lasting wounds and what those not healed do (wounds.lasting_effects,
    the HP maximum as the sheet computes it)."""
    rows = list(live(errant.pk))
    open_ = [wo.wound_at(w.column, w.row) for w in rows if not w.live_heals]
    phys = sheet_for(errant).value("phys") or 0
    return Carried(rows, wo.lasting_effects(open_, phys))


def _text(value, field: str, length: int, label: str, required: str | None = None) -> str:
    if value is not None and not isinstance(value, str):
        raise CampaignError(f"{label} must be text.", f"bad_{field}", field=field)
    value = " ".join((value or "").split())
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in value):
        raise CampaignError(f"{label}: no control characters.", f"bad_{field}", field=field)
    return check_text(value, field=field, length=length, required=required)


@transaction.atomic
def heal(*, campaign: Campaign, by, wound_pk: int, how: str, physician: str = "",
         note: str = "", request_key: str | None = None) -> ErrantWoundHeal:
    """Mark a lasting wound healed, by a physician in the Downtime Turn under way or by a
    beneficence; CampaignError (with its field) when the text or the state refuses it."""
    require_guide(campaign, by, "mark a wound healed")
    company = lock_company(campaign)
    if request_key:
        earlier = ErrantWoundHeal.objects.filter(request_key=request_key).first()
        if earlier is not None:
            if earlier.wound_id != wound_pk:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return earlier
    wound = ErrantWound.objects.select_for_update().filter(
        pk=wound_pk, character_id__in=member_pks(campaign), undone_at__isnull=True).first()
    if wound is None:
        raise CampaignError("That wound is not one of the Company's.", "no_wound")
    if wound.heals.filter(undone_at__isnull=True).exists():
        raise CampaignError("That wound is already healed.", "healed")
    refusal = wo.heal_refusal(wo.wound_at(wound.column, wound.row), how)
    if refusal:
        raise CampaignError(refusal, "cannot_heal", field="how")
    note = _text(note, "note", NOTE_LENGTH, "The note")
    turn = None
    if how == wo.PHYSICIAN:
        physician = _text(physician, "physician", NAME_LENGTH, "The physician",
                          required="Name the physician (one wound each per Downtime Turn).")
        turn = turns.latest(company)
        if turn is None or turn.kind != ErrantTurn.Kind.DOWNTIME:
            raise CampaignError("A physician treats a wound in a Downtime Turn: start one "
                                "first (GS §Retainers).", "no_downtime", field="how")
        if ErrantWoundHeal.objects.filter(turn=turn, how=wo.PHYSICIAN,
                                          physician__iexact=physician,
                                          undone_at__isnull=True).exists():
            raise CampaignError(f"{physician} already treated a wound in this Downtime Turn "
                                "(one disease or wound per Downtime Turn).", "physician_busy",
                                field="physician")
    else:
        physician = ""
    try:
        with transaction.atomic():
            return ErrantWoundHeal.objects.create(
                wound=wound, how=how, physician=physician, turn=turn, note=note,
                created_by=by, request_key=request_key or None)
    except IntegrityError:  # a concurrent click got there first
        raise CampaignError("That wound or that physician's Downtime Turn was just taken: "
                            "here it is as it stands now.", "stale") from None


@transaction.atomic
def undo_heal(*, campaign: Campaign, by, heal_pk: int) -> ErrantWoundHeal:
    """The Guide takes a healing back: the wound is carried again (the row stays, marked)."""
    require_guide(campaign, by, "undo a healing")
    lock_company(campaign)
    done = ErrantWoundHeal.objects.select_for_update().filter(
        pk=heal_pk, wound__character_id__in=member_pks(campaign)).select_related(
        "wound").first()
    if done is None:
        raise CampaignError("That healing is not one of the Company's.", "no_heal")
    if done.undone_at is not None:
        raise CampaignError("That healing is already undone.", "undone")
    if done.wound.undone_at is not None:
        raise CampaignError("That wound's fight end was undone.", "undone")
    done.undone_at, done.undone_by = timezone.now(), by
    done.save(update_fields=["undone_at", "undone_by"])
    return done
