"""Campaigns in the browser: the Imp's dashboard follows the ritual by itself (htmx
polling), the ritual's buttons, and axe on the dashboard and the session page."""

from campaigns import services
from tests.browser.conftest import axe_check, describe, login, screenshot
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory


def make_table():
    imp = UserFactory(username="imp-browser")
    campaign = CampaignFactory(owner=imp, name="The Drowned Crown")
    heroes = []
    for name, xp in (("Ash", 9), ("Bram", 0)):
        player = MembershipFactory(campaign=campaign).user
        heroes.append(CharacterFactory(owner=player, campaign=campaign, name=name,
                                       quest="Find the lost bell", progress__xp=xp))
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    return imp, campaign, session, heroes


def level_cell(page, character):
    return page.locator(f'#party-dashboard tr[data-character="{character.pk}"] '
                        '[data-stat="level"]')


def test_the_dashboard_follows_an_award_by_itself(page, live_server, password):
    imp, campaign, session, (ash, _bram) = make_table()
    login(page, live_server, imp, password)
    page.goto(campaign.get_absolute_url())
    assert level_cell(page, ash).inner_text() == "10"

    services.highlight_award(session=session, character=ash, by=imp, text="The climb")
    services.ritual_close(session=session, by=imp)  # "Level Up?": Level 11
    # No reload: the poll (every 5 s) swaps the party in.
    page.wait_for_function(
        f"() => document.querySelector('#party-dashboard tr[data-character=\"{ash.pk}\"] "
        "[data-stat=\"level\"]').textContent === '11'", timeout=12_000)
    assert page.locator(f'#party-dashboard tr[data-character="{ash.pk}"] '
                        '[data-stat="attribute_points_left"]').inner_text() == "1"
    screenshot(page, "campaign-dashboard")
    violations = axe_check(page)
    assert not violations, describe(violations)


def test_the_ritual_buttons(page, live_server, password):
    imp, campaign, session, (ash, bram) = make_table()
    login(page, live_server, imp, password)
    page.goto(session.get_absolute_url())
    page.get_by_label(f"Round 1 Highlight of {ash.name}").fill("The bell tower climb")
    row = page.locator(f'tr[data-character="{ash.pk}"]')
    with page.expect_navigation():
        row.get_by_role("button", name="Award 1 XP").click()
    assert "Ash gets 1 XP." in page.inner_text("#messages")
    assert "Level 10 · XP 10" in row.inner_text()  # the Level comes after the Quest XP
    with page.expect_navigation():
        page.locator(f'tr[data-character="{bram.pk}"]').get_by_role(
            "button", name="Pass").click()
    assert "Round 1: pass" in page.locator(f'tr[data-character="{bram.pk}"]').inner_text()
    with page.expect_navigation():
        page.get_by_role("button", name="Close the ritual: Level up").click()
    assert "Level 11 · XP 0" in row.inner_text()
    # Undo Ash's Highlight: the page asks before the Level goes.
    with page.expect_navigation():
        row.get_by_role("button", name="Undo").click()
    with page.expect_navigation():
        row.get_by_role("button", name="Undo it and the Level it bought").click()
    assert "Level 10 · XP 9" in row.inner_text()
    # The turn, and the ritual, are open again.
    assert row.get_by_role("button", name="Award 1 XP").is_visible()
    screenshot(page, "campaign-session")
    violations = axe_check(page)
    assert not violations, describe(violations)
