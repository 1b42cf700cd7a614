"""METTLE Core advancement's writes (issue #13; next-games.md M16, M17, M48, M9,
AMB-M10; docs/RULES.md AMB-M-ADV-1...4): Attribute raises paid from the XP ledger and
undone latest first, the make-up XP of a returning player, Downtime Vouchers, Contacts
lost and regained. Each: the rule's numbers, who may, and the same request twice."""

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.mettle import advancement
from characters.exchange import character_export, character_import
from characters.models import XpEntry
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.ledgers import AttributeRaise, ContactEvent, MakeUp
from characters.systems.mettle.models import MettleCharacter
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import CampaignFactory, CoImpMembershipFactory, MembershipFactory

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
def viktor(campaign, player):
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)
    return viktor


@pytest.fixture
def other(campaign):
    """Another player at the table, with a character of their own."""
    user = MembershipFactory(campaign=campaign).user
    anya = make_viktor(user, name="Anya")
    services.character_join(campaign=campaign, character=anya, by=user)
    return user


def give_xp(character, xp, guide):
    services.xp_adjust(character=character, xp_change=xp, note="Test", by=guide)


def fresh(character):
    return MettleCharacter.objects.get(pk=character.pk)


def sheet(character):
    return sheet_for(fresh(character))


def refused(code, call, **kwargs):
    with pytest.raises(CampaignError) as error:
        call(**kwargs)
    assert error.value.code == code
    return error.value


# -- Attribute raises (M17) ----------------------------------------------------------------


def test_a_raise_costs_the_engines_price_and_mettle_and_backstories_follow(viktor, guide,
                                                                          player):
    # Viktor: CONCEPT 5, FRAME 3, MOTIVE 4, NATURE 3, POISE 2; Mettle 4 + 5 = 9.
    before = sheet(viktor)
    assert before.stats["mettle_max"].value == 9 and before.stats["backstories_max"].value == 5
    assert before.stats["raise_cost_motive"].value == 5  # a lesser one: the highest's level
    assert before.stats["raise_cost_concept"].value == 10  # the highest: twice its level
    give_xp(viktor, 5, guide)
    bought = advancement.raise_buy(character=viktor, attribute="motive", by=player)
    assert (bought.attribute, bought.before, bought.cost) == ("motive", 4, 5)
    assert bought.xp_entry.kind == XpEntry.Kind.ATTRIBUTE_RAISE
    assert bought.xp_entry.xp_change == -5
    assert fresh(viktor).raises == ["motive"]
    after = sheet(viktor)
    assert after.attributes.motive == 5
    assert after.stats["xp_earned"].value == 5  # the spend is not an earning lost
    assert after.stats["xp_spent"].value == 5 and after.stats["xp_left"].value == 0
    assert after.stats["mettle_max"].value == 10  # MOTIVE 5 + highest 5
    # Ties: MOTIVE 5 and CONCEPT 5 are both the highest, so each costs twice its level.
    assert after.stats["raise_cost_motive"].value == 10
    assert after.stats["raise_cost_concept"].value == 10
    assert services.progress(viktor)[1] == 0  # the ledger's sum is the XP left


def test_raising_the_highest_lifts_the_backstory_slots(viktor, guide):
    give_xp(viktor, 10, guide)
    advancement.raise_buy(character=viktor, attribute="concept", by=guide)
    after = sheet(viktor)
    assert after.attributes.concept == 6
    assert after.stats["backstories_max"].value == 6 and after.stats["mettle_max"].value == 10


def test_a_raise_beyond_the_xp_left_is_refused_and_writes_nothing(viktor, guide, player):
    give_xp(viktor, 4, guide)
    error = refused("not_enough_xp", advancement.raise_buy, character=viktor,
                    attribute="motive", by=player)
    assert error.field == "attribute"
    assert "costs 5 XP" in error.message and "4 XP left" in error.message
    assert not AttributeRaise.objects.exists() and fresh(viktor).raises == []
    assert not XpEntry.objects.filter(kind=XpEntry.Kind.ATTRIBUTE_RAISE).exists()


@pytest.mark.parametrize("attribute", ["speed", "", "MOTIVE", None, 3])
def test_an_unknown_attribute_is_refused(viktor, guide, attribute):
    give_xp(viktor, 20, guide)
    refused("unknown_attribute", advancement.raise_buy, character=viktor,
            attribute=attribute, by=guide)


def test_the_same_raise_request_twice_is_one_raise(viktor, guide, player):
    give_xp(viktor, 20, guide)
    first = advancement.raise_buy(character=viktor, attribute="nature", by=player,
                                  request_key="k1")
    again = advancement.raise_buy(character=viktor, attribute="nature", by=player,
                                  request_key="k1")
    assert first.pk == again.pk and fresh(viktor).raises == ["nature"]
    assert services.progress(viktor)[1] == 15


