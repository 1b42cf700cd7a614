"""METTLE Core's Highlights ritual in a campaign (issue #13; next-games.md M15, M17): the
sessions after the first open with 1 to 3 Highlights rounds, 1 XP per Highlight, the
Guide awards or passes each turn in order and may undo; the XP lands in the generic XP
ledger and on the METTLE sheet; no Quest step, no Levels, and settle() buys nothing."""

import pytest
from django.urls import reverse

from campaigns import rituals, services
from campaigns.models import Highlight
from campaigns.services import CampaignError
from characters.models import XpEntry
from characters.systems.mettle.apps import KEY
from tests.characters.systems.mettle.helpers import make_viktor, stats
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(system=KEY, default_highlight_rounds=2)


@pytest.fixture
def guide(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def party(campaign, guide, player):
    """Two METTLE characters joined: Viktor (the player's) and Anya (another player's)."""
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)
    other = MembershipFactory(campaign=campaign).user
    anya = make_viktor(other, name="Anya")
    services.character_join(campaign=campaign, character=anya, by=other)
    return anya, viktor  # the party's order: by name


@pytest.fixture
def session(campaign, guide, party):
    first = services.session_start(campaign=campaign, by=guide)
    assert not first.has_ritual
    return services.session_start(campaign=campaign, by=guide)


def action(name, session, *extra):
    return reverse(f"campaigns:{name}", args=[session.campaign_id, session.number, *extra])


def xp(character):
    return sum(XpEntry.objects.filter(character=character).values_list("xp_change",
                                                                        flat=True))


def test_mettle_registers_its_ritual_with_highlights():
    ritual = rituals.of(KEY)
    assert ritual is not rituals.NO_RITUAL and ritual.highlights
    assert rituals.labels(KEY)["character_link"] == "XP ledger"
    assert "Guide" in rituals.labels(KEY)["ledger_sources"]


def test_the_first_session_has_no_highlights(client, campaign, guide, party):
    first = services.session_start(campaign=campaign, by=guide)
    client.force_login(guide)
    body = client.get(first.get_absolute_url()).content.decode()
    assert "No Highlights in the first session." in body and "Award 1 XP" not in body
    with pytest.raises(CampaignError) as refused:
        services.highlight_award(session=first, character=party[0], by=guide)
    assert refused.value.code == "first_session"


def test_the_guide_runs_the_rounds_in_turn_order(client, guide, party, session):
    anya, viktor = party
    assert session.highlight_rounds == 2  # the campaign's default
    client.force_login(guide)
    body = client.get(session.get_absolute_url()).content.decode()
    assert 'id="ritual"' in body and "Award 1 XP" in body
    assert "Quest" not in body and "Level" not in body
    # Viktor is not first: Anya's turn comes before his in round 1.
    response = client.post(action("turn", session),
                           {"character": viktor.pk, "action": "award", "text": "Cards"},
                           follow=True)
    assert "It is Anya&#x27;s turn (round 1), not Viktor&#x27;s." in response.content.decode()
    assert not Highlight.objects.exists()
    turns = [(anya, "award", "The rooftop chase"), (viktor, "award", "Anya's rooftop chase"),
             (anya, "pass", ""), (viktor, "award", "The card game")]
    for character, what, text in turns:
        response = client.post(action("turn", session), {
            "character": character.pk, "action": what, "text": text,
            "request_key": f"{character.pk}-{text}"})
        assert response.status_code == 302
    # A double click is one turn, and every turn is told.
    client.post(action("turn", session), {"character": viktor.pk, "action": "award",
                                          "text": "The card game",
                                          "request_key": f"{viktor.pk}-The card game"})
    assert services.highlight_turns(session) == []
    assert (xp(anya), xp(viktor)) == (1, 2)
    assert XpEntry.objects.filter(character=viktor, kind=XpEntry.Kind.HIGHLIGHT).count() == 2
    # Nothing bought: METTLE's XP buys raises any time, not at the ritual.
    assert not XpEntry.objects.filter(kind=XpEntry.Kind.LEVEL_SPEND).exists()
    assert services.ritual_holding(viktor) is None
    body = client.get(session.get_absolute_url()).content.decode()
    assert "Round 1: +1 XP, &ldquo;Anya&#x27;s rooftop chase&rdquo;" in body
    assert "Round 2: pass" in body
    assert "Quest" not in body and "Level" not in body
    response = client.post(action("ritual_close", session), follow=True)
    assert "Session 2&#x27;s ritual is closed." in response.content.decode()


