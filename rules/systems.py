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
    # for_sheets(queryset) -> the queryset loading what `sheet` reads beside the
    # character's row (its ledgers' sums, its gear lines), so that a page of many sheets
    # (the party dashboard) costs no query per character; None: nothing more to load.
    for_sheets: Callable[[Any], Any] | None = None
    # The select_related paths of an inventory line that the system's sheet and detail
    # template read beside the line's own row: characters.views.lines_for_sheet loads a
    # character's lines with them, in one query however many lines there are (Eldritch
    # Gambit: the SRD or homebrew catalog row a line was taken from; METTLE Core: a
    # weapon line's table row and the container a line sits in; Errant: each line's
    # ErrantItem). A path not named is not joined: a line of a game whose lines have no
    # catalog row reads None for it without a query.
    line_related: tuple[str, ...] = ()
    # summary(character) -> one line for the character list ("Level 10 Human"); the
    # character carries the ledger sums (level_total, xp_total, coins_total).
    summary: Callable[[Any], str] | None = None
    # What the generic pages (the character list, the campaign's party, the join page, the
    # ritual's table) show of a character's standing: the ledger sums the system's
    # advancement uses, as (label, attribute of the character, data-stat name), in order.
    # The XP ledger is every system's; a Level is Eldritch Gambit's.
    progress: tuple[tuple[str, str, str], ...] = (("XP", "xp_total", "xp"),)
    # What the game calls the one who runs the table (Eldritch Gambit's Imp, METTLE Core's
    # Guide): the generic campaign pages name the campaign's owner and co-owners so.
    game_master: str = "game master"
    # create(*, owner, data) and update(*, character, data, by) -> the saved character,
    # from the builder form's cleaned_data; each in one transaction.
    create: Callable[..., Any] | None = None
    update: Callable[..., Any] | None = None
    # copy_xp(character) -> int: the XP a copy of the character opens its XP ledger with
    # (characters.services.character_duplicate); None: the ledger's sum. METTLE Core's
    # raises bought in play are both on the build and spent in the ledger, so its copy,
    # which keeps the raises, opens with the XP earned.
    copy_xp: Callable[[Any], int] | None = None
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
    # What the stash's page calls those numbers (Errant counts Item Slots, not Load).
    stash_unit: str = "Load"
    # The URL name of a character's inventory page, among the system's own pages (its
    # `urls`), "" for none: the party stash's page links there.
    inventory_url: str = ""
    # duplicated(source, copy, items): what the system keeps beside a duplicated
    # character's build and inventory, copied too (`items`: {original line pk: its copy};
    # METTLE Core: a weapon line's table row, the Credit lost); None for nothing.
    duplicated: Callable[..., None] | None = None
    # lines_handed(lines, *, split_from, to_character): what the system keeps beside
    # inventory lines that just changed hands (campaigns/transfers.py, in its
    # transaction): `lines` the line and what is inside it, `split_from` the line a part
    # of a stack was split from (None: the whole line moved). Errant: the ErrantItem row
    # of a split part is copied, and an item lands in the receiver's backpack. None: nothing.
    lines_handed: Callable[..., None] | None = None
    # campaign_changed(character, *, campaign, joined, by): what joining or leaving a
    # campaign does to the system's own rows, inside that transaction (METTLE Core: lost
    # Credit recovers "between campaigns"); None for nothing.
    campaign_changed: Callable[..., None] | None = None
    # join_refusal(character, campaign) -> str: why the system refuses the character
    # joining the campaign (campaigns.services.character_join, checked after the generic
    # rules, in its transaction, the character's row locked), "" to let it join; METTLE
    # Core: a Freestyle budget above the campaign's (AMB-M-BUD-1). None: no refusal.
    join_refusal: Callable[..., str] | None = None
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
    # to them, `campaign_links(campaign, *, runs)` (the campaign's page: Eldritch Gambit's
    # "Initiative"; `runs` says whether the viewer runs the campaign) and
    # `session_links(session)` (the session's page: its "Roll log"), each
    # a list of (label, url); its models.py and admin.py, if any,
    # are imported by the campaigns app's own (campaigns.systems.import_each). Its views
    # answer 404 for a campaign or character of another system.
    campaign_package: str = ""
    # Advancement and the start-of-session ritual. The XP ledger, sessions, absences and
    # the Highlights rounds (1 to 3 times around the table, 1 XP an answer) are generic
    # (campaigns/services.py); what comes after the Highlights and what the XP buys are
    # the system's. `ritual` is an object, or its dotted path (campaigns.rituals resolves
    # it: this layer imports no app, and a character package may not import the campaign
    # side), usually `<campaign_package>.ritual.RITUAL`; None: no Highlights, and the XP
    # buys nothing by itself (campaigns.rituals.NO_RITUAL). A system may subclass
    # campaigns.rituals.NoRitual and override only what it has. The object has:
    #   highlights: bool -- sessions after the first open with Highlights rounds.
    #   steps_done(session, character) -> bool: the character's own steps after its
    #     Highlights in that session are done (Eldritch Gambit: it invested in its Quest).
    #     While a present character's turns or steps in an open ritual are not done, the
    #     ritual holds what its XP buys, until they are or the Imp closes the ritual.
    #   took_part(session, character) -> bool: it did a step in the session already (then
    #     it cannot be marked absent).
    #   participants(session) -> a Q over characters.Character: those who did a step in
    #     the session (they settle when it closes, even if they left the campaign).
    #   history(campaign) -> a Q over characters.Character: those with the system's
    #     history in the campaign (their pages stay open after they left it).
    #   settle(character, by) -> list of XpEntry: buy what the XP pays for now (Eldritch
    #     Gambit: Levels while XP >= Level), the character's row locked; the generic
    #     services call it after every XP change that no open ritual holds.
    #   waiting_note(character) -> str: a sentence (with its leading space) added to the
    #     Highlight award's message when the XP pays for something the ritual holds, or "".
    #   held_note(character) -> str: the same after an Imp's XP adjustment or another XP
    #     gain ("" when nothing waits).
    #   close_message(session, bought) -> str: what closing the ritual says (`bought`:
    #     character -> the entries settle() wrote).
    #   session_started(session): what a new session does to the party (Eldritch Gambit:
    #     the first one refills WP); inside the session_start transaction.
    #   entry_session_id(entry_pk) -> int | None: the session of a step's XP entry (an undo
    #     locks it and opens its ritual again).
    #   check_undo(entry, character, highlight): refuse (raise campaigns.services.
    #     CampaignError) undoing an entry, or the Highlight it awarded (None if not one),
    #     before the Level check; undo(entry, character): refuse or take back what the
    #     system's rows hang on the entry (a Quest investment, a payout), after it.
    #   session_context(session, rows, *, user, runs) -> dict: what its templates show on
    #     the session page; `rows` are the ritual table's (campaigns.selectors.RitualRow),
    #     each with an `extra` dict for the system to fill.
    #   templates: a mapping of the generic pages' slots to the system's templates ("" or
    #     left out: nothing): "session" (the ritual section of the session page; with
    #     Highlights and none, the generic campaigns/includes/session_ritual.html, which a
    #     system's own extends), "member" (a player's own character on the campaign page),
    #     "party" (its note in that row), "party_columns" (its columns of the party table,
    #     after the generic Character, Player, Level and the Imps' XP: the headings with
    #     heading=True, else one row's cells; `runs`, and `row` with row.ritual, and for the
    #     Imps row.sheet and row.statuses, computed only for a system that has this slot),
    #     "progress" (the Level and XP card of the campaign's character page; the generic
    #     one shows the ledger's sums),
    #     "character" (that page's next card, above the ledger).
    #   labels: a mapping of the generic pages' words for it ("character_link": the link
    #     to a character's campaign page; "history": what a character who leaves keeps;
    #     "ledger_sources": what moves its XP ledger; campaigns.rituals.labels fills in
    #     defaults, and the {% ritual_labels %} tag gives them to a template).
    #   party_context(campaign, characters=None) -> dict: character pk -> what "party"
    #     shows (the party's rows, as `row.ritual`; `characters`: the party's, as the
    #     system's character model, when the caller has read them).
    #   party_version_columns(character) -> (annotations, columns): what the party
    #     dashboard shows of the system's own rows, as annotations (FilteredRelation,
    #     Subquery: never more than a row per character) and the columns they give, for
    #     the dashboard poll's one query (`character`: the path to the character from its
    #     root; its polls answer "nothing new" while these and the generic rows stay the
    #     same: campaigns/polling.py, party_version).
    #   member_context(session, characters) -> dict: character pk -> what "member" shows
    #     of the player's own characters in the latest session (as `row.step`).
    #   character_context(character, membership, **forms) -> dict: what "character" shows
    #     (`forms`: the system's own bound forms, when its page re-renders with errors).
    ritual: Any = None
    # A campaign's settings, if the system has any: a Django form class (the character
    # package's; not a dotted path: campaigns import characters). Its fields show inside
    # the generic campaign form (their names may not be one of that form's own: name,
    # system, pitch, default_highlight_rounds, request_key), their errors beside them;
    # its cleaned_data, JSON-serialisable, is what `Campaign.settings` stores, and the
    # campaign_create service binds it to the settings it is given (its fields' initial
    # values when given none) and refuses them unless valid: the form is the invariant.
    # The system's code reads a setting through its own accessor (a campaign made before
    # a setting existed has none stored). Besides a Form's API, the class has
    #   summary(settings) -> str: a few words for the campaign's page and list
    #     (Eldritch Gambit: "starting Level 10");
    #   new_character(settings) -> str: what a character built for the campaign starts
    #     with, for the generic pages' notes ("it starts at the campaign's Level 10"), or "".
    # None: the campaign has no settings.
    campaign_settings_form: Any = None
    # The system's example for `manage.py seed_demo`: a callable, or its dotted path (the
    # campaign side may seed a demo campaign), seeding it once (safe to run again) and
    # returning {"users": [(username, password, role), ...], "campaigns": [Campaign, ...]}
    # for the command to list; None: no demo.
    demo: Any = None
    # The system's rules reference, if the rules app serves one for it: a callable, or its
    # dotted path, returning a rules.engine.reference.Reference (its chapters of entries,
    # each with the citation its explanations write, and its source's attribution). The
    # rules app serves it at /rules/<key>/<chapter>/<slug>/, lists its chapters on the
    # reference's index, searches it beside the others and links the system's citations
    # to it (rules.reference.citation_url(citation, system=key)). None: no reference
    # through the registry (Eldritch Gambit's is still the rules app's own).
    reference: Any = None

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


def reference_of(system: GameSystem):
    """The system's rules reference (GameSystem.reference, its dotted path imported and
    called), or None."""
    found = system.reference
    if isinstance(found, str):
        module, _, name = found.rpartition(".")
        found = getattr(import_module(module), name)
    return found() if callable(found) else found


def with_references() -> list[tuple[GameSystem, Any]]:
    """(system, Reference) of every registered system that has one, by name."""
    each = [(system, reference_of(system)) for system in all_systems()]
    return [(system, found) for system, found in each if found is not None]


def choices() -> list[tuple[str, str]]:
    return [(system.key, system.name) for system in all_systems()]
