"""The address django-axes counts failed logins against (AXES_CLIENT_IP_CALLABLE)."""

from django.conf import settings


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or behind a proxy (BEHIND_PROXY) the last
    address in X-Forwarded-For, the one our proxy appended. Earlier entries come from the
    client and could be forged to dodge the per-address limit."""
    if settings.BEHIND_PROXY:
        forwarded = [part.strip() for part in
                     request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR")
