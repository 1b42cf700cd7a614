"""{% errant_stat %}: one Errant number that explains itself (tap, click or hover), with its
stable `data-stat` name: the same markup as every sheet of the app (a button that opens its
explanation, with the SRD section it comes from)."""

from html import escape

from django import template
from django.utils.safestring import SafeString

from characters.systems.errant.forms import LOCATION_CHOICES, CheckOddsForm
from characters.systems.errant.printing import slot_grid
from rules.engine.errant.sheet import fraction_label

register = template.Library()


@register.simple_tag
def errant_stat(stat, label=None, prefix="", big=False):
    if stat is None:
        return ""
    label = escape(str(label or stat.label))
    pid = escape(f"{prefix}why-{stat.name}")
    display = escape(stat.display)
    source = (f'<br><small class="text-muted">Errant SRD: {escape(stat.source)}</small>'
              if stat.source else "")
    classes = "stat stat-big" if big else "stat"
    if len(stat.display) > 6:
        classes += " stat-wide"
    return SafeString(
        f'<div class="{classes}"><span class="stat-label" id="{pid}-label">{label}</span>'
        f'<button type="button" class="stat-value" data-stat="{escape(stat.name)}" '
        f'popovertarget="{pid}" aria-label="{label} {display}: show how it is computed">'
        f'{display}</button><div popover id="{pid}" class="stat-why" role="note">'
        f"<strong>{escape(stat.explanation)}</strong>{source}</div></div>"
    )


@register.filter
def stat_of(stats, name):
    """stats|stat_of:"jettons": the Stat of that name, or None."""
    return stats.get(name)


@register.filter
def slots(value):
    """A size in slots as the sheet writes it: 1½, ¼."""
    return fraction_label(value)


@register.simple_tag
def errant_locations():
    """The places an item may be (PR §Hand, Handy & Worn, §Containers)."""
    return LOCATION_CHOICES


@register.simple_tag
def errant_slot_grid(sheet):
    """The Item Slots as rows of four quarters ("x" Exhaustion, "f" filled, "" empty): the
    same grid as the printed sheet's."""
    return slot_grid(sheet.value("item_slots") or 0, sheet.value("slots_filled") or 0,
                     sheet.value("exhaustion") or 0)


@register.simple_tag
def errant_check_form(sheet):
    """The sheet's Check form, unbound (a phys Check against DV 10 to start)."""
    return CheckOddsForm(initial={"attribute": "phys", "dv": 10}, sheet=sheet)
