"""A fight of Initiative Turns at the table: the writes and reads over fight_state.py's
fold (issue 15, "Initiative Turns"; IT).

Conventions (as company.py and turns.py): the Guide (and co-Guides) write, every member
reads; each write is one transaction with the Company's row and the fight's row locked,
so two clicks land one after the other; `version` is the fight's version the page
showed (a stale click is refused) and `request_key` makes a double submission count
once. The server rolls every die (`make_rng`, which the browser tests replace) and keeps
the faces in the step's payload, so the fold replays them.

The Turn log: each Initiative Turn is declared with `turns.declare(kind="initiative")`,
its parent the Company's latest Travel or Exploration Turn; every step in it is a
`turns.note` (the players' text, and the Guide's with the NPCs' numbers as a secret
note). HP goes back to the Errants' sheets once, when the fight ends, through
`turns.change_hp` on the last Initiative Turn (so the Turn log's undo puts it back too), and
with it the Exhaustion the wounds gave (`turns.change_exhaustion`); the wounds that outlast
the fight are written to the characters then (ErrantWound, AMB-E-WOUND-1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.services import CampaignError, check_text
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter, ErrantWound, ErrantWoundHeal
from rules.engine.errant import archetypes
from rules.engine.errant.gear import DAMAGE_STEPS

from . import turns
from .company import lock_company, members, require_guide
from .company_models import ErrantCompany
from .fight_models import ErrantFight, ErrantFightStep
from .fight_state import (
    ATTRIBUTES,
    MAX_DICE,
    FightError,
    FightState,
    apply,
    attack_sides,
    fire_dice,
    fold,
    hazard_dice,
    sneak_dice,
    wound_result,
)
from .turn_models import ErrantTurn

NAME_LENGTH = 80
DEFAULT_DAMAGE_SIDES = 4  # an Errant with no damage die on the sheet fights with a D4 (AMB)


def make_rng() -> random.Random:
    """The dice. Browser tests replace this factory to make a fight deterministic."""
    return random.SystemRandom()


# -- reads -------------------------------------------------------------------------------------

def live_steps(fight: ErrantFight):
    return fight.steps.filter(undone_at__isnull=True).order_by("seq")


def state_of(fight: ErrantFight) -> FightState:
    return fold((s.kind, s.payload) for s in live_steps(fight))


def current(company: ErrantCompany) -> ErrantFight | None:
    """The fight under way, or None."""
    return company.fights.filter(ended_at__isnull=True).order_by("-pk").first()


def latest_fight(campaign: Campaign) -> ErrantFight | None:
    return ErrantFight.objects.filter(company__campaign=campaign).order_by("-pk").first()


def current_of(campaign: Campaign) -> ErrantFight | None:
    """The fight under way in the campaign (a read: no Company row is created)."""
    return ErrantFight.objects.filter(company__campaign=campaign,
                                      ended_at__isnull=True).order_by("-pk").first()


VERSION = ("fight_pk", "fight_version", "fight_ended_at")


def version_of(campaign: str = "pk") -> dict:
    """What the live view shows, cheaply, as annotations of a row whose `campaign` is the
    campaign's id (read with the user's role in one query, campaigns/polling.py): the
    newest fight, its version and its end."""
    newest = ErrantFight.objects.filter(company__campaign_id=OuterRef(campaign)).order_by("-pk")
    return {name: Subquery(newest.values(column)[:1])
            for name, column in zip(VERSION, ("pk", "version", "ended_at"), strict=True)}


# -- writes ------------------------------------------------------------------------------------

def _refusal(error: FightError) -> CampaignError:
    return CampaignError(error.message, error.code, field=error.field)


def errant_payload(errant: ErrantCharacter) -> dict:
    """An Errant's numbers for the fight, from the sheet (ER §Record Other Details): HP now
    (hp_current, or the maximum), the attributes, Renown and the damage die; whether a
    Deviant has the Alert mastery (ER §The Deviant, Awareness: "you may still act in an
    Initiative Turn even when surprised", AMB-E-ALERT); a Deviant's sneak attack dice (2, 3
    with Assassin), a Beast Master's animal companion (HP = skill, D6, AMB-E-BEAST) and the
    lasting wounds not healed (AMB-E-WOUND-1: the maximum HP is already the halved one)."""
    sheet = sheet_for(errant)
    stats = sheet.stats
    hp_max = max(0, int(stats["hp_max"].value or 0))
    hp = errant.hp_current if errant.hp_current is not None else hp_max
    label = str(stats["damage_die"].value or "")
    sides = int(label.lstrip("D")) if label.lstrip("D").isdigit() else DEFAULT_DAMAGE_SIDES
    return {"character_pk": errant.pk, "name": errant.display_name[:60],
            "hp": max(0, min(hp, hp_max)), "hp_max": hp_max,
            "damage_sides": sides if sides in DAMAGE_STEPS else DEFAULT_DAMAGE_SIDES,
            "renown": max(1, int(stats["renown"].value or 1)),
            "alert": archetypes.has_mastery(sheet.build, "awareness"),
            "sneak_dice": archetypes.sneak_attack_dice(sheet.build),
            "wounds": [list(pair) for pair in sheet.build.wounds],
            **_companion_payload(sheet),
            **{a: int(stats[a].value or 0) for a in ATTRIBUTES}}


def _companion_payload(sheet) -> dict:
    companion = archetypes.animal_companion(sheet.build, int(sheet.stats["skill"].value or 0))
    if companion is None or companion.hp < 1:
        return {}
    return {"companion": {"hp": companion.hp, "skill": companion.check_attribute,
                          "damage_sides": companion.damage_sides,
                          "sneak_dice": companion.sneak_dice}}


def _write(fight: ErrantFight, state: FightState, kind: str, payload: dict, by,
           request_key: str | None = None) -> tuple[FightState, ErrantFightStep]:
    try:
        after = apply(state, kind, payload)
    except FightError as error:
        raise _refusal(error) from None
    new = after.log[len(state.log):]
    seq = (fight.steps.aggregate(top=Max("seq"))["top"] or 0) + 1
    step = ErrantFightStep.objects.create(
        fight=fight, seq=seq, kind=kind, payload=payload, by=by,
        text=" ".join(p for p, _ in new), guide_text=" ".join(g for _, g in new),
        request_key=request_key or None)
    return after, step


def _earlier(request_key: str | None, fight_pk: int | None = None) -> ErrantFightStep | None:
    if not request_key:
        return None
    step = ErrantFightStep.objects.filter(request_key=request_key).first()
    if step is not None and fight_pk is not None and step.fight_id != fight_pk:
        raise CampaignError("That request was already used for something else.",
                            "request_key_reused")
    return step


@transaction.atomic
def start(*, campaign: Campaign, by, name: str, character_pks: list[int],
          npc_faces: int = 2, request_key: str | None = None,
          rng: random.Random | None = None) -> ErrantFight:
    """A new fight: combat distance D6 x 10 and surprise d6 rolled (IT §Combat Distance,
    §Surprise), and the chosen Errants of the Company joined with their sheet's numbers."""
    require_guide(campaign, by, "start a fight")
    company = lock_company(campaign)
    earlier = _earlier(request_key)
    if earlier is not None:
        return earlier.fight
    if current(company) is not None:
        raise CampaignError("A fight is already under way: end it first.", "fight_open")
    name = check_text(name, field="name", length=NAME_LENGTH) or "A fight"
    errants = {e.pk: e for e in members(campaign)}
    chosen = [errants[pk] for pk in character_pks if pk in errants]
    if not chosen or len(chosen) != len(set(character_pks)):
        raise CampaignError("Choose one or more Errants of the Company.", "no_errants",
                            field="characters")
    rng = rng or make_rng()
    fight = ErrantFight.objects.create(company=company, name=name, created_by=by)
    payload = {"distance_die": rng.randint(1, 6), "surprise_die": rng.randint(1, 6),
               "npc_faces": npc_faces}
    state, _ = _write(fight, FightState(), "setup", payload, by, request_key)
    for errant in chosen:
        state, _ = _write(fight, state, "errant", errant_payload(errant), by)
    fight.distance, fight.surprise = state.distance, state.surprise
    fight.version = 1
    fight.save(update_fields=["distance", "surprise", "version"])
    return fight


