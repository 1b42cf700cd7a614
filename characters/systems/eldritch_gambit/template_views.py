"""The Template side of a character: its name and its Traits (Bestiary > Templates).

`/characters/<pk>/template/` sets `EldritchGambitCharacter.template_name` and `template_traits`, the
Traits chosen from the catalog the player can see (the SRD's and their own homebrew) or
written in as custom Traits. The form posts to `template_preview` on every change, which
recomputes the derived stats through the one adapter (`builds.py`) with the
submitted Traits in place of the stored ones, and saves nothing; the same form saves by
a plain submit without JavaScript.

Each chosen Trait is copied onto the character as `{"name", "value", "load"}`: `name` is
the Trait's group ("Size", "Attack", "Resistance"), `value` its level or kind ("Large",
"melee") or what the player wrote for it ("Fire"), `load` what it weighs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from config.parsing import parse_id
from rules.engine.eldritch_gambit import compute_sheet
from rules.engine.eldritch_gambit.templates import ARMORED_LEVELS, Size
from rules.models import Trait

from . import selectors
from .builds import build_from_character, trait_choices
from .exchange import MAX_TRAITS, TRAIT_LOAD_RANGE
from .models import EldritchGambitCharacter

SIZE = "Size"
ARMORED = "Armored"
CUSTOM = "custom"
DEFAULT_TEMPLATE = "Human"
SIZE_ORDER = [size.value for size in Size]
# Traits that name what they apply to (Bestiary > LIST OF TRAITS): "An Element like Fire,
# Cold, Void, etc. or weapon quality like Stun ... must be chosen"; Drain names a Template.
VALUE_REQUIRED = {
    "resistance": "an Element or weapon quality (Fire, Cold, Stun…)",
    "vulnerability": "an Element or weapon quality (Fire, Cold, Stun…)",
    "drain": "the Template it drains (Human, Elf…)",
}
# Bestiary > Templates, Attack: "Elements can be chosen just as with Spells" (Magic >
# Elements, COMMON ELEMENTS: Bolt, Cold, Fire, Void). A catalog Attack row's value is its
# kind ("melee"); an Element typed in its Value field is stored after it ("melee, Fire").
ELEMENT_GROUPS = {"attack"}
COMMON_ELEMENTS = "Bolt, Cold, Fire, Void"


def takes_element(trait: Trait) -> bool:
    return trait.group.strip().casefold() in ELEMENT_GROUPS and bool(trait.value.strip())


def split_element(trait: Trait, stored: str) -> str | None:
    """The Element in a stored value of this catalog row ("" for none), or None when
    the value is not this row's ("melee, Fire" -> "Fire" for Attack (melee))."""
    kind, _, element = stored.partition(",")
    if kind.strip().casefold() != trait.value.strip().casefold():
        return None
    return element.strip()


# ---------------------------------------------------------------------------
# The catalog the player picks from


def _size_key(trait: Trait) -> Size | None:
    try:
        size = Size(trait.value.strip().capitalize())
    except ValueError:
        return None
    return None if size is Size.MEDIUM else size


def _armored_rank(trait: Trait) -> int | None:
    return ARMORED_LEVELS.get(trait.value.strip().lower())


