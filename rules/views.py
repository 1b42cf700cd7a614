"""The rules reference (the SRD catalog) and a player's homebrew gear and Traits.

Homebrew rows belong to their author: every homebrew queryset here starts from
`owner=request.user`, so another player's row is a 404, never a page. A row shared with a
campaign is seen and used by its members (`visible_to`), but only its author edits it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_safe

from . import reference, systems
from .catalog import sources_of
from .engine.eldritch_gambit import chapters, checks, levels, scenes, statuses
from .forms import GearItemForm, TraitForm
from .models import GearCategory, GearItem, Trait


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    """The rules reference: the chapters (Basics, Characters...), the Scenes chapter,
    statuses, Gambits, Difficulties, Levels,
    the SRD's gear tables and its Traits, with their source credited. Public."""
    gear = list(GearItem.objects.srd().select_related("source").order_by("category", "name"))
    by_category = {category: [] for category in GearCategory.values}
    for item in gear:
        by_category[item.category].append(item)
    traits = list(Trait.objects.srd().order_by("group", "load", "name"))
    return render(request, "rules/index.html", {
        "armor": sorted(by_category[GearCategory.ARMOR], key=lambda i: i.armor_rank or 0),
        "shields": sorted(by_category[GearCategory.SHIELD], key=lambda i: i.shield_af or 0),
        "weapons": by_category[GearCategory.WEAPON],
        "items": by_category[GearCategory.ITEM],
        "loads": sorted(by_category[GearCategory.LOAD], key=lambda i: (i.load, i.name)),
        "traits": traits,
        "sources": sources_of([*gear, *traits]),
        "credit": reference.source_credit(),
        "chapters": scenes.CHAPTERS,
        "srd_chapters": [
            {"chapter": chapter, "url": reverse("rules:chapter", args=[key]),
             "rows": [_section_row(chapter, s) for s in chapter.sections if not s.parent]}
            for key, chapter in chapters.CHAPTERS.items()
        ],
        "staging": [(rule, reference.rule_url(rule)) for rule in scenes.STAGING],
        "actions": [_action_row(a) for a in scenes.ACTIONS_ONLY],
        "montages": [_action_row(a) for a in scenes.MONTAGES],
        "scenery": [(rule, reference.rule_url(rule)) for rule in scenes.SCENERY],
        "statuses": [
            {"rule": rule, "anchor": reference.status_anchor(rule.key),
             "url": reverse("rules:status", args=[rule.key])}
            for rule in statuses.STATUSES
        ],
        "criticals": [(name, effect, reference.critical_anchor(name))
                      for name, effect in scenes.STANDARD_CRITICALS],
        "botches": [(name, effect, reference.botch_anchor(name))
                    for name, effect in scenes.STANDARD_BOTCHES],
        "difficulties": checks.DIFFICULTIES,
        "levels": [_level_row(level) for level in reference.LEVEL_TABLE],
        "other_systems": [_system_row(system, found)
                          for system, found in systems.with_references()],
        "query": "",
    })


# -- the other game systems' references (GameSystem.reference) --------------------------


def _system_row(system, found) -> dict:
    """A system's reference as its index lists it: each chapter with its entries."""
    return {"system": system, "reference": found,
            "url": reference.system_index_url(system.key),
            "chapters": [_system_chapter_row(system.key, chapter)
                         for chapter in found.chapters]}


def _system_chapter_row(key: str, chapter) -> dict:
    return {"chapter": chapter, "url": reference.system_chapter_url(key, chapter.key),
            "rows": [_system_entry_row(key, chapter, entry)
                     for entry in chapter.entries if not entry.parent]}


def _system_entry_row(key: str, chapter, entry) -> dict:
    return {"entry": entry, "url": reference.system_entry_url(key, entry),
            "children": [{"entry": child, "url": reference.system_entry_url(key, child)}
                         for child in chapter.children(entry)]}


def _system_reference(key: str):
    system = systems.find(key)
    found = systems.reference_of(system) if system is not None else None
    if found is None:
        raise Http404("No such game in the rules reference.")
    return system, found


@require_safe
def system_index(request: HttpRequest, system: str) -> HttpResponse:
    """A game system's reference: its chapters and their entries. Public."""
    game, found = _system_reference(system)
    return render(request, "rules/system_index.html", {
        "row": _system_row(game, found), "system": game, "reference": found})


@require_safe
def system_chapter(request: HttpRequest, system: str, chapter: str) -> HttpResponse:
    """One chapter of a game system's reference, every entry linked. Public."""
    game, found = _system_reference(system)
    part = found.chapter(chapter)
    if part is None:
        raise Http404("No such chapter.")
    return render(request, "rules/system_chapter.html", {
        "row": _system_chapter_row(game.key, part), "chapter": part, "system": game,
        "reference": found, "system_url": reference.system_index_url(game.key)})


