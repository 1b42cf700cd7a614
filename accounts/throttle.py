"""The address django-axes counts failed logins against (AXES_CLIENT_IP_CALLABLE)."""

import ipaddress

from django.conf import settings


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or behind a proxy (BEHIND_PROXY) the last
    address in X-Forwarded-For, the one our proxy appended. Earlier entries come from the
    client and could be forged to dodge the per-address limit."""
    if settings.BEHIND_PROXY:
        forwarded = [part.strip() for part in
                     request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded and _is_address(forwarded[-1]):
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR")


def _is_address(text: str) -> bool:
    """An IPv4 or IPv6 address (axes stores it in a GenericIPAddressField)."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


# axes.models.AccessAttempt.username is a CharField(max_length=255); the login form does
# not bound what it passes to authenticate(), and PostgreSQL refuses a longer value.
USERNAME_MAX_LENGTH = 255


def client_username(request, credentials=None) -> str | None:
    """The username a login attempt is counted against (AXES_USERNAME_CALLABLE): axes'
    own choice (the credentials, else the POST), cut to what its table holds. A cut name
    matches no account (usernames are at most 150 characters) but is still counted."""
    field = settings.AXES_USERNAME_FORM_FIELD
    source = credentials if credentials else getattr(request, "POST", {})
    username = source.get(field)
    return username[:USERNAME_MAX_LENGTH] if isinstance(username, str) else username
