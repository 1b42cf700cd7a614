"""{% mettle_roll r %}: one METTLE roll of a log (the Play page's Recent Checks, the
session's roll log), as the included template roll_entry.html rendered it, built in
Python: the Play page's Check answers with its twenty newest rolls and the session log
with a hundred, and an included template cost about 0.2 ms a roll (a variable lookup, a
filter and an escape each), several times this. Every value is escaped as the template
escaped it (conditional_escape, which keeps what is already safe); the times are the
current time zone's, as the template's date filters show them."""

from django import template
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import formats, timezone
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

register = template.Library()


def _local(value):
    if settings.USE_TZ and value is not None and timezone.is_aware(value):
        return timezone.localtime(value)
    return value


def _twist_of(roll):
    """The roll's Twist, if it has one (select_related: no query), else None."""
    try:
        return roll.twist
    except ObjectDoesNotExist:
        return None


@register.simple_tag
def mettle_roll(r, show_character=False) -> SafeString:
    e = conditional_escape
    odds = r.odds if isinstance(r.odds, dict) else {}
    when = _local(r.created_at)
    character = (f"<strong>{e(r.character.display_name)}</strong> · " if show_character
                 else "")
    backstory = (f' <span class="small">(Backstory: {e(r.backstory)})</span>' if r.backstory
                 else "")
    split = (f' <span class="small" data-split-part>({e(r.split_label)})</span>' if r.split
             else "")
    by = f" · by {e(r.rolled_by.get_username())}" if r.rolled_by else ""
    raises = f" ({e(r.raises)} raised)" if r.raises else ""
    faces = ", ".join(f'<span class="die">{e(d)}</span>' for d in r.faces or ()) or "no dice"
    result = f"Success, {e(r.grade)}" if r.success else "Failure"
    if r.kind == "twist":
        rerolled = ", ".join(str(e(d)) for d in r.rerolled or ())
        twist = (f'<span class="small">(Edge dice rerolled: {rerolled}; price: '
                 f"<em data-twist-price>{e(r.twist_price)}</em>)</span>")
    elif _twist_of(r):
        twist = '<span class="badge text-bg-secondary">Twisted</span>'
    else:
        twist = ""
    surge = (f'<span class="small">(Surge: {e(r.surge)} Mettle, {e(r.mettle_before)} → '
             f"{e(r.mettle_after)})</span>" if r.surge else "")
    kind, outcome = e(r.kind), e(r.outcome)
    return SafeString(
        f'\n<li class="roll-entry roll-{kind}" data-roll="{e(r.pk)}" data-kind="{kind}" '
        f'data-outcome="{outcome}">\n'
        f'  <div class="d-flex flex-wrap justify-content-between gap-2">\n'
        f'    <div>{character}<span class="roll-kind">{e(r.get_kind_display())}</span>: '
        f"{e(r.label)}{backstory}{split}</div>\n"
        f'    <small class="roll-meta"><time datetime="{e(formats.date_format(when, "c"))}">'
        f'{e(formats.time_format(when, "H:i:s"))}</time>{by}</small>\n'
        f"  </div>\n"
        f'  <div class="roll-line">\n'
        f"    {e(r.dice)}D{raises} vs Difficulty {e(r.difficulty)}:\n"
        f"    {faces}\n"
        f"    → Score <strong>{e(r.score)}</strong>, Edge <strong>{e(r.edge)}</strong>:\n"
        f'    <span class="badge outcome-badge outcome-{outcome}">{result}</span>\n'
        f"    {twist}\n"
        f"    {surge}\n"
        f'    <span class="small roll-meta">(odds shown: {e(odds.get("success", ""))} to '
        f'succeed, {e(odds.get("with_twist", ""))} with a Twist)</span>\n'
        f"  </div>\n"
        f"</li>\n"
    )
