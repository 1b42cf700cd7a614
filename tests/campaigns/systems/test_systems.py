"""campaigns.systems: a game system's campaign package reached through the registry. Two
registered systems may not declare one route or one URL name (the first would answer for
both, `reverse` would find one); the generic campaign and session pages link a system's
pages through its package's hooks, naming no system's URL."""

import dataclasses

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from django.urls import get_resolver, path, reverse

from campaigns import systems as campaign_systems
from rules import systems
from tests.factories import CampaignFactory, SessionFactory
from tests.tiny_system.campaign import PACKAGE
from tests.tiny_system.fixtures import tiny  # noqa: F401 -- the fixture
from tests.tiny_system.system import KEY, NAME, game_system

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def site_urls():
    """The site's URLconf loaded (config/urls.py registers the `id` path converter)."""
    assert get_resolver().url_patterns


@pytest.fixture
def tiny_urls():
    from tests.tiny_system.campaign import urls

    return urls


@pytest.fixture
def tiny_with_campaign_side():
    """The tiny system registered with a campaign package (tests/tiny_system/campaign/)."""
    system = systems.register(dataclasses.replace(game_system(), campaign_package=PACKAGE))
    yield system
    systems.unregister(KEY)


def names(patterns) -> set:
    return {pattern.name for pattern in patterns}


def test_two_systems_pages_sit_side_by_side(tiny_with_campaign_side):
    patterns = campaign_systems.campaign_urlpatterns("campaign_urlpatterns")
    assert {"initiative_list", "session_log", "tiny_brawl"} <= names(patterns)
    assert "tiny_brawl" not in names(
        campaign_systems.campaign_urlpatterns("character_urlpatterns"))


def view(request, pk):
    raise AssertionError("never served")


@pytest.mark.parametrize("route, name, clash", [
    # Eldritch Gambit's route under another variable name matches the same URLs.
    ("<id:campaign>/initiative/", "tiny_initiative", "route '<id>/initiative/'"),
    ("<id:pk>/fights/", "initiative_list", "URL name 'initiative_list'"),
])
def test_a_second_system_declaring_a_route_or_name_is_refused(
        tiny_with_campaign_side, tiny_urls, monkeypatch, route, name, clash):
    monkeypatch.setattr(tiny_urls, "campaign_urlpatterns", [path(route, view, name=name)])
    with pytest.raises(ImproperlyConfigured) as refused:
        campaign_systems.campaign_urlpatterns("campaign_urlpatterns")
    message = str(refused.value)
    assert clash in message and "Eldritch Gambit" in message and NAME in message


@pytest.mark.usefixtures("tiny")
def test_a_second_system_declaring_a_character_page_name_is_refused(monkeypatch):
    """The systems' own character pages (GameSystem.urls) share the "characters"
    namespace too."""
    monkeypatch.setattr(systems.get(KEY), "urls", [path("<id:pk>/loot/", view, name="inventory")])
    with pytest.raises(ImproperlyConfigured, match="URL name 'inventory'"):
        systems.url_patterns()


def test_the_pages_link_each_systems_own_pages(client, user, tiny_with_campaign_side):
    eg_campaign, tiny_campaign = CampaignFactory(owner=user), CampaignFactory(owner=user,
                                                                             system=KEY)
    for campaign in (eg_campaign, tiny_campaign):  # the user is their Imp
        SessionFactory(campaign=campaign, number=1)
    client.force_login(user)
    with override_settings(ROOT_URLCONF="tests.tiny_system.campaign.site"):
        brawl = reverse("campaigns:tiny_brawl", args=[tiny_campaign.pk])
        initiative = reverse("campaigns:initiative_list", args=[eg_campaign.pk])
        assert campaign_systems.campaign_links(tiny_campaign) == [("Brawl", brawl)]
        assert campaign_systems.campaign_links(eg_campaign) == [
            ("Initiative", initiative),
            ("Blank sheet (PDF)", reverse("characters:blank_sheet_pdf"))]
        tiny_page = client.get(tiny_campaign.get_absolute_url()).content.decode()
        eg_page = client.get(eg_campaign.get_absolute_url()).content.decode()
        assert f'href="{brawl}">Brawl</a>' in tiny_page and "Initiative</a>" not in tiny_page
        # Eldritch Gambit's blank sheet and the Highlights log (no Highlights) are not
        # the tiny system's.
        assert "Blank sheet" not in tiny_page and "Highlights log" not in tiny_page
        assert "Highlights log</a>" in eg_page
        assert f'href="{initiative}">Initiative</a>' in eg_page and "Brawl" not in eg_page
        assert client.get(brawl).status_code == 200
        assert client.get(reverse("campaigns:tiny_brawl",
                                  args=[eg_campaign.pk])).status_code == 404
        # The tiny side has no session pages: its session page links none.
        session = client.get(reverse("campaigns:session_detail", args=[tiny_campaign.pk, 1]))
        assert "Roll log" not in session.content.decode()