def test_the_xp_shows_on_the_characters_pages(client, guide, player, party, session):
    anya, viktor = party
    client.force_login(player)
    before = stats(client.get(viktor.get_absolute_url()))
    services.highlight_award(session=session, character=anya, by=guide)
    services.highlight_award(session=session, character=viktor, by=guide, text="Cards")
    page = client.get(viktor.get_absolute_url())
    after = stats(page)
    assert int(after["xp_earned"]) == int(before["xp_earned"]) + 1 == xp(viktor)
    assert int(after["xp_left"]) == int(before["xp_left"]) + 1
    assert "Highlights, make-up XP, raises, the Guide&#x27;s adjustments" in page.content.decode()
    ledger = client.get(reverse("campaigns:character", args=[session.campaign_id,
                                                             viktor.pk]))
    assert ledger.status_code == 200
    assert f'data-stat="xp">{xp(viktor)}<' in ledger.content.decode()
    assert 'id="quest"' not in ledger.content.decode()


def test_the_guide_undoes_a_highlight(client, guide, party, session):
    anya, viktor = party
    highlight = services.highlight_award(session=session, character=anya, by=guide)
    services.highlight_award(session=session, character=viktor, by=guide)
    client.force_login(guide)
    response = client.post(action("xp_reverse", session, highlight.xp_entry_id))
    assert response.status_code == 302
    assert (xp(anya), xp(viktor)) == (0, 1)
    highlight.refresh_from_db()
    assert highlight.undone_at is not None
    # The undone turn is open again, and it is Anya's: the lowest open round goes first.
    assert services.highlight_turns(session)[0] == (anya, 1)
    body = client.get(session.get_absolute_url()).content.decode()
    assert "undone" in body and "Round 1: the Highlight" in body


def test_a_player_cannot_run_the_ritual(client, player, party, session):
    anya, viktor = party
    client.force_login(player)
    response = client.post(action("turn", session), {"character": anya.pk,
                                                     "action": "award"})
    assert response.status_code == 403
    services.highlight_award(session=session, character=anya, by=session.campaign.owner)
    entry = XpEntry.objects.get(character=anya, kind=XpEntry.Kind.HIGHLIGHT)
    assert client.post(action("xp_reverse", session, entry.pk)).status_code == 403
    assert xp(anya) == 1
    client.force_login(UserFactory())  # not at the table: the campaign is not found
    assert client.post(action("turn", session), {"character": viktor.pk,
                                                 "action": "award"}).status_code == 404
    assert Highlight.objects.count() == 1


@pytest.mark.parametrize("character", ["999999", "abc", "", "-1", "1e3"])
def test_a_bad_character_id_is_refused(client, guide, session, character):
    client.force_login(guide)
    response = client.post(action("turn", session), {"character": character,
                                                     "action": "award"})
    assert response.status_code in (400, 404)
    assert not Highlight.objects.exists()


def test_another_campaigns_character_is_not_found(client, guide, session):
    other = CampaignFactory(system=KEY)
    stranger = make_viktor(other.owner, name="Stranger")
    services.character_join(campaign=other, character=stranger, by=stranger.owner)
    eg_hero = CharacterFactory(campaign=CampaignFactory())
    client.force_login(guide)
    for character in (stranger, eg_hero):
        response = client.post(action("turn", session), {"character": character.pk,
                                                         "action": "award"})
        assert response.status_code == 404
    assert not Highlight.objects.exists() and xp(stranger) == 0
