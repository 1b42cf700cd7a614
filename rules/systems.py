"""The registry of game systems: how the generic parts of the app know a game.

A game system is registered once, by the AppConfig of its package in `characters/systems/`
(listed in INSTALLED_APPS). Generic code (accounts, the character shell, campaigns, the
print pipeline, the exchange envelope) asks this registry for a system by the key stored on
`Character.system` and `Campaign.system`, and calls what the system provides; it never
imports a system's package. README, "Adding a game system", walks through one.

This module sits in the lowest app layer, so it imports no app's models: a system hands
over its classes when it registers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from django.core.exceptions import ImproperlyConfigured

# The key of the one system of every character and campaign made before systems existed
# (the migrations' default).
ELDRITCH_GAMBIT = "eldritch-gambit"
KEY_MAX_LENGTH = 40


@dataclass(frozen=True)
class SheetTemplates:
    """The templates of a system's character pages. The generic pages extend or render
    them; each shows the system's name and licence line (`system` is in the context)."""

    # The builder page: extends "characters/builder_base.html" and defines the partials
    # "builder" (the form, swapped whole by htmx) and "live-preview" (the derived numbers
    # panel the form posts to on every keystroke, and each field's error slot).
    builder: str
    # The character's page: extends "characters/detail_base.html" (its `sheet` block).
    detail: str
    # The printed sheet, for the browser and WeasyPrint alike: extends "base_print.html";
    # one page per entry of `sheets` (what `printed_sheets` made).
    print: str
    # One column of the Compare page (`sheet` and `character` in its context); "" for a
    # system whose characters show no numbers there.
    compare: str = ""


@dataclass(frozen=True)
class LineLoad:
    """A line of gear's Load as its system counts it, for the party stash's page."""

    load: int  # the line's, all its units
    capacity: int | None = None  # a container: the Load it holds; None for another line
    inside: int | None = None  # a container: the Load of what sits in it

    @property
    def over(self) -> bool:
        return self.inside is not None and self.capacity is not None \
            and self.inside > self.capacity


@dataclass(eq=False)
class GameSystem:
    """What a game system is to the generic code.

    `key` is stored on characters and campaigns and names the exchange format; `name` and
    `licence` show on every sheet and on the About page. The rest are the system's parts,
    set by its package when it registers (see README, "Adding a game system"); the
    generic character pages call only these.
    """

    key: str
    name: str
    # One line: the text's title, author, licence and where it comes from.
    licence: str
    # The model of a character of this system: a multi-table child of characters.Character
    # holding the build's typed columns.
    character_model: Any = None
    # The body of the system's character file (characters/exchange.py holds the envelope):
    # an object with `format`, `version`, `export_body(character)` and
    # `import_body(*, owner, data, version)`.
    exchange: Any = None

    # -- the character pages (characters/views.py, characters/print_views.py) ------------
    # The builder's form class, built as
    #   form_class(data_or_None, initial=..., user=..., character=..., items=..., joining=...)
    # (`character` None for a new one; `items` its inventory lines; `joining` the campaign a
    # new character is built for, or None). Besides a Form's API it has `preview_sheet()`:
    # the derived numbers to show in the live preview (from what is typed when bound, else
    # from the initial data), or None while a field they come from cannot be read; and
    # `cannot_compute`: those fields with their errors (empty when the numbers show).
    form_class: Any = None
    # The builder's initial data for a new character (a mapping of form field values).
    new_character_initial: Mapping[str, Any] = field(default_factory=dict)
    # initial_from_character(character, items) -> dict: the builder's initial data for a
    # stored character.
    initial_from_character: Callable[..., dict] | None = None
    # sheet(character, items=None) -> the derived numbers the pages show, from the
    # system's engine (the same function for the page, the builder and the print).
    sheet: Callable[..., Any] | None = None
    # summary(character) -> one line for the character list ("Level 10 Human"); the
    # character carries the ledger sums (level_total, xp_total, coins_total).
    summary: Callable[[Any], str] | None = None
    # create(*, owner, data) and update(*, character, data, by) -> the saved character,
    # from the builder form's cleaned_data; each in one transaction.
    create: Callable[..., Any] | None = None
    update: Callable[..., Any] | None = None
    # printed_sheets(characters) -> (sheets, portraits): what `templates.print` places for
    # each character (inventory prefetched), and the portraits the PDF may load
    # (URL path -> storage name).
    printed_sheets: Callable[[list], tuple[list, dict]] | None = None
    templates: SheetTemplates | None = None
    # The builder's dice helpers, if the system has any: the posted `action` values they
    # answer, and builder_roll(action, data, *, rng, character, joining) -> the dice shown
    # (a list of {"label", "dice", "total", "result"}), changing `data` in place.
    builder_roll_actions: frozenset[str] = frozenset()
    builder_roll: Callable[..., list[dict]] | None = None
    # stash_loads(items) -> ({item pk: LineLoad}, total): the Load of each line of the
    # party stash (the campaign's InventoryItems, catalog_item loaded) and of the whole
    # stash, as the system counts it; None for a system whose gear has no Load (the
    # stash's page shows none). Moving gear between owners is generic
    # (campaigns/transfers.py); what it weighs is the system's.
    stash_loads: Callable[[list], tuple[dict[int, LineLoad], int]] | None = None
    # The system's own character pages, if it has any (Eldritch Gambit's inventory and
    # Template page): a URLconf module's dotted path, or a list of URL patterns.
    # config/urls.py serves them under characters/ in the "characters" namespace, beside
    # the generic pages, so their names read `characters:<name>` in every template.
    urls: str | list | None = None

    # -- the campaign side (campaigns/) ----------------------------------------------------
    # Campaigns, sessions, the XP ledger, recaps and the stash are generic; what a system
    # adds to them lives in its campaign package, campaigns/systems/<system>/, named here
    # as a dotted path ("" for none) because this layer imports no app: its urls.py holds
    # `campaign_urlpatterns` (under /campaigns/) and `character_urlpatterns` (under
    # /characters/), which the generic URLconfs add (two systems' patterns may share
    # neither a route nor a name: refuse_url_clashes), and the links the generic pages show
    # to them, `campaign_links(campaign)` (the campaign's page: Eldritch Gambit's
    # "Initiative") and `session_links(session)` (the session's page: its "Roll log"), each
    # a list of (label, url); its models.py and admin.py, if any,
    # are imported by the campaigns app's own (campaigns.systems.import_each). Its views
    # answer 404 for a campaign or character of another system.
    campaign_package: str = ""

    def __str__(self) -> str:
        return self.name


