from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from .forms import SignupForm

LOCKED_OUT_MESSAGE = (
    "Too many failed logins for this account or from this address. Try again in "
    "%(minutes)s minutes, or ask the site's administrator to unlock it."
)


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
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Your account is ready.")
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


def login_locked_out(request, response=None, credentials=None):
    """The login page, refused, after too many failed logins (AXES_LOCKOUT_CALLABLE).

    django-axes calls this instead of the login view for a locked username or address,
    even with the right password; the form is shown again, unbound (checking it would
    count another attempt), with the username kept and the message above it."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username[:150]})
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return render(
        request, "registration/login.html",
        {"form": form, "next": _safe_next(request),
         "locked_out": LOCKED_OUT_MESSAGE % {"minutes": minutes}},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
