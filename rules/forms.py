"""Homebrew forms: a player's own gear items and Traits.

The database constraints of `rules.models` (category-specific stats, a variable Load's
range, one slug per author) are checked here first, so a bad submission comes back as an
error on the field that caused it and never reaches the database as an IntegrityError.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import slugify

from .engine.dice import Dice
from .engine.eldritch_gambit.templates import ARMORED_LEVELS, Size
from .models import ARMED, RALLY_DICE, WEAPON_TAGS, GearCategory, GearItem, Trait

# Sane bounds for what a player types; the SRD's own numbers sit well inside them.
LOAD_RANGE = (-100, 100)  # the exchange format's Load range
COST_MAX = 100_000_000  # the builder's largest purse, in cp
ARMOR_AP_MAX = 100
ARMOR_RANKS = ((1, "1: as Leather"), (2, "2: as Chain mail"), (3, "3: as Scale mail"),
               (4, "4: as Plate mail"))
SHIELD_RANGE = (0, 20)
WEAPON_HIT_RANGE = (-10, 10)
WEAPON_RANGE_MAX = 20
WEAPON_RELOAD_MAX = 10
CAPACITY_MAX = 1000
PACK_MAX = 1000

# Every SRD shield bashes for 1d6 with no Hit bonus (STANDARD WEAPONS table).
SHIELD_DAMAGE = "1d6"

# The stats each category may carry (rules.models constraints, in the form's words).
ARMOR_FIELDS = ("armor_ap", "armor_rally_die", "armor_rank")
SHIELD_FIELDS = ("shield_af", "shield_block")
WEAPON_FIELDS = ("weapon_hit", "weapon_damage", "weapon_range", "weapon_reload", "weapon_tags")
REQUIRED_BY_CATEGORY = {
    GearCategory.ARMOR: ARMOR_FIELDS,
    GearCategory.SHIELD: (*SHIELD_FIELDS, "weapon_hit", "weapon_damage"),
    GearCategory.WEAPON: ("weapon_hit", "weapon_damage"),
}

# Trait groups whose value the rules engine reads, and the values it knows.
SIZE_VALUES = tuple(size.value for size in Size if size is not Size.MEDIUM)
TRAIT_VALUES = {"size": SIZE_VALUES, "armored": tuple(ARMORED_LEVELS)}


def number(label, low, high, *, required=False, help_text="", initial=None):
    what = f"{label} must be a whole number from {low} to {high}."
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, required=required, help_text=help_text,
        initial=initial,
        error_messages={"invalid": what, "min_value": what, "max_value": what,
                        "required": f"{label}: enter a whole number from {low} to {high}."},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def unique_slug(model, *, owner, name: str, exclude_pk=None) -> tuple[str, bool]:
    """The slug for an author's row called `name`, and whether it is free."""
    slug = slugify(name)[: model._meta.get_field("slug").max_length] or "homebrew"
    taken = model.objects.filter(owner=owner, slug=slug).exclude(pk=exclude_pk).exists()
    return slug, not taken


class HomebrewForm(forms.ModelForm):
    """Common ground: the author owns the row, the slug follows the name, and it may be
    shared with a campaign the author runs (as the Imp or a co-Imp)."""

    campaign = forms.ModelChoiceField(
        label="Share with campaign", queryset=None, required=False,
        empty_label="No one: only me",
        help_text="Its members see it and may use it; only you may edit or delete it.",
        error_messages={"invalid_choice": "Choose a campaign you run, or only you."},
    )

    def __init__(self, *args, owner, **kwargs):
        super().__init__(*args, **kwargs)
        self.owner = owner
        # A forged id (a campaign the author does not run) is an invalid_choice here. The
        # Campaign model comes through the row's foreign key: campaigns is the higher app.
        campaigns = self._meta.model._meta.get_field("campaign").related_model.objects
        self.fields["campaign"].queryset = campaigns.run_by(owner)

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        slug, free = unique_slug(self._meta.model, owner=self.owner, name=name,
                                 exclude_pk=self.instance.pk)
        if not free:
            raise ValidationError("You already have one called %(name)s.",
                                  code="duplicate_name", params={"name": name})
        self.instance.slug = slug
        return name

    def save(self, commit=True):
        self.instance.owner = self.owner
        self.instance.source = None
        return super().save(commit)


