"""campaigns/selectors.py: what a member can bring, the session page's ritual table
(whose turn, its rows, what each row shows), the active Quests and the session's
Level-ups. The turn order itself is services.highlight_turns'
(tests/campaigns/test_ritual_order.py); these tests check that the table shows it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaigns import selectors, services
from campaigns.systems.eldritch_gambit import quests
from campaigns.systems.eldritch_gambit import ritual as eg_ritual
from campaigns.systems.eldritch_gambit.models import Quest
from characters.models import XpEntry
from rules.engine.eldritch_gambit.levels import levels_affordable
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(campaign, imp, seat):
    """Session 2 (three rounds) of a table of three: Ash (Level 10, XP 9), Bram and
    Cass (Level 10, XP 0)."""
    ash = seat(name="Ash", xp=9)
    bram = seat(name="Bram")
    cass = seat(name="Cass")
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    return session, ash, bram, cass


def award(session, character, imp):
    return services.highlight_award(session=session, character=character, by=imp,
                                    text="A fine deed")


def tell_all(session, character, imp, *absent):
    """`character` tells all its turns, the `absent` characters away."""
    for other in absent:
        services.absence_set(session=session, character=other, absent=True, by=imp)
    for _ in range(session.highlight_rounds):
        award(session, character, imp)


def rows_by_name(ritual):
    return {row.character.name: row for row in ritual.rows}


def test_the_first_turn_is_round_one_in_the_partys_order(table, imp):
    session, ash, bram, cass = table

    ritual = selectors.ritual_table(session, imp, runs=True)

    assert [row.character for row in ritual.rows] == [ash, bram, cass]
    assert ritual.waiting
    assert ritual.turn.round == 1
    assert ritual.turn.row.character == ash
    assert [row.character for row in ritual.turn.then] == [bram, cass]
    rows = rows_by_name(ritual)
    assert rows["Ash"].current and not rows["Bram"].current and not rows["Cass"].current
    for row in ritual.rows:
        assert row.turns == []
        assert row.turns_left == session.highlight_rounds
        assert row.next_round == 1


def test_the_table_follows_the_services_turn_order(table, imp):
    session, ash, bram, cass = table
    told = award(session, ash, imp)
    services.absence_set(session=session, character=cass, absent=True, by=imp)

    ritual = selectors.ritual_table(session, imp, runs=True)

    waiting = services.highlight_turns(session)
    assert ritual.turn.row.character == waiting[0][0] == bram
    assert ritual.turn.round == waiting[0][1] == 1
    assert ritual.turn.then == []  # Ash's next turn is in round 2; Cass is absent
    rows = rows_by_name(ritual)
    assert rows["Ash"].turns == [told]
    assert rows["Ash"].turns_left == session.highlight_rounds - 1
    assert rows["Ash"].next_round == 2
    assert rows["Cass"].absent and rows["Cass"].next_round is None
    assert not rows["Ash"].absent


def test_the_final_round_about_another_character_is_flagged(campaign, imp, seat):
    ash = seat(name="Ash")
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp, highlight_rounds=2,
                                      final_round_about_other=True)
    award(session, ash, imp)

    row = selectors.ritual_table(session, imp, runs=True).rows[0]

    assert row.next_round == session.highlight_rounds
    assert row.about_other_needed


def test_a_player_invests_only_for_their_own_character(table, imp):
    session, ash, bram, _cass = table

    as_player = rows_by_name(selectors.ritual_table(session, ash.owner, runs=False))
    as_imp = rows_by_name(selectors.ritual_table(session, imp, runs=True))
    as_stranger = rows_by_name(selectors.ritual_table(session, UserFactory(), runs=False))

    assert as_player["Ash"].extra["can_invest"] and not as_player["Bram"].extra["can_invest"]
    assert all(row.extra["can_invest"] for row in as_imp.values())
    assert not any(row.extra["can_invest"] for row in as_stranger.values())
    # Each row's invest form has its own request key.
    assert len({row.key for row in as_imp.values()}) == len(as_imp)


def test_the_investment_the_quest_and_the_level_up(table, imp):
    session, ash, bram, cass = table
    tell_all(session, ash, imp, bram, cass)  # XP 9 + 3 = 12 at Level 10
    investment = quests.quest_invest(session=session, character=ash, by=imp)

    row = rows_by_name(selectors.ritual_table(session, imp, runs=True))["Ash"]

    assert row.extra["investment"] == investment
    assert row.extra["quest"] == investment.quest
    assert row.extra["invested"] == quests.invested_xp(investment.quest) == 1
    # 12 - 1 = 11 XP buys Level 11 (10 XP), then 1 XP is left for Level 12.
    spends = XpEntry.objects.filter(character=ash, kind=XpEntry.Kind.LEVEL_SPEND)
    assert row.extra["levels_up"] == spends.count() == 1
    assert row.extra["new_level"] == 11
    assert row.extra["levels_waiting"] == 0
    assert row.turns_left == 0 and row.next_round is None


def test_levels_the_xp_pays_for_wait_while_the_ritual_holds_them(table, imp):
    session, ash, _bram, _cass = table
    award(session, ash, imp)  # XP 10 at Level 10: one Level, held until the Quest step

    row = rows_by_name(selectors.ritual_table(session, imp, runs=True))["Ash"]

    assert row.extra["levels_waiting"] == levels_affordable(10, 10) == 1
    assert row.extra["levels_up"] == 0 and row.extra["new_level"] is None


def test_a_closed_ritual_has_no_turn_and_shows_the_achieved_quests(table, imp):
    session, ash, bram, cass = table
    tell_all(session, ash, imp, bram, cass)
    quest = quests.quest_invest(session=session, character=ash, by=imp).quest
    quests.quest_complete(quest=quest, by=imp, session=session)
    services.ritual_close(session=session, by=imp)

    ritual = selectors.ritual_table(session, imp, runs=True)

    assert ritual.turn is None and not ritual.waiting
    assert ritual.extra["achieved"] == [quest]
    assert ritual.extra["achieved"][0].payout_entry.xp_change == 2 * quests.invested_xp(quest)
    assert not any(row.current for row in ritual.rows)


def test_the_first_session_has_no_ritual(campaign, imp, seat):
    seat(name="Ash")
    session = services.session_start(campaign=campaign, by=imp)

    ritual = selectors.ritual_table(session, imp, runs=True)

    assert not session.has_ritual
    assert ritual.turn is None and not ritual.waiting
    assert [row.turns_left for row in ritual.rows] == [0]


def test_the_table_reads_a_fixed_number_of_queries(campaign, imp, seat, table):
    session = table[0]
    award(session, table[1], imp)
    with CaptureQueriesContext(connection) as small:
        selectors.ritual_table(session, imp, runs=True)
    for name in ("Dell", "Esk", "Fen", "Gil"):
        seat(name=name, xp=3)
    with CaptureQueriesContext(connection) as large:
        ritual = selectors.ritual_table(session, imp, runs=True)

    assert len(ritual.rows) == 7
    assert len(large) == len(small)


def test_active_quests_carry_their_invested_xp(table, imp):
    session, ash, bram, cass = table
    tell_all(session, ash, imp, bram, cass)
    quest = quests.quest_invest(session=session, character=ash, by=imp).quest
    done = Quest.objects.create(character=bram, campaign=bram.campaign, text="Gone",
                                status=Quest.Status.ABANDONED, ended_at=timezone.now())

    active = eg_ritual.active_quests(session.campaign_id)

    assert list(active) == [ash.pk]
    assert active[ash.pk] == quest and active[ash.pk].invested_sum == -1
    assert done.pk not in {q.pk for q in active.values()}


def test_level_ups_count_from_the_session_start_to_the_next(table, imp):
    session, ash, bram, cass = table
    tell_all(session, ash, imp, bram, cass)
    quests.quest_invest(session=session, character=ash, by=imp)  # buys Level 11
    bought = list(XpEntry.objects.filter(character=ash, kind=XpEntry.Kind.LEVEL_SPEND))
    services.ritual_close(session=session, by=imp)
    following = services.session_start(campaign=session.campaign, by=imp)
    services.ritual_close(session=following, by=imp)  # nothing holds the next Level-up
    services.xp_adjust(character=ash, xp_change=20, note="A windfall", by=imp)  # Level 12

    assert eg_ritual.session_level_ups(session, [ash.pk]) == {ash.pk: bought}
    later = eg_ritual.session_level_ups(following, [ash.pk])[ash.pk]
    assert [1 - spend.xp_change for spend in later] == [12]


# -- what a member can bring --------------------------------------------------------------


def test_ways_forward_says_what_one_click_does_for_each_character(campaign):
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="wren")).user
    here = CharacterFactory(owner=player, name="Ada", campaign=campaign)
    free = CharacterFactory(owner=player, name="Bel")
    elsewhere = CharacterFactory(owner=player, name="Cyr", campaign=CampaignFactory())
    CharacterFactory(name="Not hers")  # another user's: not listed

    ways = selectors.ways_forward(campaign, player)

    assert [(row["character"], row["state"]) for row in ways["rows"]] == [
        (here, "here"), (free, "free"), (elsewhere, "elsewhere")]
    assert ways["free"] == 1
    assert ways["build_url"].endswith(f"/characters/new/?campaign={campaign.pk}")
    keys = [row["key"] for row in ways["rows"]]
    assert len(set(keys)) == 3 and all(len(key) == 32 for key in keys)
