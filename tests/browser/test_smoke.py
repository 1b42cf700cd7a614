import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, axe_check, describe, follow, login, screenshot
from tests.factories import UserFactory

PARCHMENT = "rgb(244, 236, 216)"


def test_styles_and_scripts_load_from_our_own_server(page):
    page.goto("/")

    body_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert body_background == PARCHMENT  # app.css, on top of Bootstrap
    assert page.evaluate("typeof bootstrap.Collapse") == "function"
    assert page.evaluate("typeof htmx.ajax") == "function"


def test_anonymous_signs_up_and_lands_logged_in(page):
    page.goto("/")
    follow(page.get_by_role("main").get_by_role("link", name="Create an account"))

    page.get_by_label("Username").fill("asphodel")
    page.get_by_label("Password*", exact=True).fill("a-long-Secret-77")
    page.get_by_label("Password confirmation").fill("a-long-Secret-77")
    page.get_by_role("button", name="Sign up").click()

    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()
    expect(nav).to_contain_text("asphodel")
    expect(page.get_by_role("status")).to_contain_text("Welcome, asphodel")
    assert get_user_model().objects.filter(username="asphodel").exists()


def test_bad_signup_keeps_what_was_typed(page):
    page.goto("/accounts/signup/")

    page.get_by_label("Username").fill("asphodel")
    page.get_by_label("Password*", exact=True).fill("a-long-Secret-77")
    page.get_by_label("Password confirmation").fill("something-else")
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_label("Username")).to_have_value("asphodel")
    expect(page.locator(".invalid-feedback")).not_to_have_count(0)
    screenshot(page, "signup-errors-1280")
    violations = axe_check(page)
    assert not violations, describe(violations)


def test_log_in_and_out_through_the_navbar(page, live_server, password):
    user = UserFactory(username="viktor")

    login(page, live_server, user, password)
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_contain_text("viktor")
    nav.get_by_role("button", name="Log out").click()

    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    assert page.url == f"{live_server.url}/"


@pytest.mark.parametrize(
    "path", ["/", "/about/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"]
)
def test_pages_have_no_serious_accessibility_violations(page, path):
    page.goto(path)

    violations = axe_check(page)

    assert not violations, describe(violations)


def test_logged_in_pages_have_no_serious_accessibility_violations(page, live_server, password):
    login(page, live_server, UserFactory(username="asphodel"), password)
    page.goto("/")
    screenshot(page, "home-logged-in-1280")
    violations = axe_check(page)
    assert not violations, describe(violations)

    page.goto("/accounts/password_change/")
    violations = axe_check(page)
    assert not violations, describe(violations)


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("home", "/"),
        ("about", "/about/"),
        ("login", "/accounts/login/"),
        ("signup", "/accounts/signup/"),
    ],
)
def test_screenshots_at_desktop_and_phone_width(page, name, path):
    page.goto(path)
    screenshot(page, f"{name}-1280")

    page.set_viewport_size(PHONE)
    page.goto(path)
    screenshot(page, f"{name}-375")

    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{path} scrolls sideways on a phone"


def test_phone_menu_opens_and_is_keyboard_reachable(page):
    page.set_viewport_size(PHONE)
    page.goto("/")
    toggler = page.get_by_role("button", name="Show or hide the menu")
    menu_about = page.locator("#site-nav-links").get_by_role("link", name="About")
    expect(menu_about).to_be_hidden()

    toggler.focus()
    page.keyboard.press("Enter")

    expect(menu_about).to_be_visible()
    screenshot(page, "home-375-menu-open")
