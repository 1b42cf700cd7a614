"""Site pages that belong to no app: the home page, where logging in leads, and the
credits."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.shortcuts import redirect, render
from django.views import defaults
from django.views.decorators.http import require_safe

from campaigns.models import IMP_ROLES, Membership
from rules import systems


@require_safe
def home(request):
    return render(request, "home.html")


@login_required
@require_safe
def landing(request):
    """Where logging in leads (LOGIN_REDIRECT_URL): an Imp or co-Imp who runs a
    campaign to the campaigns, everyone else to their characters."""
    runs = Membership.objects.filter(user=request.user, role__in=IMP_ROLES).exists()
    return redirect("campaigns:list" if runs else "characters:list")


@require_safe
def about(request):
    return render(request, "about.html", {"systems": list(systems.all_systems())})


def bad_request(request, exception):
    """Django's 400 page (handler400), except for a body over DATA_UPLOAD_MAX_MEMORY_SIZE
    sent to a view that says what to answer then (its `on_request_too_big`): Django
    refuses such a body before the view runs, so the view cannot answer it itself."""
    match = getattr(request, "resolver_match", None)
    answer = getattr(match.func, "on_request_too_big", None) if match else None
    if isinstance(exception, RequestDataTooBig) and answer is not None:
        response = answer(request)
        if response is not None:
            return response
    return defaults.bad_request(request, exception)
