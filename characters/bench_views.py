"""The baseline for `manage.py bench`: the cheapest page a logged-in player can get.

It is routed only by the temporary URLconf of the bench command
(characters/management/commands/bench.py), never by the project's URLs.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse


@login_required
def bench_bare(request: HttpRequest) -> HttpResponse:
    """Session, user and the whole middleware stack, and nothing else."""
    request.user.pk  # noqa: B018 -- touch the user as every real page does
    return HttpResponse("ok")
