"""The campaign side of the game systems: one package per system that has one, holding
what the generic campaign pages do not know (Eldritch Gambit: its Checks and Rolls, its
Initiative tracker). campaigns/systems/ holds nothing but these packages.

A system names its package in `GameSystem.campaign_package` (rules/systems.py); the
generic campaign code reaches a package only through the registry (its URLs) and
`import_each` below (its models and admin, which Django looks for in the campaigns app's
own modules), never by name: import-linter forbids it (pyproject.toml).
"""

from __future__ import annotations

import pkgutil
from importlib import import_module
from types import ModuleType

from rules import systems


def import_each(module: str) -> list[ModuleType]:
    """Import `module` ("models", "admin") of every system package here that has one.
    campaigns/models.py calls it so that Django registers the systems' models with the
    campaigns app (their rows sit in its tables and migrations), and campaigns/admin.py
    so that their admin classes register."""
    found = []
    for package in pkgutil.iter_modules(__path__, f"{__name__}."):
        if not package.ispkg:
            continue
        name = f"{package.name}.{module}"
        try:
            found.append(import_module(name))
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
    return found


def campaign_urlpatterns(name: str) -> list:
    """The URL patterns `name` ("campaign_urlpatterns" under /campaigns/,
    "character_urlpatterns" under /characters/) of the urls.py of every registered system's
    campaign package. Their paths are the system's own; the views answer 404 for a
    campaign or character of another system."""
    patterns = []
    for system in systems.all_systems():
        if system.campaign_package:
            patterns += getattr(import_module(f"{system.campaign_package}.urls"), name, [])
    return patterns