class TraitCatalog:
    """The Traits a user may choose, read once: Sizes, Armored levels and the rest."""

    def __init__(self, user):
        rows = list(Trait.objects.visible_to(user).order_by("name", "pk"))
        # SRD rows first, so a stored Trait matches the SRD's row before a homebrew twin.
        rows.sort(key=lambda t: t.source_id is None)
        self.by_pk = {trait.pk: trait for trait in rows}
        group = lambda t: t.group.strip().casefold()  # noqa: E731
        self.sizes = sorted(
            (t for t in rows if group(t) == "size" and _size_key(t)),
            key=lambda t: (SIZE_ORDER.index(_size_key(t).value), t.source_id is None),
        )
        self.armored = sorted(
            (t for t in rows if group(t) == "armored" and _armored_rank(t)),
            key=lambda t: (_armored_rank(t), t.source_id is None),
        )
        self.others = sorted(
            (t for t in rows if group(t) not in ("size", "armored")),
            key=lambda t: (t.name.casefold(), t.source_id is None),
        )

    @staticmethod
    def label(trait: Trait, text: str = "") -> str:
        text = text or trait.name
        if trait.source_id is None:
            text += f" (homebrew: {trait.name})" if text != trait.name else " (homebrew)"
        return f"{text.rstrip('.')}, Load {load_text(trait)}"

    def match(self, choice) -> tuple[Trait | None, dict]:
        """The catalog row a stored Trait was chosen from, with the row's initial
        data; (None, custom row) when none fits (a custom Trait, or a Trait whose
        fixed Load no longer matches the catalog's)."""
        name = choice.name.strip().casefold()
        value = choice.value.strip().casefold()
        if name == "size":
            found = next((t for t in self.sizes if t.value.casefold() == value), None)
            return found, {}
        if name == "armored":
            found = next((t for t in self.armored if t.value.casefold() == value), None)
            return found, {}
        for trait in self.others:
            if trait.group.strip().casefold() != name:
                continue
            fixed_value = trait.value.strip()
            element = split_element(trait, choice.value) if takes_element(trait) else None
            if fixed_value and fixed_value.casefold() != value and not element:
                continue
            if trait.has_variable_load:
                if not load_fits(trait, choice.load):
                    continue
            elif trait.load != choice.load:
                continue
            row = {"trait": str(trait.pk),
                   "value": element or ("" if fixed_value else choice.value)}
            if trait.has_variable_load:
                row["load"] = choice.load
            return trait, row
        return None, {"trait": CUSTOM, "name": choice.name, "value": choice.value,
                      "load": choice.load}


def load_text(trait: Trait) -> str:
    if not trait.has_variable_load:
        return str(trait.load)
    if trait.load_max is None:
        return f"{trait.load_min} or more"
    return f"{trait.load_min} to {trait.load_max}"


def load_fits(trait: Trait, load: int) -> bool:
    return trait.load_min <= load and (trait.load_max is None or load <= trait.load_max)


def entry(name: str, value: str = "", load: int = 0) -> dict:
    """A Trait as `EldritchGambitCharacter.template_traits` stores it."""
    return {"name": name, "value": value, "load": load}


def catalog_entry(trait: Trait, value: str = "", load: int | None = None) -> dict:
    group = trait.group.strip()
    if group.casefold() == "size":
        return entry(SIZE, _size_key(trait).value, trait.load)
    if group.casefold() == "armored":
        return entry(ARMORED, trait.value.strip().lower(), trait.load)
    return entry(group, trait.value.strip() or value, trait.load if load is None else load)


# ---------------------------------------------------------------------------
# Forms