def _locked(company: ErrantCompany, fight_pk: int, version: int | None) -> ErrantFight:
    fight = ErrantFight.objects.select_for_update().filter(company=company, pk=fight_pk).first()
    if fight is None:
        raise CampaignError("That fight is not this Company's.", "no_fight")
    if version is not None and version != fight.version:
        raise CampaignError("The fight changed since this page was loaded (another click "
                            "or another Guide): here it is as it stands now.", "stale")
    return fight


def _roll(state: FightState, kind: str, payload: dict, rng: random.Random) -> dict:
    """The step's dice, rolled by the server and kept in the payload."""
    payload = dict(payload)
    if kind == "turn" and not payload.get("surprised"):
        payload["errant_die"], payload["guide_die"] = rng.randint(1, 6), rng.randint(1, 6)
    elif kind == "attack":
        try:
            attacker, _, _, sides = attack_sides(state, payload)
            if payload.get("sneak") is True:
                payload["dice"] = sneak_dice(attacker)
        except FightError as error:
            raise _refusal(error) from None
        dice = payload.get("dice", 1)
        if not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
            raise CampaignError(f"Roll 1 to {MAX_DICE} dice.", "bad_dice", field="dice")
        payload["faces"] = [1 if sides == 1 else rng.randint(1, sides) for _ in range(dice)]
        if payload.get("reduction"):
            payload["gambit_save"] = rng.randint(1, 20)
    elif kind == "hazard":
        try:
            _, sides = hazard_dice(state, payload)
        except FightError as error:
            raise _refusal(error) from None
        payload["faces"] = [rng.randint(1, n) for n in sides]
    elif kind == "fire" and payload.get("do") == "burn":
        try:
            _, count = fire_dice(state, payload)
        except FightError as error:
            raise _refusal(error) from None
        payload["faces"] = [rng.randint(1, 6) for _ in range(count)]
    elif kind == "wound":
        payload.pop("knocked_out_turns", None)  # the server's roll only
        try:
            _, result = wound_result(state, payload)
        except FightError as error:
            raise _refusal(error) from None
        if result.wound is not None and result.wound.knocked_out_die:
            payload["knocked_out_turns"] = rng.randint(1, result.wound.knocked_out_die)
    elif kind == "save":
        payload["roll"] = rng.randint(1, 20)
    elif kind == "morale":
        payload["faces"] = [rng.randint(1, 6), rng.randint(1, 6)]
    return payload


