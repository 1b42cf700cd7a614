"""The builder form. Field limits keep input sane; the rules themselves (maximum,
budget, trackers) are checked by the engine and reported on the right field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.forms.models import ModelChoiceIterator

from characters.models import Character, InventoryItem, with_totals
from characters.services import ledger_rules_progress
from rules.engine.eldritch_gambit import ATTRIBUTES, compute_sheet
from rules.engine.eldritch_gambit.attributes import ABBREVIATIONS, NAMES
from rules.engine.eldritch_gambit.levels import after_level_ups
from rules.engine.eldritch_gambit.statuses import CHOOSABLE_STATUSES
from rules.models import GearItem

from .builds import build_from_form, sheet_for
from .campaign_settings import MAX_LEVEL, starting_level

STARTING_SKILLS = 3  # "All characters can choose up to three Skills at the start"
MAX_SKILLS = 30
GEAR_FIELDS = ("armor", "shield")  # GearChoiceFields: the worn armor, the carried shield
SKILL_MAX_LENGTH = 80
# The builder's "keep this when rolling everything" boxes.
LOCKS = ("lock_name", "lock_description", "lock_attributes", "lock_coins")


def number_field(label, *, min_value, max_value, required=True, help_text="", unit=""):
    """An integer field whose messages say what a valid value looks like."""
    what = f"{label} must be a whole number from {min_value} to {max_value}{unit}."
    return forms.IntegerField(
        label=label,
        min_value=min_value,
        max_value=max_value,
        required=required,
        help_text=help_text,
        error_messages={
            "required": f"Enter the {label.lower()}.",
            "invalid": what,
            "min_value": what,
            "max_value": what,
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def attribute_field(key: str) -> forms.IntegerField:
    abbr, name = ABBREVIATIONS[key], NAMES[key]
    return number_field(name, min_value=-10, max_value=99,
                        help_text=f"{abbr}: negative is allowed but gives no points back.")


class SkillsWidget(forms.Widget):
    """Several text inputs of the same name; the template renders them."""

    def value_from_datadict(self, data, files, name):
        if hasattr(data, "getlist"):
            return data.getlist(name)
        value = data.get(name, [])
        return value if isinstance(value, list) else [value]


class SkillsField(forms.Field):
    widget = SkillsWidget

    def to_python(self, value):
        if not value:
            return []
        if isinstance(value, str):
            value = [value]
        return [str(v).strip() for v in value if str(v).strip()]


class CatalogChoices(ModelChoiceIterator):
    """A GearChoiceField's choices: the rows of its catalog, whose query is built only
    when the select is listed (GearChoiceField.rows)."""

    def __init__(self, field):
        # Not ModelChoiceIterator's, which reads the field's queryset now: this one asks
        # for it when listed.
        self.field = field

    @property
    def queryset(self):
        return self.field.rows()


class GearChoiceField(forms.ModelChoiceField):
    """A catalog choice (armor or shield) from the catalog rows of its category that the
    user may choose. The form gives it `catalog` (the user's catalog, built when first
    needed: the live preview lists no select and most of its keystrokes post a choice
    the lines already hold) and `known`: rows already read (the character's own lines)
    that everyone may choose, so a posted choice among them needs no query."""

    iterator = CatalogChoices

    def __init__(self, *args, category, **kwargs):
        super().__init__(*args, **kwargs)
        self.category = category
        self.catalog = None  # set by the form: () -> the GearItem rows the user may see
        self.known: dict[str, GearItem] = {}

    def __deepcopy__(self, memo):
        result = super().__deepcopy__(memo)
        # The widget's copy of the choices still lists the field it was copied from.
        result.widget.choices = result.choices
        return result

    def rows(self):
        """This field's kind of the catalog the user may choose from, its query built
        (not run) on first need."""
        if self.queryset is None:
            self.queryset = self.catalog().filter(category=self.category)
        return self.queryset

    def to_python(self, value):
        # The live preview posts the armor worn on every keystroke: an SRD row the
        # character's lines already carry is the one the catalog would find.
        if isinstance(value, str) and value in self.known:
            return self.known[value]
        if value not in self.empty_values:
            self.rows()
        return super().to_python(value)

    def label_from_instance(self, obj):
        if obj.armor_ap is not None:
            return f"{obj.name} (AP {obj.armor_ap}, Rally d{obj.armor_rally_die}, Load {obj.load})"
        if obj.shield_af is not None:
            return f"{obj.name} (AF +{obj.shield_af}, Block +{obj.shield_block}, Load {obj.load})"
        return obj.name


# The fields the derived numbers are computed from (builds.build_from_form reads them):
# while one of them cannot be read, the live preview says so instead of computing.
COMPUTED_FROM = ("level", "xp", *(key for key, _, _ in ATTRIBUTES), "skills", "armor",
                 "armor_coverage", "shield", "statuses", "poison_buildup", "hp_current",
                 "wp_current", "career", "origin")


class CharacterForm(forms.Form):
    # Level and XP (Characters > Level).
    level = number_field("Level", min_value=1, max_value=MAX_LEVEL,
                         help_text="Most groups start at Level 10.")
    xp = number_field("XP", min_value=0, max_value=9999,
                      help_text="A Level rises when XP reaches the current Level.")
    # Concept.
    name = forms.CharField(label="Name", max_length=120, required=False)
    pronouns = forms.CharField(label="Pronouns", max_length=40, required=False)
    career = forms.CharField(label="Career", max_length=200, required=False)
    quest = forms.CharField(label="Quest", max_length=200, required=False)
    origin = forms.CharField(label="Origin", max_length=200, required=False)
    template_name = forms.CharField(label="Template", max_length=100, required=False,
                                    help_text='"Human" implies no Traits.')
    description = forms.CharField(label="Description", max_length=2000, required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    skills = SkillsField(label="Skills", required=False,
                         help_text='Phrase them as verb-noun: "Assess treasure".')
    # Gear worn and carried.
    armor = GearChoiceField(
        category=GearItem.Category.ARMOR,
        label="Worn armor", queryset=None, required=False,
        empty_label="None or clothed", error_messages={
            "invalid_choice": "Choose an armor from the list.",
        },
    )
    armor_coverage = forms.ChoiceField(
        label="Armor worn as", choices=InventoryItem.Coverage.choices, required=False,
    )
    shield = GearChoiceField(
        category=GearItem.Category.SHIELD,
        label="Carried shield", queryset=None, required=False,
        empty_label="No shield", error_messages={
            "invalid_choice": "Choose a shield from the list.",
        },
    )
    coins_cp = number_field("Coins (cp)", min_value=0, max_value=100_000_000,
                            help_text="Starting coins: 500 cp, or roll 2d4 x 100.")
    # Trackers.
    hp_current = number_field("Current HP", min_value=-999, max_value=9999, required=False,
                              help_text="Blank means full (Armored HP).")
    wp_current = number_field("Current WP", min_value=0, max_value=999, required=False,
                              help_text="Blank means full.")
    statuses = forms.MultipleChoiceField(
        label="Statuses", required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(rule.key, rule.name) for rule in CHOOSABLE_STATUSES],
        error_messages={"invalid_choice": "%(value)s is not a Status of the rules."},
    )
    poison_buildup = number_field("Poison Buildup", min_value=0, max_value=999,
                                  required=False)

    # The six Attributes, named by their keys as the engine names them.
    str = attribute_field("str")
    wis = attribute_field("wis")
    dex = attribute_field("dex")
    agi = attribute_field("agi")
    cha = attribute_field("cha")
    end = attribute_field("end")

    def __init__(self, *args, user=None, character: Character | None = None, items=None,
                 joining=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.joining = joining  # the campaign a new character is built for, if any
        self.character = character
        if items is None:
            items = list(character.items.select_related("catalog_item")) if character else []
        self.items = items
        self._user = user
        self.sheet = None
        self.unreadable: list[str] = []  # set by clean()
        # The catalog's armors and shields as this user sees them (their homebrew too),
        # built once for both fields and only if one needs it: listed when a field is
        # rendered, a posted choice looked up by its id.
        self._catalog = None
        for name in GEAR_FIELDS:
            field = self.fields[name]
            field.catalog = self._gear
            field.known = srd_rows_of(items, field.category)
        if character is not None and ledger_rules_progress(character):
            # In a campaign the XP ledger sets Level and XP (Highlights, Quests, Level-ups),
            # and still after the character left one (docs/RULES.md). The read-only fields
            # take their initial values (the ledger's sums): both in one query, not one
            # query per field, unless the character was read with them.
            if getattr(character, "xp_total", None) is None:
                with_totals(character, coins=False)
            note = ("In a campaign the XP ledger sets it." if character.campaign_id else
                    "Kept by the XP ledger since it played in a campaign: an Imp adjusts it.")
            for name in ("level", "xp"):
                field = self.fields[name]
                field.disabled = True
                field.help_text = note
        if joining is not None:
            # "The Imp may start the party at any Level": a character built for the
            # campaign starts at its Level with no XP; the ledger takes it from there.
            level = starting_level(joining)
            self.initial.update(level=level, xp=0)
            for name in ("level", "xp"):
                field = self.fields[name]
                field.disabled = True
                field.help_text = (f"{joining.name} starts at Level {level}."
                                   if name == "level" else "New characters start with 0 XP.")

    @property
    def is_new(self) -> bool:
        return self.character is None

    def attribute_fields(self):
        return [self[key] for key, _, _ in ATTRIBUTES]

    @property
    def attribute_errors(self) -> list[str]:
        """Errors about the attributes as a whole (the points budget)."""
        if not self.is_bound or not hasattr(self, "cleaned_data"):
            return []
        return [
            error.message % (error.params or {})
            for error in self.errors.as_data().get("__all__", [])
            if error.code == "attribute_points_over_budget"
        ]

    @property
    def skill_values(self) -> list[str]:
        """The Skill inputs to show: what is typed, then empty slots (three at
        creation; one spare slot to add a Skill later)."""
        values = self["skills"].value() or []
        if isinstance(values, str):
            values = [values]
        values = [v for v in values if v is not None]
        if self.is_new:
            filled = [v for v in values if str(v).strip()]
            return (filled + [""] * STARTING_SKILLS)[:max(STARTING_SKILLS, len(filled))]
        filled = [v for v in values if str(v).strip()]
        return filled + [""] * max(1, STARTING_SKILLS - len(filled))

    def clean_skills(self):
        skills = self.cleaned_data.get("skills") or []
        limit = STARTING_SKILLS if self.is_new else MAX_SKILLS
        if len(skills) > limit:
            if self.is_new:
                raise ValidationError(
                    "A new character starts with up to %(limit)s Skills; more come later "
                    "through Training Montages.", code="too_many_skills", params={"limit": limit},
                )
            raise ValidationError("At most %(limit)s Skills.", code="too_many_skills",
                                  params={"limit": limit})
        for skill in skills:
            if "\x00" in skill:
                raise ValidationError("A Skill cannot contain a NUL character.",
                                      code="null_characters_not_allowed")
            if len(skill) > SKILL_MAX_LENGTH:
                raise ValidationError(
                    "Skill %(skill)s… is longer than %(max)s characters.", code="skill_too_long",
                    params={"skill": skill[:20], "max": SKILL_MAX_LENGTH},
                )
        return skills

    def _gear(self):
        if self._catalog is None:
            self._catalog = GearItem.objects.visible_to(self._user).order_by(
                "armor_rank", "cost_cp", "name")
        return self._catalog

    def clean_template_name(self):
        return self.cleaned_data.get("template_name", "").strip() or "Human"

    def clean(self):
        cleaned = super().clean()
        # The errors of the fields themselves (not yet the engine's issues, added below).
        self.unreadable = [name for name in COMPUTED_FROM if name in self.errors]
        if self.unreadable:
            return cleaned  # the engine needs every value the build reads
        data = dict(cleaned)
        data["template_traits"] = self.character.template_traits if self.character else []
        self.sheet = compute_sheet(build_from_form(data, self.items))
        for issue in self.sheet.errors:
            target = issue.field if issue.field in self.fields else None
            self.add_error(target, ValidationError(issue.message, code=issue.code))
        if not self.fields["xp"].disabled:
            self._check_xp_below_level(cleaned["level"], cleaned["xp"])
        return cleaned

    def _check_xp_below_level(self, level: int, xp: int) -> None:
        """"Levels raise when the character has as many XP as their current Level. The
        player then erases the spent XP, keeping any leftovers" (Characters >
        Advancement): XP at or above the Level is refused, with the Level and XP it
        comes to (docs/RULES.md, "XP in the builder")."""
        if xp < level:
            return
        new_level, left = after_level_ups(level, xp)
        if new_level > MAX_LEVEL:
            message = ("At Level %(level)s, %(level)s XP buys the next Level: keep XP "
                       "below the Level.")
        else:
            message = ("At Level %(level)s, %(level)s XP buys the next Level: enter Level "
                       "%(new_level)s with %(left)s XP, or XP below %(level)s.")
        self.add_error("xp", ValidationError(
            message, code="xp_not_below_level",
            params={"level": level, "new_level": new_level, "left": left}))

    @property
    def cannot_compute(self) -> list[dict]:
        """Why the numbers cannot be computed from what is typed: each field the build
        reads that could not be read, with its errors. Empty when they can."""
        if not self.is_bound:
            return []
        self.errors  # noqa: B018 -- clean the form (once) to know
        return [{"field": self[name], "errors": self.errors[name]}
                for name in self.unreadable]

    def preview_sheet(self):
        """The sheet for the live preview, or None while a field it is computed from
        cannot be read (the panel then says which, rather than show the numbers of a
        build that is not the one typed). Engine issues do not stop it: they are
        shown with the numbers. Before anything is typed: the stored character's sheet,
        or a new character's from the initial data."""
        if not self.is_bound:
            if self.character is not None:
                return sheet_for(self.character, self.items)
            return compute_sheet(build_from_form(self.initial))
        self.errors  # noqa: B018 -- clean() computes it
        return self.sheet

    @property
    def locks(self) -> dict[str, bool]:
        """Which parts "Roll everything not kept" keeps (the posted lock_* boxes)."""
        return {lock: bool(self.is_bound and self.data.get(lock)) for lock in LOCKS}


