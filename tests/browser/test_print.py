"""The print view in Chromium: Print to PDF (page.pdf) gives one landscape page for
Asphodel on Letter and on A4, the controls are left off the paper, and the view passes
axe."""

import io
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from characters.models import Character
from characters.systems.eldritch_gambit.demo import ASPHODEL, seed_demo
from rules.models import GearItem
from tests.browser.conftest import SCREENSHOTS, axe_check, describe, follow, login, screenshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def asphodel(transactional_db):
    if not GearItem.objects.exists():  # emptied by the flush after a transactional test
        call_command("load_rules", stdout=io.StringIO())
    seed_demo()
    return Character.objects.get(name=ASPHODEL["name"])


def pdfinfo(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True).stdout
    return {k.strip(): v.strip() for k, _, v in
            (line.partition(":") for line in out.decode().splitlines()) if v}


@pytest.mark.parametrize(("paper", "size"), [("letter", "(letter)"), ("a4", "(A4)")])
def test_print_to_pdf_is_one_landscape_page(page, live_server, asphodel, paper, size):
    login(page, live_server, asphodel.owner, "player1-demo-pass")
    page.goto(f"/characters/{asphodel.pk}/print/?paper={paper}")
    expect(page.locator("[data-field=hp-armored]")).to_have_text("25")
    screenshot(page, f"print-view-{paper}")

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"print-chromium-{paper}.pdf"
    # As the browser's Print dialog does with the page's own @page size and colours.
    page.pdf(path=str(path), prefer_css_page_size=True, print_background=True)

    info = pdfinfo(path)
    assert info["Pages"] == "1"
    width, _, height, *_ = info["Page size"].split()
    assert info["Page size"].endswith(size)
    assert float(width) > float(height)  # landscape
    text = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True,
                          check=True).stdout.decode()
    for phrase in ("Asphodel the Grumbling Bloom", "Winged spear", "1d8+3", "1d8+2",
                   "Creative Commons Attribution 4.0"):
        assert phrase in text
    assert "Download PDF" not in text  # the controls stay on the screen


def test_the_paper_select_reloads_the_view_and_the_page_passes_axe(page, live_server,
                                                                    asphodel):
    login(page, live_server, asphodel.owner, "player1-demo-pass")
    page.goto(f"/characters/{asphodel.pk}/")
    follow(page.get_by_role("link", name="Print sheet"))
    expect(page.get_by_role("button", name="Print")).to_be_visible()  # shown by print.js

    with page.expect_navigation():
        page.get_by_label("Paper").select_option("a4")

    assert page.url.endswith("?paper=a4")
    expect(page.get_by_role("link", name="Download PDF")).to_have_attribute(
        "href", f"/characters/{asphodel.pk}/sheet.pdf?paper=a4")
    violations = axe_check(page)
    assert not violations, describe(violations)
