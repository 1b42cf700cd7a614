"""Login throttling in the browser: after too many wrong passwords the login page says
so, beside the form, and the right password is refused until an unlock."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import axe_check, describe, login, screenshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_locked_account_sees_why_and_gets_in_after_the_reset(page, live_server, password,
                                                               settings):
    settings.AXES_ENABLED = True  # off in the test settings; live_server shares them
    user = UserFactory(username="forgetful")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(page, live_server, user, "not-the-password")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Too many failed logins for this account or from this "
                                  "address")
    expect(page.get_by_label("Username")).to_have_value("forgetful")
    screenshot(page, "login-locked-out")
    violations = axe_check(page)
    assert not violations, describe(violations)

    login(page, live_server, user, password)
    expect(page.get_by_role("alert")).to_contain_text("Too many failed logins")

    call_command("axes_reset")
    login(page, live_server, user, password)
    expect(page.get_by_role("link", name="forgetful")).to_be_visible()
