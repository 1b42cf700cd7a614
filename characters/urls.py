from django.urls import path

from . import print_views, views

# The campaign-level pages (a new character's builder, which may build it for a campaign;
# a character's Checks and Rolls; giving its gear to the party) are
# campaigns/character_urls.py, under the same prefix and namespace (config/urls.py), and
# so are each game system's own pages (GameSystem.urls: Eldritch Gambit's inventory,
# Template page and blank sheet are characters/systems/eldritch_gambit/urls.py).
app_name = "characters"

urlpatterns = [
    path("", views.character_list, name="list"),
    path("compare/", views.character_compare, name="compare"),
    path("import/", views.character_import, name="import"),
    path("<id:pk>/", views.character_detail, name="detail"),
    path("<id:pk>/edit/", views.character_edit, name="edit"),
    path("<id:pk>/preview/", views.character_preview, name="preview"),
    path("<id:pk>/duplicate/", views.character_duplicate, name="duplicate"),
    path("<id:pk>/delete/", views.character_delete, name="delete"),
    path("<id:pk>/export/", views.character_export, name="export"),
    # The printed sheet and the portrait (characters/print_views.py).
    path("<id:pk>/print/", print_views.character_print, name="print"),
    path("<id:pk>/sheet.pdf", print_views.character_sheet_pdf, name="sheet_pdf"),
    path("<id:pk>/portrait/", print_views.character_portrait, name="portrait"),
    path("<id:pk>/portrait/image/", print_views.portrait_image, name="portrait_image"),
]
