"""Conditional polls: "nothing new" answered without rendering (HTTP 304).

The pages that htmx refreshes every few seconds (a session's roll log, a character's roll
log, the Initiative players' view, the party dashboard) rarely change between two polls.
Each such view, once it has checked who may see it, works out a cheap *version* of what it
shows (ids, counts and change stamps read in one small query) and calls
`unchanged_since(request, *version)`. The `conditional_poll` decorator turns that into an
ETag: when the browser's poll sends the same one back (If-None-Match) the answer is an
empty 304 and nothing is rendered; otherwise the view renders as before and its answer
carries the ETag, with `Cache-Control: private, no-cache` so the browser keeps it and asks
again each time (an XHR, as htmx polls with, revalidates through the HTTP cache by itself
and hands htmx the kept body on a 304: the page stays as it was).

A poll that finds nothing new costs three queries: Django's session row, the user row and
ONE query that reads both what decides who may see the page (the user's role in the
campaign) and the version. That query is built once per page (`members_of`, kept with
functools.cache: resolving its joins and subqueries cost more than running it, about as
much as the bare view's whole request), its rows joined to each member of their campaign,
and each poll narrows a copy to who asks and what it shows (`member_row`): a filter on
plain columns and on the member's annotations, which reuse their join. Only when that
row exists (the user is a member) is the poll answered 304; otherwise it goes on to the
view's own checks, which refuse (404 or 403) as they always did, so a 304 is never an
outsider's. (The README's Benchmarks section lists what each poll costs.) The party
dashboard's one query (`party_version`) depends on the campaign's game system, which its
ETag names in clear (a `label`) so that the next poll can build it before reading
anything.

Only htmx requests are conditional: a full page is always rendered. The ETag also covers
who asks (a kept answer is one user's), which part of the page (HX-Target), the URL and
the deployed templates, so a kept answer is never taken for another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path

from django.conf import settings
from django.db.models import (
    Count,
    ExpressionWrapper,
    F,
    Max,
    OuterRef,
    QuerySet,
    Subquery,
    TextField,
)
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control, patch_vary_headers

from characters.models import Character, InventoryItem, XpEntry
from rules import systems
from rules.models import GearItem

from . import rituals
from .models import Campaign, Session

_ETAG = "_poll_etag"
_deployed: str | None = None


class Unchanged(Exception):
    """The poll's client already has this version (raised by unchanged_since)."""

    def __init__(self, etag: str):
        super().__init__(etag)
        self.etag = etag


def _deployment() -> str:
    """What the same version renders differently after a deploy: the templates' files
    (their newest change) and the site's settings module. The same in every worker."""
    global _deployed
    if _deployed is None:
        stamps = [str(settings.SETTINGS_MODULE)]
        for engine in settings.TEMPLATES:
            for folder in engine.get("DIRS", []):
                stamps += [f"{p}:{p.stat().st_mtime_ns}" for p in
                           sorted(Path(folder).rglob("*.html"))]
        _deployed = hashlib.sha256("\n".join(stamps).encode()).hexdigest()[:16]
    return _deployed


def _etag(request: HttpRequest, version: tuple, label: str = "") -> str:
    parts = (_deployment(), request.user.pk, request.get_full_path(),
             request.headers.get("HX-Target", ""), label, *version)
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
    return f'"{label}.{digest}"' if label else f'"{digest}"'


def _sent(request: HttpRequest) -> set[str]:
    """The ETags of If-None-Match, weak or not (GZipMiddleware weakens the ones it
    compresses)."""
    header = request.headers.get("If-None-Match", "")
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def labels_sent(request: HttpRequest) -> set[str]:
    """The labels of the ETags the poll sent back (unchanged_since's `label`)."""
    return {tag.strip('"').partition(".")[0] for tag in _sent(request) if "." in tag}


def unchanged_since(request: HttpRequest, *version, label: str = "") -> None:
    """Call once the request may see the page: raises Unchanged when the poll already
    has what `version` (the values its answer depends on) would render. `label`, a
    word without dots, is written in clear at the head of the ETag, so that the next
    poll says which version it holds before any query (labels_sent: the party
    dashboard's game system); it is a hint only, never trusted for who may see."""
    if not getattr(request, "htmx", False) or request.method != "GET":
        return
    etag = _etag(request, version, label)
    if etag in _sent(request):
        raise Unchanged(etag)
    setattr(request, _ETAG, etag)


