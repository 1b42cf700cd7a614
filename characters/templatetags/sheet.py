"""{% stat %}: one derived number that explains itself (tap, click or hover).
{% attribute_stats %}: the six Attributes, each a {% stat %} labelled by its abbreviation.
{% status_badges %}: the sheet's statuses, each a badge whose title is its effect.
{% error_slots %}: the live preview's out-of-band error slots.

Tags rather than included templates or template loops: the live preview renders
about twenty numbers and one slot per field on every keystroke, and building them
in Python is several times faster.
"""

from html import escape

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

register = template.Library()

# The standard library's escape is what django.utils.html.escape runs, without the
# check for lazy strings that costs more than the escaping itself (about 150 calls
# per preview). Every value below is a plain str or number. And SafeString rather
# than mark_safe, whose lazy-string wrapper costs more than the string it marks.


@register.simple_tag
def stat(stat, label=None, big=False, wide=False, prefix=""):
    label = escape(str(label or stat.label))
    pid = escape(f"{prefix}why-{stat.name}")
    display = escape(stat.display)
    classes = "stat" + (" stat-big" if big else "") + (" stat-wide" if wide else "")
    source = ""
    if stat.source:
        source = f'<br><small class="text-muted">SRD: {escape(stat.source)}</small>'

    return SafeString(  # every value above is escaped
        f'<div class="{classes}"><span class="stat-label" id="{pid}-label">{label}</span>'
        f'<button type="button" class="stat-value" data-stat="{escape(stat.name)}" '
        f'popovertarget="{pid}" aria-label="{label} {display}: show how it is computed">'
        f'{display}</button><div popover id="{pid}" class="stat-why" role="note">'
        f"<strong>{escape(stat.explanation)}</strong>{source}</div></div>"
    )


@register.simple_tag
def attribute_stats(sheet, prefix=""):
    """The six Attributes of the sheet, in order, as {% stat %} labelled STR, WIS..."""
    return SafeString("".join(stat(s, label=s.abbr, prefix=prefix)
                              for s in sheet.attribute_stats))


@register.simple_tag
def status_badges(sheet):
    """A badge per status of the sheet, chosen or derived; its effect in the title."""
    return SafeString("".join(  # names and effects are escaped
        f'<span class="badge text-bg-warning me-1" title="{escape(rule.effect)}">'
        f"{escape(rule.name)}</span>"
        for rule in sheet.status_rules
    ))


@register.simple_tag
def error_slots(form):
    """One `<div id="errors-<name>" hx-swap-oob="innerHTML">` per field of the form,
    after one for the Attribute points budget (`errors-attributes`), each holding
    that field's messages or nothing, so that a fixed error disappears too. The
    markup of the slots the builder page renders (templates/includes/field.html)."""
    slots = [("attributes", form.attribute_errors)]
    errors = form.errors
    slots.extend((form.add_prefix(name), errors.get(name, ())) for name in form.fields)
    return SafeString("".join(  # names and messages are escaped
        f'<div id="errors-{escape(name)}" hx-swap-oob="innerHTML">'
        + "".join(f'<div class="invalid-feedback d-block">{conditional_escape(message)}</div>'
                  for message in messages)
        + "</div>\n"
        for name, messages in slots
    ))
