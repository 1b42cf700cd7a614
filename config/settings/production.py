"""Production settings: everything from the environment, HTTPS only.

`python manage.py check --deploy` passes with no warnings once SECRET_KEY and
ALLOWED_HOSTS are set and HSTS is switched on (SECURE_HSTS_SECONDS=31536000,
SECURE_HSTS_INCLUDE_SUBDOMAINS=true, SECURE_HSTS_PRELOAD=true); tests/test_deploy.py runs it.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import SECRET_KEY, env_bool, env_int

if not SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY in the environment.")

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
# Plain HTTP is redirected to HTTPS. Behind a proxy that ends TLS, set BEHIND_PROXY=true
# (base.py) so the X-Forwarded-Proto it sends tells Django the request was secure.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
# HSTS is off until asked for: once a browser has seen it, the site is HTTPS-only for it
# for that many seconds, so switch it on when HTTPS is known to work (a year: 31536000).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