def _parent_turn(company: ErrantCompany) -> int | None:
    parent = company.turns.filter(undone_at__isnull=True, kind__in=(
        ErrantTurn.Kind.TRAVEL, ErrantTurn.Kind.EXPLORATION)).order_by("-number").first()
    return parent.pk if parent else None


def _log_turn(state: FightState) -> ErrantTurn | None:
    if state.errant_turn is None:
        return None
    return ErrantTurn.objects.filter(pk=state.errant_turn, undone_at__isnull=True).first()


def _note(turn: ErrantTurn | None, step: ErrantFightStep) -> None:
    if turn is None or not step.text:
        return
    turns.note(turn, step.text)
    if step.guide_text != step.text:
        turns.note(turn, step.guide_text, secret=True)


@dataclass(frozen=True)
class Done:
    fight: ErrantFight
    step: ErrantFightStep
    state: FightState | None = None


@transaction.atomic
def step(*, campaign: Campaign, by, fight_pk: int, version: int | None, kind: str,
         payload: dict, request_key: str | None = None,
         rng: random.Random | None = None) -> Done:
    """One step of the fight, or CampaignError (stale, or what the rules refuse)."""
    require_guide(campaign, by, "run a fight")
    company = lock_company(campaign)
    earlier = _earlier(request_key, fight_pk)
    if earlier is not None:
        return Done(earlier.fight, earlier)
    fight = _locked(company, fight_pk, version)
    if fight.ended:
        raise CampaignError("This fight is over.", "ended")
    if kind in ("setup", "errant"):
        raise CampaignError("Unknown step.", "bad_kind")
    state = state_of(fight)
    payload = _roll(state, kind, payload, rng or make_rng())
    if kind == "npc":
        payload["key"] = f"n{fight.steps.count() + 1}"
    if kind == "turn":
        try:
            apply(state, kind, payload)  # refuse before writing the Turn log's row
        except FightError as error:
            raise _refusal(error) from None
        log_turn = turns.declare(
            campaign=campaign, kind=ErrantTurn.Kind.INITIATIVE, by=by,
            parent=_parent_turn(company),
            activity=f"{fight.name}: Initiative Turn {state.turn_number + 1}"[:300])
        payload["errant_turn"] = log_turn.pk
    after, written = _write(fight, state, kind, payload, by, request_key)
    log_turn = _log_turn(after)
    _note(log_turn, written)
    if kind == "end":
        written.payload = {**written.payload, "hp": _write_back_hp(after, log_turn),
                           "exhaustion": _write_back_exhaustion(after, log_turn),
                           "wounds": _write_back_wounds(after, campaign, fight, written)}
        written.save(update_fields=["payload"])
        fight.ended_at = timezone.now()
    fight.version += 1
    fight.save(update_fields=["version", "ended_at"])
    return Done(fight, written, after)


