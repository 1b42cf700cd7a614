"""The rules reference and a player's homebrew.

The navbar shows a "Rules reference" link because a view named "index" exists here.
"""

from django.urls import path

from . import systems, views

app_name = "rules"


def system_patterns() -> list:
    """Each game system's own reference (GameSystem.reference) under its key:
    /rules/mettle-core/, /rules/mettle-core/engine/, /rules/mettle-core/engine/mettle/.
    Literal prefixes, so that they come before Eldritch Gambit's chapters' addresses
    (/rules/<chapter>/<slug>/); reverse with the `system` keyword
    (rules.reference.system_entry_url)."""
    patterns = []
    for system in systems.all_systems():
        if system.reference is None:
            continue
        key = {"system": system.key}
        patterns += [
            path(f"{system.key}/", views.system_index, key, name="system_index"),
            path(f"{system.key}/<slug:chapter>/", views.system_chapter, key,
                 name="system_chapter"),
            path(f"{system.key}/<slug:chapter>/<slug:slug>/", views.system_entry, key,
                 name="system_entry"),
        ]
    return patterns


urlpatterns = [
    path("", views.rules_index, name="index"),
    # The reference's entries, each at a stable address (the Initiative rules:
    # {% url 'rules:staging' 'initiative' %} is /rules/staging/initiative/).
    path("search/", views.rules_search, name="search"),
    path("actions/<slug:slug>/", views.action_detail, {"kind": "action"}, name="action"),
    path("montages/<slug:slug>/", views.action_detail, {"kind": "montage"}, name="montage"),
    path("staging/<slug:slug>/", views.rule_detail, {"group": "staging"}, name="staging"),
    path("scenery/<slug:slug>/", views.rule_detail, {"group": "scenery"}, name="scenery"),
    path("statuses/<slug:key>/", views.status_detail, name="status"),
    path("homebrew/", views.homebrew_list, name="homebrew"),
    path("homebrew/gear/new/", views.gear_create, name="gear_create"),
    path("homebrew/gear/<id:pk>/edit/", views.gear_edit, name="gear_edit"),
    path("homebrew/gear/<id:pk>/delete/", views.gear_delete, name="gear_delete"),
    path("homebrew/traits/new/", views.trait_create, name="trait_create"),
    path("homebrew/traits/<id:pk>/edit/", views.trait_edit, name="trait_edit"),
    path("homebrew/traits/<id:pk>/delete/", views.trait_delete, name="trait_delete"),
    *system_patterns(),
    # The chapters (Basics, Characters, Resources, Bestiary, Magic): /rules/basics/ and
    # one address per heading, /rules/basics/rerolls/. Last: the paths above win.
    path("<slug:chapter>/", views.chapter_detail, name="chapter"),
    path("<slug:chapter>/<slug:slug>/", views.section_detail, name="section"),
]
