"""Long lists on a page: a bound on each, and a way to see the rest (issue 12).

No page grows faster than what it shows. Three shapes, one pager include
(templates/includes/pager.html):

- numbered pages (Django's Paginator.get_page): the session list, the Highlights log,
  the character page's gear (`?gear=N`); any junk page number gives a page, never an error;
- append-only logs, newest first (`page_before`): the newest LOG_PAGE_SIZE rows, and an
  "Older" link `?before=<pk of the last one shown>`; new rows never shift the older pages,
  and only the first page polls;
- folds (`fold`): a list that is usually short (the party stash, a container's lines)
  shows FOLD_AT lines and "show all" (`?lines=all`).

Plain functions of a queryset or list and the request's GET value; nothing here knows a
game or a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from config.parsing import parse_id

# The newest rows of an append-only log on one page (session logs, the XP ledger, the
# Errant Turn log, the Initiative and encounter logs).
LOG_PAGE_SIZE = 25
# The lines of a list shown before it folds (the party stash, inventory containers) and
# the character page's gear lines per page.
FOLD_AT = 50


def page_of(rows, number, *, per_page: int) -> Page:
    """Page `number` (the raw GET value) of `rows`: the first page for junk ("abc"), the
    last for a number past the end or below one (Paginator.get_page)."""
    return Paginator(rows, per_page).get_page(number)


@dataclass(frozen=True)
class Slice:
    """One page of a newest-first log: its rows, `older` (the ?before= value of the next
    page, None on the last) and `before` (this page's, None on the newest: it may poll)."""

    rows: list = field(default_factory=list)
    older: int | None = None
    before: int | None = None

    @property
    def newest(self) -> bool:
        return self.before is None


def page_before(queryset: QuerySet, before, *, size: int = LOG_PAGE_SIZE,
                key: str = "pk") -> Slice:
    """The `size` rows of `queryset` just older than `before` (the raw GET value: junk,
    nothing or 0 means the newest), newest first by `key`. One query: it reads one row more to
    know whether there is an older page."""
    before = parse_id(before) or None  # junk, nothing or 0 (older than nothing): the newest
    if before is not None:
        queryset = queryset.filter(**{f"{key}__lt": before})
    rows = list(queryset.order_by(f"-{key}")[:size + 1])
    older = getattr(rows[size - 1], key) if len(rows) > size else None
    return Slice(rows=rows[:size], older=older, before=before)


def slice_before(rows: Sequence, before, *, size: int = LOG_PAGE_SIZE,
                 key=lambda row: row) -> Slice:
    """`page_before` for a log that is a list already, newest first (a tracker's log
    held in its state): `key(row)` is the row's position or number, decreasing."""
    before = parse_id(before) or None
    kept = [row for row in rows if before is None or key(row) < before]
    older = key(kept[size - 1]) if len(kept) > size else None
    return Slice(rows=list(kept[:size]), older=older, before=before)


def fold(rows: Sequence, lines, *, at: int = FOLD_AT) -> tuple[Sequence, int]:
    """The rows shown and how many are folded away: all of them when `lines` (the raw GET
    value) is "all" or there are at most `at`, else the first `at`."""
    if lines == "all" or len(rows) <= at:
        return rows, 0
    return rows[:at], len(rows) - at