@require_safe
def system_entry(request: HttpRequest, system: str, chapter: str, slug: str) -> HttpResponse:
    """One entry of a game system's reference (a heading of its SRD, a status, a Twist,
    a table), with the source's attribution. Public."""
    game, found = _system_reference(system)
    part = found.chapter(chapter)
    entry = part.entry(slug) if part is not None else None
    if entry is None:
        raise Http404("No such entry in this chapter.")
    before, after = _neighbours(list(part.entries), entry)
    parent = part.entry(entry.parent) if entry.parent else None
    url = reference.system_entry_url
    return render(request, "rules/system_entry.html", {
        "entry": entry, "chapter": part, "system": game, "reference": found,
        "system_url": reference.system_index_url(game.key),
        "chapter_url": reference.system_chapter_url(game.key, part.key),
        "parent": parent and (parent, url(game.key, parent)),
        "children": [(child, url(game.key, child)) for child in part.children(entry)],
        "before": before and (before, url(game.key, before)),
        "after": after and (after, url(game.key, after)),
    })


def _action_row(action: scenes.Action) -> dict:
    return {"action": action, "url": reference.action_url(action)}


def _level_row(level: int) -> dict:
    tier = levels.tier(level)
    starts = any(start == level for start, _ in levels.TIERS)
    return {"level": level, "points": levels.attribute_points(level),
            "max": levels.attribute_max(level), "tier": tier, "tier_starts": starts}


def _neighbours(entries, current) -> tuple:
    """The entries before and after `current` in its section, for prev/next links."""
    position = entries.index(current)
    before = entries[position - 1] if position > 0 else None
    after = entries[position + 1] if position + 1 < len(entries) else None
    return before, after


def _entry_page(request, template: str, context: dict) -> HttpResponse:
    context.setdefault("credit", reference.source_credit())
    return render(request, template, context)


