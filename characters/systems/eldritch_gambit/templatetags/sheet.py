"""{% stat %}: one derived number that explains itself (tap, click or hover).
{% stat_grids %}: a panel of stats laid out in PANELS (the builder's derived stats).
{% attribute_stats %}: the six Attributes, each a {% stat %} labelled by its abbreviation.
{% status_badges %}: the sheet's statuses, each a badge whose title is its effect.
{% error_slots %}: the live preview's out-of-band error slots.

Tags rather than included templates or template loops: the live preview renders
about twenty numbers and one slot per field on every keystroke, and building them
in Python is several times faster.
"""

from functools import lru_cache
from html import escape
from typing import NamedTuple

from django import template
from django.utils.safestring import SafeString

from characters.stat_markup import stat_frame
from characters.templatetags.builder_errors import slot_markup
from rules.engine.eldritch_gambit import ATTRIBUTES
from rules.reference import citation_links

register = template.Library()

# The standard library's escape is what django.utils.html.escape runs, without the
# check for lazy strings that costs more than the escaping itself (about 150 calls
# per preview). Every value below is a plain str or number. And SafeString rather
# than mark_safe, whose lazy-string wrapper costs more than the string it marks.


@lru_cache(maxsize=512)
def _stat_frame(name: str, label: str, prefix: str, classes: str, source: str):
    """What {% stat %} shows around the value and its explanation, all but the two
    parts that change as the player types: the same few dozen frames every time."""
    # Each citation links to its entry in the rules reference.
    links = "; ".join(f'<a href="{escape(url)}">{escape(part)}</a>' if url
                      else escape(part) for part, url in citation_links(source or ""))
    return stat_frame(name, label, prefix, classes, links)


@register.simple_tag
def stat(stat, label=None, big=False, wide=False, prefix=""):
    classes = "stat" + (" stat-big" if big else "") + (" stat-wide" if wide else "")
    head, why, tail = _stat_frame(stat.name, str(label or stat.label), str(prefix), classes,
                                  stat.source)
    display = escape(stat.display)
    return SafeString(  # the frame and both values are escaped
        f'{head}{display}: show how it is computed">{display}</button>'
        f"{why}{escape(stat.explanation)}{tail}"
    )


class Cell(NamedTuple):
    """A number of a stat grid: the sheet's stat `name` as {% stat %}, labelled
    `label` (or the stat's own label)."""

    name: str
    label: str = ""
    big: bool = False
    wide: bool = False


class Grid(NamedTuple):
    heading: str  # the <h3> above the grid, if any
    cells: tuple[Cell, ...]
    six: bool = False  # six columns: the Attributes


# The builder's derived-stats panel, top to bottom (one tag rather than a {% stat %}
# per number: the live preview renders it on every keystroke).
BUILDER_PANEL = (
    Grid("", (Cell("level"), Cell("tier"), Cell("attribute_points", "Points"),
              Cell("attribute_points_spent", "Spent"), Cell("attribute_points_left", "Left"),
              Cell("attribute_max", "Max per attribute"))),
    Grid("Attributes", tuple(Cell(key, abbr) for key, abbr, _ in ATTRIBUTES), six=True),
    Grid("Defenses", (Cell("af", "AF", big=True), Cell("hp_base", "Base HP", big=True),
                      Cell("hp_armored", "Armored HP", big=True), Cell("hp_current", "Current HP"),
                      Cell("rally", "Rally"), Cell("wp", "WP", big=True),
                      Cell("wp_current", "Current WP"), Cell("wp_floor", "WP floor"))),
    Grid("Load", (Cell("load"), Cell("load_capacity", "Capacity"),
                  Cell("encumbrance", wide=True))),
    Grid("Checks", (Cell("check_dice", "Check dice", wide=True),)),
)
PANELS = {"builder": BUILDER_PANEL}


@register.simple_tag
def stat_grids(sheet, panel: str):
    """The grids of one of PANELS for this sheet, each under its heading."""
    stats = sheet.stats
    html = []
    for grid in PANELS[panel]:
        if grid.heading:
            html.append(f'<h3 class="h6 mt-3">{escape(grid.heading)}</h3>')
        html.append('<div class="stat-grid stat-grid-6">' if grid.six
                    else '<div class="stat-grid">')
        html.extend(stat(stats[cell.name], cell.label, cell.big, cell.wide)
                    for cell in grid.cells)
        html.append("</div>")
    return SafeString("".join(html))


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
    return slot_markup(slots)
