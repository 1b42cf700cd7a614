"""METTLE Core's Spend XP page and the ritual's make-up XP button (issue #13): who sees
and does what (anonymous, another player, the owner, the Guide), every POST as a full
page and as an htmx request, and hostile input (bad ids, wrong types, huge numbers,
too-long notes) answered beside the field with what was typed kept, never a 500."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.systems.mettle import advancement
from characters.models import XpEntry
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.ledgers import AttributeRaise, MakeUp, VoucherEntry
from characters.systems.mettle.models import MettleCharacter
from tests.characters.systems.mettle.helpers import make_viktor, stats
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def campaign(db):
    return CampaignFactory(system=KEY)


@pytest.fixture
def guide(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def viktor(campaign, player):
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)
    services.xp_adjust(character=viktor, xp_change=5, note="Start", by=campaign.owner)
    return viktor


@pytest.fixture
def other(campaign):
    return MembershipFactory(campaign=campaign).user


def url(name, character, *extra):
    return reverse(f"characters:{name}", args=[character.pk, *extra])


def raises(character):
    return MettleCharacter.objects.get(pk=character.pk).raises


# -- who sees the page ---------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, viktor):
    response = client.get(url("mettle_advancement", viktor))
    assert response.status_code == 302 and "login" in response["Location"]
    response = client.post(url("mettle_raise", viktor), {"attribute": "motive"})
    assert response.status_code == 302 and raises(viktor) == []


def test_another_player_finds_nothing(client, viktor, other):
    client.force_login(other)
    assert client.get(url("mettle_advancement", viktor)).status_code == 404
    for name, data in (("mettle_raise", {"attribute": "motive"}),
                       ("mettle_voucher_grant", {}),
                       ("mettle_voucher_spend", {"note": "x"}),
                       ("mettle_contact_lost", {"contact": "Oleg", "note": "x"})):
        assert client.post(url(name, viktor), data).status_code == 404
    assert raises(viktor) == [] and not VoucherEntry.objects.exists()


def test_the_owner_spends_xp_but_grants_nothing(client, viktor, player):
    client.force_login(player)
    response = client.get(url("mettle_advancement", viktor))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Raise MOTIVE to 5" in body and "Raise CONCEPT to 6" not in body
    assert 'data-needs="concept">Needs 10 XP' in body
    assert "Grant a Voucher" not in body and "How the Contact was lost" not in body
    found = stats(response)
    assert found["xp_left"] == "5" and found["mettle_max"] == "9"
    assert found["raise_cost_motive"] == "5" and found["raise_cost_concept"] == "10"
    assert client.post(url("mettle_voucher_grant", viktor), {}).status_code == 403
    assert client.post(url("mettle_contact_lost", viktor),
                       {"contact": "Oleg", "note": "x"}).status_code == 403
    assert not VoucherEntry.objects.exists()


def test_the_guide_sees_every_form(client, viktor, guide):
    client.force_login(guide)
    body = client.get(url("mettle_advancement", viktor)).content.decode()
    assert "Raise MOTIVE to 5" in body and "Grant a Voucher" in body
    assert "How the Contact was lost" in body


def test_the_sheet_links_to_it_and_shows_the_vouchers_and_lost_contacts(client, viktor,
                                                                        guide, player):
    advancement.voucher_grant(character=viktor, by=guide)
    advancement.contact_lose(character=viktor, contact="Oleg", note="Cheated him", by=guide)
    client.force_login(player)
    response = client.get(viktor.get_absolute_url())
    body = response.content.decode()
    assert url("mettle_advancement", viktor) in body
    assert stats(response)["vouchers"] == "1"
    assert body.count("data-contact-lost") == 1


def test_the_campaigns_character_page_links_spend_xp(client, campaign, viktor, guide,
                                                      player, other):
    """Issue #13: the generic campaign character page shows METTLE's ritual card (the
    "character" slot) with the XP left and the link, to the owner and the Guide."""
    page = reverse("campaigns:character", args=[campaign.pk, viktor.pk])
    link = f'href="{url("mettle_advancement", viktor)}"'
    for user in (player, guide):
        client.force_login(user)
        response = client.get(page)
        body = response.content.decode()
        assert response.status_code == 200 and link in body and "data-spend-xp" in body
        assert stats(response)["xp_left"] == "5"
        assert "CONCEPT 10, FRAME 5" in body
    client.force_login(other)  # another player of the campaign: not their ledger
    assert client.get(page).status_code == 403
    client.logout()
    assert client.get(page).status_code == 302


# -- raises --------------------------------------------------------------------------------


def test_buying_and_undoing_a_raise_from_the_page(client, viktor, player):
    client.force_login(player)
    response = client.post(url("mettle_raise", viktor),
                           {"attribute": "motive", "request_key": "r1"}, follow=True)
    assert response.status_code == 200
    assert "MOTIVE is now 5 (5 XP spent)." in response.content.decode()
    found = stats(response)
    assert found["mettle_max"] == "10" and found["xp_left"] == "0"
    # A double click: the same key again is the same raise.
    client.post(url("mettle_raise", viktor), {"attribute": "motive", "request_key": "r1"})
    assert raises(viktor) == ["motive"]
    bought = AttributeRaise.objects.get()
    response = client.post(url("mettle_raise_undo", viktor, bought.pk), **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="advancement">') and "<html" not in body
    assert "Raise undone: MOTIVE is 4 again (5 XP back)." in body
    assert raises(viktor) == []


def test_a_raise_through_htmx_answers_the_partial(client, viktor, guide):
    client.force_login(guide)
    response = client.post(url("mettle_raise", viktor), {"attribute": "poise"}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body and 'id="advancement"' in body
    assert 'data-stat="xp_left" title="XP left 0' in body


def test_not_enough_xp_is_said_beside_the_raises(client, viktor, player):
    client.force_login(player)
    response = client.post(url("mettle_raise", viktor), {"attribute": "concept"})
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-error="attribute"' in body
    assert "Raising CONCEPT to 6 costs 10 XP; Viktor has 5 XP left." in body
    assert raises(viktor) == []


@pytest.mark.parametrize("attribute", ["speed", "", "9" * 500, "MOTIVE", "<script>"])
def test_a_bad_attribute_is_refused_beside_the_field(client, viktor, player, attribute):
    client.force_login(player)
    response = client.post(url("mettle_raise", viktor), {"attribute": attribute})
    assert response.status_code == 200
    assert 'data-error="attribute"' in response.content.decode()
    assert raises(viktor) == []


def test_a_forged_request_key_is_a_bad_request(client, viktor, player):
    client.force_login(player)
    response = client.post(url("mettle_raise", viktor),
                           {"attribute": "motive", "request_key": "k" * 65})
    assert response.status_code in (200, 400)
    assert raises(viktor) == []


@pytest.mark.parametrize("raise_pk", ["999999", "99999999999999999999999"])
def test_undoing_a_raise_that_does_not_exist(client, viktor, player, raise_pk):
    client.force_login(player)
    response = client.post(f"/characters/{viktor.pk}/mettle/xp/raise/{raise_pk}/undo/")
    assert response.status_code == 404


def test_undoing_a_raise_not_the_latest_says_so(client, viktor, guide, player):
    services.xp_adjust(character=viktor, xp_change=5, note="More", by=guide)
    first = advancement.raise_buy(character=viktor, attribute="poise", by=player)
    advancement.raise_buy(character=viktor, attribute="nature", by=player)
    client.force_login(player)
    response = client.post(url("mettle_raise_undo", viktor, first.pk), follow=True)
    assert "Only the latest raise can be undone" in response.content.decode()
    assert raises(viktor) == ["poise", "nature"]


def test_another_player_cannot_undo_a_raise(client, viktor, player, other):
    bought = advancement.raise_buy(character=viktor, attribute="poise", by=player)
    client.force_login(other)
    assert client.post(url("mettle_raise_undo", viktor, bought.pk)).status_code == 404
    assert raises(viktor) == ["poise"]


def test_an_eldritch_gambit_character_has_no_spend_xp_page(client, player):
    hero = CharacterFactory(owner=player)
    client.force_login(player)
    assert client.get(url("mettle_advancement", hero)).status_code == 404


# -- Vouchers ------------------------------------------------------------------------------


def test_the_guide_grants_the_player_spends_the_guide_undoes(client, viktor, guide, player):
    client.force_login(guide)
    response = client.post(url("mettle_voucher_grant", viktor),
                           {"note": "Sat out the chase", "request_key": "g1"}, **HTMX)
    assert response.status_code == 200 and 'data-stat="vouchers">1<' in response.content.decode()
    client.post(url("mettle_voucher_grant", viktor), {"request_key": "g1"})
    assert advancement.vouchers(viktor) == 1
    client.force_login(player)
    response = client.post(url("mettle_voucher_spend", viktor),
                           {"note": "Had already bribed the guard"}, follow=True)
    body = response.content.decode()
    assert "Viktor spends a Downtime Voucher." in body
    assert "Had already bribed the guard" in body and 'data-stat="vouchers">0<' in body
    spend = VoucherEntry.objects.get(kind="spend")
    assert client.post(url("mettle_voucher_undo", viktor, spend.pk)).status_code == 403
    client.force_login(guide)
    client.post(url("mettle_voucher_undo", viktor, spend.pk))
    assert advancement.vouchers(viktor) == 1
    assert client.post(url("mettle_voucher_undo", viktor, 999999)).status_code == 404


@pytest.mark.parametrize(("note", "message"), [
    ("", "Say what the Voucher reveals they did."),
    ("   ", "Say what the Voucher reveals they did."),
    ("x" * 400, "Ensure this value has at most 300 characters (it has 400)."),
])
def test_a_spend_without_a_good_note_is_refused_beside_it(client, viktor, guide, player,
                                                         note, message):
    advancement.voucher_grant(character=viktor, by=guide)
    client.force_login(player)
    response = client.post(url("mettle_voucher_spend", viktor), {"note": note})
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="spend-note-error"><div class="invalid-feedback d-block">' in body
    assert message in body
    assert advancement.vouchers(viktor) == 1


def test_a_spend_with_no_voucher_is_refused_and_the_note_kept(client, viktor, player):
    client.force_login(player)
    response = client.post(url("mettle_voucher_spend", viktor), {"note": "The hidden key"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "Viktor has no Downtime Voucher to spend." in body
    assert 'value="The hidden key"' in body


# -- Contacts ------------------------------------------------------------------------------


def test_the_guide_marks_a_contact_lost_then_regained(client, viktor, guide):
    client.force_login(guide)
    response = client.post(url("mettle_contact_lost", viktor),
                           {"contact": "Oleg", "note": "Sold him out"}, follow=True)
    body = response.content.decode()
    assert "Oleg: lost." in body and "data-contact-lost" in body and "Sold him out" in body
    response = client.post(url("mettle_contact_regained", viktor),
                           {"contact": "Oleg", "note": "Made amends"}, **HTMX)
    assert "<html" not in response.content.decode()
    assert "data-contact-lost" not in response.content.decode()


@pytest.mark.parametrize(("data", "message"), [
    ({"contact": "Nobody", "note": "x"}, "Viktor has no such Contact."),
    ({"contact": "Oleg", "note": ""}, "Say how the Contact was lost."),
    ({"contact": "", "note": "x"}, "Choose a Contact."),
    ({"contact": "Oleg", "note": "y" * 301}, "at most 300 characters"),
])
def test_contact_refusals_are_said_and_the_typing_kept(client, viktor, guide, data, message):
    client.force_login(guide)
    response = client.post(url("mettle_contact_lost", viktor), data)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="contact-errors"' in body and message in body
    if data["contact"] == "Oleg" and data["note"]:
        assert f'value="{data["note"]}"' in body


# -- the ritual's make-up XP ---------------------------------------------------------------


@pytest.fixture
def back(campaign, guide, viktor):
    services.session_start(campaign=campaign, by=guide)
    missed = services.session_start(campaign=campaign, by=guide)
    services.absence_set(session=missed, character=viktor, by=guide)
    return services.session_start(campaign=campaign, by=guide)


def make_up_url(session):
    return reverse("campaigns:mettle_make_up", args=[session.campaign_id, session.number])


def test_the_guide_awards_and_undoes_make_up_xp_on_the_session_page(client, back, viktor,
                                                                    guide):
    client.force_login(guide)
    body = client.get(back.get_absolute_url()).content.decode()
    assert "Missed session 2" in body and "Award 1 make-up XP" in body
    assert "Level" not in body and "Quest" not in body
    response = client.post(make_up_url(back), {"character": viktor.pk, "request_key": "m"},
                           follow=True)
    body = response.content.decode()
    assert "Viktor gets 1 make-up XP." in body and "made up session 2" in body
    client.post(make_up_url(back), {"character": viktor.pk, "request_key": "m"})
    entry = XpEntry.objects.get(kind=XpEntry.Kind.MAKE_UP)
    response = client.post(reverse("campaigns:xp_reverse",
                                   args=[back.campaign_id, back.number, entry.pk]), follow=True)
    assert response.status_code == 200
    assert not MakeUp.objects.filter(undone_at__isnull=True).exists()
    assert "Award 1 make-up XP" in response.content.decode()


def test_a_player_cannot_award_make_up_xp(client, back, viktor, player, other):
    client.force_login(player)
    assert client.post(make_up_url(back), {"character": viktor.pk}).status_code == 403
    client.force_login(UserFactory())
    assert client.post(make_up_url(back), {"character": viktor.pk}).status_code == 404
    assert not MakeUp.objects.exists()


@pytest.mark.parametrize("character", ["999999", "abc", "", "-1", "9" * 40])
def test_a_bad_character_for_make_up_xp(client, back, guide, character):
    client.force_login(guide)
    response = client.post(make_up_url(back), {"character": character})
    assert response.status_code in (400, 404)
    assert not MakeUp.objects.exists()


def test_an_eldritch_gambit_campaign_has_no_make_up_xp(client):
    campaign = CampaignFactory()
    hero = CharacterFactory(owner=campaign.owner, campaign=campaign)
    services.session_start(campaign=campaign, by=campaign.owner)
    session = services.session_start(campaign=campaign, by=campaign.owner)
    client.force_login(campaign.owner)
    assert client.post(make_up_url(session), {"character": hero.pk}).status_code == 404


# -- the campaign setting ------------------------------------------------------------------


def test_a_mettle_campaign_form_has_the_make_up_setting(client):
    from campaigns.models import Campaign

    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("campaigns:create"), {"system": KEY})
    assert "Make-up XP per missed session" in page.content.decode()
    response = client.post(reverse("campaigns:create"), {
        "name": "Baltimore", "system": KEY, "make_up_xp": "lots",
        "default_highlight_rounds": "2"})
    assert response.status_code == 200
    assert {e.code for e in response.context["form"].errors.as_data()["make_up_xp"]} == {
        "invalid"}
    assert 'value="lots"' in response.content.decode()
    response = client.post(reverse("campaigns:create"), {
        "name": "Baltimore", "system": KEY, "make_up_xp": "2",
        "default_highlight_rounds": "2"})
    assert Campaign.objects.get().settings == {"make_up_xp": 2, "freestyle_budget": 22}
    listing = client.get(reverse("campaigns:list")).content.decode()
    assert "2 make-up XP per missed session, Freestyle budget 22" in listing