class TemplateForm(forms.Form):
    template_name = forms.CharField(
        label="Template name", max_length=100, required=False,
        help_text='"Human" with no Traits is the default.',
        error_messages={"max_length": "At most %(limit_value)d characters."},
    )
    size = forms.ChoiceField(
        label="Size", required=False,
        help_text="Size multiplies HP and AP, sets the damage and Rally dice and scales "
                  "carried Load.",
        error_messages={"invalid_choice": "Choose a Size from the list."},
    )
    armored = forms.ChoiceField(
        label="Armored", required=False,
        help_text="Natural armor; it does not stack with worn armor: the better counts.",
        error_messages={"invalid_choice": "Choose an Armored level from the list."},
    )

    def __init__(self, *args, catalog: TraitCatalog, **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        self.fields["size"].choices = [("", "Medium (no Size Trait)")] + [
            (str(t.pk), catalog.label(t, _size_key(t).value)) for t in catalog.sizes
        ]
        self.fields["armored"].choices = [("", "Not armored")] + [
            (str(t.pk), catalog.label(t, f"{t.value.strip().capitalize()}: {t.effects}"))
            for t in catalog.armored
        ]

    def clean_template_name(self):
        return self.cleaned_data["template_name"].strip() or DEFAULT_TEMPLATE

    def _one_of(self, name: str, rows: list[Trait], what: str) -> Trait | None:
        if hasattr(self.data, "getlist") and len(self.data.getlist(self.add_prefix(name))) > 1:
            raise ValidationError("A Template has one %(what)s: choose one.",
                                  code=f"multiple_{name}", params={"what": what})
        raw = self.cleaned_data.get(name)
        return next((t for t in rows if str(t.pk) == raw), None) if raw else None

    def clean_size(self):
        return self._one_of("size", self.catalog.sizes, "Size")

    def clean_armored(self):
        return self._one_of("armored", self.catalog.armored, "Armored level")

    def entries(self) -> list[dict]:
        return [catalog_entry(t) for t in (self.cleaned_data.get("size"),
                                           self.cleaned_data.get("armored")) if t]


class TraitRowForm(forms.Form):
    """One Trait besides Size and Armored: from the catalog, or custom."""

    trait = forms.ChoiceField(
        label="Trait", required=False,
        error_messages={"invalid_choice": "Choose a Trait from the list."},
    )
    name = forms.CharField(
        label="Name of a custom Trait", max_length=100, required=False,
        error_messages={"max_length": "At most %(limit_value)d characters."},
    )
    value = forms.CharField(
        label="Value", max_length=50, required=False,
        help_text="An Element, a Spell, a bane…",
        error_messages={"max_length": "At most %(limit_value)d characters."},
    )
    load = forms.IntegerField(
        label="Load", required=False, help_text="Blank: the Trait's own.",
        min_value=TRAIT_LOAD_RANGE[0], max_value=TRAIT_LOAD_RANGE[1],
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "invalid": "Load must be a whole number.",
            "min_value": "Load must be from %(limit_value)s up.",
            "max_value": "Load must be at most %(limit_value)s.",
        },
    )

    def __init__(self, *args, catalog: TraitCatalog, **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        self.fields["trait"].choices = [
            ("", "Choose a Trait…"),
            ("SRD and homebrew Traits", [(str(t.pk), catalog.label(t)) for t in catalog.others]),
            ("Your own", [(CUSTOM, "Custom Trait…")]),
        ]
        self.entry: dict | None = None  # the valid Trait, set by clean()
        self.preview_entry: dict | None = None  # the best guess while it is being fixed

    @property
    def chosen(self) -> Trait | None:
        """The catalog Trait this row is set to, valid or not (for the hints)."""
        raw = self.data.get(self.add_prefix("trait")) if self.is_bound else self.initial.get(
            "trait")
        return self.catalog.by_pk.get(parse_id(raw))

    @property
    def is_custom(self) -> bool:
        raw = self.data.get(self.add_prefix("trait")) if self.is_bound else self.initial.get(
            "trait")
        return raw == CUSTOM

    @property
    def hint(self) -> str:
        """What the chosen Trait does and weighs, shown under the row."""
        trait = self.chosen
        if trait is None:
            if self.is_custom:
                return ("Your own Trait: give it a name and a Load (advantages add Load, "
                        "drawbacks relieve it).")
            return ""
        effects = trait.effects.strip() or trait.name
        parts = [effects if effects.endswith(".") else effects + "."]
        if trait.has_variable_load:
            parts.append(f"Load {load_text(trait)}: blank takes {trait.load}.")
        else:
            parts.append(f"Load {trait.load}.")
        needs = VALUE_REQUIRED.get(trait.group.strip().casefold())
        if takes_element(trait):
            parts.append(f"Value: {trait.value.strip()}; type an Element ({COMMON_ELEMENTS}) "
                         "to make it elemental.")
        elif trait.value.strip():
            parts.append(f"Value: {trait.value.strip()}.")
        elif needs:
            parts.append(f"Write {needs} as its Value.")
        return " ".join(parts)

    def clean_trait(self):
        raw = self.cleaned_data.get("trait")
        if raw in ("", None, CUSTOM):
            return raw or ""
        trait = self.catalog.by_pk.get(int(raw))
        if trait is None or trait not in self.catalog.others:
            raise ValidationError(self.fields["trait"].error_messages["invalid_choice"],
                                  code="invalid_choice")
        return trait

    def clean_name(self):
        return self.cleaned_data["name"].strip()

    def clean_value(self):
        return self.cleaned_data["value"].strip()

    def clean(self):
        cleaned = super().clean()
        trait, name = cleaned.get("trait"), cleaned.get("name", "")
        value, load = cleaned.get("value", ""), cleaned.get("load")
        if trait == CUSTOM:
            self._clean_custom(name, value, load)
        elif isinstance(trait, Trait):
            self._clean_catalog(trait, value, load)
        elif "trait" not in self.errors and (name or value or load is not None):
            self.add_error("trait", ValidationError(
                "Choose a Trait from the list, or Custom Trait for one of your own.",
                code="trait_required",
            ))
        return cleaned

    def _clean_custom(self, name: str, value: str, load: int | None):
        if not name:
            if "name" not in self.errors:
                self.add_error("name", ValidationError("Give the custom Trait a name.",
                                                       code="name_required"))
            return
        if name.casefold() in ("size", "armored"):
            self.add_error("name", ValidationError(
                "Choose %(name)s in its own list above.", code="reserved_name",
                params={"name": SIZE if name.casefold() == "size" else ARMORED},
            ))
            return
        self.preview_entry = entry(name, value, load or 0)
        if not self.errors:
            self.entry = self.preview_entry

    def _clean_catalog(self, trait: Trait, value: str, load: int | None):
        fixed_value = trait.value.strip()
        if takes_element(trait):
            if value.casefold() == fixed_value.casefold():
                value = ""  # the kind typed again: no Element
            elif "," in value:
                self.add_error("value", ValidationError(
                    "One Element for %(trait)s (%(elements)s…), without commas.",
                    code="element_one", params={"trait": trait.name,
                                                "elements": COMMON_ELEMENTS},
                ))
        elif fixed_value and value and value.casefold() != fixed_value.casefold():
            self.add_error("value", ValidationError(
                "%(trait)s has its value already: clear this field.", code="value_fixed",
                params={"trait": trait.name},
            ))
        needs = VALUE_REQUIRED.get(trait.group.strip().casefold())
        if needs and not value and "value" not in self.errors:
            self.add_error("value", ValidationError(
                "%(trait)s needs %(what)s.", code="value_required",
                params={"trait": trait.group, "what": needs},
            ))
        if load is not None:
            if not trait.has_variable_load and load != trait.load:
                self.add_error("load", ValidationError(
                    "%(trait)s has a Load of %(load)s; only some Traits let you choose.",
                    code="load_fixed", params={"trait": trait.name, "load": trait.load},
                ))
                load = None
            elif trait.has_variable_load and not load_fits(trait, load):
                self.add_error("load", ValidationError(
                    "%(trait)s takes a Load of %(range)s.", code="load_out_of_range",
                    params={"trait": trait.name, "range": load_text(trait)},
                ))
                load = None
        if takes_element(trait):
            stored = catalog_entry(trait, load=load)
            if value and "value" not in self.errors:
                stored["value"] = f"{stored['value']}, {value[:1].upper()}{value[1:]}"
            self.preview_entry = stored
        else:
            self.preview_entry = catalog_entry(trait, "" if fixed_value else value, load)
        if not self.errors:
            self.entry = self.preview_entry


class BaseTraitFormSet(forms.BaseFormSet):
    default_error_messages = {
        "too_many_forms": "At most %(num)d Traits besides Size and Armored.",
        "missing_management_form": "The list of Traits came incomplete: reload the page.",
    }

    def __init__(self, *args, catalog: TraitCatalog, **kwargs):
        # Every row is checked, whatever INITIAL_FORMS says: a blank row is simply
        # skipped, and a stored row posted back unchanged is still saved.
        super().__init__(*args, form_kwargs={"catalog": catalog, "empty_permitted": False},
                         **kwargs)

    def clean(self):
        if self.is_bound and self.management_form.cleaned_data.get("TOTAL_FORMS", 0) < 0:
            raise ValidationError(self.error_messages["missing_management_form"],
                                  code="missing_management_form")
        seen = {}
        for form in self.forms:
            if self.can_delete and self._should_delete_form(form):
                continue
            chosen = form.entry
            if chosen is None:
                continue
            key = (chosen["name"].casefold(), chosen["value"].casefold())
            if key in seen:
                form.add_error("trait", ValidationError(
                    "%(trait)s is chosen already, above.", code="duplicate",
                    params={"trait": seen[key]},
                ))
                form.entry = form.preview_entry = None
            else:
                seen[key] = chosen["name"] + (f" ({chosen['value']})" if chosen["value"] else "")

    def entries(self, *, preview: bool = False) -> list[dict]:
        chosen = []
        for form in self.forms:
            if self.can_delete and self._should_delete_form(form):
                continue
            if not hasattr(form, "cleaned_data"):
                continue
            row = form.preview_entry if preview else form.entry
            if row is not None:
                chosen.append(row)
        return chosen


TraitFormSet = forms.formset_factory(
    TraitRowForm, formset=BaseTraitFormSet, extra=1, can_delete=True,
    max_num=MAX_TRAITS - 2, validate_max=True, absolute_max=MAX_TRAITS,
)
TRAITS_PREFIX = "traits"


@dataclass
class TemplateEditor:
    """The page's two forms: the Template with Size and Armored, and the other Traits."""

    form: TemplateForm
    traits: BaseTraitFormSet

    def is_valid(self) -> bool:
        return all([self.form.is_valid(), self.traits.is_valid()])

    def entries(self, *, preview: bool = False) -> list[dict]:
        """The Traits to store, or (preview) the best guess while some are refused."""
        self.is_valid()
        # A refused Size or Armored level is not guessed: the preview says it cannot
        # compute (cannot_compute) rather than show the stored one's numbers.
        return self.form.entries() + self.traits.entries(preview=preview)

    @property
    def cannot_compute(self) -> list[dict]:
        """Why the numbers cannot be computed from what is chosen: each refused Size,
        Armored level, Trait or Load (the preview would otherwise show the numbers of a
        build that is not the one typed: the stored Size, the Trait's own Load). A
        refused Value leaves the numbers as they are. Empty when they can."""
        if not self.form.is_bound:
            return []
        self.is_valid()
        found = [{"id": self.form[name].id_for_label, "label": self.form[name].label,
                  "errors": self.form.errors[name]}
                 for name in ("size", "armored") if name in self.form.errors]
        if self.traits.non_form_errors():
            found.append({"id": "errors-traits", "label": "Other Traits",
                          "errors": self.traits.non_form_errors()})
        for number, row in enumerate(self.traits.forms, start=1):
            if self.traits.can_delete and self.traits._should_delete_form(row):
                continue
            found.extend({"id": row[name].id_for_label,
                          "label": f"Trait {number}, {row[name].label}",
                          "errors": row.errors[name]}
                         for name in ("trait", "name", "load") if name in row.errors)
        return found

    @property
    def has_errors(self) -> bool:
        return bool(self.form.errors or self.traits.total_error_count())


def initial_from_character(character: EldritchGambitCharacter,
                           catalog: TraitCatalog) -> tuple[dict, list]:
    initial = {"template_name": character.template_name or DEFAULT_TEMPLATE}
    rows = []
    for choice in trait_choices(character.template_traits):
        trait, row = catalog.match(choice)
        name = choice.name.strip().casefold()
        if name in ("size", "armored"):
            field = "size" if name == "size" else "armored"
            if trait is not None and field not in initial:
                initial[field] = str(trait.pk)
            continue
        rows.append(row)
    return initial, rows


def _editor(request: HttpRequest, character: EldritchGambitCharacter, data=None) -> TemplateEditor:
    catalog = TraitCatalog(request.user)
    initial, rows = initial_from_character(character, catalog)
    form = TemplateForm(data, initial=initial, catalog=catalog)
    traits = TraitFormSet(data, initial=rows, prefix=TRAITS_PREFIX, catalog=catalog)
    return TemplateEditor(form, traits)


# ---------------------------------------------------------------------------
# Views


def _character_for(request: HttpRequest, pk: int) -> EldritchGambitCharacter:
    queryset = EldritchGambitCharacter.objects.editable_by(request.user).with_progress()
    return get_object_or_404(queryset, pk=pk)


def template_update(*, character: EldritchGambitCharacter, name: str,
                    traits: list[dict]) -> EldritchGambitCharacter:
    """Write the Template: its name and the Traits, as the engine reads them."""
    character.template_name = name or DEFAULT_TEMPLATE
    character.template_traits = traits
    character.save(update_fields=["template_name", "template_traits", "updated_at"])
    return character


def _sheet(character: EldritchGambitCharacter, items: list, traits: list[dict]):
    """The sheet with these Traits in place of the stored ones (the preview)."""
    build = replace(build_from_character(character, items), traits=trait_choices(traits))
    return compute_sheet(build)


def _render(request, character, editor, items, *, preview: bool, status=200):
    cannot_compute = editor.cannot_compute
    if cannot_compute:
        sheet = None  # the panel says why instead
    elif editor.form.is_bound:
        sheet = _sheet(character, items, editor.entries(preview=True))
    else:
        sheet = _sheet(character, items, character.template_traits)
    context = {
        "character": character, "editor": editor, "form": editor.form,
        "traits": editor.traits, "sheet": sheet,
        "weapons": selectors.weapon_stats(sheet) if sheet else [], "cannot_compute": cannot_compute,
    }
    template = "characters/character_template.html"
    if preview:
        template += "#live-preview"
    elif request.htmx and request.htmx.target == "template-editor":
        template += "#template-editor"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def character_template(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character_for(request, pk)
    items = list(character.items.select_related("catalog_item"))
    if request.method == "GET":
        return _render(request, character, _editor(request, character), items, preview=False)

    data = request.POST.copy()
    if request.POST.get("action") == "add_trait":
        # One more row to fill in; nothing is saved.
        key = f"{TRAITS_PREFIX}-TOTAL_FORMS"
        total = parse_id(data.get(key, ""))
        if total is not None and total < MAX_TRAITS:
            data[key] = str(total + 1)
        return _render(request, character, _editor(request, character, data), items,
                       preview=False)

    editor = _editor(request, character, data)
    if editor.is_valid():
        template_update(character=character, name=editor.form.cleaned_data["template_name"],
                        traits=editor.entries())
        messages.success(request, f"The Template of {character.display_name} was saved.")
        return redirect(character)
    messages.error(request, "Nothing was saved: please correct the marked fields.")
    return _render(request, character, editor, items, preview=False)


@login_required
@require_POST
def character_template_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The live preview: the derived stats with the submitted Traits; saves nothing.

    Answers with the stats panel and, out of band, each field's error slot and each
    row's hint; it never replaces the inputs being typed in.
    """
    character = _character_for(request, pk)
    items = list(character.items.select_related("catalog_item"))
    editor = _editor(request, character, request.POST)
    return _render(request, character, editor, items, preview=True)