def test_who_may_spend_xp(viktor, guide, player, other, campaign):
    give_xp(viktor, 20, guide)
    refused("not_your_character", advancement.raise_buy, character=viktor,
            attribute="poise", by=other)
    co_guide = CoImpMembershipFactory(campaign=campaign).user
    advancement.raise_buy(character=viktor, attribute="poise", by=co_guide)
    advancement.raise_buy(character=viktor, attribute="poise", by=player)
    assert fresh(viktor).raises == ["poise", "poise"]


def test_a_character_out_of_any_campaign_spends_its_xp(player, guide, viktor):
    give_xp(viktor, 5, guide)
    services.character_leave(character=viktor, by=player)
    advancement.raise_buy(character=viktor, attribute="frame", by=player)
    refused("not_your_character", advancement.raise_buy, character=viktor,
            attribute="frame", by=guide)  # no longer its Guide


def test_only_the_latest_raise_is_undone_and_refunds_its_xp(viktor, guide, player):
    give_xp(viktor, 10, guide)
    first = advancement.raise_buy(character=viktor, attribute="poise", by=player)  # 5
    second = advancement.raise_buy(character=viktor, attribute="nature", by=player)  # 5
    refused("not_latest_raise", advancement.raise_undo, character=viktor,
            raise_pk=first.pk, by=player)
    undone = advancement.raise_undo(character=viktor, raise_pk=second.pk, by=guide)
    assert undone.undone_at is not None and undone.undone_by == guide
    assert fresh(viktor).raises == ["poise"]
    assert services.progress(viktor)[1] == 5
    assert XpEntry.objects.get(reverses=second.xp_entry).xp_change == 5
    # Again: nothing more.
    advancement.raise_undo(character=viktor, raise_pk=second.pk, by=guide)
    assert services.progress(viktor)[1] == 5
    advancement.raise_undo(character=viktor, raise_pk=first.pk, by=player)
    assert fresh(viktor).raises == [] and services.progress(viktor)[1] == 10
    refused("no_such_raise", advancement.raise_undo, character=viktor, raise_pk=999999,
            by=player)


def test_a_raise_from_elsewhere_after_it_blocks_the_undo(viktor, guide, player):
    give_xp(viktor, 10, guide)
    bought = advancement.raise_buy(character=viktor, attribute="poise", by=player)
    MettleCharacter.objects.filter(pk=viktor.pk).update(raises=["poise", "frame"])
    assert advancement.latest_raise(fresh(viktor)) is None
    refused("not_latest_raise", advancement.raise_undo, character=viktor,
            raise_pk=bought.pk, by=player)


def test_undoing_a_highlight_already_spent_is_refused_until_the_raise_is(viktor, guide,
                                                                       player, campaign):
    services.session_start(campaign=campaign, by=guide)
    session = services.session_start(campaign=campaign, by=guide)
    entries = [services.highlight_award(session=session, character=viktor, by=guide).xp_entry
               for _ in range(2)]
    give_xp(viktor, 3, guide)
    bought = advancement.raise_buy(character=viktor, attribute="motive", by=player)  # 5
    refused("xp_spent", services.xp_entry_reverse, entry=entries[1], by=guide)
    advancement.raise_undo(character=viktor, raise_pk=bought.pk, by=player)
    services.xp_entry_reverse(entry=entries[1], by=guide)
    assert services.progress(viktor)[1] == 4


def test_the_raises_are_not_undone_by_the_generic_undo(viktor, guide, player):
    give_xp(viktor, 5, guide)
    bought = advancement.raise_buy(character=viktor, attribute="motive", by=player)
    refused("not_reversible", services.xp_entry_reverse, entry=bought.xp_entry, by=guide)


def test_the_exchange_file_keeps_the_xp_earned_and_the_raises(viktor, guide, player):
    give_xp(viktor, 7, guide)
    advancement.raise_buy(character=viktor, attribute="motive", by=player)
    data = character_export(fresh(viktor))
    assert data["raises"] == ["motive"] and data["xp"] == 7
    assert data["derived"]["xp_left"] == 2 and data["derived"]["mettle_max"] == 10
    copy = character_import(owner=player, data=data)
    copied = sheet(copy)
    assert copied.stats["xp_left"].value == 2 and copied.attributes.motive == 5


# -- make-up XP (M16, AMB-M10) -------------------------------------------------------------