_registry: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    if not system.key or len(system.key) > KEY_MAX_LENGTH:
        raise ImproperlyConfigured(f"A game system's key must be 1 to {KEY_MAX_LENGTH} "
                                   f"characters: {system.key!r}.")
    known = _registry.get(system.key)
    if known is not None and known is not system:
        raise ImproperlyConfigured(f"Two game systems registered the key {system.key!r}.")
    _registry[system.key] = system
    return system


def unregister(key: str) -> None:
    """For tests that register a system for their own run."""
    _registry.pop(key, None)


def get(key: str) -> GameSystem:
    """The system of a key stored in the database; a key no installed system registers is
    a configuration error, said as such."""
    try:
        return _registry[key]
    except KeyError:
        raise ImproperlyConfigured(
            f"No game system {key!r} is installed; add its package to INSTALLED_APPS."
        ) from None


def find(key: str | None) -> GameSystem | None:
    """The system of a key typed by a user (a form, a query string), or None."""
    return _registry.get(key) if isinstance(key, str) else None


def all_systems() -> Iterator[GameSystem]:
    """Every registered system, by name."""
    return iter(sorted(_registry.values(), key=lambda system: system.name))


def url_patterns() -> list:
    """Every registered system's own character pages (GameSystem.urls), for the
    "characters" namespace of config/urls.py."""
    each = []
    for system in all_systems():
        urls = system.urls
        if isinstance(urls, str):
            urls = import_module(urls).urlpatterns
        each.append((system, list(urls or ())))
    return refuse_url_clashes("GameSystem.urls", each)


# A path converter's variable name does not change which URLs a route matches:
# "<id:pk>/initiative/" and "<id:campaign>/initiative/" are one route.
_CONVERTER = re.compile(r"<(?:(?P<converter>[^>:]+):)?[^>]+>")


def _routes(patterns, prefix: str = "") -> Iterator[tuple[str, str | None]]:
    """(route, name) of every pattern, an include()'s flattened under its prefix."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if hasattr(pattern, "url_patterns"):  # an include()
            yield from _routes(pattern.url_patterns, route)
        else:
            yield (_CONVERTER.sub(lambda m: f"<{m['converter'] or 'str'}>", route),
                   pattern.name)


def refuse_url_clashes(where: str, each: list[tuple[GameSystem, list]]) -> list:
    """The URL patterns of every system in `each` ((system, patterns) pairs that one
    URLconf serves side by side), one list; ImproperlyConfigured, when the URLconf loads,
    if two systems declare the same route (the first would answer for both) or the same
    URL name (`reverse` would find only one)."""
    routes: dict[str, GameSystem] = {}
    names: dict[str, GameSystem] = {}
    patterns = []
    for system, own in each:
        for route, name in _routes(own):
            for kind, what, seen in (("route", route, routes), ("URL name", name, names)):
                if what is None:
                    continue
                other = seen.setdefault(what, system)
                if other is not system:
                    raise ImproperlyConfigured(
                        f"{other.name} and {system.name} both declare the {kind} "
                        f"{what!r} in {where}: give one of them another.")
        patterns += own
    return patterns


def choices() -> list[tuple[str, str]]:
    return [(system.key, system.name) for system in all_systems()]