def srd_rows_of(items, category) -> dict[str, GearItem]:
    """The SRD catalog rows of `category` that the inventory lines `items` name, by
    their ids as a form posts them. Any user may choose an SRD row (GearItem.visible_to),
    so such a choice is valid for anyone; homebrew is left to the field's query, which
    asks whether this user may see it."""
    return {str(item.catalog_item_id): item.catalog_item for item in items
            if item.catalog_item_id is not None and item.catalog_item.source_id is not None
            and item.catalog_item.category == category}


def initial_from_character(character: Character, items) -> dict:
    armor = next((i for i in items if i.equipped and i.kind == InventoryItem.Kind.ARMOR), None)
    shield = next((i for i in items if i.equipped and i.kind == InventoryItem.Kind.SHIELD), None)
    initial = {
        # Callables: the ledger sums are read only if a form needs them (the live
        # preview gets Level and XP from what is typed).
        "level": lambda: character.level,
        "xp": lambda: character.xp,
        "name": character.name,
        "pronouns": character.pronouns,
        "career": character.career,
        "quest": character.quest,
        "origin": character.origin,
        "template_name": character.template_name,
        "description": character.description,
        "skills": list(character.skills or []),
        "armor": armor.catalog_item_id if armor else None,
        "armor_coverage": armor.coverage if armor else InventoryItem.Coverage.FULL,
        "shield": shield.catalog_item_id if shield else None,
        "coins_cp": lambda: character.coins_cp,
        "hp_current": character.hp_current,
        "wp_current": character.wp_current,
        "statuses": list(character.statuses or []),
        "poison_buildup": character.poison_buildup,
    }
    initial.update(character.attribute_values)
    return initial


NEW_CHARACTER_INITIAL = {
    "level": 10, "xp": 0, "template_name": "Human", "coins_cp": 500,
    "armor_coverage": InventoryItem.Coverage.FULL, "poison_buildup": 0,
    "str": 0, "wis": 0, "dex": 0, "agi": 0, "cha": 0, "end": 0, "skills": [],
}
