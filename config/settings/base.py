"""Settings shared by every environment.

Configuration comes from the environment, read here and nowhere else:
DEBUG, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, MEDIA_ROOT, CSRF_TRUSTED_ORIGINS,
BEHIND_PROXY, LOGIN_FAILURE_LIMIT, LOGIN_COOLOFF_MINUTES (and, in production.py,
SECURE_COOKIES, SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS, SECURE_HSTS_INCLUDE_SUBDOMAINS,
SECURE_HSTS_PRELOAD).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# Set when the app sits behind a reverse proxy that sets X-Forwarded-Proto and appends
# the client's address to X-Forwarded-For; never otherwise, as clients could forge them.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "crispy_forms",
    "crispy_bootstrap5",
    "accounts",
    "rules",
    "characters",
    "campaigns",
    # The game systems (rules.systems): one package each.
    "characters.systems.eldritch_gambit",
    "characters.systems.mettle",
    "characters.systems.errant",
    "characters.systems.encounters",
    "csp",
    # Last, as its documentation asks: failed logins are counted in its database tables.
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML compressed (the log poll's 63 KB is 2.3 KB gzipped). After WhiteNoise, which
    # answers static files itself with the gzip/Brotli copies collectstatic made; Django's
    # GZip pads each answer with random bytes against BREACH (Django 4.2+).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: it turns a locked-out login into the login page with its message.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# `manage.py loadtest` runs the server with LOAD_BENCH=true: each response then carries its
# server CPU time and query count (Server-Timing), and a bare view is added to compare with.
if env_bool("LOAD_BENCH", False):
    MIDDLEWARE = ["campaigns.loadtest.timing.ServerTimingMiddleware", *MIDDLEWARE]
    ROOT_URLCONF = "config.load_urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# SQLite is the embedded default; PostgreSQL (production) is chosen with DATABASE_URL.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes share one SQLite file: wait for locks instead of failing,
    # and take the write lock at the start of a transaction (no upgrade deadlocks).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): the database handler keeps the counts, so every app
# process behind the same database agrees. LOGIN_FAILURE_LIMIT wrong passwords for one
# username (from anywhere), or from one address (for any usernames), lock that username
# or address out for LOGIN_COOLOFF_MINUTES (failures older than that no longer count);
# `manage.py axes_reset` (or axes_reset_username
# NAME, axes_reset_ip ADDRESS) unlocks at once.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
# A success does not wipe the count: it would wipe the address's failures too, so anyone
# with an account could log into it between guesses at someone else's password.
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "accounts.views.login_locked_out"
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"
AXES_USERNAME_CALLABLE = "accounts.throttle.client_username"

# Content-Security-Policy (django-csp): everything comes from this site. Scripts only from
# files; styles from files, plus the one <style> the print view writes per request (the
# paper size), which carries the request's nonce. data: images are Bootstrap's own icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "landing"  # config.views.landing: Imps to their campaigns
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# Rendered PDFs, keyed by a hash of what they show (characters/printing.py): in files, so
# every server process shares them with no extra service. The default cache stays
# Django's own, in each process: it holds only HTML that is the same for everyone and
# every request (Errant's unbound Check form fields, {% cache %} in its character page),
# so processes that each render it once still answer alike.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pdfs": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("PDF_CACHE_DIR", str(BASE_DIR / "pdf-cache")),
        "TIMEOUT": 7 * 24 * 3600,  # a week unused, then rendered again
        "OPTIONS": {"MAX_ENTRIES": 500},  # a sheet is ~100 KB, a party ~1 MB
    },
}
# At most this many PDFs render at once in the whole server (the others wait for a
# turn, up to PDF_WAIT_SECONDS, then get "busy, try again"): PDFs never take every CPU.
PDF_RENDERS = env_int("PDF_RENDERS", 1)
PDF_WAIT_SECONDS = env_int("PDF_WAIT_SECONDS", 20)
PDF_LOCK_DIR = Path(os.environ.get("PDF_CACHE_DIR", str(BASE_DIR / "pdf-cache")))
# Render in a separate process per server process (WeasyPrint is Python: in a thread of
# the server's process it would slow that process's other threads).
PDF_RENDER_PROCESS = env_bool("PDF_RENDER_PROCESS", True)
# How much lower the renderer process's CPU priority is than the server's (os.nice: 0 to
# 19; 0 leaves it equal), so a PDF rendering never slows the other requests' answers.
PDF_RENDER_NICE = env_int("PDF_RENDER_NICE", 10)
# PDF requests under way at once in one server process (each holds a thread while it
# waits for its turn); more get "busy, try again". Keep it below gunicorn's threads (4
# a process, gunicorn.conf.py): the others always serve the rest.
PDF_REQUESTS_PER_PROCESS = env_int("PDF_REQUESTS_PER_PROCESS", 2)

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
