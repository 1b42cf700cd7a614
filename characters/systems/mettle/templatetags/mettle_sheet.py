"""{% mettle_stat %}: one METTLE number that explains itself (tap, click or hover), with
its stable `data-stat` name: the same markup as every sheet of the app (a button that
opens its explanation)."""

from functools import lru_cache
from html import escape

from django import template
from django.utils.safestring import SafeString

from characters.stat_markup import stat_frame
from rules.reference import citation_links

from ..apps import KEY

register = template.Library()


def cited(source: str) -> str:
    """The explanation's citations ("Engine > Taking Damage; Resources > Armor"), each
    linked to its entry of METTLE Core's rules reference (escaped; plain if none)."""
    return "; ".join(f'<a href="{escape(url)}">{escape(part)}</a>' if url else escape(part)
                     for part, url in citation_links(source, system=KEY))


@lru_cache(maxsize=512)
def _stat_frame(name: str, label: str, prefix: str, classes: str, source: str):
    """What {% mettle_stat %} shows around the value and its explanation, all but the
    two parts that change with the character (as Eldritch Gambit's {% stat %}): the same
    few dozen frames every time, so the citations are resolved to their links once."""
    return stat_frame(name, label, prefix, classes, cited(source) if source else "")


@register.simple_tag
def mettle_stat(stat, label=None, prefix="", big=False):
    """The stat's value (shown as unmodified(modified) where equipment or circumstance
    changes it) and its explanation from the character's own values."""
    display = escape(stat.display)
    classes = "stat stat-big" if big else "stat"
    if isinstance(stat.value, str) and len(stat.display) > 6:  # a word ("Struggling")
        classes += " stat-wide"
    head, why, tail = _stat_frame(stat.name, str(label or stat.label), str(prefix), classes,
                                  stat.source or "")
    return SafeString(  # the frame and both values are escaped
        f'{head}{display}: show how it is computed">{display}</button>'
        f"{why}{escape(stat.explanation)}{tail}"
    )
