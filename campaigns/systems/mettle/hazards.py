"""The Guide's Hazards card (issue #13): a fall, fire (and Burning), area damage or an
affliction applied to a character of the party, through the rules engine
(rules/engine/mettle/damage.py; seed 001 Scenery > Falls, Fire, Affliction; Attack > Area
Attacks; EN §Taking Damage). Each application is one MettleHazard row (the dice, the
arithmetic, the sheet before and after) written in a transaction that locks the
character; the request key makes a double click one row; the last hazard applied to a
character can be undone while its sheet is as the hazard left it."""

from __future__ import annotations

import random

from django import forms
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from campaigns.forms import BootstrapForm
from campaigns.models import Campaign
from campaigns.services import CampaignError, require_imp
from characters.systems.mettle.builds import for_sheets, sheet_for
from characters.systems.mettle.models import METTLE_MAX, METTLE_MIN, MettleCharacter
from config.parsing import RequestKeyField
from rules.engine.mettle import damage as engine
from rules.engine.mettle.statuses import STAGGERED, statuses_after_scene

from . import initiative
from .encounters import MettleCombatant, MettleEncounter, MettleInitiativeStep
from .hazard_models import MettleHazard

RNG = random.SystemRandom()  # tests pass a seeded random.Random
MAX_ZONES = 20
MAX_DM = 30
MAX_SOAK = 40

SURFACE_CHOICES = [(Surface.value, Surface.value.capitalize()) for Surface in engine.Surface]
AFFLICTION_CHOICES = [(a.key, f"{a.source} ({a.type}, Dose {a.dose_text})")
                      for a in engine.AFFLICTIONS]