@pytest.fixture
def back(campaign, guide, viktor, other):
    """Viktor's player missed sessions 2 and 3 and is back for session 4."""
    services.session_start(campaign=campaign, by=guide)
    for _ in range(2):
        missed = services.session_start(campaign=campaign, by=guide)
        services.absence_set(session=missed, character=viktor, by=guide)
    return services.session_start(campaign=campaign, by=guide)


def test_a_returning_player_gets_a_make_up_xp_per_missed_session(back, viktor, guide):
    assert [a.session.number for a in advancement.missed_sessions(back, viktor)] == [2, 3]
    entry = advancement.make_up_award(session=back, character=viktor, by=guide,
                                      request_key="m1")
    assert entry.kind == XpEntry.Kind.MAKE_UP and entry.xp_change == 2
    assert "made up sessions 2, 3" in entry.note
    again = advancement.make_up_award(session=back, character=viktor, by=guide,
                                      request_key="m1")
    assert again.pk == entry.pk and services.progress(viktor)[1] == 2
    refused("nothing_to_make_up", advancement.make_up_award, session=back,
            character=viktor, by=guide)
    # It counts as taking part: the player is here.
    refused("already_took_part", services.absence_set, session=back, character=viktor,
            by=guide)


def test_the_make_up_is_undone_like_a_highlight_and_may_be_given_again(back, viktor, guide):
    entry = advancement.make_up_award(session=back, character=viktor, by=guide)
    services.xp_entry_reverse(entry=entry, by=guide)
    assert services.progress(viktor)[1] == 0
    assert not MakeUp.objects.filter(undone_at__isnull=True).exists()
    again = advancement.make_up_award(session=back, character=viktor, by=guide)
    assert again.xp_change == 2


@pytest.mark.parametrize(("per", "xp"), [(0, None), (1, 2), (3, 6)])
def test_the_make_up_xp_is_a_campaign_setting(back, viktor, guide, campaign, per, xp):
    campaign.settings = {"make_up_xp": per}
    campaign.save()
    back.refresh_from_db()
    if xp is None:
        refused("make_up_off", advancement.make_up_award, session=back, character=viktor,
                by=guide)
    else:
        assert advancement.make_up_award(session=back, character=viktor,
                                         by=guide).xp_change == xp


@pytest.mark.parametrize("settings", [{"make_up_xp": -1}, {"make_up_xp": 99},
                                      {"make_up_xp": "lots"}])
def test_a_bad_make_up_setting_is_refused(guide, settings):
    error = refused("min_value" if settings["make_up_xp"] == -1 else
                    "max_value" if settings["make_up_xp"] == 99 else "invalid",
                    services.campaign_create, owner=guide, name="Bad", system=KEY,
                    settings=settings)
    assert error.field == "make_up_xp"


def test_a_new_mettle_campaign_gives_one_make_up_xp(guide):
    campaign = services.campaign_create(owner=guide, name="Baltimore 1904", system=KEY)
    assert campaign.settings == {"make_up_xp": 1, "freestyle_budget": 22}


def test_who_and_when_make_up_xp(back, viktor, guide, player, campaign, other):
    refused("not_guide", advancement.make_up_award, session=back, character=viktor,
            by=player)
    first = campaign.sessions.get(number=1)
    refused("first_session", advancement.make_up_award, session=first, character=viktor,
            by=guide)
    anya = MettleCharacter.objects.get(name="Anya")
    refused("nothing_to_make_up", advancement.make_up_award, session=back, character=anya,
            by=guide)
    services.ritual_close(session=back, by=guide)
    refused("ritual_closed", advancement.make_up_award, session=back, character=viktor,
            by=guide)


def test_an_absent_player_gets_no_make_up_yet(campaign, back, viktor, guide):
    services.absence_set(session=back, character=viktor, by=guide)
    refused("absent", advancement.make_up_award, session=back, character=viktor, by=guide)
    later = services.session_start(campaign=campaign, by=guide)
    assert advancement.make_up_award(session=later, character=viktor,
                                     by=guide).xp_change == 3


# -- Downtime Vouchers (M48) ---------------------------------------------------------------


def test_vouchers_are_granted_spent_and_undone(viktor, guide, player):
    grant = advancement.voucher_grant(character=viktor, by=guide, note="Sat out the heist",
                                      request_key="v1")
    assert advancement.voucher_grant(character=viktor, by=guide, request_key="v1") == grant
    advancement.voucher_grant(character=viktor, by=guide)
    assert advancement.vouchers(viktor) == 2
    spend = advancement.voucher_spend(character=viktor, by=player,
                                      note="Bribed the night porter beforehand")
    assert advancement.vouchers(viktor) == 1 and spend.change == -1
    advancement.voucher_undo(character=viktor, entry_pk=spend.pk, by=guide)
    assert advancement.vouchers(viktor) == 2
    again = advancement.voucher_undo(character=viktor, entry_pk=spend.pk, by=guide)
    assert again.reverses_id == spend.pk and advancement.vouchers(viktor) == 2
    refused("reversal_of_reversal", advancement.voucher_undo, character=viktor,
            entry_pk=again.pk, by=guide)


