"""Errant advancement services (issue 14, Advancement): XP from money wasted at 1 XP per
penny into the generic XP ledger with its reason, undone with the generic undo; Renown by
the table; the Company's and the player's Attributes at each Renown; the Fame roll; the
Ancestry's once-per-session ability."""

import random

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.errant import advancement, company
from campaigns.systems.errant.advancement_models import ErrantWaste
from characters.models import CoinEntry, XpEntry
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter

pytestmark = pytest.mark.django_db


def grant(campaign, guide, characters, pennies, source="waste", **kw):
    return advancement.waste_grant(campaign=campaign, characters=characters, source=source,
                                   pennies=pennies, by=guide, **kw)


def fresh(errant):
    return ErrantCharacter.objects.get(pk=errant.pk)


def test_a_penny_wasted_is_one_xp_with_its_reason(campaign, guide, wren, session):
    [entry] = grant(campaign, guide, [wren], 1_999, note="A lavish banquet", session=session)
    assert entry.xp_change == 1_999 and "A lavish banquet" in entry.note
    assert "Other money wasted" in entry.note
    assert ErrantWaste.objects.get(xp_entry=entry).session == session
    assert sheet_for(fresh(wren)).stats["renown"].value == 1
    grant(campaign, guide, [wren], 1)
    assert sheet_for(fresh(wren)).stats["renown"].value == 2  # ER §Renown: 2,000


@pytest.mark.parametrize("pennies,invested,each", [(2_500, 2, 1_250), (1_001, 2, 500),
                                                   (10, 3, 3)])
def test_a_setback_is_divided_equally_among_the_invested(campaign, guide, wren, ash, pennies,
                                                         invested, each):
    chosen = [wren, ash][:invested] if invested <= 2 else None
    if chosen is None:
        from tests.characters.systems.errant.helpers import make_wren
        third = make_wren(guide, name="Third")
        services.character_join(campaign=campaign, character=third, by=guide)
        chosen = [wren, ash, third]
    entries = grant(campaign, guide, chosen, pennies, source="setback")
    assert [e.xp_change for e in entries] == [each] * invested


def test_each_errant_of_a_waste_gains_the_whole_sum(campaign, guide, wren, ash):
    entries = grant(campaign, guide, [wren, ash], 300, source="funeral")
    assert [e.xp_change for e in entries] == [300, 300]


def test_only_the_guide_records_it(campaign, player, wren):
    with pytest.raises(CampaignError) as error:
        grant(campaign, player, [wren], 10)
    assert error.value.code == "not_guide"


@pytest.mark.parametrize("pennies", [0, -5, 100_000_001])
def test_bad_sums_are_refused(campaign, guide, wren, pennies):
    with pytest.raises(CampaignError) as error:
        grant(campaign, guide, [wren], pennies)
    assert error.value.field == "pennies"
    assert not XpEntry.objects.filter(character=wren, kind="waste").exists()


def test_an_errant_of_another_campaign_is_refused(campaign, guide, other):
    from tests.characters.systems.errant.helpers import make_wren
    outsider = make_wren(other, name="Outsider")
    with pytest.raises(CampaignError) as error:
        grant(campaign, guide, [outsider], 10)
    assert error.value.code == "not_in_campaign"


def test_conspicuous_consumption_needs_its_kind_and_no_debt(campaign, guide, wren):
    with pytest.raises(CampaignError) as error:
        grant(campaign, guide, [wren], 800, source="conspicuous")
    assert error.value.field == "consumption"
    company.debt_change(campaign=campaign, kind="owed", amount=10, by=guide)
    with pytest.raises(CampaignError) as error:
        grant(campaign, guide, [wren], 800, source="conspicuous", consumption="carousing")
    assert error.value.code == "company_in_debt"


def test_consumption_beyond_the_purse_goes_on_the_company_debt_and_undo_restores(
        campaign, guide, wren):
    CoinEntry.objects.create(character=wren, kind="adjustment", amount_cp=500)
    [entry] = grant(campaign, guide, [wren], 800, source="conspicuous",
                    consumption="frippery", from_purse=True)
    assert fresh(wren).coins_cp == 0
    co = company.company_of(campaign)
    assert company.debt(co) == 300
    services.xp_entry_reverse(entry=entry, by=guide)
    assert fresh(wren).coins_cp == 500 and company.debt(co) == 0
    assert services.progress(wren)[1] == 0


def test_other_waste_from_the_purse_needs_the_money(campaign, guide, wren):
    with pytest.raises(CampaignError) as error:
        grant(campaign, guide, [wren], 10, from_purse=True)
    assert error.value.code == "not_enough_money"
    assert not XpEntry.objects.filter(character=wren, kind="waste").exists()


def test_a_setback_is_not_paid_from_the_purse(campaign, guide, wren):
    with pytest.raises(CampaignError) as error:
        grant(campaign, guide, [wren], 10, source="setback", from_purse=True)
    assert error.value.field == "from_purse"


def test_the_same_request_twice_is_recorded_once(campaign, guide, wren):
    first = grant(campaign, guide, [wren], 10, request_key="k1")
    again = grant(campaign, guide, [wren], 10, request_key="k1")
    assert [e.pk for e in first] == [e.pk for e in again]
    assert services.progress(wren)[1] == 10


