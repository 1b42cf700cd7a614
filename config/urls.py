from django.contrib import admin
from django.urls import include, path, register_converter

from . import views
from .parsing import IdConverter

# `<id:pk>` for every id in the apps' URLconfs (registered before they are included):
# an id beyond the 64-bit range is a 404 on SQLite as on PostgreSQL.
register_converter(IdConverter, "id")

urlpatterns = [
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    path("accounts/", include("accounts.urls")),
    # The apps' own pages: characters (the builder), campaigns and rules (the reference).
    path("characters/", include("characters.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("rules/", include("rules.urls")),
    path("admin/", admin.site.urls),
]

# A too-big form body gets its form's own message where the view provides one.
handler400 = "config.views.bad_request"
