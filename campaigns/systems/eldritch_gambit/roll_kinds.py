"""The Rolls of the character's page, as a table: each kind's `what` (the value its
form posts), its name, its form, how it builds the Roll from the sheet, and what it
logs. The roll view (roll_views.py) looks the kind up and 404s an unknown
one; the dice are rolled and logged by roll_services.py, the numbers come
from the rules engine (rules/engine/eldritch_gambit/rolls.py).

A kind without a form (damage, a Critical, a clash, Rally) reads the posted data as is:
the weapon's value (see `damage_lines`), a clash the Check it follows, a Rally the ally
whose CHA it uses (if any). A kind with a
form is bound with its prefix ("fall-zones"), so that every small form of the page can
carry what is typed in the others (hx-include ".keep-typed").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django import forms
from django.http import Http404

from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from config.parsing import parse_id
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.rolls import RollSpec
from rules.engine.eldritch_gambit.sheet import CharacterSheet
from rules.engine.eldritch_gambit.templates import has_trait

from . import roll_services
from .roll_forms import ATTACK_MELEE, ATTACK_RANGED, BuildupForm, FallForm, FireForm, RollOffForm
from .roll_services import RollRefused
from .rolls import Roll

# -- the weapons a damage Roll can name -----------------------------------------------------


def damage_lines(sheet: CharacterSheet) -> list[tuple[str, object]]:
    """Each line a damage Roll can name, with the value `weapon_line` reads back: carried
    weapons by index ("0"), then the Attack Traits' lines after an "n" ("n0")."""
    return ([(str(index), line) for index, line in enumerate(sheet.weapons)]
            + [(f"n{index}", line) for index, line in enumerate(sheet.natural_attacks)])


def weapon_line(sheet: CharacterSheet, value: str, *, critical: bool = False):
    """A carried weapon by its index in sheet.weapons ("0"), or an Attack Trait's line by
    its index in sheet.natural_attacks after an "n" ("n0"). An area Attack Trait has no
    Attack Check, so no Critical (docs/RULES.md). Http404 for any other value."""
    lines = sheet.weapons
    if value[:1] == "n":
        lines, value = sheet.natural_attacks, value[1:]
    index = parse_id(value)
    if index is None or index >= len(lines):
        raise Http404("No such weapon.")
    line = lines[index]
    if critical and not line.has_attack_check:
        raise Http404("No Critical without an Attack Check.")
    return line


# -- how each kind builds its Roll ------------------------------------------------------------


def _damage(sheet: CharacterSheet, data: Mapping) -> RollSpec:
    line = weapon_line(sheet, data.get("weapon", ""))
    return rolls.weapon_damage(line.title, line.damage, line.critical_bonus)


def _critical(sheet: CharacterSheet, data: Mapping) -> RollSpec:
    line = weapon_line(sheet, data.get("weapon", ""), critical=True)
    return rolls.weapon_damage(line.title, line.damage, line.critical_bonus, critical=True)


def _clash(*, character, by, sheet: CharacterSheet, data: Mapping,
           request_key: str | None) -> Roll:
    """The clash's damage after a failed melee Attack Check (`check`: its pk), with the
    weapon posted and the Block bonus of the shield carried ready (rolls.clash_damage).
    Derived from the Check: its outcome that stands (after a Gambit, the Gambit's) must
    be a Failure, and its Action the melee Attack; a ranged Attack's Failure is a miss
    ("foe evades your shot", Scenes > Actions > Attack, Ranged). RollRefused otherwise;
    Http404 for a Check that is not the character's."""
    roll_services.require_may_roll(character, by)
    check_pk = parse_id(data.get("check"))
    check = None if check_pk is None else (
        Roll.objects.filter(pk=check_pk, character=character, kind=Roll.Kind.CHECK)
        .select_related("gambit").first())
    if check is None:
        raise Http404("No such Check.")
    refusal = clash_refusal(check)
    if refusal:
        raise RollRefused(refusal, "no_clash")
    line = weapon_line(sheet, data.get("weapon", ""))
    shield = sheet.block
    spec = rolls.clash_damage(line.title, line.damage,
                              block=shield.shield.block if shield else 0,
                              block_name=shield.name if shield else "")
    return roll_services.make_roll(character=character, by=by, spec=spec,
                                   kind=Roll.Kind.DAMAGE, request_key=request_key)


def final_outcome(check: Roll) -> str:
    """The outcome that stands: the Gambit's, if one was called (Basics > Gambits)."""
    gambit = getattr(check, "gambit", None)
    return gambit.outcome if gambit is not None else check.outcome


def clash_refusal(check: Roll) -> str:
    """Why the Check has no clash ("" when it has one): only a melee Attack's Failure
    clashes (Scenes > Actions > Attack, Melee: "Failure: clash, both sides Roll damage";
    Attack, Ranged: "Failure: foe evades your shot", and a thrown weapon "avoids clashes
    and counters")."""
    outcome = final_outcome(check)
    if outcome != Roll.Outcome.FAILURE:
        return (f"No clash: the Check ended in a {Roll.Outcome(outcome).label}; only a "
                "failed melee Attack clashes.")
    if check.action != ATTACK_MELEE:
        if check.action == ATTACK_RANGED:
            return "No clash: a failed ranged Attack is a miss, the foe evades the shot."
        return "No clash: only a failed melee Attack clashes."
    return ""