def _write_back_hp(state: FightState, log_turn: ErrantTurn | None) -> dict:
    """Each Errant's HP from the fight to the sheet, through the Turn log. Returns
    {character pk: [before, after]} so an undo can put them back."""
    written = {}
    if log_turn is None:
        return written
    for f in state.fighters.values():
        if f.character_pk is None:
            continue
        errant = ErrantCharacter.objects.select_for_update().filter(pk=f.character_pk).first()
        if errant is None:
            continue
        before = errant.hp_current
        shown = before if before is not None else f.hp_max
        if shown == f.hp:
            continue
        turns.change_hp(log_turn, errant, f.hp, f"{f.name}: HP {shown} to {f.hp} after the "
                        "fight", before=before)
        written[str(f.character_pk)] = [before, f.hp]
    return written


def _write_back_exhaustion(state: FightState, log_turn: ErrantTurn | None) -> dict:
    """The Exhaustion each Errant's wounds gave in the fight (IT §Death & Dying: "1 point
    of Exhaustion"), added to the sheet through the Turn log with the HP. Returns
    {character pk: [before, after]} so an undo can put them back."""
    written = {}
    if log_turn is None:
        return written
    for f in state.fighters.values():
        points = f.wound_exhaustion
        if f.character_pk is None or not points:
            continue
        errant = ErrantCharacter.objects.select_for_update().filter(pk=f.character_pk).first()
        if errant is None:
            continue
        before = errant.exhaustion
        change = turns.change_exhaustion(
            log_turn, errant, points, f"{f.name}: {points} Exhaustion from wounds in the "
            "fight")
        if change is not None:
            written[str(f.character_pk)] = [before, change.after]
    return written


