from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.models import IMP_ROLES, Membership

from .forms import SignupForm


def _safe_next(request) -> str:
    """The ?next= address when it is a path on this site, else "" (redirect() would
    take "²" or "home" for a view name and fail)."""
    candidate = request.POST.get("next") or request.GET.get("next", "")
    if candidate.startswith("/") and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


@require_http_methods(["GET", "POST"])
def signup(request):
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.username}! Your account is ready.")
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


@login_required
@require_safe
def landing(request):
    """Where logging in leads (LOGIN_REDIRECT_URL): an Imp or co-Imp who runs a
    campaign to the campaigns, everyone else to their characters."""
    runs = Membership.objects.filter(user=request.user, role__in=IMP_ROLES).exists()
    return redirect("campaigns:list" if runs else "characters:list")
