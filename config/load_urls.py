"""The load benchmark's URLconf (ROOT_URLCONF with LOAD_BENCH=true): the site's own
URLs, and the bare view every endpoint is compared with. It exists only in this URLconf,
so a normal deployment has no such URL."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_http_methods

from config.urls import handler400 as site_handler400
from config.urls import urlpatterns as site_urlpatterns


@login_required
@require_http_methods(["GET", "POST"])
def bare(request):
    """Login required, a two-byte body: what any request costs before the view does
    anything (sessions, the user, CSRF on a POST, the middleware)."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("load/bare/", bare, name="load_bare"), *site_urlpatterns]
handler400 = site_handler400
