"""A game system's ritual is its own (GameSystem.ritual): the tiny system has none, so its
campaigns' sessions run no Highlights and show no Quest or Level; registering it with
another ritual changes what the generic session page and services run, with no edit to
generic code."""

import dataclasses

import pytest
from django.db.models import Q
from django.urls import reverse

from campaigns import rituals, services
from campaigns.services import CampaignError
from characters.models import XpEntry
from rules import systems
from tests.factories import CampaignFactory
from tests.tiny_system.fixtures import make_tiny
from tests.tiny_system.system import KEY, game_system

pytestmark = pytest.mark.django_db


def tiny_table(owner):
    campaign = CampaignFactory(system=KEY, owner=owner)
    pip = make_tiny(owner, name="Pip")
    services.character_join(campaign=campaign, character=pip, by=owner)
    services.session_start(campaign=campaign, by=owner)
    second = services.session_start(campaign=campaign, by=owner)
    return campaign, pip, second


@pytest.mark.usefixtures("tiny")
def test_a_tiny_campaigns_session_page_runs_no_highlights_and_shows_no_quest(client, user):
    campaign, pip, session = tiny_table(user)
    assert rituals.of(KEY) is rituals.NO_RITUAL
    client.force_login(user)
    response = client.get(session.get_absolute_url())
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="ritual"' not in body and "Award 1 XP" not in body
    assert "Quest" not in body and "Level up" not in body
    dashboard = client.get(campaign.get_absolute_url()).content.decode()
    assert "Invest 1 XP" not in dashboard and "Quest" not in dashboard
    assert "XP ledger" in dashboard  # the link to Pip's campaign page, in generic words
    page = client.get(reverse("campaigns:character", args=[campaign.pk, pip.pk]))
    assert page.status_code == 200 and 'id="quest"' not in page.content.decode()
    assert 'data-stat="xp">0<' in page.content.decode()  # the generic card: the ledger's
    # No Highlights to award, and Eldritch Gambit's Quest step is not this campaign's.
    with pytest.raises(CampaignError) as refused:
        services.highlight_award(session=session, character=pip, by=user)
    assert refused.value.code == "no_highlights"
    assert client.post(reverse("campaigns:invest", args=[campaign.pk, session.number]),
                       {"character": pip.pk}).status_code == 404


@pytest.mark.usefixtures("tiny")
def test_without_a_ritual_xp_buys_nothing_by_itself(user):
    campaign, pip, _session = tiny_table(user)
    services.xp_adjust(character=pip, xp_change=30, note="A good night", by=user)
    assert not XpEntry.objects.filter(character=pip, kind=XpEntry.Kind.LEVEL_SPEND).exists()
    assert services.ritual_holding(pip) is None


class BoonRitual(rituals.NoRitual):
    """A test ritual: Highlights, then a Boon for each character once its turns are
    told (its settle records it), and its own column on the session page."""

    highlights = True
    templates = {"session": "tiny_system/ritual.html"}

    def __init__(self):
        self.settled = []
        self.started = []

    def settle(self, character, by):
        self.settled.append(character.pk)
        return []

    def session_started(self, session):
        self.started.append(session.number)

    def participants(self, session):
        return Q(pk__in=[])

    def session_context(self, session, rows, *, user, runs):
        for row in rows:
            row.extra["boon"] = f"Boon of {row.character.display_name}"
        return {}


@pytest.fixture
def boon_ritual():
    ritual = BoonRitual()
    systems.unregister(KEY)
    systems.register(dataclasses.replace(game_system(), ritual=ritual))
    yield ritual
    systems.unregister(KEY)


def test_another_ritual_hook_changes_what_the_session_page_runs(client, user, boon_ritual):
    campaign, pip, session = tiny_table(user)
    assert boon_ritual.started == [1, 2]
    client.force_login(user)
    body = client.get(session.get_absolute_url()).content.decode()
    assert "Award 1 XP" in body  # the generic Highlights run: the system has them
    assert f'data-boon="{pip.pk}">Boon of Pip<' in body
    assert "Close the ritual: grant the Boons" in body and "Quest" not in body
    for _round in range(session.highlight_rounds):
        response = client.post(reverse("campaigns:turn", args=[campaign.pk, session.number]),
                               {"character": pip.pk, "action": "award", "text": "Won"})
        assert response.status_code == 302
    # Its turns told and no step after them: the system settles what the XP buys.
    assert XpEntry.objects.filter(character=pip, kind=XpEntry.Kind.HIGHLIGHT).count() == 3
    assert boon_ritual.settled and set(boon_ritual.settled) == {pip.pk}
    assert services.ritual_holding(pip) is None


class PlainHighlights(rituals.NoRitual):
    """Highlights and nothing after them, with no template of its own (as METTLE Core's
    ritual could be): the session page shows the generic section."""

    highlights = True


def test_highlights_without_a_template_get_the_generic_section(client, user):
    systems.unregister(KEY)
    systems.register(dataclasses.replace(game_system(), ritual=PlainHighlights()))
    try:
        campaign, pip, session = tiny_table(user)
        client.force_login(user)
        body = client.get(session.get_absolute_url()).content.decode()
        assert 'id="ritual"' in body and "Award 1 XP" in body
        assert "Close the ritual<" in body and "Quest" not in body and "Level up" not in body
        services.highlight_award(session=session, character=pip, by=user, text="Won")
        assert "+1 XP, &ldquo;Won&rdquo;" in client.get(
            session.get_absolute_url()).content.decode()
    finally:
        systems.unregister(KEY)
