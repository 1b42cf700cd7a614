"""{% field_error_slots form %}: the live preview's out-of-band error slots, one
`<div id="errors-<name>" hx-swap-oob="innerHTML">` per field holding that field's
messages or nothing (so a fixed error disappears too), the markup of the slots the
builder pages render beside each field (templates/includes/field.html).

A tag rather than a template loop: the preview renders a slot per field on every
keystroke, and Errant's builder has about 150 fields (a loop of BoundFields cost its
preview more than its whole stats panel). Eldritch Gambit's `{% error_slots %}` writes
its slots with the same `slot_markup`.
"""

from __future__ import annotations

from html import escape

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

register = template.Library()


def slot_markup(slots) -> SafeString:
    """(name, messages) pairs as out-of-band slots. Names and messages are escaped
    (the standard library's escape is Django's, without its lazy-string check)."""
    return SafeString("".join(
        f'<div id="errors-{escape(name)}" hx-swap-oob="innerHTML">'
        + "".join(f'<div class="invalid-feedback d-block">{conditional_escape(message)}</div>'
                  for message in messages)
        + "</div>\n"
        for name, messages in slots
    ))


def _single_checkbox(field) -> bool:
    widget = field.widget
    return (getattr(widget, "input_type", None) == "checkbox"
            and not getattr(widget, "allow_multiple_selected", False))


@register.simple_tag
def field_error_slots(form, *, checkboxes: bool = True, non_field: bool = False):
    """A slot per field of `form` (`checkboxes=False`: none for a single tick box, which
    cannot be wrong and has no slot on the page), then, with `non_field`, the form's
    own errors in `errors-form`."""
    errors = form.errors
    slots = [(form.add_prefix(name), errors.get(name, ()))
             for name, field in form.fields.items()
             if checkboxes or not _single_checkbox(field)]
    if non_field:
        slots.append(("form", form.non_field_errors()))
    return slot_markup(slots)
