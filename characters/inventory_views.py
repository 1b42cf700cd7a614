"""What every system's inventory page does the same way: a service's refusal put beside
the field it names, the first error of a form as the status line, and the per-line
actions (drop, pick up, move, remove, give ...): read the owner's character (404 for
anyone else's), check the form, run the system's service, answer.

How a system answers (a redirect, the whole page region, the changed regions out of
band) and which character it reads stay the system's: it hands them over as a
LineActions (characters/systems/<system>/inventory_views.py). Generic: imports no game
system (pyproject.toml, import-linter).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from .inventory import InventoryError
from .models import Character

# act(request, character, item_pk, cleaned data) -> the message of what was done.
Act = Callable[[HttpRequest, Character, int, dict], str]


def refuse(form, error: InventoryError) -> None:
    """Put a service's refusal on the form field it names (or on the form)."""
    name = error.field if error.field in form.fields else None
    form.add_error(name, ValidationError(error.message, code=error.code))


def first_error(form) -> str:
    for found in form.errors.values():
        return found[0]
    return "please check the form."


@dataclass(frozen=True)
class LineActions:
    """One system's answers to an action on one line of the inventory.

    - character(request, pk): the character the user may edit, or 404;
    - done(request, character, item_pk, message, **options): the action was made;
    - failed(request, character, item_pk, error, form): the service refused; answers,
      or None to show the refusal beside the form's field (it must answer when form is
      None: a form-less action has no field);
    - invalid(request, character, item_pk, form, **options): the form (with the
      refusal, or its own errors) again, with what was typed;
    - services: the system's inventory services (item_pick_up, item_remove, ...).
    `options` are what the view passes on to its answer (regions, renamed fields).
    """

    character: Callable[[HttpRequest, int], Character]
    done: Callable[..., HttpResponse]
    failed: Callable[..., HttpResponse | None]
    invalid: Callable[..., HttpResponse]
    services: ModuleType

    def __call__(self, request: HttpRequest, pk: int, item_pk: int, form_class,
                 act: Callable[[Character, dict], str], **options) -> HttpResponse:
        """Run a per-line service with the form's values (act(character, data) -> the
        message); a refusal shows beside that line, with what was typed."""
        character = self.character(request, pk)
        form = form_class(request.POST) if form_class is not None else None
        if form is None or form.is_valid():
            try:
                message = act(character, form.cleaned_data if form is not None else {})
            except InventoryError as error:
                answer = self.failed(request, character, item_pk, error, form)
                if answer is not None:
                    return answer
                refuse(form, error)
            else:
                return self.done(request, character, item_pk, message, **options)
        return self.invalid(request, character, item_pk, form, **options)

    def view(self, form_class=None, **options) -> Callable[[Act], Callable]:
        """Decorate act(request, character, item_pk, data) into the line's POST view
        (owner only: login, then 404 for another user's character)."""
        def decorate(act: Act):
            @login_required
            @require_POST
            def line_view(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
                return self(request, pk, item_pk, form_class,
                            lambda character, data: act(request, character, item_pk, data),
                            **options)
            line_view.__name__ = line_view.__qualname__ = act.__name__
            line_view.__doc__ = act.__doc__
            line_view.__module__ = act.__module__
            return line_view
        return decorate

    def pick_up(self) -> Callable:
        """Pick a dropped line (and what is in it) up again."""
        def item_pick_up(request, character, item_pk, data):
            line = self.services.item_pick_up(character=character, item=item_pk)
            return f"{line.name} picked up."
        return self.view()(item_pick_up)

    def remove(self) -> Callable:
        """Strike a line off the inventory."""
        def item_remove(request, character, item_pk, data):
            return f"Removed {self.services.item_remove(character=character, item=item_pk)}."
        return self.view()(item_remove)
