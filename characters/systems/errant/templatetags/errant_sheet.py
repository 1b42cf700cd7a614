"""{% errant_stat %}: one Errant number that explains itself (tap, click or hover), with its
stable `data-stat` name: the same markup as every sheet of the app (a button that opens its
explanation, with the SRD section it comes from). {% errant_item_rows %}: the page's rows of
items by place, each with its move and use forms."""

from html import escape

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from characters.systems.errant.forms import LOCATION_CHOICES, CheckOddsForm
from characters.systems.errant.printing import slot_grid
from rules.engine.errant import wounds
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
def errant_slot_grid(sheet):
    """The Item Slots as rows of four quarters ("x" Exhaustion, "f" filled, "" empty): the
    same grid as the printed sheet's."""
    return slot_grid(sheet.value("item_slots") or 0, sheet.value("slots_filled") or 0,
                     sheet.value("exhaustion") or 0)


@register.simple_tag
def errant_check_form(sheet):
    """The sheet's Check form, unbound (a phys Check against DV 10 to start)."""
    return CheckOddsForm(initial={"attribute": "phys", "dv": 10}, sheet=sheet)


def _csrf_input(context) -> str:
    """What {% csrf_token %} writes: the hidden input, or nothing without a token."""
    token = context.get("csrf_token")
    if token and token != "NOTPROVIDED":
        return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
    return ""


@register.simple_tag(takes_context=True)
def errant_item_rows(context, lines, can_edit, move_url, use_url):
    """The character page's table rows of `lines` (the sheet's item_lines): a row per
    line, its place a select that moves it in one action and, for an item that depletes,
    Use or Restore (forms only for the owner, `can_edit`). Written in Python, not a
    template loop: a row is two CSRF forms and a select of every place, and a kit is a
    dozen lines or more. The markup is the template's that it replaced, byte for byte."""
    csrf = _csrf_input(context) if can_edit else ""
    move_url, use_url = escape(move_url), escape(use_url)
    rows = []
    for index, line in enumerate(lines):
        item = line.item
        name = escape(str(item.name))
        location = str(item.location)
        count = f"{item.quantity} x " if item.quantity != 1 else ""
        if can_edit:
            options = "".join(
                f'<option value="{escape(value)}"{" selected" if value == item.location else ""}>'
                f"{escape(label)}</option>" for value, label in LOCATION_CHOICES)
            where = (
                f'<form method="post" action="{move_url}" class="d-flex gap-1" '
                f'hx-post="{move_url}" hx-target="#errant-sheet" hx-swap="outerHTML">{csrf}\n'
                f'              <input type="hidden" name="index" value="{index}">'
                f'<input type="hidden" name="name" value="{name}">\n'
                f'              <select name="location" class="form-select form-select-sm" '
                f'aria-label="Place of {name}">{options}</select>\n'
                f'              <button type="submit" class="btn btn-ink btn-sm" '
                f'aria-label="Move {name}">Move</button></form>\n            ')
        else:
            where = escape(location)
        wear = ""
        if item.depletion_max is not None:
            wear = (f"<span data-depletion>{escape(str(item.depletion))}/"
                    f"{escape(str(item.depletion_max))}</span>")
            if line.supply_to_restore is not None:
                wear += (f' <small class="text-muted">({line.supply_to_restore} Supply to '
                         f"restore)</small>")
            wear += "\n            "
            if can_edit:
                seen = 0 if item.depletion is None else item.depletion
                if item.depletion:
                    button = (f'<button type="submit" name="action" value="use" '
                              f'class="btn btn-ink btn-sm py-0" aria-label="Use {name} '
                              f'(Depletion -1)">Use</button>')
                else:
                    button = (f'<button type="submit" name="action" value="restore" '
                              f'class="btn btn-ink btn-sm py-0" aria-label="Restore {name} '
                              f"with {escape(str(line.supply_to_restore))} Supply (removed if "
                              f'there is not enough)">Restore</button>')
                wear += (
                    f'<form method="post" action="{use_url}" class="d-inline" '
                    f'hx-post="{use_url}" hx-target="#errant-sheet" hx-swap="outerHTML">'
                    f'{csrf}<input type="hidden" name="index" value="{index}">'
                    f'<input type="hidden" name="name" value="{name}">'
                    f'<input type="hidden" name="seen" value="{escape(str(seen))}">\n'
                    f"              {button}</form>")
        if line.quality_label:
            wear += f" {escape(line.quality_label)}"
        if item.blocks:
            wear += f" · Blocks {escape(str(item.blocks))}"
        if line.true_strikes:
            wear += (f" · +{line.true_strikes}: <span data-true-strikes>{line.true_strikes}"
                     f"</span> True Strikes")
        if line.deflects:
            wear += f" · +{line.deflects}: <span data-deflects>{line.deflects}</span> Deflects"
        rows.append(
            f'<tr data-item="{name}" data-location="{escape(location)}">\n'
            f'          <th scope="row">{count}{name}</th>\n'
            f"          <td data-item-slots>{escape(fraction_label(line.total))}</td>\n"
            f"          <td>{where}</td>\n"
            f"          <td>{wear}</td>\n"
            f"        </tr>")
    return SafeString("".join(rows))


@register.simple_tag
def errant_wounds(sheet):
    """The lasting wounds the sheet carries (not healed; IT §Death & Dying) and what they do
    together (wounds.lasting_effects): the engine's, from the stored rows."""
    carried = [wounds.wound_at(column, row) for column, row in sheet.build.wounds]
    return {"wounds": carried,
            "effects": wounds.lasting_effects(carried, sheet.value("phys") or 0)}
