"""Test settings: fast hashing, in-memory e-mail, a fixed key."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")

from .base import *  # noqa: E402,F403

DEBUG = False
# Uploaded files (portraits) go to a temporary folder, never to the developer's media/.
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="eldritch-test-media-"))
atexit.register(shutil.rmtree, MEDIA_ROOT, ignore_errors=True)
# Rendered PDFs in the same temporary folder (the tests clear it where they count renders).
CACHES["pdfs"]["LOCATION"] = str(MEDIA_ROOT / "pdf-cache")  # noqa: F405
PDF_LOCK_DIR = MEDIA_ROOT / "pdf-cache"
# In the test process (a renderer process would have its own temporary MEDIA_ROOT);
# tests/characters/test_print_cache.py renders in one.
PDF_RENDER_PROCESS = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES["staticfiles"]["BACKEND"] = (  # noqa: F405
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)
# Tests never run collectstatic: WhiteNoise finds files in the apps and static/ instead
# of warning about the missing STATIC_ROOT.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Login throttling counts every failed login in the database; off here so tests of wrong
# passwords do not lock each other out. tests/accounts/test_throttle.py switches it on.
AXES_ENABLED = False
# A tiny game system for the tests only (tests/tiny_system): its table and migration here;
# the tests that use it register it (README, "Adding a game system").
INSTALLED_APPS = [*INSTALLED_APPS, "tests.tiny_system"]  # noqa: F405
# SQLite's test database is a file in the temporary folder, not Django's default shared
# in-memory database: the browser tests' live server answers polls in other threads
# while a test's page writes, and the shared cache's table locks refuse such a write at
# once ("database table is locked") where a file in WAL mode lets it wait its turn (the
# `timeout` of base.py), as on a real site.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(MEDIA_ROOT / "test.sqlite3")}  # noqa: F405
