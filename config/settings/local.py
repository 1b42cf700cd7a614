"""Developer and demo settings: DEBUG on, a fixed development key."""

import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("SECRET_KEY", "django-insecure-local-development-key-not-for-production")

from .base import *  # noqa: E402,F403

STORAGES["staticfiles"]["BACKEND"] = (  # noqa: F405
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)
