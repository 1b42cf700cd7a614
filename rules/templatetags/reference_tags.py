"""Template helpers for the rules reference pages."""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from rules import reference

register = template.Library()

LISTS = {"item": "ul", "step": "ol"}


@register.filter
def block_groups(blocks):
    """Runs of bullets become one list, runs of steps one numbered list.

    Returns dicts: {"kind": "ul"|"ol", "blocks": [...]} or {"kind": "block", "block": b}.
    """
    groups: list[dict] = []
    for block in blocks:
        kind = LISTS.get(block.kind)
        if kind and groups and groups[-1]["kind"] == kind:
            groups[-1]["blocks"].append(block)
        elif kind:
            groups.append({"kind": kind, "blocks": [block]})
        else:
            groups.append({"kind": "block", "block": block})
    return groups


@register.filter
def first_sentence(text: str) -> str:
    """The opening sentence of a plain text, for one-line summaries in lists."""
    text = " ".join((text or "").split())
    for end in (". ", "! ", "? "):
        position = text.find(end)
        if 0 < position < 220:
            return text[: position + 1]
    return text if len(text) <= 220 else text[:219].rsplit(" ", 1)[0] + "…"


@register.filter
def cite(citation: str, here: str = ""):
    """An SRD citation ("Characters > Defenses > Status"; several joined by "; ") with
    each part the reference holds linked to its entry, unless that entry is `here`."""
    parts = []
    for part, url in reference.citation_links(str(citation or "")):
        if url and url.split("#")[0] != here:
            parts.append(format_html('<a href="{}">{}</a>', url, part))
        else:
            parts.append(conditional_escape(part))
    return mark_safe("; ".join(parts))  # every part is escaped above
