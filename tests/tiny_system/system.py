"""The tiny system's parts, handed to the registry (rules.systems.GameSystem): the builder
form, the initial data, the sheet from the engine, the list's summary, create and
update, the printed sheet, the templates and the exchange body. Nothing here is in
generic code, and generic code does not name it: the pages find it by the key stored on
the character."""

from __future__ import annotations

import functools

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction

from rules import systems

from .engine import MAX_SCORE, MIN_SCORE, TinySheet

KEY = "tiny-test"
NAME = "Tiny Test System"
LICENCE = ("Tiny Test System, written for the Eldritch Table tests; CC0 1.0 "
           "(a test fixture, not shipped)")
FORMAT = "tiny-test-character"


def sheet(character, items=None) -> TinySheet:
    return TinySheet(grit=character.grit, wits=character.wits)


def summary(character) -> str:
    return f"Grit {character.grit}, Wits {character.wits}"


def score_field(label: str) -> forms.IntegerField:
    what = f"{label} is a whole number from {MIN_SCORE} to {MAX_SCORE}."
    return forms.IntegerField(label=label, min_value=MIN_SCORE, max_value=MAX_SCORE,
                              error_messages={"required": f"Enter the {label}.",
                                              "invalid": what, "min_value": what,
                                              "max_value": what})


class TinyForm(forms.Form):
    """The builder form (the protocol of rules.systems.GameSystem.form_class)."""

    name = forms.CharField(label="Name", max_length=120, required=False)
    grit = score_field("Grit")
    wits = score_field("Wits")

    def __init__(self, *args, user=None, character=None, items=None, joining=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.character, self.joining = character, joining

    @property
    def cannot_compute(self) -> list[dict]:
        if not self.is_bound:
            return []
        return [{"field": self[name], "errors": self.errors[name]}
                for name in ("grit", "wits") if name in self.errors]

    def preview_sheet(self) -> TinySheet | None:
        if not self.is_bound:
            return TinySheet(grit=self.initial["grit"], wits=self.initial["wits"])
        if self.cannot_compute:
            return None
        return TinySheet(grit=self.cleaned_data["grit"], wits=self.cleaned_data["wits"])


def initial_from_character(character, items) -> dict:
    return {"name": character.name, "grit": character.grit, "wits": character.wits}


def _model():
    from .models import TinyCharacter

    return TinyCharacter


@transaction.atomic
def character_create(*, owner, data: dict):
    return _model().objects.create(owner=owner, system=KEY, name=data.get("name") or "",
                                   grit=data["grit"], wits=data["wits"])


@transaction.atomic
def character_update(*, character, data: dict, by):
    character = _model().objects.select_for_update().get(pk=character.pk)
    character.name = data.get("name") or ""
    character.grit, character.wits = data["grit"], data["wits"]
    character.save()
    return character


def printed_sheets(characters) -> tuple[list[dict], dict]:
    return [{"character": c, "sheet": sheet(c)} for c in characters], {}


class Exchange:
    """The body of a tiny character's file (characters/exchange.py is the envelope)."""

    format = FORMAT
    version = 1

    def export_body(self, character) -> dict:
        return {"name": character.name, "grit": character.grit, "wits": character.wits,
                "derived": {"toughness": sheet(character).toughness}}

    def import_body(self, *, owner, data: dict, version: int):
        problems = []
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 120:
            problems.append(("name", "a text of at most 120 characters"))
        for key in ("grit", "wits"):
            value = data.get(key)
            if (not isinstance(value, int) or isinstance(value, bool)
                    or not MIN_SCORE <= value <= MAX_SCORE):
                problems.append((key, f"a whole number from {MIN_SCORE} to {MAX_SCORE}"))
        if problems:
            raise _exchange_error(problems)
        return character_create(owner=owner, data=data)


def _exchange_error(problems: list[tuple[str, str]]) -> ValidationError:
    """The envelope's error (characters.exchange.ExchangeError: a ValidationError whose
    messages each start with their key)."""
    from characters import exchange

    error_class = getattr(exchange, "ExchangeError", ValidationError)
    return error_class([ValidationError(f"{key}: expected {what}.", code="invalid")
                        for key, what in problems])


@functools.cache
def game_system() -> systems.GameSystem:
    return systems.GameSystem(
        key=KEY, name=NAME, licence=LICENCE,
        character_model=_model(),
        form_class=TinyForm,
        new_character_initial={"grit": 1, "wits": 1},
        initial_from_character=initial_from_character,
        sheet=sheet,
        summary=summary,
        create=character_create,
        update=character_update,
        printed_sheets=printed_sheets,
        templates=systems.SheetTemplates(
            builder="tiny_system/builder.html",
            detail="tiny_system/detail.html",
            print="tiny_system/print.html",
            compare="tiny_system/compare.html",
        ),
        exchange=Exchange(),
    )
