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
ONE query (`poll_row`) that reads both what decides who may see the page (the user's role
in the campaign, `member_role`) and the version. Only when that row says the user may see
it does the view answer 304; otherwise it goes on to its own checks, which refuse (404 or
403) as they always did, so a 304 is never an outsider's. (The README's Benchmarks
section lists what each poll costs.) The party dashboard's one query (`party_version`)
depends on the campaign's game system, which its ETag names in clear (a `label`) so that
the next poll can build it before reading anything.

Only htmx requests are conditional: a full page is always rendered. The ETag also covers
who asks (a kept answer is one user's), which part of the page (HX-Target), the URL and
the deployed templates, so a kept answer is never taken for another.
"""

from __future__ import annotations

import hashlib
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
from .models import Campaign, Membership, Session

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


def member_role(user, campaign: str = "campaign_id", *, system: str | None = None):
    """The user's role in the campaign of the outer row (`campaign`: the path to its id),
    as an expression for `poll_row`: None for a non-member, and for a campaign of another
    game system than `system` (when given)."""
    memberships = Membership.objects.filter(campaign_id=OuterRef(campaign), user_id=user.pk)
    if system is not None:
        memberships = memberships.filter(campaign__system=system)
    return Subquery(memberships.order_by().values("role")[:1])


def poll_row(queryset, pk, *fields) -> tuple | None:
    """In one query, row `pk` of `queryset` as `fields` (columns, or annotations such as
    `member_role` and the version's Count/Max subqueries); None if there is no such row."""
    return queryset.filter(pk=pk).values_list(*fields).first()


def session_of_log(request: HttpRequest, campaign_pk: int, number: int, rolls: str, *,
                   system: str):
    """Session `number` of campaign `campaign_pk` (of game system `system`) for a roll
    log page (404 if none), once `unchanged_since` has had the log's version: the
    session, its `rolls` (a system's roll model's related name on Session) counted, the
    newest, their characters' change stamp (a renamed character shows under its new
    name) and the campaign's latest session (only that one's log polls). One query, which
    also reads the user's role: a member's poll that finds nothing new is answered
    there; the view checks the membership (404) after this. The session carries
    `latest_pk`."""
    latest_pk = Session.objects.filter(campaign_id=campaign_pk).order_by(
        "-number").values("pk")[:1]
    session = get_object_or_404(
        Session.objects.annotate(rolls_count=Count(rolls), last_roll=Max(f"{rolls}__pk"),
                                 characters_changed=Max(f"{rolls}__character__updated_at"),
                                 latest_pk=Subquery(latest_pk),
                                 role=member_role(request.user, system=system)),
        campaign_id=campaign_pk, number=number)
    if session.role is not None:
        unchanged_since(request, session.pk, session.rolls_count, session.last_roll,
                        session.characters_changed, session.latest_pk)
    return session


def rows_of(queryset, *also: str) -> list[tuple]:
    """Every stored column of the rows (and `also`), in a fixed order: any change to
    them shows."""
    columns = [field.attname for field in queryset.model._meta.concrete_fields]
    return list(queryset.order_by("pk").values_list(*columns, *also))


def _columns(model, path: str, *, local: bool = False) -> list:
    """Every stored column of `model` (only its own table's with `local`, for a
    multi-table child) as seen through `path` from a query's root. A version is only
    compared, never read: the columns come as the database gives them, without turning
    them into Python values (JSON, dates, booleans) for each row."""
    meta = model._meta
    return [ExpressionWrapper(F(f"{path}__{field.attname}"), output_field=TextField())
            for field in (meta.local_concrete_fields if local else meta.concrete_fields)]


def party_version(user, pk: int, system: str) -> list[tuple]:
    """The user's role in campaign `pk` and what its party dashboard shows, as data, in
    ONE query whatever the party and its history: a row per inventory line of each
    character (a character without any has one row), each row the character's whole
    row (its system's table too, so the Initiative's direct HP and status writes count),
    its player's name, what the system's ritual adds (GameSystem.ritual's
    party_version_columns: Eldritch Gambit's active Quest), the line's row and its
    catalog item's (a homebrew item's edit changes HP, AF and Load); then the party's
    XP entries counted and the newest (the ledger only grows: an undone award or
    investment is a reversing entry; counted, an entry that commits after a newer one
    still shows), and last the role (None for a non-member, and when the campaign is
    not of game system `system`). Empty when there is no campaign `pk`."""
    ledger = XpEntry.objects.filter(character__campaign_id=pk).order_by()
    return list(_party_rows(system).filter(pk=pk).annotate(
        xp_entries=Subquery(ledger.values("character__campaign_id")
                            .annotate(n=Count("pk")).values("n")),
        newest_xp=Subquery(ledger.order_by("-pk").values("pk")[:1]),
        role=member_role(user, "pk", system=system)))


@cache
def _party_rows(system: str) -> QuerySet:
    """party_version's query but for the campaign, its XP ledger and who asks: the same
    for every poll of a game system's dashboards, so built once (its ~80 columns' joins
    cost more to resolve than the query takes to run). Never evaluated itself: each
    poll filters a copy."""
    model = systems.get(system).character_model
    columns = _columns(Character, "characters")
    if model is not None and model is not Character:
        columns += _columns(model, f"characters__{model._meta.model_name}", local=True)
    ritual, ritual_columns = rituals.of(system).party_version_columns("characters")
    return (Campaign.objects.annotate(**ritual)
            .order_by("characters__pk", "characters__items__pk")
            .values_list(*columns, "characters__owner__username", *ritual_columns,
                         *_columns(InventoryItem, "characters__items"),
                         *_columns(GearItem, "characters__items__catalog_item")))


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
    if not version or version[0][-1] is None:
        return None
    unchanged_since(request, version, label=system)
    return version
