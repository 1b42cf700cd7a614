"""The Checks page at a real table (the tracker's "Night one at a real table"): the DF
list and the odds agree when a DF is typed, with JavaScript and without; a player picks
the spear "With" and gets its Hit in the Bonus, its name in the result and the log, and
its damage right after; the odds say that Critical and Botch need the Gambit."""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.models import GearItem
from tests.browser.conftest import DESKTOP, axe_check, describe, htmx_settled, login, screenshot
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    InventoryItemFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(transactional_db):
    """Asphodel (DEX 2, WIS 1) with a spear, in a campaign with a session."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())
    campaign = CampaignFactory(owner=UserFactory(username="imp-table"))
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="nadia")).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    InventoryItemFactory(character=hero, name="Spear", kind="weapon",
                         catalog_item=GearItem.objects.srd().get(name="Spear"))
    SessionFactory(campaign=campaign)
    return {"player": player, "hero": hero, "campaign": campaign}


def odds_line(page):
    return page.locator("#check-odds [data-odds-df]")


def test_a_typed_df_and_the_list_agree(page, live_server, password, table):
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['hero'].pk}/play/")
    page.get_by_label("Attribute").select_option("wis")
    difficulty, other = page.get_by_label("Difficulty (DF)"), page.get_by_label("Other DF")
    expect(difficulty).to_have_value("10")

    other.fill("12")

    expect(difficulty).to_have_value("other")
    expect(odds_line(page)).to_have_text("d12+1 vs DF 12")
    expect(page.locator("#check-odds [data-typed-df]")).to_be_visible()
    screenshot(page, "checks-typed-df")

    difficulty.select_option("15")  # a DF from the list empties the typed one

    expect(other).to_have_value("")
    expect(odds_line(page)).to_have_text("d12+1 vs DF 15")
    expect(page.locator("#check-odds [data-typed-df]")).to_have_count(0)
    page.get_by_role("button", name="Roll the Check").click()
    htmx_settled(page)
    assert Roll.objects.get().df == 15


def test_without_javascript_a_typed_df_shows_as_another_df(browser, live_server, password,
                                                            table):
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url,
                                  java_script_enabled=False)
    page = context.new_page()
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['hero'].pk}/play/")
    page.get_by_label("Attribute").select_option("wis")
    page.get_by_label("Other DF").fill("12")  # the list still says 10 Challenging
    with page.expect_navigation():
        page.get_by_role("button", name="Roll the Check").click()
    expect(page.get_by_label("Difficulty (DF)")).to_have_value("other")
    expect(page.get_by_label("Other DF")).to_have_value("12")
    expect(odds_line(page)).to_have_text("d12+1 vs DF 12")
    expect(page.locator("#check-result")).to_contain_text("vs DF 12")
    assert Roll.objects.get().df == 12
    context.close()


def test_attacking_with_the_spear_fills_its_hit_and_offers_its_damage(page, live_server,
                                                                       password, table):
    hero = table["hero"]
    spear = sheet_for(hero).weapons[0]  # Hit +4: the spear's +2 and DEX +2
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{hero.pk}/play/")
    expect(page.locator("#check-odds")).to_contain_text("if you call the Gambit")
    expect(page.locator("#odds-gambit-note")).to_contain_text(
        "Critical and Botch are the chances of ending the Check there if you call the Gambit")

    page.get_by_label("With").select_option(label=f"Spear (Hit {spear.hit_display}, "
                                                  f"{spear.damage_display})")
    htmx_settled(page)

    expect(page.get_by_label("Action")).to_have_value("attack-melee")
    expect(page.get_by_label("Attribute")).to_have_value("dex")
    expect(page.get_by_label("A relevant Origin")).to_be_checked()
    expect(page.get_by_label("Largest Bonus")).to_have_value(str(spear.hit - 2))
    expect(odds_line(page)).to_have_text(f"d20{spear.hit:+d} vs DF 10")
    page.get_by_label("Other DF").fill("11")  # the foe's AF
    expect(odds_line(page)).to_have_text(f"d20{spear.hit:+d} vs DF 11")

    page.get_by_role("button", name="Roll the Check").click()
    htmx_settled(page)

    check = Roll.objects.get(kind="check")
    assert check.modifier == spear.hit and check.df == 11
    expect(page.locator("#check-result h3")).to_have_text("Attack, Melee: DEX with Spear")
    screenshot(page, "checks-with-spear")
    if check.outcome == "success":
        offer = page.locator("#check-damage button")
        expect(offer).to_have_text(f"Roll damage with Spear ({spear.damage})")
        offer.click()
        htmx_settled(page)
        expect(page.locator("#roll-result")).to_contain_text("Spear damage")
        assert Roll.objects.filter(kind="damage", label="Spear damage").count() == 1
    else:  # a melee Failure is a clash: both sides Roll damage (no shield: no Block)
        expect(page.locator("#check-damage button")).to_have_text(
            f"Roll clash damage with Spear ({spear.damage})")
    # The log names the spear; the Imp's session log too.
    expect(page.locator("#roll-log")).to_contain_text("Attack, Melee: DEX with Spear")
    violations = axe_check(page)
    assert not violations, describe(violations)
