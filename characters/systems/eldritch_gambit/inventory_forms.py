"""Forms of the inventory page. They turn what was typed into values (a number, a
choice, an id); the rules (limits, capacity, the purse) are the services' to check
(inventory.py), and their refusals come back onto the right field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from characters.inventory_forms import GiveForm, TakeForm, how_many  # noqa: F401
from characters.models import InventoryItem
from config.parsing import RequestKeyField, parse_id
from rules.models import GearItem

from . import inventory


def whole_number(label: str, *, low: int, high: int, required: bool = True,
                 unit: str = "") -> forms.IntegerField:
    """An integer field that only parses: its message says what a valid value looks like
    (the service checks the range and says so on the same field)."""
    what = f"{label} must be a whole number from {low} to {high}{unit}."
    return forms.IntegerField(
        label=label, required=required,
        error_messages={"required": f"Enter the {label.lower()}.", "invalid": what},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class ContainerField(forms.CharField):
    """"" for carried loose, else the id of a container (the service checks it is one
    of this character's)."""

    def to_python(self, value):
        value = super().to_python(value).strip()
        if not value:
            return None
        number = parse_id(value)
        if number is None:
            raise ValidationError("Choose a container from the list.", code="invalid")
        return number


def quality_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label="Quality", choices=InventoryItem.Quality.choices, initial="standard",
        error_messages={"invalid_choice": "Choose Standard, Superior or Inferior."},
    )


class CatalogAddForm(forms.Form):
    """Add or buy a catalog row: the pressed button (add=<id> or buy=<id>) names it."""

    quality = quality_field()
    quantity = whole_number("Quantity", low=inventory.MIN_QUANTITY,
                            high=inventory.MAX_QUANTITY)
    container = ContainerField(label="Put it in", required=False)
    request_key = RequestKeyField()

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.catalog_item = None
        self.buy = False

    def clean(self):
        data = super().clean()
        raw = self.data.get("buy") or self.data.get("add") or ""
        self.buy = bool(self.data.get("buy"))
        if not raw:
            self.add_error(None, ValidationError("Choose an item from the catalog.",
                                                 code="no_item_chosen"))
            return data
        item = None
        if (pk := parse_id(raw)) is not None:
            item = GearItem.objects.visible_to(self.user).filter(pk=pk).first()
        if item is None:
            self.add_error(None, ValidationError("Choose an item from the catalog you can use.",
                                                 code="no_such_gear"))
        self.catalog_item = item
        return data


class FreeItemForm(forms.Form):
    name = forms.CharField(label="Name", max_length=inventory.NAME_LENGTH, error_messages={
        "required": "Give the item a name.",
        "max_length": f"Keep the name to {inventory.NAME_LENGTH} characters.",
    })
    kind = forms.ChoiceField(
        label="Kind", initial=InventoryItem.Kind.ITEM,
        choices=[(k.value, k.label) for k in inventory.FREE_KINDS],
        error_messages={"invalid_choice": "Choose a kind from the list."},
    )
    load = whole_number("Load", low=0, high=inventory.MAX_ITEM_LOAD)
    quantity = whole_number("Quantity", low=inventory.MIN_QUANTITY,
                            high=inventory.MAX_QUANTITY)
    container = ContainerField(label="Put it in", required=False)