class HazardForm(BootstrapForm):
    """Every hazard's fields; which ones count depends on the kind (the service checks)."""

    request_key = RequestKeyField()
    character = forms.TypedChoiceField(coerce=int, label="Character", choices=())
    # The hazards rolled here; an affliction's ticks (LOWER, RECOVER) are the card's
    # buttons on the affliction's row, not a hazard to choose.
    kind = forms.ChoiceField(label="Hazard", choices=[
        (kind.value, kind.label) for kind in (MettleHazard.Kind.FALL, MettleHazard.Kind.FIRE,
                                              MettleHazard.Kind.AREA,
                                              MettleHazard.Kind.AFFLICTION)])
    soak = forms.IntegerField(required=False, min_value=0, max_value=MAX_SOAK,
                              label="Soak (leave empty for the sheet's)",
                              help_text="A fall is soaked by POISE + armour, the rest by "
                                        "FRAME + armour.")
    zones = forms.IntegerField(required=False, min_value=0, max_value=MAX_ZONES,
                               label="Zones fallen (~5 m each)")
    surface = forms.ChoiceField(choices=SURFACE_CHOICES, required=False, label="Surface")
    jumped = forms.BooleanField(required=False, label="Jumped on purpose (-2)")
    fire_dice = forms.IntegerField(required=False, min_value=1,
                                   max_value=engine.FIRE_DICE_MAX, label="Fire dice (d6)",
                                   help_text="Torch 1, bonfire 2, forge or lava 3+.")
    burning = forms.BooleanField(required=False, label="Flammable: takes the Burning status")
    dm = forms.IntegerField(required=False, min_value=0, max_value=MAX_DM,
                            label="Area damage DM")
    partial_cover = forms.BooleanField(required=False, label="In Partial Cover (half damage)")
    affliction = forms.ChoiceField(choices=[("", "(choose)"), *AFFLICTION_CHOICES],
                                   required=False, label="Affliction")
    stagger = forms.BooleanField(required=False,
                                 label="On a Felling blow: Staggered (one more damage) "
                                       "instead of Fallen")

    def __init__(self, *args, party=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [("", "(choose)")] + [
            (c.pk, c.name) for c in party]


class TickForm(forms.Form):
    """An affliction's tick button: which way, and its request key."""

    request_key = RequestKeyField()
    step = forms.ChoiceField(choices=[("lower", "Lower max Mettle by 1"),
                                      ("recover", "Recover 1 max Mettle")],
                             error_messages={"required": "Choose lower or recover.",
                                             "invalid_choice": "Choose lower or recover."})


def _locked_character(campaign: Campaign, character_id: int) -> MettleCharacter:
    MettleCharacter.objects.select_for_update().filter(pk=character_id).first()
    character = (for_sheets(MettleCharacter.objects.with_progress())
                 .filter(pk=character_id, campaign=campaign).first())
    if character is None:
        raise CampaignError("Choose a character of this campaign.", "character",
                            field="character")
    return character


def _refuse_in_a_fight(character: MettleCharacter) -> None:
    fight = (MettleCombatant.objects.filter(character_id=character.pk)
             .exclude(encounter__status=MettleEncounter.Status.ENDED)
             .select_related("encounter").first())
    if fight is not None:
        # The tracker keeps the fight's Mettle and writes it back at its end: a hazard
        # written on the sheet meanwhile would be lost.
        raise CampaignError(f"{character.name} is in the fight “{fight.encounter.name}”: "
                            "deal the damage in the Initiative tracker, or end the "
                            "fight first.", "in_a_fight", field="character")


def _lock_fight(campaign: Campaign, character_id) -> MettleEncounter | None:
    """The fight not yet ended the character is in, locked before the character (the
    order the fight's end takes: the encounter, then the party's sheets), so that an
    affliction on it is recorded in the fight's ledger too (AMB-M-AFF-4)."""
    if not isinstance(character_id, int):
        return None  # _locked_character says what is wrong
    fight = initiative.fight_of(character_id)
    if fight is None or fight.campaign_id != campaign.pk:
        return None
    fight = MettleEncounter.objects.select_for_update().get(pk=fight.pk)
    # Ended while this waited for its lock: the sheet is the character's own again.
    return None if fight.status == MettleEncounter.Status.ENDED else fight


def _same_fight(fight: MettleEncounter | None, character: MettleCharacter) -> None:
    now = initiative.fight_of(character.pk)
    if (now.pk if now else None) != (fight.pk if fight else None):
        raise CampaignError(f"{character.name} joined or left a fight meanwhile: try again.",
                            "in_a_fight", field="character")


def _need(data: dict, name: str, message: str):
    value = data.get(name)
    if value is None or value == "":
        raise CampaignError(message, name, field=name)
    return value


def apply(*, campaign: Campaign, by, data: dict, rng: random.Random | None = None
          ) -> MettleHazard:
    """Roll the hazard, take it through Soak and apply it to the character's Mettle (an
    affliction: the Dose is rolled and kept for the Guide, the character is Afflicted)."""
    require_imp(campaign, by, "apply a hazard")
    rng = rng or RNG
    key = data.get("request_key") or None
    if key:
        existing = MettleHazard.objects.filter(request_key=key, campaign=campaign).first()
        if existing is not None:
            return existing
    kind = data.get("kind")
    with transaction.atomic():
        fight = (_lock_fight(campaign, data.get("character"))
                 if kind == MettleHazard.Kind.AFFLICTION else None)
        character = _locked_character(campaign, data.get("character"))
        if key:  # a double click that waited for the lock: the first click's row
            existing = MettleHazard.objects.filter(request_key=key, campaign=campaign).first()
            if existing is not None:
                return existing
        if kind == MettleHazard.Kind.AFFLICTION:
            # An affliction deals no damage: in a fight, the dart is recorded in the
            # fight's ledger too (AMB-M-AFF-4).
            _same_fight(fight, character)
        else:
            _refuse_in_a_fight(character)
        sheet = sheet_for(character)
        inputs: dict = {}
        dose = None
        if kind == MettleHazard.Kind.FALL:
            zones = _need(data, "zones", "How many Zones did they fall? (0 for a short fall)")
            surface = engine.Surface(data.get("surface") or engine.Surface.NORMAL)
            jumped = bool(data.get("jumped"))
            dice = [rng.randint(1, 6)]
            modifier = engine.fall_modifier(zones, surface, jumped=jumped)
            amount = engine.fall_damage(dice[0], zones, surface, jumped=jumped)
            # Falls: "Soaks with POISE instead of FRAME": the POISE the armour's burden and
            # Fallen leave, plus the armour (AMB-M-HZ-1).
            soak = engine.fall_soak(sheet.modified["poise"],
                                    sheet.armor.soak if sheet.armor else 0)
            inputs = {"zones": zones, "surface": surface.value, "jumped": jumped}
            arithmetic = f"1d6 ({dice[0]}) {modifier:+d}"
        elif kind == MettleHazard.Kind.FIRE:
            count = _need(data, "fire_dice", "How many d6 is the fire?")
            dice = [rng.randint(1, 6) for _ in range(count)]
            amount = engine.fire_damage(dice)
            soak = sheet.value("soak")
            inputs = {"fire_dice": count, "burning": bool(data.get("burning"))}
            arithmetic = f"{count}d6 ({'+'.join(map(str, dice))})"
        elif kind == MettleHazard.Kind.AREA:
            dm = _need(data, "dm", "Give the area attack's DM.")
            cover = bool(data.get("partial_cover"))
            dice = [rng.randint(1, 6)]
            amount = engine.area_damage(dice[0], dm, partial_cover=cover)
            soak = sheet.value("soak")
            inputs = {"dm": dm, "partial_cover": cover}
            arithmetic = f"1d6 ({dice[0]}) + DM {dm}" + (", halved (Partial Cover)" if cover
                                                         else "")
        elif kind == MettleHazard.Kind.AFFLICTION:
            choice = _need(data, "affliction", "Choose the affliction.")
            affliction = engine.AFFLICTION_BY_KEY.get(choice)
            if affliction is None:
                raise CampaignError("Choose an affliction of the table.", "affliction",
                                    field="affliction")
            dice = [rng.randint(1, 6) for _ in range(affliction.dice)]
            dose = engine.affliction_dose(affliction, dice, sheet.value("frame"))
            amount, soak = 0, 0
            inputs = {"affliction": affliction.key}
            arithmetic = f"Dose {affliction.dose_text}"
        else:
            raise CampaignError("Choose a hazard.", "kind", field="kind")
        if data.get("soak") is not None and kind != MettleHazard.Kind.AFFLICTION:
            soak = data["soak"]
        before = character.mettle_current
        current = sheet.value("mettle_current")
        statuses = list(character.statuses or ())
        through = engine.damage_through_soak(amount, soak)
        result = engine.take_damage(current, through, stagger=bool(data.get("stagger")))
        after_statuses = set(statuses)
        if result.felled is engine.Felled.STAGGERED:
            after_statuses.add(STAGGERED)
        if kind == MettleHazard.Kind.FIRE and inputs["burning"]:
            after_statuses.add("burning")
        if kind == MettleHazard.Kind.AFFLICTION and dose:
            # A Dose of 0 (a poison FRAME cut to nothing: "If positive") has run out at
            # once: the character is not Afflicted by it (AMB-M-AFF-6).
            after_statuses.add("afflicted")
        mettle = max(min(result.mettle, METTLE_MAX), METTLE_MIN)
        after = before if through == 0 else mettle
        new_statuses = list(statuses_after_scene(after_statuses, after))
        name = character.name
        if kind == MettleHazard.Kind.AFFLICTION:
            summary = (f"{name} is Afflicted: {affliction.source} ({arithmetic})." if dose
                       else f"{name} shrugs off {affliction.source} ({arithmetic}): "
                            "no effect.")
        else:
            summary = (f"{name}: {MettleHazard.Kind(kind).label}, {arithmetic} = {amount}, "
                       f"less Soak {soak} = {through} damage; Mettle {current} → {mettle}")
            if result.felled:
                summary += f", a Felling blow: {result.felled.value.capitalize()}"
            summary += "."
        character_row = MettleCharacter.objects.filter(pk=character.pk)
        character_row.update(mettle_current=after, statuses=new_statuses,
                             updated_at=timezone.now())
        try:
            with transaction.atomic():
                row = MettleHazard.objects.create(
                    campaign=campaign, character=character, kind=kind, dice=dice,
                    inputs=inputs, damage=amount, soak=soak, through=through, dose=dose,
                    felled=result.felled.value if result.felled else "",
                    mettle_before=before, mettle_after=after, statuses_before=statuses,
                    statuses_after=new_statuses, summary=summary[:300], created_by=by,
                    request_key=key)
        except IntegrityError as error:
            raise CampaignError("That request was already used for something else.",
                                "request_key_reused") from error
        if fight is not None and dose:
            initiative.record_affliction(encounter=fight, character_id=character.pk,
                                         change=0, afflicted=True, hazard_pk=row.pk,
                                         source=affliction.source, by=by)
        return row


@transaction.atomic
def undo(*, campaign: Campaign, by, hazard_pk: int) -> MettleHazard:
    """Put the character's Mettle and statuses back as they were, if nothing has changed
    them since (else the Guide edits the sheet); undone once (a second click is a no-op)."""
    require_imp(campaign, by, "undo a hazard")
    hazard = MettleHazard.objects.filter(pk=hazard_pk, campaign=campaign).first()
    if hazard is None:
        raise CampaignError("That hazard does not exist.", "no_such_hazard")
    in_fight = (MettleInitiativeStep.objects.filter(kind="affliction", payload__hazard=hazard.pk)
                .exclude(encounter__status=MettleEncounter.Status.ENDED)
                .select_related("encounter").first())
    if in_fight is not None and hazard.undone_at is None:
        raise CampaignError(f"This was recorded in the fight “{in_fight.encounter.name}”: "
                            "undo it with the tracker's Undo.", "in_a_fight")
    character = MettleCharacter.objects.select_for_update().get(pk=hazard.character_id)
    return _revert(hazard, character, by)


def revert_for_fight(hazard_pk) -> None:
    """The tracker's Undo of an affliction's step takes its Hazards card row back too
    (initiative.undo, which holds the encounter's lock)."""
    hazard = MettleHazard.objects.filter(pk=hazard_pk).first()
    if hazard is None:
        return
    character = MettleCharacter.objects.select_for_update().get(pk=hazard.character_id)
    _revert(hazard, character, None)


def _revert(hazard: MettleHazard, character: MettleCharacter, by) -> MettleHazard:
    hazard.refresh_from_db()
    if hazard.undone_at is not None:
        return hazard
    if hazard.ticks.filter(undone_at__isnull=True).exists():
        raise CampaignError("Undo the affliction's ticks first (the newest first).",
                            "has_ticks")
    if (character.mettle_current != hazard.mettle_after
            or list(character.statuses or ()) != list(hazard.statuses_after)
            or (hazard.max_lost_after is not None
                and character.mettle_max_lost != hazard.max_lost_after)):
        raise CampaignError(f"{character.name}'s Mettle or statuses changed since; change "
                            "the sheet instead.", "changed_since")
    changes = {"mettle_current": hazard.mettle_before, "statuses": hazard.statuses_before}
    if hazard.max_lost_before is not None:
        changes["mettle_max_lost"] = hazard.max_lost_before
    MettleCharacter.objects.filter(pk=character.pk).update(**changes,
                                                           updated_at=timezone.now())
    hazard.undone_at = timezone.now()
    hazard.undone_by = by
    hazard.save(update_fields=["undone_at", "undone_by"])
    return hazard


# -- an affliction's ticks (Scenery > Affliction; AMB-M-AFF-1 to -4) ----------------------

LOWER, RECOVER = MettleHazard.Kind.LOWER, MettleHazard.Kind.RECOVER
TICK_STEPS = {"lower": LOWER, "recover": RECOVER}


def _live(kind: str) -> Count:
    return Count("ticks", filter=Q(ticks__kind=kind, ticks__undone_at__isnull=True))


def with_live_ticks(afflictions: QuerySet) -> QuerySet:
    """Affliction rows with their ticks not undone counted (`live_lowered`,
    `live_recovered`), so that a card listing several reads them in its one query."""
    return afflictions.annotate(live_lowered=_live(LOWER), live_recovered=_live(RECOVER))


def affliction_state(affliction: MettleHazard) -> dict:
    """What the Hazards card shows of an affliction (its row with the secret Dose): the
    max Mettle it has taken, what is left of its Dose, whether it has ended (a recovery
    ticked on it: "Afflictions end if the victim is still alive when cured or the result
    runs out", AMB-M-AFF-2). Its ticks are counted by `with_live_ticks`, or here."""
    if getattr(affliction, "live_lowered", None) is None:
        affliction = with_live_ticks(MettleHazard.objects.filter(pk=affliction.pk)).get()
    taken, ended = affliction.live_lowered, affliction.live_recovered > 0
    left = engine.affliction_ticks_left(affliction.dose or 0, taken)
    kind = _affliction_of(affliction)
    return {"taken": taken, "left": left, "ended": ended or left == 0,
            "cured": ended, "interval": kind.interval, "source": kind.source}


def _affliction_of(row: MettleHazard) -> engine.Affliction:
    return engine.AFFLICTION_BY_KEY[row.inputs["affliction"]]


def lasting_afflictions(character_id: int, *, exclude: int | None = None
                        ) -> list[tuple[MettleHazard, dict]]:
    """The character's afflictions not undone that have not ended (neither cured nor
    run out), each with its state (`affliction_state`): what keeps it Afflicted and what
    a tranquilizer raises its Check Difficulties by (AMB-M-AFF-6, -7)."""
    rows = MettleHazard.objects.filter(character_id=character_id,
                                       kind=MettleHazard.Kind.AFFLICTION,
                                       undone_at__isnull=True)
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    lasting = []
    for row in with_live_ticks(rows.order_by("created_at", "pk")):
        state = affliction_state(row)
        if not state["ended"]:
            lasting.append((row, state))
    return lasting


def tranquilizer_raise(character_id: int) -> int:
    """What the character's tranquilizers raise its every Check Difficulty by, while
    they last (engine.tranquilizer_difficulty; AMB-M-AFF-7): 0 for most characters."""
    return engine.tranquilizer_difficulty(
        row.dose or 0 for row, _state in lasting_afflictions(character_id)
        if _affliction_of(row).raises_difficulty)


def affliction_tick(*, campaign: Campaign, by, affliction_pk: int, step: str,
                    request_key: str | None = None) -> MettleHazard:
    """One tick of the affliction rolled on row `affliction_pk`: `step` "lower" takes one
    more max Mettle (a day of a disease, a Round of a poison), refused once the ticks
    reach the Dose or once the affliction has ended; "recover" gives one back (after the
    cure or the run-out; the first recovery ends the affliction), refused when nothing is
    lost. Current Mettle above the new maximum comes down to it. One MettleHazard row
    with the Mettle and max Mettle lost before and after; the request key makes a double
    click one row; the newest is undone by `undo`."""
    require_imp(campaign, by, "tick an affliction")
    kind = TICK_STEPS.get(step)
    if kind is None:
        raise CampaignError("Choose to lower or to recover max Mettle.", "step")
    key = request_key or None
    if key:
        existing = MettleHazard.objects.filter(request_key=key, campaign=campaign).first()
        if existing is not None:
            return existing
    source = MettleHazard.objects.filter(pk=affliction_pk, campaign=campaign,
                                         kind=MettleHazard.Kind.AFFLICTION).first()
    if source is None:
        raise CampaignError("That affliction does not exist.", "no_such_hazard")
    with transaction.atomic():
        fight = _lock_fight(campaign, source.character_id)
        character = _locked_character(campaign, source.character_id)
        if key:  # a double click that waited for the lock: the first click's row
            existing = MettleHazard.objects.filter(request_key=key, campaign=campaign).first()
            if existing is not None:
                return existing
        source.refresh_from_db()
        if source.undone_at is not None:
            raise CampaignError("That affliction was undone.", "undone")
        _same_fight(fight, character)
        state = affliction_state(source)
        affliction = _affliction_of(source)
        lost = character.mettle_max_lost
        if kind == LOWER:
            if state["cured"]:
                raise CampaignError(f"{affliction.source} has ended (its recovery began): "
                                    "it lowers max Mettle no more.", "ended")
            if state["left"] == 0:
                raise CampaignError(f"{affliction.source} has run out: its Dose is "
                                    "reached. Recover max Mettle instead.", "dose_reached")
            if lost >= METTLE_MAX:
                raise CampaignError("Max Mettle cannot go lower.", "max_lost_limit")
            new_lost = lost + 1
        else:
            if lost <= 0:
                raise CampaignError(f"{character.name} has no max Mettle to recover.",
                                    "nothing_lost")
            new_lost = lost - 1
        maximum = sheet_for(character).value("mettle_max")
        new_maximum = maximum - (new_lost - lost)
        before = character.mettle_current
        after = engine.mettle_under_lowered_maximum(before, new_maximum)
        statuses = list(character.statuses or ())
        # This tick ends the affliction: the last of its Dose (it runs out) or the first
        # recovery before that (the cure). Afflicted goes with it unless another
        # affliction of the character lasts (EN §Status Effects: "until it runs out or is
        # cured"; AMB-M-AFF-6).
        ends = (state["left"] == 1) if kind == LOWER else not state["ended"]
        new_statuses = statuses
        if ends and not lasting_afflictions(character.pk, exclude=source.pk):
            new_statuses = [key for key in statuses if key != "afflicted"]
        verb = "lowered" if kind == LOWER else "recovered"
        summary = (f"{character.name}: {affliction.source}, max Mettle {verb} "
                   f"{maximum} → {new_maximum}")
        if after != before:
            summary += f", Mettle {before} → {after}"
        if new_statuses != statuses:
            summary += "; no longer Afflicted"
        summary += "."
        MettleCharacter.objects.filter(pk=character.pk).update(
            mettle_max_lost=new_lost, mettle_current=after, statuses=new_statuses,
            updated_at=timezone.now())
        try:
            with transaction.atomic():
                row = MettleHazard.objects.create(
                    campaign=campaign, character=character, kind=kind, affliction=source,
                    inputs={"affliction": affliction.key}, mettle_before=before,
                    mettle_after=after, statuses_before=statuses,
                    statuses_after=new_statuses,
                    max_lost_before=lost, max_lost_after=new_lost, summary=summary[:300],
                    created_by=by, request_key=key)
        except IntegrityError as error:
            raise CampaignError("That request was already used for something else.",
                                "request_key_reused") from error
        if fight is not None:
            # A poison's Round in the fight (AMB-M-AFF-4): the fight's max Mettle and
            # Mettle follow at once, and Afflicted if this tick ends the last one.
            initiative.record_affliction(
                encounter=fight, character_id=character.pk,
                change=-1 if kind == LOWER else 1,
                afflicted=False if new_statuses != statuses else None, hazard_pk=row.pk,
                source=affliction.source, by=by)
        return row
