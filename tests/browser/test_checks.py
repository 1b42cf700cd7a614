"""Checks and Rolls in the browser, at a table of two: the player makes a Check with a
Gambit from Asphodel's page and the Imp, on the session's roll log in another browser
context, sees both appear without reloading. Then a damage Roll is Rerolled for a WP
(WP 7 -> 6) and a second Reroll is refused at the WP floor of 6.

Basics > Checks (odds: d20 + DEX 2 vs DF 11 succeeds on 9..20, 60%), Gambits; Basics >
Rolls > Rerolls; Characters > Defenses > Willpower ("WP can only drop to half").
Screenshots in artifacts/screenshots/; axe finds no serious or critical violation.
"""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    axe_check,
    describe,
    follow,
    htmx_settled,
    login,
    screenshot,
)
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
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())
    imp = UserFactory(username="imp-checks")
    campaign = CampaignFactory(owner=imp, name="The Dragon of Ambrose")
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="petra")).user
    hero = AsphodelFactory(owner=player, campaign=campaign, wp_current=7)  # WP 11, floor 6
    InventoryItemFactory(character=hero, name="Spear", kind="weapon",
                         catalog_item=GearItem.objects.srd().get(name="Spear"))
    SessionFactory(campaign=campaign)
    return {"imp": imp, "player": player, "hero": hero, "campaign": campaign}


def test_check_with_gambit_reaches_the_imp_live_and_reroll_stops_at_the_floor(
        page, browser, live_server, password, table):
    hero, campaign = table["hero"], table["campaign"]

    # The Imp opens the session's roll log in a second browser.
    imp_context = browser.new_context(viewport=DESKTOP, base_url=live_server.url,
                                      reduced_motion="reduce")
    imp_page = imp_context.new_page()
    login(imp_page, live_server, table["imp"], password)
    imp_page.goto(f"/campaigns/{campaign.pk}/sessions/1/log/")
    expect(imp_page.locator("#log-empty")).to_be_visible()
    imp_page.evaluate("window.__notReloaded = true")

    # The player opens Checks and Rolls from the character's page.
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{hero.pk}/")
    follow(page.get_by_role("link", name="Checks and Rolls"))
    expect(page.get_by_role("heading", name="Make a Check")).to_be_visible()

    # Attack, Melee: DEX and a d20 by default.
    page.get_by_label("Action").select_option("attack-melee")
    htmx_settled(page)
    expect(page.get_by_label("Attribute")).to_have_value("dex")
    expect(page.locator("#action-help")).to_contain_text("DEX vs. AF")
    # The odds follow the inputs before anything is rolled: DF 11 (the foe's AF).
    page.get_by_label("Difficulty (DF)").select_option("other")
    page.get_by_label("Other DF").fill("11")
    expect(page.locator('[data-odds="success"]')).to_contain_text("60%")
    expect(page.locator('[data-odds="critical"]')).to_contain_text("36%")
    expect(page.locator('[data-odds="botch"]')).to_contain_text("16%")
    assert not Roll.objects.exists()
    # A negative Bonus is named next to its field; nothing typed is lost.
    page.get_by_label("Largest Bonus").fill("-1")
    page.get_by_role("button", name="Roll the Check").click()
    htmx_settled(page)
    expect(page.locator("#errors-bonus")).to_contain_text("a negative number goes in Penalty")
    expect(page.get_by_label("Other DF")).to_have_value("11")
    assert not Roll.objects.exists()
    page.get_by_label("Largest Bonus").fill("0")

    # A fast double click rolls once and shows that roll (no error).
    page.get_by_role("button", name="Roll the Check").dblclick()
    htmx_settled(page)
    expect(page.locator("#check-result")).to_be_visible()
    check = Roll.objects.get(kind="check")
    expect(page.locator("#check-result [data-natural]")).to_have_text(str(check.dice[0]))
    page.get_by_role("button", name="Call a Gambit").dblclick()
    htmx_settled(page)
    gambit = Roll.objects.get(kind="gambit")
    expect(page.locator("#gambit-error")).to_have_count(0)
    # The outcome that stands comes first, then the two rolls as its history.
    expect(page.locator("#check-result .final-outcome [data-final-outcome]")).to_have_text(
        gambit.get_outcome_display())
    expect(page.locator("[data-gambit-outcome]")).to_have_text(gambit.get_outcome_display())
    expect(page.locator(".check-history [data-first-outcome]")).to_have_text(
        check.get_outcome_display())
    expect(page.locator(".check-history [data-gambit-natural]")).to_have_text(
        str(gambit.dice[0]))
    # What was typed is still there after the roll and the Gambit.
    expect(page.get_by_label("Action")).to_have_value("attack-melee")
    expect(page.get_by_label("Other DF")).to_have_value("11")
    expect(page.get_by_role("button", name="Call a Gambit")).to_have_count(0)
    if gambit.outcome == "critical":
        expect(page.locator("#check-result")).to_contain_text("Bonus Damage")
    if gambit.outcome == "botch":
        expect(page.locator("#check-result")).to_contain_text("Countered")
    screenshot(page, "checks-gambit")

    # The Imp sees the Check and its Gambit without reloading.
    expect(imp_page.locator('#session-log [data-kind="gambit"]')).to_be_visible(timeout=8000)
    expect(imp_page.locator('#session-log [data-kind="check"]')).to_contain_text(
        "Attack, Melee: DEX")
    assert imp_page.evaluate("window.__notReloaded") is True
    screenshot(imp_page, "checks-session-log")
    violations = axe_check(imp_page)
    assert not violations, describe(violations)

    # Damage with the spear, Rerolled for a WP: 7 -> 6.
    expect(page.locator('[data-stat="wp_current"]')).to_have_text("7")
    page.get_by_role("button", name="Roll damage with Spear").click()
    htmx_settled(page)
    page.locator("#reroll-button").dblclick()  # a double click spends one WP
    htmx_settled(page)
    expect(page.locator('[data-stat="wp_current"]')).to_have_text("6")
    expect(page.locator("#roll-result")).to_contain_text("WP 7 → 6")
    expect(page.locator("#reroll-error")).to_have_count(0)
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current == 6
    assert Roll.objects.filter(kind="reroll").count() == 1
    # At the floor: the next Roll's Reroll is disabled, with the reason.
    page.get_by_role("button", name="Roll damage with Spear").click()
    htmx_settled(page)
    expect(page.locator("#reroll-button")).to_be_disabled()
    expect(page.locator("#reroll-floor")).to_contain_text("at the floor of 6")
    # ... and so is its Reroll in the recent rolls, with the reason; back when WP rises.
    latest = Roll.objects.filter(kind="damage").first()
    in_list = page.locator(f'#roll-log [data-reroll="{latest.pk}"]')
    expect(in_list).to_be_disabled()
    expect(page.locator(f"#reroll-floor-{latest.pk}")).to_have_text("WP at the floor (6)")
    EldritchGambitCharacter.objects.filter(pk=hero.pk).update(wp_current=7)
    expect(in_list).to_be_enabled(timeout=8000)
    EldritchGambitCharacter.objects.filter(pk=hero.pk).update(wp_current=6)
    expect(in_list).to_be_disabled(timeout=8000)
    # A page that still offers it (another tab spent the WP meanwhile) is refused by the
    # server, and WP stays at the floor.
    EldritchGambitCharacter.objects.filter(pk=hero.pk).update(wp_current=7)
    page.get_by_role("button", name="Roll damage with Spear").click()
    htmx_settled(page)
    EldritchGambitCharacter.objects.filter(pk=hero.pk).update(wp_current=6)
    page.locator("#reroll-button").click()
    htmx_settled(page)
    expect(page.locator("#reroll-error")).to_contain_text("cannot drop below the floor of 6")
    expect(page.locator('[data-stat="wp_current"]')).to_have_text("6")
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current == 6
    assert Roll.objects.filter(kind="reroll").count() == 1
    # The next poll disables the list's Reroll buttons too.
    expect(page.locator("#roll-log [data-reroll]:enabled")).to_have_count(0, timeout=8000)
    screenshot(page, "checks-reroll-floor")
    violations = axe_check(page)
    assert not violations, describe(violations)

    expect(imp_page.locator('#session-log [data-kind="reroll"]')).to_be_visible(timeout=8000)
    imp_context.close()