class StartingGearForm(forms.Form):
    weapon = forms.ModelChoiceField(
        label="Normal weapon", queryset=GearItem.objects.none(), empty_label="Choose a weapon",
        error_messages={"invalid_choice": "Choose a weapon from the list.",
                        "required": "Choose a weapon."},
    )
    armor = forms.ModelChoiceField(
        label="Normal armor (worn)", queryset=GearItem.objects.none(), required=False,
        empty_label="None", error_messages={"invalid_choice": "Choose an armor from the list."},
    )
    career_tool = forms.CharField(label="Career tool or item", required=False,
                                  max_length=inventory.NAME_LENGTH)
    career_tool_load = whole_number("Tool's Load", low=0, high=inventory.MAX_ITEM_LOAD,
                                    required=False)
    memento = forms.CharField(label="Origin memento or trinket", required=False,
                              max_length=inventory.NAME_LENGTH)
    memento_load = whole_number("Memento's Load", low=0, high=inventory.MAX_ITEM_LOAD,
                                required=False)
    coins = forms.ChoiceField(
        label="Purse", initial=inventory.COINS_KEEP,
        widget=forms.RadioSelect(attrs={"class": "form-check-input"}),
        choices=[
            (inventory.COINS_KEEP, "Leave the purse as it is"),
            (inventory.COINS_SET, "Also set the purse to 500 cp"),
            (inventory.COINS_ROLL, "Also roll 2d4 x 100 cp for the purse"),
        ],
        error_messages={"invalid_choice": "Choose what to do with the purse."},
    )

    def __init__(self, *args, user=None, worn_armor=None, **kwargs):
        super().__init__(*args, **kwargs)
        if worn_armor is not None and worn_armor.catalog_item_id:
            # The armor already worn (from the builder, say) is the starting armor: the
            # form offers it, and the package never adds a second one.
            armor = self.fields["armor"]
            armor.initial = worn_armor.catalog_item_id
            armor.empty_label = f"None (keep wearing {worn_armor.name})"
            armor.help_text = (
                f"Already worn: {worn_armor.name}. It counts as the starting armor and is "
                f"not added twice; another armor is worn instead and {worn_armor.name} "
                "is then carried.")
        gear = GearItem.objects.visible_to(user)
        self.fields["weapon"].queryset = gear.filter(
            category=GearItem.Category.WEAPON, cost_cp__isnull=False).order_by("name")
        self.fields["armor"].queryset = gear.filter(
            category=GearItem.Category.ARMOR).order_by("armor_rank", "name")
        self.fields["weapon"].label_from_instance = lambda g: (
            f"{g.name} (Hit {g.weapon_hit:+d}, {g.weapon_damage}, Load {g.load})")
        self.fields["armor"].label_from_instance = lambda g: (
            f"{g.name} (AP {g.armor_ap}, Rally d{g.armor_rally_die}, Load {g.load})")


class CoinsForm(forms.Form):
    amount_cp = whole_number("Amount", low=1, high=inventory.MAX_COINS_CP, unit=" cp")
    note = forms.CharField(label="Note", max_length=inventory.NOTE_LENGTH, error_messages={
        "required": "Say where the coins come from or go to.",
    })
    direction = forms.ChoiceField(choices=[("in", "Add"), ("out", "Remove")],
                                  error_messages={"invalid_choice": "Choose Add or Remove.",
                                                  "required": "Choose Add or Remove."})
    request_key = RequestKeyField()

    def clean_amount_cp(self):
        amount = self.cleaned_data["amount_cp"]
        if amount < 1:
            raise ValidationError(
                "Enter a positive amount: Remove takes coins out.", code="amount_not_positive")
        return amount


class QuantityForm(forms.Form):
    quantity = whole_number("Quantity", low=inventory.MIN_QUANTITY, high=inventory.MAX_QUANTITY)


class MoveForm(forms.Form):
    container = ContainerField(label="Move to", required=False)


class CoverageForm(forms.Form):
    coverage = forms.ChoiceField(
        label="Worn as", choices=InventoryItem.Coverage.choices,
        error_messages={"invalid_choice": "Choose a full, partial or minimal set."},
    )


class SwitchForm(forms.Form):
    """On or off, stated (not toggled), so a double click does not undo itself."""

    on = forms.TypedChoiceField(choices=[("1", "on"), ("0", "off")], coerce=lambda v: v == "1",
                                error_messages={"invalid_choice": "Choose on or off.",
                                                "required": "Choose on or off."})


class SellForm(forms.Form):
    price_cp = whole_number("Price", low=0, high=inventory.MAX_COINS_CP, unit=" cp")
    request_key = RequestKeyField()


class ChargesForm(forms.Form):
    charges = whole_number("Charges", low=0, high=inventory.MAX_CHARGES)
