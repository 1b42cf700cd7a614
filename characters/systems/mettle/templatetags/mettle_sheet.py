"""{% mettle_stat %}: one METTLE number that explains itself (tap, click or hover), with
its stable `data-stat` name: the same markup as every sheet of the app (a button that
opens its explanation)."""

from html import escape

from django import template
from django.utils.safestring import SafeString

from rules.reference import citation_links

from ..apps import KEY

register = template.Library()


def cited(source: str) -> str:
    """The explanation's citations ("Engine > Taking Damage; Resources > Armor"), each
    linked to its entry of METTLE Core's rules reference (escaped; plain if none)."""
    return "; ".join(f'<a href="{escape(url)}">{escape(part)}</a>' if url else escape(part)
                     for part, url in citation_links(source, system=KEY))


@register.simple_tag
def mettle_stat(stat, label=None, prefix="", big=False):
    """The stat's value (shown as unmodified(modified) where equipment or circumstance
    changes it) and its explanation from the character's own values."""
    label = escape(str(label or stat.label))
    pid = escape(f"{prefix}why-{stat.name}")
    display = escape(stat.display)
    source = (f'<br><small class="text-muted">SRD: {cited(stat.source)}</small>'
              if stat.source else "")
    classes = "stat stat-big" if big else "stat"
    if isinstance(stat.value, str) and len(stat.display) > 6:  # a word ("Struggling")
        classes += " stat-wide"
    return SafeString(
        f'<div class="{classes}"><span class="stat-label" id="{pid}-label">{label}</span>'
        f'<button type="button" class="stat-value" data-stat="{escape(stat.name)}" '
        f'popovertarget="{pid}" aria-label="{label} {display}: show how it is computed">'
        f'{display}</button><div popover id="{pid}" class="stat-why" role="note">'
        f"<strong>{escape(stat.explanation)}</strong>{source}</div></div>"
    )