class GearItemForm(HomebrewForm):
    cost_cp = number("Cost (cp)", 0, COST_MAX, help_text="Leave blank for no price.")
    load = number("Load", *LOAD_RANGE, required=True, initial=0,
                  help_text="0 for a light item.")
    capacity = number("Holds (Load)", 1, CAPACITY_MAX,
                      help_text="Containers only: the most Load it holds.")
    pack_size = number("Bought in packs of", 1, PACK_MAX, required=True, initial=1,
                       help_text="12 for arrows, 1 for most things.")
    armor_ap = number("Armor Points (AP)", 0, ARMOR_AP_MAX)
    armor_rally_die = forms.TypedChoiceField(
        label="Rally die", required=False, coerce=int, empty_value=None,
        choices=[("", "—"), *((die, f"d{die}") for die in RALLY_DICE)],
        error_messages={"invalid_choice": "Choose a Rally die from the list."},
    )
    armor_rank = forms.TypedChoiceField(
        label="Armor type", required=False, coerce=int, empty_value=None,
        choices=[("", "—"), *ARMOR_RANKS],
        help_text="A partial set counts as the type below it, a minimal set two below.",
        error_messages={"invalid_choice": "Choose an armor type from the list."},
    )
    shield_af = number("AF bonus", *SHIELD_RANGE)
    shield_block = number("Block", *SHIELD_RANGE)
    weapon_hit = number("Hit", *WEAPON_HIT_RANGE, help_text="Blank means 0 (the table's -).")
    weapon_damage = forms.CharField(
        label="Damage dice", max_length=20, required=False,
        help_text="Dice notation: 1d8, 1d4+1. A shield bashes for 1d6 unless you say otherwise.",
    )
    weapon_range = number("Range (Zones)", 1, WEAPON_RANGE_MAX,
                          help_text="Thrown or shot weapons only.")
    weapon_reload = number("Reload (Actions)", 1, WEAPON_RELOAD_MAX)
    weapon_tags = forms.MultipleChoiceField(
        label="Tags", required=False, choices=[(tag, tag) for tag in WEAPON_TAGS],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "%(value)s is not a weapon tag of the rules."},
    )

    class Meta:
        model = GearItem
        fields = [
            "name", "category", "cost_cp", "load", "capacity", "pack_size",
            "armor_ap", "armor_rally_die", "armor_rank", "shield_af", "shield_block",
            "weapon_hit", "weapon_damage", "weapon_range", "weapon_reload", "weapon_tags",
            "notes", "description", "campaign",
        ]
        labels = {"category": "Kind of gear"}
        help_texts = {"name": "What your characters' gear lists will call it."}
        error_messages = {
            "name": {"required": "Give the item a name."},
            "category": {"invalid_choice": "Choose a kind of gear from the list.",
                         "required": "Choose a kind of gear."},
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean_weapon_damage(self):
        text = self.cleaned_data.get("weapon_damage", "").strip()
        if not text:
            return ""
        try:
            dice = Dice.parse(text)
        except ValueError:
            raise ValidationError(
                "Write the damage as dice, like 1d8 or 1d4+1.", code="invalid_dice",
            ) from None
        return str(dice)

    def clean(self):
        cleaned = super().clean()
        category = cleaned.get("category")
        if not category:
            return cleaned
        hit_blank = "weapon_hit" not in self.errors and cleaned.get("weapon_hit") is None
        if category in ARMED and hit_blank:
            cleaned["weapon_hit"] = 0  # the table's "-"
        if category == GearCategory.SHIELD and "weapon_damage" not in self.errors:
            cleaned["weapon_damage"] = cleaned.get("weapon_damage") or SHIELD_DAMAGE
        required = REQUIRED_BY_CATEGORY.get(category, ())
        label = GearCategory(category).label.lower()
        for name in required:
            if name in self.errors:
                continue
            if cleaned.get(name) in (None, ""):
                self.add_error(name, ValidationError(
                    "A %(category)s needs this.", code="required_for_category",
                    params={"category": label},
                ))
        allowed = set(required)
        if category in ARMED:
            allowed.update(WEAPON_FIELDS)
        for name in (*ARMOR_FIELDS, *SHIELD_FIELDS, *WEAPON_FIELDS):
            if name in allowed or name in self.errors:
                continue
            if cleaned.get(name) not in (None, "", []):
                owner = ("armor has" if name in ARMOR_FIELDS else
                         "shields have" if name in SHIELD_FIELDS else "weapons and shields have")
                self.add_error(name, ValidationError(
                    "Only %(owner)s this: clear it, or change the kind of gear.",
                    code="not_for_category", params={"owner": owner},
                ))
        return cleaned



class TraitForm(HomebrewForm):
    group = forms.CharField(
        label="Group", max_length=50, required=False,
        help_text='The base name: "Attack", "Size". Blank: the same as the name.',
    )
    load = number("Load", *LOAD_RANGE, required=True, initial=0,
                  help_text="Advantages add Load, drawbacks relieve it (negative).")
    load_min = number("Lowest Load", *LOAD_RANGE,
                      help_text="Only when the player may choose the Load.")
    load_max = number("Highest Load", *LOAD_RANGE, help_text='Blank for "or more".')

    class Meta:
        model = Trait
        fields = ["name", "group", "value", "load", "load_min", "load_max", "effects",
                  "description", "campaign"]
        labels = {"value": "Value"}
        help_texts = {
            "name": 'As a Template lists it: "Gills", "Size (hulking)".',
            "value": "The level or kind within the group: Large for a Size, heavy for Armored.",
        }
        error_messages = {"name": {"required": "Give the Trait a name."}}
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean_group(self):
        return self.cleaned_data.get("group", "").strip()

    def clean(self):
        cleaned = super().clean()
        group = cleaned.get("group") or (cleaned.get("name") or "")[:50]
        cleaned["group"] = group
        known = TRAIT_VALUES.get(group.casefold())
        value = (cleaned.get("value") or "").strip()
        if known is not None and "value" not in self.errors:
            canonical = {v.casefold(): v for v in known}.get(value.casefold())
            if canonical is None:
                self.add_error("value", ValidationError(
                    "A %(group)s Trait needs one of: %(values)s.", code="invalid_value",
                    params={"group": group, "values": ", ".join(known)},
                ))
            else:
                cleaned["value"] = canonical
        load, low, high = cleaned.get("load"), cleaned.get("load_min"), cleaned.get("load_max")
        if any(name in self.errors for name in ("load", "load_min", "load_max")):
            return cleaned
        if low is None and high is not None:
            self.add_error("load_min", ValidationError(
                "Give the lowest Load too, or clear the highest.", code="load_min_required",
            ))
        elif low is not None:
            if high is not None and low > high:
                self.add_error("load_max", ValidationError(
                    "The highest Load is below the lowest.", code="load_range_inverted",
                ))
            elif load < low or (high is not None and load > high):
                self.add_error("load", ValidationError(
                    "The Load must lie between the lowest and the highest.",
                    code="load_out_of_range",
                ))
        return cleaned
