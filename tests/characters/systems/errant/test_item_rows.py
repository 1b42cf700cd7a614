# ruff: noqa: E501  (the reference loop is the template text as it was, lines and all)
"""{% errant_item_rows %} writes the rows the character page's template loop wrote, byte
for byte: the loop is kept here as the reference, and both render the lines that exercise
every branch (depletion with and without a restore cost, Use and Restore, quality,
blocks, True Strikes, Deflects, quantities, names to escape), for the owner and not."""

from fractions import Fraction

import pytest
from django.template import Context, Template

from rules.engine.errant.sheet import Item, item_line

OLD_LOOP = Template(
    """{% load errant_sheet %}{% for line in lines %}{% with item=line.item index=forloop.counter0 %}<tr data-item="{{ item.name }}" data-location="{{ item.location }}">
          <th scope="row">{% if item.quantity != 1 %}{{ item.quantity }} x {% endif %}{{ item.name }}</th>
          <td data-item-slots>{{ line.total|slots }}</td>
          <td>{% if can_edit %}<form method="post" action="{{ move_url }}" class="d-flex gap-1" hx-post="{{ move_url }}" hx-target="#errant-sheet" hx-swap="outerHTML">{% csrf_token %}
              <input type="hidden" name="index" value="{{ index }}"><input type="hidden" name="name" value="{{ item.name }}">
              <select name="location" class="form-select form-select-sm" aria-label="Place of {{ item.name }}">{% for value, label in locations %}<option value="{{ value }}"{% if value == item.location %} selected{% endif %}>{{ label }}</option>{% endfor %}</select>
              <button type="submit" class="btn btn-ink btn-sm" aria-label="Move {{ item.name }}">Move</button></form>
            {% else %}{{ item.location }}{% endif %}</td>
          <td>{% if item.depletion_max is not None %}<span data-depletion>{{ item.depletion }}/{{ item.depletion_max }}</span>{% if line.supply_to_restore is not None %} <small class="text-muted">({{ line.supply_to_restore }} Supply to restore)</small>{% endif %}
            {% if can_edit %}<form method="post" action="{{ use_url }}" class="d-inline" hx-post="{{ use_url }}" hx-target="#errant-sheet" hx-swap="outerHTML">{% csrf_token %}<input type="hidden" name="index" value="{{ index }}"><input type="hidden" name="name" value="{{ item.name }}"><input type="hidden" name="seen" value="{{ item.depletion|default_if_none:0 }}">
              {% if item.depletion %}<button type="submit" name="action" value="use" class="btn btn-ink btn-sm py-0" aria-label="Use {{ item.name }} (Depletion -1)">Use</button>{% else %}<button type="submit" name="action" value="restore" class="btn btn-ink btn-sm py-0" aria-label="Restore {{ item.name }} with {{ line.supply_to_restore }} Supply (removed if there is not enough)">Restore</button>{% endif %}</form>{% endif %}{% endif %}{% if line.quality_label %} {{ line.quality_label }}{% endif %}{% if item.blocks %} · Blocks {{ item.blocks }}{% endif %}{% if line.true_strikes %} · +{{ line.true_strikes }}: <span data-true-strikes>{{ line.true_strikes }}</span> True Strikes{% endif %}{% if line.deflects %} · +{{ line.deflects }}: <span data-deflects>{{ line.deflects }}</span> Deflects{% endif %}</td>
        </tr>{% endwith %}{% endfor %}""")
NEW_TAG = Template(
    "{% load errant_sheet %}{% errant_item_rows lines can_edit move_url use_url %}")

LINES = [item_line(item) for item in (
    Item("Torch", Fraction(1, 2), 3, "handy", "light", depletion=2, depletion_max=3),
    Item("Rope <50'> & \"hook\"", Fraction(1), 1, "backpack", "supply", depletion=0,
         depletion_max=2),
    Item("Lantern", Fraction(1), 1, "hand", "light", depletion=None, depletion_max=4),
    Item("Odd", Fraction(1, 3), 1, "worn", "light", depletion=1, depletion_max=1),
    Item("Sword +2", Fraction(1), 1, "hand", "weapon", quality=3, magic_bonus=2),
    Item("Mail", Fraction(2), 1, "worn", "armour", quality=0, blocks=2, magic_bonus=1),
    Item("Shield", Fraction(1), 1, "hand", "shield", quality=1, blocks=1, magic_bonus=1),
    Item("Coins", Fraction(0), 40, "moon", ""),
)]


@pytest.mark.parametrize("can_edit", [True, False])
@pytest.mark.parametrize("csrf_token", ["tok<en>", "NOTPROVIDED", ""])
def test_rows_are_the_template_loops(can_edit, csrf_token):
    from characters.systems.errant.forms import LOCATION_CHOICES

    context = {"lines": LINES, "can_edit": can_edit, "move_url": "/characters/6/move/?a=1&b=2",
               "use_url": "/characters/6/use/", "locations": LOCATION_CHOICES,
               "csrf_token": csrf_token}
    old = OLD_LOOP.render(Context(context))
    assert NEW_TAG.render(Context(context)) == old
    assert "True Strikes" in old and "Deflects" in old and ("Restore" in old) == can_edit
