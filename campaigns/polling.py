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
section lists what each poll costs.)

Only htmx requests are conditional: a full page is always rendered. The ETag also covers
who asks (a kept answer is one user's), which part of the page (HX-Target), the URL and
the deployed templates, so a kept answer is never taken for another.
"""

from __future__ import annotations

import hashlib
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.db.models import Count, Max, OuterRef, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control, patch_vary_headers

from characters.models import InventoryItem, XpEntry

from . import rituals
from .models import Membership, Session

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


def _etag(request: HttpRequest, version: tuple) -> str:
    parts = (_deployment(), request.user.pk, request.get_full_path(),
             request.headers.get("HX-Target", ""), *version)
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def _sent(request: HttpRequest) -> set[str]:
    """The ETags of If-None-Match, weak or not (GZipMiddleware weakens the ones it
    compresses)."""
    header = request.headers.get("If-None-Match", "")
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def unchanged_since(request: HttpRequest, *version) -> None:
    """Call once the request may see the page: raises Unchanged when the poll already
    has what `version` (the values its answer depends on) would render."""
    if not getattr(request, "htmx", False) or request.method != "GET":
        return
    etag = _etag(request, version)
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


def party_version(campaign) -> tuple:
    """What the party dashboard shows, as data: each character's row (its system's
    model, so the Initiative's direct HP and status writes count too), its player's name
    and its newest XP entry (the ledger only grows: an undone award or investment is a
    reversing entry), the party's inventory lines, and what the system's ritual adds
    (GameSystem.ritual's party_version: Eldritch Gambit's active Quests and the catalog
    gear the party carries). Two queries and the system's, whatever the party and its
    history."""
    characters = (campaign.game_system.character_model.objects.filter(campaign=campaign)
                  .annotate(newest_xp=Subquery(
                      XpEntry.objects.filter(character=OuterRef("pk")).order_by("-pk")
                      .values("pk")[:1])))
    party = {"character__campaign": campaign}
    return (rows_of(characters, "owner__username", "newest_xp"),
            rows_of(InventoryItem.objects.filter(**party)),
            rituals.of(campaign.system).party_version(campaign))