def _rally(*, character, by, sheet: CharacterSheet, data: Mapping,
           request_key: str | None) -> Roll:
    """The sheet's Rally (armor die + END), or with `ally` posted (a character's pk) the
    same die + that ally's CHA instead of END (Scenes > Actions > Rally: "instead of
    their own END, the rallier may use the CHA of the ally that passed Initiative to
    them"; the player affirms that this ally did). The ally must be another character
    of the rallier's campaign, else RollRefused next to the Rally button."""
    roll_services.require_may_roll(character, by)
    # Characters > Defenses > Status, Burning: "They also cannot Rally"; Scenes > Actions
    # > Rally: "One cannot Rally while taking ongoing damage, such as from the Burning
    # Status."
    if sheet.has_status("burning"):
        raise RollRefused(BURNING_NO_RALLY, "burning_no_rally", field="rally")
    dice = str(sheet.value("rally"))
    posted = str(data.get("ally") or "").strip()
    if posted:
        ally = _ally(character, posted)
        spec = rolls.rally_with_cha(dice, sheet.build.attributes.end,
                                    sheet_for(ally, ()).value("cha"), ally.display_name)
    else:
        spec = rolls.rally(dice)
    return roll_services.make_roll(character=character, by=by, spec=spec,
                                   kind=Roll.Kind.RALLY, request_key=request_key)


def rally_allies(character) -> list[tuple[object, int]]:
    """The other characters of the character's campaign, each with its sheet's CHA: the
    allies whose CHA a Rally may use (none outside a campaign)."""
    if character.campaign_id is None:
        return []
    allies = (EldritchGambitCharacter.objects.filter(campaign_id=character.campaign_id)
              .exclude(pk=character.pk).with_progress().order_by("name", "pk"))
    # CHA is an Attribute: no gear changes it, so the sheets are computed without it.
    return [(ally, sheet_for(ally, ()).value("cha")) for ally in allies]


def _ally(character, posted: str):
    pk = parse_id(posted)
    ally = None
    if pk is not None and pk != character.pk and character.campaign_id is not None:
        ally = EldritchGambitCharacter.objects.filter(
            pk=pk, campaign_id=character.campaign_id).first()
    if ally is None:
        raise RollRefused(NO_SUCH_ALLY, "no_such_ally", field="rally")
    return ally


NO_SUCH_ALLY = ("Choose an ally of this campaign from the list (the one who passed you "
                "Initiative), or your own END.")
BURNING_NO_RALLY = "Burning: no Rally while taking ongoing damage. Put the fire out first."


def _fall(sheet: CharacterSheet, data: Mapping) -> RollSpec:
    return rolls.fall(data["zones"], sheet.size, plummet=data["plummet"],
                      jump=has_trait(sheet.build.traits, "Jump"))


def _fire(sheet: CharacterSheet, data: Mapping) -> RollSpec:
    return rolls.fire(data["fire"])


def _buildup(sheet: CharacterSheet, data: Mapping) -> RollSpec:
    return rolls.buildup(data["buildup"])


def _roll_off(*, character, by, sheet: CharacterSheet, data: Mapping,
              request_key: str | None) -> Roll:
    """Two Rolls typed in the form (Basics > Rolls > Roll-offs), not the sheet's: rolled
    and logged by roll_services.roll_off. RollError when a side cannot be rolled."""
    return roll_services.roll_off(
        character=character, by=by, attacker=data["attacker"], defender=data["defender"],
        label=data["label"], side=data["side"], request_key=request_key)


# -- the table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollKind:
    """One kind of Roll the page offers.

    `spec` builds the Roll from the sheet and the data (the form's cleaned data, or
    the post for a kind without a form), and `logs` is the kind it is logged as; or
    `roll` rolls and logs it itself (a Roll-off), refusing with a RollError whose
    message goes on the form's `refused_field`.
    """

    what: str
    logs: str
    spec: Callable[[CharacterSheet, Mapping], RollSpec] | None = None
    form_class: type[forms.Form] | None = None
    roll: Callable[..., Roll] | None = None
    refused_field: str | None = None

    @property
    def prefix(self) -> str:
        return self.what

    @property
    def form_name(self) -> str:
        """The page's context name for this kind's form ("fall_form")."""
        return f"{self.what}_form"

    def bind(self, data) -> forms.Form | None:
        return self.form_class(data, prefix=self.prefix) if self.form_class else None

    def make(self, *, character, by, sheet: CharacterSheet, data: Mapping,
             request_key: str | None) -> Roll:
        """Roll it for the character and log it (once per request_key)."""
        if self.roll is not None:
            return self.roll(character=character, by=by, sheet=sheet, data=data,
                             request_key=request_key)
        return roll_services.make_roll(character=character, by=by,
                                       spec=self.spec(sheet, data), kind=self.logs,
                                       request_key=request_key)


ROLL_KINDS: dict[str, RollKind] = {kind.what: kind for kind in (
    RollKind("damage", Roll.Kind.DAMAGE, spec=_damage),
    RollKind("critical", Roll.Kind.DAMAGE, spec=_critical),
    RollKind("clash", Roll.Kind.DAMAGE, roll=_clash),
    RollKind("rally", Roll.Kind.RALLY, roll=_rally),
    RollKind("fall", Roll.Kind.FALL, spec=_fall, form_class=FallForm),
    RollKind("fire", Roll.Kind.FIRE, spec=_fire, form_class=FireForm),
    RollKind("buildup", Roll.Kind.BUILDUP, spec=_buildup, form_class=BuildupForm),
    RollKind("rolloff", Roll.Kind.ROLLOFF, form_class=RollOffForm,
             roll=_roll_off, refused_field="attacker"),
)}

# The kinds with a form of their own, in the page's order.
FORM_KINDS: tuple[RollKind, ...] = tuple(k for k in ROLL_KINDS.values() if k.form_class)


def roll_kind(what: str) -> RollKind:
    """The kind a form's `what` names; Http404 for any other."""
    kind = ROLL_KINDS.get(what)
    if kind is None:
        raise Http404("No such Roll.")
    return kind
