"""The encounter tracker's pages. URL names are global across systems, so these are
prefixed `encounters_`; the views answer 404 for a campaign of another system."""

from django.urls import path, reverse

from . import views

_ONE = "<id:pk>/encounters/<id:encounter_pk>/"
campaign_urlpatterns = [
    path("<id:pk>/encounters/", views.encounter_list, name="encounters_list"),
    path(_ONE, views.encounter_detail, name="encounters_tracker"),
    path(_ONE + "step/", views.step, name="encounters_step"),
    path(_ONE + "undo/", views.undo, name="encounters_undo"),
    path(_ONE + "calculate/", views.calculator, name="encounters_calculate"),
]
character_urlpatterns: list = []


def campaign_links(campaign, *, runs: bool = False) -> list[tuple[str, str]]:
    return [("Encounters", reverse("campaigns:encounters_list", args=[campaign.pk]))]


def session_links(session) -> list[tuple[str, str]]:
    return []
