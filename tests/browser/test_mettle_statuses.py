"""A METTLE character's statuses in a real browser (issue #13, AMB-M-STAT-1): ticking
Staggered with full Mettle is said beside the field as you tick; Mettle at 0 or below
makes it legal, the panel lists the statuses with their effects and the Check penalty;
saved, the page shows Staggered, not Fallen."""

import pytest
from playwright.sync_api import expect

from characters.systems.mettle.models import MettleCharacter
from tests.browser.conftest import axe_check, describe, htmx_settled, login, screenshot
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_owner_ticks_staggered_and_the_sheet_follows(page, live_server, password):
    owner = UserFactory(username="dana")
    viktor = make_viktor(owner)
    login(page, live_server, owner, password)
    page.goto(f"/characters/{viktor.pk}/edit/")
    staggered = page.get_by_label("Staggered:", exact=False)
    staggered.check()
    expect(page.locator("#errors-statuses")).to_contain_text(
        "Staggered lasts only while Mettle is 0 or below")
    page.get_by_label("Current Mettle", exact=True).fill("-2")
    expect(page.locator("#errors-statuses")).to_have_text("")
    panel = page.locator("#stats-panel")
    expect(panel.locator("[data-status-effect=staggered]")).to_contain_text("no Rally")
    expect(panel.locator("[data-stat=check_penalty]")).to_have_text("2")
    expect(panel.locator("[data-status=fallen]")).to_have_count(0)
    htmx_settled(page)
    screenshot(page, "mettle-builder-statuses")
    assert describe(axe_check(page)) == ""

    page.get_by_role("button", name="Save changes").click()
    page.wait_for_url(f"**/characters/{viktor.pk}/")
    expect(page.locator("[data-status=staggered]").first).to_be_visible()
    expect(page.locator("[data-status=fallen]")).to_have_count(0)
    assert MettleCharacter.objects.get(pk=viktor.pk).statuses == ["staggered"]
