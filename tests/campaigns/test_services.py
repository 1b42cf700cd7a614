"""Campaign services: the XP ritual with the SRD's numbers (Characters > Advancement),
idempotency, reversals, permissions, bad input and the database's constraints."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import services
from campaigns.models import Absence, Campaign, Highlight, Membership
from campaigns.services import CampaignError, progress
from campaigns.systems.eldritch_gambit import quests
from campaigns.systems.eldritch_gambit.models import Quest, QuestInvestment
from characters.models import Character, XpEntry
from characters.services import character_duplicate
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.campaign_settings import MAX_LEVEL
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    InvitationFactory,
    MembershipFactory,
    QuestFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

Kind = XpEntry.Kind


def refused(code):
    """pytest.raises for a CampaignError with this code."""

    class _Refused:
        def __enter__(self):
            self.raises = pytest.raises(CampaignError)
            self.info = self.raises.__enter__()
            return self.info

        def __exit__(self, *exc):
            handled = self.raises.__exit__(*exc)
            assert self.info.value.code == code, self.info.value.message
            return handled

    return _Refused()


def start(campaign, imp, **kwargs):
    return services.session_start(campaign=campaign, by=imp, **kwargs)


def award(session, character, imp, **kwargs):
    return services.highlight_award(session=session, character=character, by=imp,
                                    text=kwargs.pop("text", "A fine deed"), **kwargs)


def pass_turns(session, character, imp, count):
    for _ in range(count):
        services.highlight_pass(session=session, character=character, by=imp)


def invest(session, character, by, **kwargs):
    return quests.quest_invest(session=session, character=character, by=by, **kwargs)


# -- the ritual with the rules' figures --------------------------------------------------------


def test_three_rounds_for_a_table_of_four_then_quests_and_a_payout(campaign, imp, seat):
    """Characters > Advancement. Highlights: "Any half-decent answer gets an XP. This
    question goes around the table three times", the final round "for something
    *another* character did". Quest XP: "After Highlights XP, Players can ... Invest
    *one* XP"; "If they accomplish it, they get double the invested XP back!" Level:
    "Levels raise when the character has as many XP as their current Level. The player
    then erases the spent XP, keeping any leftovers."
    """
    ash = seat(name="Ash", xp=9, quest="Revenge on the orc commander")
    bram = seat(name="Bram", xp=0)
    cyd = seat(name="Cyd", xp=4)
    dov = seat(name="Dov", xp=9)
    ash.wp_current = 3
    ash.save()

    # Session 1: no Highlights in the first game; Ash invests 1 XP (9 -> 8). The
    # campaign starts: WP refills.
    s1 = start(campaign, imp)
    ash.refresh_from_db()
    assert ash.wp_current is None
    invest(s1, ash, ash.owner)
    assert progress(ash) == (10, 8)

    # Session 2 (the others' players are away): one Highlight (8 -> 9), two passes,
    # invest (9 -> 8).
    s2 = start(campaign, imp)
    for other in (bram, cyd, dov):
        services.absence_set(session=s2, character=other, by=imp)
    award(s2, ash, imp)
    pass_turns(s2, ash, imp, 2)
    invest(s2, ash, ash.owner)
    # Session 3: three passes, invest (8 -> 7). Three XP are in the Quest now.
    s3 = start(campaign, imp)
    for other in (bram, cyd, dov):
        services.absence_set(session=s3, character=other, by=imp)
    pass_turns(s3, ash, imp, 3)
    invest(s3, ash, ash.owner)
    quest = Quest.objects.get(character=ash)
    assert progress(ash) == (10, 7)
    assert quests.invested_xp(quest) == 3

    # Session 4: three rounds around the table of four, in turn, the final round about
    # another character; Bram passes once.
    s4 = start(campaign, imp, final_round_about_other=True)
    for _round in (1, 2):
        for character in (ash, bram, cyd, dov):
            award(s4, character, imp)
    with refused("about_other_required"):
        award(s4, ash, imp)
    award(s4, ash, imp, text="Bram talked the ferryman down", about_other=True)
    services.highlight_pass(session=s4, character=bram, by=imp)
    award(s4, cyd, imp, text="Dov's leap over the chasm", about_other=True)
    award(s4, dov, imp, text="Cyd's pie diplomacy", about_other=True)
    with refused("no_turns_left"):
        award(s4, ash, imp)

    # The XP diagram: Highlights XP, then Quest Invest, then "Level Up?". Ash has 7 + 3
    # = 10 XP = Level, Dov 9 + 3 = 12: no Level is bought yet.
    assert progress(ash) == (10, 10)
    assert progress(bram) == (10, 2)
    assert progress(cyd) == (10, 7)
    assert progress(dov) == (10, 12)
    turns = Highlight.objects.filter(session=s4)
    assert turns.count() == 12
    assert turns.filter(awarded=True).count() == 11
    assert turns.filter(round_number=3, about_other=True).count() == 3
    assert turns.filter(awarded=False).get().character == bram
    assert not XpEntry.objects.filter(kind=Kind.LEVEL_SPEND).exists()

    # Three Quest investments after the Highlights: Ash still has the XP to invest, and
    # 9 < 10 buys no Level. Dov does not invest and waits for the end of the ritual.
    invest(s4, ash, ash.owner)
    invest(s4, bram, bram.owner)
    invest(s4, cyd, cyd.owner)
    assert progress(ash) == (10, 9)
    assert progress(bram) == (10, 1)
    assert progress(cyd) == (10, 6)
    assert progress(dov) == (10, 12)
    bought = services.ritual_close(session=s4, by=imp)
    assert {c.pk: len(spends) for c, spends in bought.items()} == {dov.pk: 1}
    assert progress(dov) == (11, 2)
    spend = XpEntry.objects.get(character=dov, kind=Kind.LEVEL_SPEND)
    assert (spend.xp_change, spend.level_change) == (-10, 1)

    # The Imp marks Ash's Quest achieved: double the 4 invested XP, 9 + 8 = 17 buys
    # Level 11 (10 XP), 7 left.
    quests.quest_complete(quest=quest, by=imp, session=s4)
    quest.refresh_from_db()
    assert quest.status == Quest.Status.ACHIEVED
    assert quest.payout_entry.xp_change == 8
    assert quest.ended_in == s4
    assert progress(ash) == (11, 7)
    # The new Level's Attribute point waits in the engine.
    ash = EldritchGambitCharacter.objects.get(pk=ash.pk)
    assert sheet_for(ash).value("attribute_points_left") == 1
    # Session 4 was not the first: Bram's WP stays as it was.
    assert EldritchGambitCharacter.objects.get(pk=bram.pk).wp_current is None


def _invested(character, session, amount):
    """`amount` investments written straight into the ledger (one per session)."""
    quest = Quest.objects.filter(character=character, status="active").first() or QuestFactory(
        character=character)
    for _ in range(amount):
        entry = XpEntry.objects.create(character=character, kind=Kind.QUEST_INVESTMENT,
                                       xp_change=-1)
        QuestInvestment.objects.create(quest=quest, session=session, character=character,
                                       xp_entry=entry)
        # Sessions whose rituals are over: they hold no Level-up.
        session = SessionFactory(campaign=session.campaign, ritual_closed_at=timezone.now())
    return quest


def test_a_payout_can_buy_several_levels(campaign, imp, seat):
    # Level 1 with 2 XP invested: the payout 4 buys Level 2 (1 XP) and Level 3 (2 XP).
    hero = seat(level=1, xp=2)
    quest = _invested(hero, SessionFactory(campaign=campaign), 2)
    assert progress(hero) == (1, 0)
    quests.quest_complete(quest=quest, by=imp)
    assert progress(hero) == (3, 1)
    spends = XpEntry.objects.filter(character=hero, kind=Kind.LEVEL_SPEND).order_by("pk")
    assert [(e.xp_change, e.level_change) for e in spends] == [(-1, 1), (-2, 1)]


def test_level_ups_is_a_no_op_below_the_level(campaign, seat):
    hero = seat(level=10, xp=9)
    assert quests.level_ups(character=hero) == []
    assert progress(hero) == (10, 9)


def test_the_first_session_refills_every_characters_wp_and_numbers_sessions(
        campaign, imp, seat):
    tired = [seat(wp_current=2), seat(wp_current=0)]
    outsider = CharacterFactory(wp_current=1)
    sessions = [start(campaign, imp) for _ in range(3)]
    assert [s.number for s in sessions] == [1, 2, 3]
    assert all(EldritchGambitCharacter.objects.get(pk=c.pk).wp_current is None for c in tired)
    assert EldritchGambitCharacter.objects.get(pk=outsider.pk).wp_current == 1
    assert sessions[0].highlight_rounds == campaign.default_highlight_rounds


def test_session_rounds_follow_the_campaign_or_the_imp(imp):
    campaign = CampaignFactory(owner=imp, default_highlight_rounds=2)
    assert start(campaign, imp).highlight_rounds == 2
    assert start(campaign, imp, highlight_rounds=4).highlight_rounds == 4
    with refused("rounds_out_of_range"):
        start(campaign, imp, highlight_rounds=5)


def test_a_short_session_has_two_turns(campaign, imp, seat):
    hero, other = seat(name="Ash", xp=0), seat(name="Bo", xp=0)
    start(campaign, imp)
    short = start(campaign, imp, highlight_rounds=2)
    award(short, hero, imp)
    award(short, other, imp)
    award(short, hero, imp)
    services.highlight_pass(session=short, character=other, by=imp)
    with refused("no_turns_left"):
        award(short, hero, imp)
    services.session_update(session=short, by=imp, highlight_rounds=3)
    award(short, hero, imp)
    award(short, other, imp)
    assert progress(hero) == (10, 3)
    with refused("rounds_already_played"):
        services.session_update(session=short, by=imp, highlight_rounds=2)


# -- idempotency ---------------------------------------------------------------------------------


def test_the_same_award_submitted_twice_is_recorded_once(campaign, imp, seat):
    hero = seat(xp=3)
    start(campaign, imp)
    session = start(campaign, imp)
    first = award(session, hero, imp, request_key="award-1")
    again = award(session, hero, imp, request_key="award-1")
    assert again == first
    assert Highlight.objects.count() == 1
    assert XpEntry.objects.filter(kind=Kind.HIGHLIGHT).count() == 1
    assert progress(hero) == (10, 4)


def test_the_same_key_for_another_character_is_refused(campaign, imp, seat):
    hero, other = seat(), seat()
    start(campaign, imp)
    session = start(campaign, imp)
    award(session, hero, imp, request_key="k")
    with refused("request_key_reused"):
        award(session, other, imp, request_key="k")
    with refused("request_key_reused"):
        invest(session, hero, imp, request_key="k")


def test_other_services_are_idempotent(campaign, imp, seat):
    hero = seat(xp=5)
    s1 = start(campaign, imp, request_key="s1")
    assert start(campaign, imp, request_key="s1") == s1
    first = invest(s1, hero, hero.owner, request_key="inv")
    assert invest(s1, hero, hero.owner, request_key="inv") == first
    assert progress(hero) == (10, 4)
    quest = first.quest
    quests.quest_complete(quest=quest, by=imp)
    quests.quest_complete(quest=quest, by=imp)
    assert progress(hero) == (10, 6)
    made = services.campaign_create(owner=imp, name="Twice", request_key="c1")
    assert services.campaign_create(owner=imp, name="Twice", request_key="c1") == made
    assert Campaign.objects.filter(name="Twice").count() == 1
    entry = services.xp_adjust(character=hero, xp_change=1, note="Late bonus", by=imp,
                               request_key="adj")
    assert services.xp_adjust(character=hero, xp_change=1, note="Late bonus", by=imp,
                              request_key="adj") == entry
    assert progress(hero) == (10, 7)


# -- reversals -------------------------------------------------------------------------------------


def test_reversing_a_highlight_without_a_level(campaign, imp, seat):
    hero = seat(xp=4)
    start(campaign, imp)
    session = start(campaign, imp)
    highlight = award(session, hero, imp)
    assert progress(hero) == (10, 5)
    reversal = services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    assert (reversal.kind, reversal.xp_change, reversal.reverses) == (
        Kind.REVERSAL, -1, highlight.xp_entry)
    assert progress(hero) == (10, 4)
    with refused("already_reversed"):
        services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    with refused("reversal_of_reversal"):
        services.xp_entry_reverse(entry=reversal, by=imp)
    assert progress(hero) == (10, 4)


def test_reversing_a_highlight_that_bought_a_level_needs_confirmation(campaign, imp, seat):
    hero = seat(xp=9)
    start(campaign, imp)
    session = start(campaign, imp)
    highlight = award(session, hero, imp)
    assert progress(hero) == (10, 10)  # "Level Up?" comes at the end of the ritual
    pass_turns(session, hero, imp, 2)
    services.ritual_close(session=session, by=imp)
    assert progress(hero) == (11, 0)
    spend = XpEntry.objects.get(character=hero, kind=Kind.LEVEL_SPEND)
    with refused("level_spend"):
        services.xp_entry_reverse(entry=spend, by=imp, confirm_level_undo=True)
    entries = XpEntry.objects.count()
    with refused("level_undo_needed"):
        services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    assert XpEntry.objects.count() == entries
    services.xp_entry_reverse(entry=highlight.xp_entry, by=imp, confirm_level_undo=True)
    assert progress(hero) == (10, 9)
    undone = XpEntry.objects.get(reverses=spend)
    assert (undone.kind, undone.xp_change, undone.level_change) == (Kind.REVERSAL, 10, -1)
    # The turn and the ritual are open again: the character retells it and, when the
    # Imp closes the ritual again, earns that Level again.
    session.refresh_from_db()
    assert session.ritual_open
    assert services.highlight_turns(session) == [(hero, 1)]
    award(session, hero, imp, text="Told again")
    assert progress(hero) == (10, 10)
    services.ritual_close(session=session, by=imp)
    assert progress(hero) == (11, 0)


def test_reversing_a_payout_that_bought_two_levels(campaign, imp, seat):
    hero = seat(level=1, xp=2)
    quest = _invested(hero, SessionFactory(campaign=campaign), 2)
    quests.quest_complete(quest=quest, by=imp)
    assert progress(hero) == (3, 1)
    quest.refresh_from_db()
    with refused("level_undo_needed") as info:
        services.xp_entry_reverse(entry=quest.payout_entry, by=imp)
    assert "Level 3, Level 2" in info.value.message
    services.xp_entry_reverse(entry=quest.payout_entry, by=imp, confirm_level_undo=True)
    assert progress(hero) == (1, 0)
    quest.refresh_from_db()
    assert (quest.status, quest.payout_entry, quest.ended_at) == ("active", None, None)
    assert quests.invested_xp(quest) == 2


def test_reversing_an_investment_gives_the_xp_and_the_session_back(campaign, imp, seat):
    hero = seat(xp=3)
    session = start(campaign, imp)
    investment = invest(session, hero, hero.owner)
    quest = investment.quest
    services.xp_entry_reverse(entry=investment.xp_entry, by=imp)
    assert progress(hero) == (10, 3)
    assert quests.invested_xp(quest) == 0
    invest(session, hero, hero.owner)
    assert quests.invested_xp(quest) == 1


def test_an_investment_in_an_ended_quest_stays(campaign, imp, seat):
    hero = seat(xp=3)
    investment = invest(start(campaign, imp), hero, hero.owner)
    quests.quest_complete(quest=investment.quest, by=imp)
    with refused("quest_ended"):
        services.xp_entry_reverse(entry=investment.xp_entry, by=imp)


def test_only_campaign_entries_are_reversed_here(campaign, imp, seat):
    hero = seat(xp=3)
    creation = XpEntry.objects.get(character=hero, kind=Kind.CREATION)
    with refused("not_reversible"):
        services.xp_entry_reverse(entry=creation, by=imp)


def test_a_reversal_that_would_go_negative_without_a_level_to_undo_is_refused(
        campaign, imp, seat):
    hero = seat(xp=3)
    entry = services.xp_adjust(character=hero, xp_change=2, note="Bonus", by=imp)
    XpEntry.objects.create(character=hero, kind=Kind.ADJUSTMENT, xp_change=-5)
    with refused("xp_negative"):
        services.xp_entry_reverse(entry=entry, by=imp, confirm_level_undo=True)


# -- permissions ----------------------------------------------------------------------------------


def test_a_player_cannot_award_pass_or_undo(campaign, imp, seat):
    hero = seat(xp=2)
    start(campaign, imp)
    session = start(campaign, imp)
    with refused("not_imp"):
        award(session, hero, hero.owner)
    with refused("not_imp"):
        services.highlight_pass(session=session, character=hero, by=hero.owner)
    highlight = award(session, hero, imp)
    with refused("not_imp"):
        services.xp_entry_reverse(entry=highlight.xp_entry, by=hero.owner)
    with refused("not_imp"):
        services.xp_adjust(character=hero, xp_change=5, note="Me", by=hero.owner)
    with refused("not_imp"):
        start(campaign, hero.owner)
    with refused("not_imp"):
        quests.quest_complete(quest=QuestFactory(character=hero), by=hero.owner)
    assert progress(hero) == (10, 3)


def test_a_co_imp_runs_the_ritual(campaign, imp, seat):
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    hero = seat(xp=2)
    start(campaign, co_imp)
    session = start(campaign, co_imp)
    award(session, hero, co_imp)
    assert progress(hero) == (10, 3)


def test_a_player_invests_only_for_their_own_character(campaign, imp, seat):
    hero, other = seat(xp=2), seat(xp=2)
    session = start(campaign, imp)
    with refused("not_your_character"):
        invest(session, other, hero.owner)
    invest(session, hero, hero.owner)
    invest(session, other, imp)  # the Imp may record it for the player
    assert progress(hero) == progress(other) == (10, 1)


def test_an_outsider_can_do_nothing(campaign, imp, seat):
    hero = seat(xp=2)
    session = start(campaign, imp)
    outsider = UserFactory()
    with refused("not_imp"):
        award(session, hero, outsider)
    with refused("not_your_character"):
        invest(session, hero, outsider)
    with refused("not_imp"):
        services.invitation_create(campaign=campaign, by=outsider)
    with refused("not_your_character"):
        quests.quest_change(character=hero, text="Mine now", by=outsider)


def test_only_the_imp_hands_over_and_names_co_imps(campaign, imp, seat):
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    player = seat().owner
    with refused("not_the_imp"):
        services.imp_handover(campaign=campaign, to_user=co_imp, by=co_imp)
    with refused("not_the_imp"):
        services.co_imp_add(campaign=campaign, user=player, by=co_imp)
    with refused("not_member"):
        services.imp_handover(campaign=campaign, to_user=UserFactory(), by=imp)

    services.co_imp_add(campaign=campaign, user=player, by=imp)
    assert Membership.objects.role_of(player, campaign) == "co_imp"
    services.co_imp_remove(campaign=campaign, user=player, by=player)  # steps down
    assert Membership.objects.role_of(player, campaign) == "player"
    with refused("is_the_imp"):
        services.co_imp_remove(campaign=campaign, user=imp, by=imp)

    services.imp_handover(campaign=campaign, to_user=player, by=imp)
    campaign.refresh_from_db()
    assert campaign.owner == player
    assert Membership.objects.role_of(player, campaign) == "imp"
    assert Membership.objects.role_of(imp, campaign) == "co_imp"
    assert Membership.objects.filter(campaign=campaign, role="imp").count() == 1


def test_the_imp_and_co_imps_see_the_party_read_only(campaign, imp, seat):
    hero, other = seat(), seat()
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    elsewhere = CharacterFactory()
    assert set(EldritchGambitCharacter.objects.visible_to(imp)) == {hero, other}
    assert set(EldritchGambitCharacter.objects.visible_to(co_imp)) == {hero, other}
    assert set(EldritchGambitCharacter.objects.visible_to(hero.owner)) == {hero}
    assert not Character.objects.editable_by(imp).exists()
    assert elsewhere not in EldritchGambitCharacter.objects.visible_to(imp)
    services.character_leave(character=other, by=other.owner)
    assert set(EldritchGambitCharacter.objects.visible_to(imp)) == {hero}


# -- invitations and joining ---------------------------------------------------------------------


def test_an_invitation_makes_a_player_until_revoked(campaign, imp):
    invitation = services.invitation_create(campaign=campaign, by=imp)
    assert len(invitation.code) >= 32
    newcomer = UserFactory()
    membership = services.invitation_accept(code=invitation.code, user=newcomer)
    assert (membership.campaign, membership.role) == (campaign, "player")
    assert services.invitation_accept(code=invitation.code, user=newcomer) == membership
    assert services.invitation_accept(code=invitation.code, user=imp).role == "imp"

    services.invitation_revoke(invitation=invitation, by=imp)
    services.invitation_revoke(invitation=invitation, by=imp)
    with refused("invitation_revoked"):
        services.invitation_accept(code=invitation.code, user=UserFactory())
    with refused("no_such_invitation"):
        services.invitation_accept(code="nope", user=UserFactory())
    with refused("not_imp"):
        services.invitation_revoke(invitation=InvitationFactory(campaign=campaign),
                                   by=newcomer)


def test_a_member_brings_one_of_their_characters(campaign, imp):
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(owner=player)
    with refused("not_your_character"):
        services.character_join(campaign=campaign, character=CharacterFactory(), by=player)
    with refused("not_member"):
        services.character_join(campaign=CampaignFactory(), character=hero, by=player)
    services.character_join(campaign=campaign, character=hero, by=player)
    services.character_join(campaign=campaign, character=hero, by=player)
    assert Character.objects.get(pk=hero.pk).campaign == campaign
    second = CampaignFactory()
    MembershipFactory(campaign=second, user=player)
    with refused("already_in_campaign"):
        services.character_join(campaign=second, character=hero, by=player)


def test_campaign_create_makes_the_owner_its_imp(imp):
    campaign = services.campaign_create(owner=imp, name="  Salt and Ash ", pitch="Sea")
    assert campaign.name == "Salt and Ash"
    assert (campaign.settings, campaign.default_highlight_rounds) == ({"starting_level": 10}, 3)
    assert Membership.objects.role_of(imp, campaign) == "imp"
    with refused("name_required"):
        services.campaign_create(owner=imp, name=" ")
    with refused("rounds_out_of_range"):
        services.campaign_create(owner=imp, name="X", default_highlight_rounds=1)
    # The starting Level is Eldritch Gambit's setting: its form refuses it.
    with refused("min_value"):
        services.campaign_create(owner=imp, name="X", settings={"starting_level": 0})
    with refused("max_value"):
        services.campaign_create(owner=imp, name="X", settings={"starting_level": MAX_LEVEL + 1})


# -- bad input ------------------------------------------------------------------------------------


def test_investing_xp_the_character_does_not_have(campaign, imp, seat):
    broke = seat(xp=0)
    with refused("no_xp"):
        invest(start(campaign, imp), broke, broke.owner)
    assert not QuestInvestment.objects.exists()
    assert not Quest.objects.exists()


def test_investing_twice_in_one_session(campaign, imp, seat):
    hero = seat(xp=5)
    session = start(campaign, imp)
    invest(session, hero, hero.owner)
    with refused("already_invested"):
        invest(session, hero, hero.owner)
    assert progress(hero) == (10, 4)


def test_investing_comes_after_the_highlights(campaign, imp, seat):
    hero = seat(xp=5)
    start(campaign, imp)
    session = start(campaign, imp)
    award(session, hero, imp)
    with refused("highlights_first"):
        invest(session, hero, hero.owner)
    pass_turns(session, hero, imp, 2)
    invest(session, hero, hero.owner)


def test_investing_needs_a_quest(campaign, imp, seat):
    hero = seat(xp=5, quest="")
    with refused("no_quest"):
        invest(start(campaign, imp), hero, hero.owner)


def test_awarding_to_a_character_who_left(campaign, imp, seat):
    hero = seat(xp=2)
    start(campaign, imp)
    session = start(campaign, imp)
    services.character_leave(character=hero, by=imp)
    with refused("not_in_campaign"):
        award(session, hero, imp)
    with refused("not_in_campaign"):
        invest(session, hero, hero.owner)
    assert progress(hero) == (10, 2)


def test_no_highlights_in_the_first_session(campaign, imp, seat):
    hero = seat()
    with refused("first_session"):
        award(start(campaign, imp), hero, imp)


def test_an_absent_player_gets_no_turn_and_no_penalty(campaign, imp, seat):
    hero, away = seat(xp=3), seat(xp=3)
    start(campaign, imp)
    session = start(campaign, imp)
    services.absence_set(session=session, character=away, by=imp)
    services.absence_set(session=session, character=away, by=imp)
    assert Absence.objects.count() == 1
    with refused("absent"):
        award(session, away, imp)
    with refused("absent"):
        invest(session, away, away.owner)
    assert progress(away) == (10, 3)
    award(session, hero, imp)
    with refused("already_took_part"):
        services.absence_set(session=session, character=hero, by=imp)
    services.absence_set(session=session, character=away, absent=False, by=imp)
    award(session, away, imp)
    assert progress(away) == (10, 4)


def test_changing_a_quest_loses_the_investment_and_keeps_the_history(campaign, imp, seat):
    hero = seat(xp=5, quest="Find the lost bell")
    session = start(campaign, imp)
    old = invest(session, hero, hero.owner).quest
    new = quests.quest_change(character=hero, text="Ring the lost bell", by=hero.owner,
                                session=session)
    old.refresh_from_db()
    assert old.status == Quest.Status.ABANDONED
    assert old.ended_in == session
    assert quests.invested_xp(old) == 1  # the history stays
    assert quests.invested_xp(new) == 0
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).quest == "Ring the lost bell"
    assert progress(hero) == (10, 4)  # nothing comes back
    with refused("quest_ended"):
        quests.quest_complete(quest=old, by=imp)
    assert quests.quest_change(character=hero, text="Ring the lost bell",
                                 by=hero.owner) == new
    quests.quest_abandon(quest=new, by=hero.owner)
    assert Quest.objects.filter(character=hero, status="active").count() == 0


def test_an_achieved_quest_with_nothing_invested_pays_nothing(campaign, imp, seat):
    hero = seat(xp=1)
    quest = QuestFactory(character=hero)
    quests.quest_complete(quest=quest, by=imp)
    quest.refresh_from_db()
    assert (quest.status, quest.payout_entry) == ("achieved", None)
    assert progress(hero) == (10, 1)


# -- the database keeps the invariants --------------------------------------------------------


def test_one_turn_per_character_per_round(campaign, seat):
    hero = seat()
    session = SessionFactory(campaign=campaign)
    Highlight.objects.create(session=session, character=hero, round_number=1, awarded=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        Highlight.objects.create(session=session, character=hero, round_number=1,
                                 awarded=False)


def test_an_awarded_highlight_has_its_xp_entry(campaign, seat):
    with pytest.raises(IntegrityError), transaction.atomic():
        Highlight.objects.create(session=SessionFactory(campaign=campaign),
                                 character=seat(), round_number=1, awarded=True)


def test_one_investment_per_character_per_session(campaign, seat):
    hero = seat(xp=5)
    session = SessionFactory(campaign=campaign)
    _invested(hero, session, 1)
    quest = Quest.objects.get(character=hero)
    entry = XpEntry.objects.create(character=hero, kind=Kind.QUEST_INVESTMENT, xp_change=-1)
    with pytest.raises(IntegrityError), transaction.atomic():
        QuestInvestment.objects.create(quest=quest, session=session, character=hero,
                                       xp_entry=entry)


def test_one_active_quest_and_one_imp(campaign, seat):
    hero = seat()
    QuestFactory(character=hero)
    with pytest.raises(IntegrityError), transaction.atomic():
        QuestFactory(character=hero)
    with pytest.raises(IntegrityError), transaction.atomic():
        MembershipFactory(campaign=campaign, role="imp")


@pytest.mark.parametrize("rounds", [0, 5])
def test_the_database_holds_one_to_four_highlight_rounds(imp, rounds):
    """Every system's range (Eldritch Gambit's 2 to 4, METTLE Core's 1 to 3)."""
    with pytest.raises(IntegrityError), transaction.atomic():
        CampaignFactory(owner=imp, default_highlight_rounds=rounds)