def _cacheable(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def conditional_poll(view):
    """For a polled view that calls unchanged_since: 304 when nothing is new, and an
    ETag on the rendered answer."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except Unchanged as unchanged:
            return _cacheable(HttpResponseNotModified(), unchanged.etag)
        etag = getattr(request, _ETAG, None)
        if etag is not None and response.status_code == 200:
            _cacheable(response, etag)
        return response

    return wrapped


def members_of(queryset: QuerySet, campaign: str = "campaign", *,
               system: str | None = None) -> QuerySet:
    """`queryset`'s rows, each once per member of its campaign (`campaign`: the path to
    it, "" for a campaign's own rows), with `poll_member` (the member's user id) and
    `poll_role` (their role); none for a campaign of another game system than `system`
    (when given). A poll's version query, built once (functools.cache: every poll of a
    page has the same joins, and resolving them cost more than running the query) and
    narrowed by member_row to who asks: a filter on these annotations reuses their join,
    so the row is the one member's, never another's."""
    path = f"{campaign}__" if campaign else ""
    if system is not None:
        queryset = queryset.filter(**{f"{path}system": system})
    return queryset.order_by().annotate(poll_member=F(f"{path}memberships__user_id"),
                                        poll_role=F(f"{path}memberships__role"))


def member_row(queryset: QuerySet, user, **filters):
    """In one query, the row of `queryset` (members_of's, as it selects it) that `filters`
    name, seen by `user`, who is then a member of its campaign (of the game system it
    names); None when there is no such row or the user is no member: the view's own
    checks then refuse (404 or 403) or render, as they always did."""
    return next(iter(queryset.filter(poll_member=user.pk, **filters)[:1]), None)


@cache
def _session_versions(rolls: str) -> QuerySet:
    """Sessions with what their roll log shows, cheaply: the rolls (`rolls`: a system's
    roll model's related name on Session) counted, the newest, their characters' change
    stamp (a renamed character shows under its new name) and the campaign's latest
    session (only that one's log polls)."""
    latest_pk = Session.objects.filter(campaign_id=OuterRef("campaign_id")).order_by(
        "-number").values("pk")[:1]
    return Session.objects.order_by().annotate(
        rolls_count=Count(rolls), last_roll=Max(f"{rolls}__pk"),
        characters_changed=Max(f"{rolls}__character__updated_at"),
        latest_pk=Subquery(latest_pk))


@cache
def _session_rows(rolls: str, system: str) -> QuerySet:
    return members_of(_session_versions(rolls), system=system)


def session_of_log(request: HttpRequest, campaign_pk: int, number: int, rolls: str, *,
                   system: str):
    """Session `number` of campaign `campaign_pk` (of game system `system`) for a roll
    log page (404 if none), once `unchanged_since` has had the log's version
    (_session_versions), which a member's poll reads in one query with who asks: a poll
    that finds nothing new is answered there. Anyone else's (and a full page's) session
    is read alone; the view checks the membership (404) after this. The session carries
    `latest_pk`."""
    if getattr(request, "htmx", False):
        session = member_row(_session_rows(rolls, system), request.user,
                             campaign_id=campaign_pk, number=number)
        if session is not None:
            unchanged_since(request, session.pk, session.rolls_count, session.last_roll,
                            session.characters_changed, session.latest_pk)
            return session
    return get_object_or_404(_session_versions(rolls), campaign_id=campaign_pk,
                             number=number)


def rows_of(queryset, *also: str) -> list[tuple]:
    """Every stored column of the rows (and `also`), in a fixed order (by id, sorted
    here as party_version's): any change to them shows."""
    columns = [field.attname for field in queryset.model._meta.concrete_fields]
    return sorted(queryset.order_by().values_list(*columns, *also), key=by_ids(0))


def by_ids(*positions: int) -> Callable[[tuple], tuple]:
    """The sort key that puts a version's rows in a fixed order: the ids at `positions`
    (a character's, then its line's; a character without lines has one row, its line
    id None). Sorted in Python, not by ORDER BY: to write ORDER BY, Django matches each
    ordering term against every selected column, and a version's are eighty and more."""
    return lambda row: tuple(-1 if row[i] is None else row[i] for i in positions)


def _columns(model, path: str, *, local: bool = False) -> list:
    """Every stored column of `model` (only its own table's with `local`, for a
    multi-table child) as seen through `path` from a query's root. A version is only
    compared, never read: the columns come as the database gives them, without turning
    them into Python values (JSON, dates, booleans) for each row."""
    meta = model._meta
    return [ExpressionWrapper(F(f"{path}__{field.attname}"), output_field=TextField())
            for field in (meta.local_concrete_fields if local else meta.concrete_fields)]


def party_version(user, pk: int, system: str) -> list[tuple]:
    """What campaign `pk`'s party dashboard shows, as data, read for `user` in ONE query
    whatever the party and its history: a row per character, each the character's whole
    row (its system's table too, so the Initiative's direct HP and status writes count),
    its player's name, what the system's ritual adds (GameSystem.ritual's
    party_version_columns: Eldritch Gambit's active Quest) and, for a system whose party
    table shows the sheets' numbers (its ritual's "party_columns" template: Eldritch
    Gambit's HP, AF and Load), a row per inventory line instead (a character without
    any has one row), with the line's row and its catalog item's (a homebrew item's
    edit changes HP, AF and Load); then the party's
    XP entries counted and the newest (the ledger only grows: an undone award or
    investment is a reversing entry; counted, an entry that commits after a newer one
    still shows), and the user's role. Empty when there is no campaign `pk` of game
    system `system` or the user is not one of its members. The ledger's two subqueries
    name the campaign, so the database reads them once, not once a row. The rows come by
    character and line (by_ids)."""
    ledger = XpEntry.objects.filter(character__campaign_id=pk).order_by()
    rows, order = _party_rows(system)
    return sorted(rows.filter(poll_member=user.pk, pk=pk).annotate(
        xp_entries=Subquery(ledger.values("character__campaign_id")
                            .annotate(n=Count("pk")).values("n")),
        newest_xp=Subquery(ledger.order_by("-pk").values("pk")[:1])), key=order)


@cache
def _party_rows(system: str) -> tuple[QuerySet, Callable[[tuple], tuple]]:
    """party_version's query but for the campaign, its XP ledger and who asks: the same
    for every poll of a game system's dashboards, so built once (its ~80 columns' joins
    cost more to resolve than the query takes to run), and its rows' sort key. Never
    evaluated itself: each poll filters a copy."""
    model = systems.get(system).character_model
    columns = _columns(Character, "characters")
    if model is not None and model is not Character:
        columns += _columns(model, f"characters__{model._meta.model_name}", local=True)
    ritual = rituals.of(system)
    annotations, ritual_columns = ritual.party_version_columns("characters")
    order = by_ids(0)  # the character's id
    if ritual.templates.get("party_columns"):
        # Only a dashboard whose party table shows the sheets' numbers (campaigns.views,
        # _party) reads the lines; another's version joins none (a row a character).
        order = by_ids(0, len(columns))  # and the line's
        columns += [*_columns(InventoryItem, "characters__items"),
                    *_columns(GearItem, "characters__items__catalog_item")]
    rows = (members_of(Campaign.objects.annotate(**annotations), "", system=system)
            .values_list(*columns, "characters__owner__username", *ritual_columns,
                         "poll_role"))
    return rows, order


def party_unchanged(request: HttpRequest, pk: int) -> list[tuple] | None:
    """For the party dashboard's poll, before anything else: raises Unchanged when a
    member's poll already has what the dashboard would show. The game system is the one
    its ETag names (unchanged_since's `label`): a poll that names another, or that no
    installed system has, or a non-member's, finds no role and goes on to the view's
    own checks. Otherwise returns the version when it was read for a member (so for the
    campaign's own system), for the view's answer, else None."""
    system = next((label for label in sorted(labels_sent(request))
                   if systems.find(label) is not None), None)
    if system is None:
        return None
    version = party_version(request.user, pk, system)
    if not version:
        return None
    unchanged_since(request, version, label=system)
    return version
