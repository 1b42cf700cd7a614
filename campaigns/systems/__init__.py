"""The campaign side of the game systems: one package per system that has one, holding
what the generic campaign pages do not know (Eldritch Gambit: its Checks and Rolls, its
Initiative tracker). campaigns/systems/ holds nothing but these packages.

A system names its package in `GameSystem.campaign_package` (rules/systems.py); the
generic campaign code reaches a package only through the registry (its URLs and the links
the generic pages show to them) and
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


def _urls(system: systems.GameSystem) -> ModuleType | None:
    """The urls.py of the system's campaign package, or None for a system without one."""
    if not system.campaign_package:
        return None
    return import_module(f"{system.campaign_package}.urls")


def campaign_urlpatterns(name: str) -> list:
    """The URL patterns `name` ("campaign_urlpatterns" under /campaigns/,
    "character_urlpatterns" under /characters/) of the urls.py of every registered system's
    campaign package. Their paths are the system's own; the views answer 404 for a
    campaign or character of another system. Two systems declaring one route or one URL
    name are refused when the URLconf loads (ImproperlyConfigured): the first would
    answer for both."""
    each = [(system, list(getattr(urls, name, ())))
            for system in systems.all_systems() if (urls := _urls(system)) is not None]
    return systems.refuse_url_clashes(name, each)


def campaign_links(campaign, *, runs: bool = False) -> list[tuple[str, str]]:
    """The (label, url) links the campaign's page shows to its system's campaign pages
    (Eldritch Gambit: its Initiative tracker): the package's
    `campaign_links(campaign, runs=...)`, told whether the viewer runs the campaign (its
    game master or a co-game master) so that pages only they may open are not offered to
    the players."""
    links = getattr(_urls(campaign.game_system), "campaign_links", None)
    return list(links(campaign, runs=runs)) if links is not None else []


def session_links(campaign, session) -> list[tuple[str, str]]:
    """The (label, url) links a session's page shows to its system's pages (Eldritch
    Gambit: the session's roll log): the package's `session_links(session)`."""
    return _links("session_links", campaign.game_system, session)


def _links(hook: str, system: systems.GameSystem, of) -> list[tuple[str, str]]:
    urls = _urls(system)
    links = getattr(urls, hook, None)
    return list(links(of)) if links is not None else []