@require_safe
def action_detail(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """One Action or Montage, rendered from its fields. Public."""
    try:
        action = scenes.action(slug)
    except KeyError:
        raise Http404("No such Action or Montage.") from None
    if action.kind != kind:  # /rules/actions/crafting/ -> the Montage's own address
        return redirect(reference.action_url(action), permanent=True)
    siblings = list(scenes.ACTIONS_ONLY if kind == "action" else scenes.MONTAGES)
    before, after = _neighbours(siblings, action)
    return _entry_page(request, "rules/action_detail.html", {
        "entry": action,
        "section_name": scenes.CHAPTERS[action.url_group].name,
        "section_anchor": f"{action.url_group}-heading",
        "before": before and (before, reference.action_url(before)),
        "after": after and (after, reference.action_url(after)),
        "critical_defaults": reference.default_links(action.default_critical_options,
                                                     "critical"),
        "botch_defaults": reference.default_links(action.default_botch_options, "botch"),
        "mentioned": reference.mentioned_in(
            [action.summary, *(text for _, text in action.outcomes.items()), *action.notes],
            reference.action_url(action)),
    })


@require_safe
def rule_detail(request: HttpRequest, slug: str, group: str) -> HttpResponse:
    """One Staging rule (Initiative, Time...) or Scenery rule (Cover, Fire...). Public."""
    try:
        rule = scenes.rule(group, slug)
    except KeyError:
        raise Http404("No such rule.") from None
    siblings = list(scenes.STAGING if group == "staging" else scenes.SCENERY)
    before, after = _neighbours(siblings, rule)
    return _entry_page(request, "rules/rule_detail.html", {
        "entry": rule,
        "section_name": scenes.CHAPTERS[group].name,
        "section_anchor": f"{group}-heading",
        "before": before and (before, reference.rule_url(before)),
        "after": after and (after, reference.rule_url(after)),
        "mentioned": reference.mentioned_in(rule.text, reference.rule_url(rule)),
    })


@require_safe
def status_detail(request: HttpRequest, key: str) -> HttpResponse:
    """One Status: the engine's summary of its effect and the SRD's words. Public."""
    rule = statuses.STATUS_BY_KEY.get(key)
    if rule is None:
        raise Http404("No such Status.")
    siblings = list(statuses.STATUSES)
    before, after = _neighbours(siblings, rule)
    return _entry_page(request, "rules/status_detail.html", {
        "entry": rule,
        "srd": scenes.STATUS_TEXT_BY_KEY.get(key),
        "section_name": "Statuses",
        "section_anchor": "statuses-heading",
        "before": before and (before, reverse("rules:status", args=[before.key])),
        "after": after and (after, reverse("rules:status", args=[after.key])),
        "mentioned": reference.mentioned_in(
            [rule.effect, scenes.STATUS_TEXT_BY_KEY[key].plain if key in
             scenes.STATUS_TEXT_BY_KEY else ""], reverse("rules:status", args=[key])),
    })


def _chapter(key: str) -> chapters.Chapter:
    try:
        return chapters.CHAPTERS[key]
    except KeyError:
        raise Http404("No such chapter.") from None


def _section_row(chapter: chapters.Chapter, section: chapters.Section) -> dict:
    return {"section": section, "url": reference.section_url(section),
            "children": [{"section": child, "url": reference.section_url(child)}
                         for child in chapter.children(section)]}


@require_safe
def chapter_detail(request: HttpRequest, chapter: str) -> HttpResponse:
    """A chapter's contents (Basics, Characters...): its headings, each linked. Public."""
    found = _chapter(chapter)
    return render(request, "rules/chapter_detail.html", {
        "chapter": found,
        "rows": [_section_row(found, s) for s in found.sections if not s.parent],
        "credit": reference.source_credit(),
    })


@require_safe
def section_detail(request: HttpRequest, chapter: str, slug: str) -> HttpResponse:
    """One heading of a chapter (Basics > Rolls > Rerolls) and its text. Public."""
    found = _chapter(chapter)
    try:
        section = chapters.section(chapter, slug)
    except KeyError:
        raise Http404("No such entry in this chapter.") from None
    siblings = list(found.sections)
    before, after = _neighbours(siblings, section)
    url = reference.section_url(section)
    parent = chapters.section(chapter, section.parent) if section.parent else None
    return _entry_page(request, "rules/section_detail.html", {
        "entry": section,
        "chapter": found,
        "section_name": found.name,
        "section_url": reverse("rules:chapter", args=[found.key]),
        "parent": parent and (parent, reference.section_url(parent)),
        "children": _section_row(found, section)["children"],
        "before": before and (before, reference.section_url(before)),
        "after": after and (after, reference.section_url(after)),
        "mentioned": reference.mentioned_in([section.plain], url),
    })


@require_safe
def rules_search(request: HttpRequest) -> HttpResponse:
    """Search the reference: the results partial for htmx, a whole page otherwise. Public."""
    query = request.GET.get("q", "").strip()
    error = ""
    matches: list = []
    if len(query) > reference.MAX_QUERY:
        error = f"Search for at most {reference.MAX_QUERY} characters (you typed {len(query)})."
    elif query:
        matches = reference.search(query)
    context = {
        "query": query,
        "error": error,
        "matches": matches[: reference.MAX_RESULTS],
        "total": len(matches),
        "max_results": reference.MAX_RESULTS,
        "credit": reference.source_credit(),
    }
    if request.htmx:
        response = render(request, "rules/_search_results.html", context)
    else:
        response = render(request, "rules/search.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
def homebrew_list(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/homebrew_list.html", {
        "gear": GearItem.objects.filter(owner=request.user).order_by("category", "name"),
        "traits": Trait.objects.filter(owner=request.user).order_by("group", "name"),
    })


KINDS = {
    "gear": (GearItem, GearItemForm, "rules/gearitem_form.html", "gear item"),
    "trait": (Trait, TraitForm, "rules/trait_form.html", "Trait"),
}


def _homebrew_form(request: HttpRequest, kind: str, pk: int | None) -> HttpResponse:
    model, form_class, template, noun = KINDS[kind]
    instance = get_object_or_404(model, owner=request.user, pk=pk) if pk else None
    form = form_class(request.POST or None, instance=instance, owner=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                row = form.save()
        except IntegrityError:
            # Only a race can get here (the form checks every constraint first):
            # the same name saved twice at once.
            form.add_error("name", "You already have one called that.")
        else:
            verb = "saved" if instance else "created"
            messages.success(request, f"{row.name} was {verb}.")
            return redirect("rules:homebrew")
    elif request.method == "POST":
        messages.error(request, "Nothing was saved: please correct the marked fields.")
    return render(request, template, {"form": form, "object": instance, "noun": noun})


@login_required
@require_http_methods(["GET", "POST"])
def gear_create(request: HttpRequest) -> HttpResponse:
    return _homebrew_form(request, "gear", None)


@login_required
@require_http_methods(["GET", "POST"])
def gear_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _homebrew_form(request, "gear", pk)


@login_required
@require_http_methods(["GET", "POST"])
def trait_create(request: HttpRequest) -> HttpResponse:
    return _homebrew_form(request, "trait", None)


@login_required
@require_http_methods(["GET", "POST"])
def trait_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _homebrew_form(request, "trait", pk)


def _in_inventories(item: GearItem):
    """The characters' inventory lines that use the item, through their foreign key's
    related name: characters is the higher app, so it is not imported here."""
    return item.inventory_items.all()


@login_required
@require_http_methods(["GET", "POST"])
def gear_delete(request: HttpRequest, pk: int) -> HttpResponse:
    item = get_object_or_404(GearItem, owner=request.user, pk=pk)
    lines = _in_inventories(item)
    if request.method == "POST":
        with transaction.atomic():
            # Gear lines that used it become free-text items: keep their Load.
            lines.filter(load__isnull=True).update(load=item.load)
            item.delete()
        messages.success(request, f"{item.name} was deleted.")
        return redirect("rules:homebrew")
    return render(request, "rules/homebrew_confirm_delete.html", {
        "object": item, "noun": "gear item", "in_use": lines.count(),
    })


@login_required
@require_http_methods(["GET", "POST"])
def trait_delete(request: HttpRequest, pk: int) -> HttpResponse:
    trait = get_object_or_404(Trait, owner=request.user, pk=pk)
    if request.method == "POST":
        trait.delete()
        messages.success(request, f"{trait.name} was deleted.")
        return redirect("rules:homebrew")
    return render(request, "rules/homebrew_confirm_delete.html", {
        "object": trait, "noun": "Trait", "in_use": None,
    })
