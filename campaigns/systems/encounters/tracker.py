"""The encounter tracker's writes and reads, over the engine's event-sourced tracker
(rules/engine/encounters/tracker.py).

Every change is one step of the ledger (SeedEncounterStep), written by `step` inside one
transaction with the encounter's row locked (`select_for_update`), checked against the
page's version (a stale click is refused) and against the rules (the engine applies it to
the state folded from the ledger; a refusal writes nothing). `undo` marks the latest step
undone. A new encounter opens with the campaign's settings (`configure`) and the party's
combatants (`add`), each from its build."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from campaigns.services import CampaignError
from characters.systems.encounters.campaign_settings import settings_of
from characters.systems.encounters.models import EncounterCharacter
from rules.engine.encounters import EncounterError, apply, fold
from rules.engine.encounters.combatants import MAX_NAME
from rules.engine.encounters.tracker import Encounter as State

from .models import SeedEncounter, SeedEncounterStep

PARTY = "party"
FOES = "foes"


def character_key(character_pk: int) -> str:
    return f"c{character_pk}"


def foe_key(encounter: SeedEncounter) -> str:
    """A key no combatant of the encounter has had: one more than its steps so far."""
    return f"f{encounter.steps.count() + 1}"


def combatant_payload(character: EncounterCharacter) -> dict:
    """An `add` event for a party character: its numbers from its build."""
    return {"key": character_key(character.pk), "name": character.display_name[:MAX_NAME],
            "side": PARTY, **character.numbers()}


def settings_payload(campaign) -> dict:
    chosen = settings_of(campaign)
    return {"skill_roll": chosen.skill_roll, "defence_counting": chosen.defence_counting,
            "charge_momentum": chosen.charge_momentum, "pace_formula": chosen.pace_formula}


def live_steps(encounter: SeedEncounter):
    return encounter.steps.filter(undone_at__isnull=True).order_by("seq")


def state_of(encounter: SeedEncounter) -> State:
    """The engine's state: the fold of the steps not undone."""
    return fold((step.kind, step.payload) for step in live_steps(encounter))


def _refusal(error: EncounterError, code: str = "rules") -> CampaignError:
    return CampaignError(error.message, code, field=error.field)


def _new_text(before: State, after: State) -> str:
    return " ".join(event.text for event in after.log[len(before.log):])


def _write(encounter: SeedEncounter, state: State, kind: str, payload: dict, by
           ) -> tuple[State, SeedEncounterStep]:
    try:
        after = apply(state, kind, payload)
    except EncounterError as error:
        raise _refusal(error) from None
    seq = (encounter.steps.aggregate(top=Max("seq"))["top"] or 0) + 1
    step = SeedEncounterStep.objects.create(encounter=encounter, seq=seq, kind=kind,
                                            payload=payload, by=by,
                                            text=_new_text(state, after))
    return after, step


@transaction.atomic
def encounter_create(*, campaign, by, name: str) -> SeedEncounter:
    """A new encounter with the campaign's settings and its party's combatants."""
    encounter = SeedEncounter.objects.create(campaign=campaign, name=name.strip(),
                                             created_by=by)
    state, _ = _write(encounter, fold(()), "configure", settings_payload(campaign), by)
    for character in EncounterCharacter.objects.filter(campaign=campaign).order_by("name",
                                                                                  "pk"):
        state, _ = _write(encounter, state, "add", combatant_payload(character), by)
    return encounter


def _locked(encounter_id: int, version: int | None) -> SeedEncounter:
    encounter = SeedEncounter.objects.select_for_update().get(pk=encounter_id)
    if version is not None and version != encounter.version:
        raise CampaignError("The tracker changed since this page was loaded: here it is "
                            "as it stands now.", "stale")
    return encounter


@dataclass(frozen=True)
class Done:
    state: State
    step: SeedEncounterStep


@transaction.atomic
def step(*, encounter_id: int, version: int | None, kind: str, payload: dict, by) -> Done:
    """One step of the fight, or CampaignError (stale, or what the rules refuse)."""
    encounter = _locked(encounter_id, version)
    if encounter.finished:
        raise CampaignError("This encounter has ended.", "ended")
    state, written = _write(encounter, state_of(encounter), kind, payload, by)
    encounter.version += 1
    encounter.finished = kind == "end"
    encounter.save(update_fields=["version", "finished"])
    return Done(state, written)


@transaction.atomic
def undo(*, encounter_id: int, version: int | None, by) -> SeedEncounterStep:
    """Mark the latest step undone (the opening `configure` stays)."""
    encounter = _locked(encounter_id, version)
    last = live_steps(encounter).exclude(kind="configure").last()
    if last is None:
        raise CampaignError("Nothing to undo.", "nothing")
    last.undone_at, last.undone_by = timezone.now(), by
    last.save(update_fields=["undone_at", "undone_by"])
    encounter.version += 1
    encounter.finished = False
    encounter.save(update_fields=["version", "finished"])
    return last