def test_checks_page_on_a_phone(page, live_server, password, table):
    page.set_viewport_size(PHONE)
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['hero'].pk}/play/")
    expect(page.get_by_role("button", name="Roll the Check")).to_be_visible()
    page.get_by_role("button", name="Roll the Check").click()
    htmx_settled(page)
    expect(page.locator("#check-result")).to_be_visible()
    page.get_by_role("button", name="Call a Gambit").click()
    htmx_settled(page)
    expect(page.locator("#check-result [data-final-outcome]")).to_have_text(
        Roll.objects.get(kind="gambit").get_outcome_display())
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#check-result").scroll_into_view_if_needed()
    page.locator("#check-result").screenshot(path=str(SCREENSHOTS / "checks-phone-gambit.png"))
    screenshot(page, "checks-phone")
    violations = axe_check(page)
    assert not violations, describe(violations)


def test_rolls_keep_what_is_typed_and_name_bad_input(page, live_server, password, table):
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['hero'].pk}/play/")
    page.get_by_label("Attacker's Roll").fill("2d6+1")
    page.get_by_label("Zones fallen (5 m each)").fill("3")
    page.get_by_role("button", name="Roll the fall").click()
    htmx_settled(page)
    expect(page.locator("#roll-result")).to_contain_text("Fall")
    expect(page.get_by_label("Attacker's Roll")).to_have_value("2d6+1")
    expect(page.get_by_label("Zones fallen (5 m each)")).to_have_value("3")
    # Bad notation is named next to its field; the Roll-off is not made.
    page.get_by_label("Defender's Roll").fill("1d6+")
    page.get_by_role("button", name="Roll off").click()
    htmx_settled(page)
    expect(page.locator("#errors-rolloff-defender")).to_contain_text("is not dice notation")
    expect(page.get_by_label("Defender's Roll")).to_have_value("1d6+")
    assert not Roll.objects.filter(kind="rolloff").exists()
    page.get_by_label("Defender's Roll").fill("1d6")
    page.get_by_role("button", name="Roll off").click()
    htmx_settled(page)
    expect(page.locator("#roll-result")).to_contain_text("Clash")
    assert Roll.objects.filter(kind="rolloff").count() == 1
    screenshot(page, "checks-rolloff")
    # WP spent elsewhere (the Imp's Reroll, another tab) reaches the page by itself.
    EldritchGambitCharacter.objects.filter(pk=table["hero"].pk).update(wp_current=9)
    expect(page.locator('[data-stat="wp_current"]')).to_have_text("9", timeout=8000)


