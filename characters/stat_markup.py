"""The markup of a derived number that explains itself (tap, click or hover), shared by
the game systems' stat tags (Eldritch Gambit's {% stat %}, METTLE Core's
{% mettle_stat %}): the frame around the value and its explanation, built in Python
because the live preview draws a few dozen of them on every keystroke."""

from __future__ import annotations

from html import escape


def stat_frame(name: str, label: str, prefix: str, classes: str,
               source_html: str) -> tuple[str, str, str]:
    """(head, middle, tail): the value goes after head (its aria-label's text, then the
    button's), the explanation after middle. `source_html`: the citation's markup, ""
    for none (the caller escapes it). Names, labels and ids are escaped (the standard
    library's escape is Django's, without its lazy-string check)."""
    label, pid = escape(label), escape(f"{prefix}why-{name}")
    source = f'<br><small class="text-muted">SRD: {source_html}</small>' if source_html else ""
    return (
        f'<div class="{classes}"><span class="stat-label" id="{pid}-label">{label}</span>'
        f'<button type="button" class="stat-value" data-stat="{escape(name)}" '
        f'popovertarget="{pid}" aria-label="{label} ',
        f'<div popover id="{pid}" class="stat-why" role="note"><strong>',
        f"</strong>{source}</div></div>",
    )