def _write_back_wounds(state: FightState, campaign: Campaign, fight: ErrantFight,
                       end: ErrantFightStep) -> list:
    """The wounds each Errant took that outlast the fight (IT §Death & Dying: "Wounds
    without a stated duration are permanent unless seen to by a physician"), written to
    the character as ErrantWound rows (AMB-E-WOUND-1). Returns their pks, so an undo of
    the end can mark them undone."""
    written = []
    for f in state.fighters.values():
        if f.character_pk is None or not f.lasting:
            continue
        if not ErrantCharacter.objects.filter(pk=f.character_pk).exists():
            continue
        for column, row, text in f.lasting:
            written.append(ErrantWound.objects.create(
                character_id=f.character_pk, campaign=campaign, column=column,
                row=row, text=text[:200], end_step=end, fight_name=fight.name).pk)
    return written


def _undo_wounds(pks: list, by) -> None:
    """Undoing the fight's end marks the wounds it wrote undone (kept, never deleted);
    refused once one of them is healed (undo the healing first)."""
    wounds = list(ErrantWound.objects.select_for_update().filter(pk__in=pks,
                                                                 undone_at__isnull=True))
    healed = ErrantWoundHeal.objects.filter(wound__in=wounds, undone_at__isnull=True).first()
    if healed is not None:
        raise CampaignError(f"{healed.wound.character.name}'s wound \"{healed.wound.text}\" "
                            "was healed since the fight ended: undo the healing first.",
                            "changed_since")
    now = timezone.now()
    for w in wounds:
        w.undone_at, w.undone_by = now, by
        w.save(update_fields=["undone_at", "undone_by"])


@transaction.atomic
def undo(*, campaign: Campaign, by, fight_pk: int, version: int | None) -> ErrantFightStep:
    """Mark the latest step undone (the set-up and the Errants joining stay). Undoing the
    step that started an Initiative Turn undoes its row in the Turn log (it must be the
    log's newest); undoing the end puts the Errants' HP and Exhaustion back and marks the
    lasting wounds it wrote undone."""
    require_guide(campaign, by, "undo a fight's step")
    company = lock_company(campaign)
    fight = _locked(company, fight_pk, version)
    last = live_steps(fight).exclude(kind__in=("setup", "errant")).last()
    if last is None:
        raise CampaignError("Nothing to undo.", "nothing")
    state = state_of(fight)
    log_turn = _log_turn(state)
    if last.kind == "turn":
        row = ErrantTurn.objects.filter(pk=last.payload.get("errant_turn"),
                                        undone_at__isnull=True).first()
        if row is not None:
            newest = turns.latest(company)
            if newest is None or newest.pk != row.pk:
                raise CampaignError("A later Turn is in the Company's log: undo it there "
                                    "first.", "later_turn")
            turns.undo_latest(campaign=campaign, by=by, turn_pk=row.pk)
    elif last.kind == "end":
        _undo_wounds(last.payload.get("wounds") or [], by)
        for pk, (before, after) in (last.payload.get("hp") or {}).items():
            errant = ErrantCharacter.objects.select_for_update().get(pk=int(pk))
            if errant.hp_current != after:
                raise CampaignError(f"{errant.display_name}'s HP changed since the fight "
                                    "ended: set it by hand.", "changed_since")
            if log_turn is not None:
                turns.change_hp(log_turn, errant, before, f"Undone: {errant.display_name}'s "
                                "HP after the fight", before=after)
        for pk, (before, after) in (last.payload.get("exhaustion") or {}).items():
            errant = ErrantCharacter.objects.select_for_update().get(pk=int(pk))
            if errant.exhaustion != after:
                raise CampaignError(f"{errant.display_name}'s Exhaustion changed since the "
                                    "fight ended: set it by hand.", "changed_since")
            if log_turn is not None:
                turns.change_exhaustion(log_turn, errant, before - after,
                                        f"Undone: {errant.display_name}'s Exhaustion from "
                                        "wounds in the fight")
        fight.ended_at = None
    elif log_turn is not None and last.text:
        turns.note(log_turn, f"Undone: {last.text}"[:300])
    last.undone_at, last.undone_by = timezone.now(), by
    last.save(update_fields=["undone_at", "undone_by"])
    fight.version += 1
    fight.save(update_fields=["version", "ended_at"])
    return last