@pytest.mark.parametrize("system, allowed, default", [
    ("eldritch-gambit", (2, 3, 4), 3),
    ("mettle-core", (1, 2, 3), 2),
])
def test_highlight_rounds_are_the_systems(imp, system, allowed, default):
    """Eldritch Gambit: 2 to 4, three as a rule; METTLE Core: 1 to 3 by the session's
    length (Characters > Experience: a short session one round, medium two, long three).
    The services refuse the others, beside the field; the form offers only the system's."""
    from campaigns.forms import CampaignForm, SessionForm

    campaign = services.campaign_create(owner=imp, name="Rounds", system=system)
    assert campaign.default_highlight_rounds == default
    for rounds in range(0, 6):
        if rounds in allowed:
            session = services.session_start(campaign=campaign, by=imp, highlight_rounds=rounds)
            assert session.highlight_rounds == rounds
            continue
        with pytest.raises(CampaignError) as refused:
            services.session_start(campaign=campaign, by=imp, highlight_rounds=rounds)
        assert refused.value.field == "highlight_rounds"
        assert f"{min(allowed)} to {max(allowed)} times" in refused.value.message
        with pytest.raises(CampaignError):
            services.campaign_create(owner=imp, name="X", system=system,
                                     default_highlight_rounds=rounds)
    offered = [n for n, _ in SessionForm(system=system).fields["highlight_rounds"].choices]
    assert tuple(offered) == allowed
    form = CampaignForm(initial={"system": system})
    assert tuple(n for n, _ in form.fields["default_highlight_rounds"].choices) == allowed
    assert form.fields["default_highlight_rounds"].initial == default


def test_session_numbers_are_unique_per_campaign(campaign):
    SessionFactory(campaign=campaign, number=1)
    SessionFactory(campaign=CampaignFactory(), number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionFactory(campaign=campaign, number=1)


def test_a_duplicate_joins_no_campaign(campaign, imp, seat):
    hero = seat()
    for by in (hero.owner, imp):
        copy = character_duplicate(character=hero, by=by)
        assert copy.campaign is None
    assert list(EldritchGambitCharacter.objects.filter(campaign=campaign)) == [hero]