def test_renown_raises_company_first_then_a_different_second(campaign, guide, player, wren):
    grant(campaign, guide, [wren], 6_000)  # Renown 3: two raises
    with pytest.raises(CampaignError) as error:
        advancement.renown_pick(character=wren, attribute="phys", by=player, by_company=False)
    assert error.value.code == "company_first"
    with pytest.raises(CampaignError) as error:
        advancement.renown_pick(character=wren, attribute="phys", by=player, by_company=True)
    assert error.value.code == "not_guide"
    before = sheet_for(fresh(wren)).stats
    advancement.renown_pick(character=wren, attribute="phys", by=guide, by_company=True)
    assert fresh(wren).renown_raises == []  # pending: shown, not yet on the sheet
    with pytest.raises(CampaignError) as error:
        advancement.renown_pick(character=wren, attribute="phys", by=player, by_company=False)
    assert error.value.code == "same_attribute"
    with pytest.raises(CampaignError) as error:
        advancement.renown_pick(character=wren, attribute="mind", by=guide, by_company=False)
    assert error.value.code == "not_the_player"
    advancement.renown_pick(character=wren, attribute="mind", by=player, by_company=False)
    assert fresh(wren).renown_raises == [["phys", "mind"]]
    after = sheet_for(fresh(wren)).stats
    assert after["phys"].value == before["phys"].value + 1
    assert after["mind"].value == before["mind"].value + 1
    assert after["item_slots"].value == after["phys"].value  # derived values follow
    # Renown 3's raise next; none beyond.
    advancement.renown_pick(character=wren, attribute="skill", by=guide, by_company=True)
    advancement.renown_pick(character=wren, attribute="pres", by=player, by_company=False)
    with pytest.raises(CampaignError) as error:
        advancement.renown_pick(character=wren, attribute="skill", by=guide, by_company=True)
    assert error.value.code == "no_raise_pending"
    assert [r["done"] for r in advancement.raise_rows(
        wren, fresh(wren).renown_raises, 3, advancement.standing_picks(wren))] == [True, True]


def test_the_company_chooses_once_per_renown(campaign, guide, wren):
    grant(campaign, guide, [wren], 2_000)
    advancement.renown_pick(character=wren, attribute="phys", by=guide, by_company=True)
    with pytest.raises(CampaignError) as error:
        advancement.renown_pick(character=wren, attribute="skill", by=guide, by_company=True)
    assert error.value.code == "already_chosen"


def test_undo_runs_latest_first_and_xp_under_a_raise_is_kept(campaign, guide, player, wren):
    [entry] = grant(campaign, guide, [wren], 2_000)
    company_pick = advancement.renown_pick(character=wren, attribute="phys", by=guide,
                                           by_company=True)
    with pytest.raises(CampaignError) as error:
        services.xp_entry_reverse(entry=entry, by=guide)
    assert error.value.code == "renown_raised"
    player_pick = advancement.renown_pick(character=wren, attribute="pres", by=player,
                                          by_company=False)
    with pytest.raises(CampaignError) as error:
        advancement.renown_pick_undo(pick=company_pick, by=guide)
    assert error.value.code == "player_first"
    with pytest.raises(CampaignError):
        advancement.renown_pick_undo(pick=company_pick, by=player)  # not the player's
    advancement.renown_pick_undo(pick=player_pick, by=player)
    assert fresh(wren).renown_raises == []
    advancement.renown_pick_undo(pick=company_pick, by=guide)
    services.xp_entry_reverse(entry=entry, by=guide)
    assert services.progress(wren)[1] == 0


@pytest.mark.parametrize("seed", range(5))
def test_the_fame_roll_is_a_d10_against_renown(campaign, guide, player, wren, seed):
    roll = advancement.fame_roll(character=wren, by=player, rng=random.Random(seed))
    assert 1 <= roll.die <= 10 and roll.renown == 1
    assert roll.known == (roll.die <= 1)


def test_the_fame_roll_is_the_players_or_the_guides(campaign, other, wren):
    with pytest.raises(CampaignError):
        advancement.fame_roll(character=wren, by=other)


def test_the_ancestry_ability_once_per_session(campaign, guide, player, wren, session):
    assert advancement.ancestry_ability(wren)[0] == "Tough"
    use = advancement.ancestry_use(character=wren, session=session, by=player)
    with pytest.raises(CampaignError) as error:
        advancement.ancestry_use(character=wren, session=session, by=player)
    assert error.value.code == "already_used"
    next_session = services.session_start(campaign=campaign, by=guide)
    advancement.ancestry_use(character=wren, session=next_session, by=player)  # new session
    advancement.ancestry_use_undo(use=use, by=guide)
    advancement.ancestry_use(character=wren, session=session, by=guide)


def test_the_ancestry_ability_needs_a_session(campaign, player, wren):
    with pytest.raises(CampaignError) as error:
        advancement.ancestry_use(character=wren, session=None, by=player)
    assert error.value.code == "no_session"


def test_in_a_campaign_the_builder_cannot_choose_the_renown_raises(client, wren, player):
    """ER §Renown: the Company chooses the first Attribute. In a campaign the builder
    shows the raises disabled and a save keeps what is stored, whatever is posted."""
    from django.urls import reverse

    from characters.models import XpEntry
    from tests.characters.systems.errant.helpers import posted

    XpEntry.objects.create(character=wren, kind=XpEntry.Kind.ADJUSTMENT, xp_change=2_000)
    client.force_login(player)
    page = client.get(reverse("characters:edit", args=[wren.pk])).content.decode()
    assert "Chosen on the campaign&#x27;s page." in page or \
        "Chosen on the campaign's page." in page
    assert 'name="renown_2_company"' in page and "disabled" in page
    client.post(reverse("characters:edit", args=[wren.pk]),
                posted(name="Wren the Bold", renown_2_company="phys",
                       renown_2_player="pres"))
    wren.refresh_from_db()
    assert wren.name == "Wren the Bold"  # the save went through...
    assert wren.renown_raises == []  # ...and kept the raises the campaign page left