def test_a_voucher_spent_needs_a_note_and_a_voucher(viktor, guide, player):
    refused("no_voucher", advancement.voucher_spend, character=viktor, by=player,
            note="Something")
    advancement.voucher_grant(character=viktor, by=guide)
    error = refused("note_required", advancement.voucher_spend, character=viktor,
                    by=player, note="   ")
    assert error.field == "note"
    refused("note_too_long", advancement.voucher_spend, character=viktor, by=player,
            note="x" * 301)


def test_a_grant_spent_since_is_not_undone(viktor, guide, player):
    grant = advancement.voucher_grant(character=viktor, by=guide)
    advancement.voucher_spend(character=viktor, by=player, note="The forged letter")
    refused("voucher_spent", advancement.voucher_undo, character=viktor, entry_pk=grant.pk,
            by=guide)


def test_who_may_grant_spend_and_undo_vouchers(viktor, guide, player, other):
    refused("not_guide", advancement.voucher_grant, character=viktor, by=player)
    grant = advancement.voucher_grant(character=viktor, by=guide)
    refused("not_your_character", advancement.voucher_spend, character=viktor, by=other,
            note="Mine now")
    refused("not_guide", advancement.voucher_undo, character=viktor, entry_pk=grant.pk,
            by=player)
    advancement.voucher_spend(character=viktor, by=guide, note="Told at the table")


# -- Contacts lost and regained (M9) -------------------------------------------------------


def test_a_contact_is_lost_and_regained(viktor, guide, campaign):
    lost = advancement.contact_lose(character=viktor, contact="Oleg", note="Sold him out",
                                    by=guide)
    assert lost.kind == ContactEvent.Kind.LOST and lost.campaign == campaign
    assert advancement.contact_lose(character=viktor, contact="Oleg", note="Again",
                                    by=guide) == lost
    assert set(advancement.contact_states(viktor)) == {"Oleg"}
    regained = advancement.contact_regain(character=viktor, contact="Oleg",
                                          note="Paid his debt", by=guide)
    assert regained.kind == ContactEvent.Kind.REGAINED
    assert advancement.contact_regain(character=viktor, contact="Oleg", by=guide) == regained


def test_a_lost_contact_is_regained_between_campaigns_by_the_next_guide(viktor, guide,
                                                                       player):
    advancement.contact_lose(character=viktor, contact="Samuelson", note="Insulted",
                             by=guide)
    services.character_leave(character=viktor, by=player)
    from characters.systems.mettle.ledgers import contacts_lost

    assert set(contacts_lost(fresh(viktor))) == {"Samuelson"}  # not of itself
    refused("not_guide", advancement.contact_regain, character=viktor,
            contact="Samuelson", by=guide)  # no longer its Guide
    nxt = CampaignFactory(system=KEY)
    MembershipFactory(campaign=nxt, user=player)
    services.character_join(campaign=nxt, character=viktor, by=player)
    advancement.contact_regain(character=viktor, contact="Samuelson",
                               note="Back in good graces", by=nxt.owner)
    assert contacts_lost(fresh(viktor)) == {}


def test_contacts_refusals(viktor, guide, player):
    refused("unknown_contact", advancement.contact_lose, character=viktor,
            contact="Nobody", note="x", by=guide)
    refused("note_required", advancement.contact_lose, character=viktor, contact="Oleg",
            note="", by=guide)
    refused("not_guide", advancement.contact_lose, character=viktor, contact="Oleg",
            note="x", by=player)
    refused("contact_not_lost", advancement.contact_regain, character=viktor,
            contact="Oleg", by=guide)


def test_a_copy_keeps_the_raises_and_the_xp_left(viktor, guide, player):
    from characters.services import character_duplicate

    give_xp(viktor, 7, guide)
    advancement.raise_buy(character=viktor, attribute="motive", by=player)
    copy = character_duplicate(character=viktor, by=player)
    copied = sheet(copy)
    assert fresh(copy).raises == ["motive"] and copied.attributes.motive == 5
    assert copied.stats["xp_earned"].value == 7 and copied.stats["xp_left"].value == 2
    assert not copied.issues or "xp_overspent" not in {i.code for i in copied.issues}
