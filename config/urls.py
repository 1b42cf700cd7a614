from django.contrib import admin
from django.urls import include, path, register_converter

from . import views
from .parsing import IdConverter

# `<id:pk>` for every id in the apps' URLconfs (registered before they are included):
# an id beyond the 64-bit range is a 404 on SQLite as on PostgreSQL.
register_converter(IdConverter, "id")

# The URLconfs that share the "characters" namespace (and the registry, which lists each
# game system's own), imported once `id` is known.
from campaigns import character_urls as campaign_character_urls  # noqa: E402
from characters import urls as character_urls  # noqa: E402
from rules import systems  # noqa: E402

urlpatterns = [
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    # Where logging in leads (LOGIN_REDIRECT_URL): it knows the campaigns, so not accounts'.
    path("accounts/landing/", views.landing, name="landing"),
    path("accounts/", include("accounts.urls")),
    # The apps' own pages: characters (the builder), campaigns and rules (the reference).
    # A character's campaign-level pages (its Checks and Rolls, giving its gear) are the
    # campaigns app's, and each game system's own pages (GameSystem.urls: Eldritch
    # Gambit's inventory, Template page, blank sheet) its package's, all under the same
    # prefix and the same "characters" namespace.
    path("characters/", include((character_urls.urlpatterns
                                 + campaign_character_urls.urlpatterns
                                 + systems.url_patterns(), "characters"))),
    path("campaigns/", include("campaigns.urls")),
    path("rules/", include("rules.urls")),
    path("admin/", admin.site.urls),
]

# A too-big form body gets its form's own message where the view provides one.
handler400 = "config.views.bad_request"