def test_without_javascript_what_is_typed_survives_every_roll(browser, live_server, password,
                                                               table):
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url,
                                  java_script_enabled=False)
    page = context.new_page()
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['hero'].pk}/play/")

    def typed():
        expect(page.get_by_label("Action")).to_have_value("insight")
        expect(page.get_by_label("Attribute")).to_have_value("wis")
        expect(page.get_by_label("A relevant Origin")).to_be_checked()
        expect(page.get_by_label("Largest Bonus")).to_have_value("2")
        expect(page.get_by_label("Largest Penalty")).to_have_value("1")
        expect(page.get_by_label("Other DF")).to_have_value("13")

    page.get_by_label("Action").select_option("insight")
    page.get_by_label("Attribute").select_option("wis")
    page.get_by_label("A relevant Origin").check()
    page.get_by_label("Largest Bonus").fill("2")
    page.get_by_label("Largest Penalty").fill("1")
    page.get_by_label("Difficulty (DF)").select_option("other")
    page.get_by_label("Other DF").fill("13")
    with page.expect_navigation():
        page.get_by_role("button", name="Roll the Check").click()
    typed()
    check = Roll.objects.get(kind="check")
    assert check.die == 20 and check.df == 13 and check.modifier == 1 + 2 - 1
    with page.expect_navigation():
        page.get_by_role("button", name="Call a Gambit").click()
    typed()
    expect(page.locator("[data-final-outcome]")).to_have_text(
        Roll.objects.get(kind="gambit").get_outcome_display())
    screenshot(page, "checks-gambit-no-js")
    with page.expect_navigation():
        page.get_by_role("button", name="Roll damage with Spear").click()
    typed()
    with page.expect_navigation():
        page.locator("#reroll-button").click()
    typed()
    assert Roll.objects.filter(kind="reroll").count() == 1
    context.close()


def test_session_log_on_a_phone(page, live_server, password, table):
    """The Imp's session log at 375 px: every entry readable, nothing wider than the
    screen, no serious axe violation."""
    from campaigns.systems.eldritch_gambit import roll_services
    from rules.engine.eldritch_gambit import rolls
    from rules.engine.eldritch_gambit.checks import CheckSpec

    hero = table["hero"]
    check = roll_services.make_check(character=hero, by=table["player"],
                                     spec=CheckSpec(20, 2, 10), label="Attack, Melee: DEX")
    roll_services.call_gambit(check=check, by=table["player"])
    damage = roll_services.make_roll(character=hero, by=table["player"],
                                     spec=rolls.weapon_damage("Spear", "1d8+3", 8),
                                     kind=Roll.Kind.DAMAGE)
    roll_services.reroll(roll=damage, by=table["imp"])
    roll_services.roll_off(character=hero, by=table["player"], attacker="1d8+3",
                           defender="1d6", label="Clash")
    page.set_viewport_size(PHONE)
    login(page, live_server, table["imp"], password)
    page.goto(f"/campaigns/{table['campaign'].pk}/sessions/1/log/")
    expect(page.locator("#session-log .roll-entry")).to_have_count(5)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "checks-session-log-phone")
    violations = axe_check(page)
    assert not violations, describe(violations)


def test_a_natural_attack_from_the_template_rolls_its_damage(page, live_server, password,
                                                             table):
    """Bestiary > Templates: an Attack (melee) Trait is "+1 to hit, d8 +STR dmg": Hit
    +1 + DEX 2 = +3 and 1d8+3 for Asphodel (STR 3), shown and rolled like a weapon."""
    hero = table["hero"]
    EldritchGambitCharacter.objects.filter(pk=hero.pk).update(
        template_name="Wyrmkin", template_traits=[{"name": "Attack", "value": "melee", "load": 1}])
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{hero.pk}/")
    expect(page.locator("[data-natural-attack]")).to_contain_text(
        "Attack (melee) (Template): Hit +3, 1d8+3 damage, Critical +8")

    page.goto(f"/characters/{hero.pk}/play/")
    line = page.locator("#rolls-panel [data-natural-attack]")
    expect(line).to_contain_text("Attack (melee) 1d8+3")
    line.get_by_role("button", name="Roll damage with Attack (melee)").click()
    htmx_settled(page)

    expect(page.locator("#roll-result")).to_contain_text("Attack (melee)")
    roll = Roll.objects.get(character=hero, kind="damage")
    assert roll.label.startswith("Attack (melee)") and 4 <= roll.total <= 11
