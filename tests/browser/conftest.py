"""Browser tests: Playwright's sync API driving Debian's Chromium against live_server.

Every test in this folder gets the `browser` marker (deselect with -m "not browser").
Without /usr/bin/chromium they are skipped, except on CI (CI=true), where they fail.
"""

import os
import random
from pathlib import Path

import pytest

# Playwright's sync API keeps an asyncio loop running in this thread; without this the
# ORM (live_server data, factories) refuses to run and raises SynchronousOnlyOperation.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        reason = f"no {CHROMIUM}: install Debian's chromium: apt-get install -y chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    """A fresh page in its own context (no shared cookies); relative URLs hit live_server.

    Reduced motion turns Bootstrap's transitions off, so screenshots never catch one.
    BROWSER_LATENCY_MS=300 (opt-in) adds that latency to each of this page's requests,
    uncached: a test that acts on a page before its scripts have loaded then fails every
    time instead of now and then on a busy machine.
    """
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, reduced_motion="reduce"
    )
    page = context.new_page()
    latency = int(os.environ.get("BROWSER_LATENCY_MS", "0"))
    if latency:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": latency,
            "downloadThroughput": -1, "uploadThroughput": -1})
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot as artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def login(page, live_server, user, password: str) -> None:
    """Log in through the real form and wait for the page after it."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()


def follow(locator) -> None:
    """Click a link (or a plain form's submit button) and wait for the new page's load.

    A click waits only until the new page has started: its controls are there, but htmx
    and the page's scripts wire them up on load, and a choice, a keystroke or a click made
    sooner sends nothing (the swap the test waits for never comes). Every link a test
    follows goes through here, and so does a submit whose page the test then works through
    htmx or a script; `page.goto`, `page.wait_for_url` and `with page.expect_navigation():`
    wait for the load themselves.
    """
    with locator.page.expect_navigation(wait_until="load"):
        locator.click()


def htmx_settled(page) -> None:
    """Wait until htmx has finished every request, swap and settle on the page.

    New content is wired up (hx-trigger and friends) only when it settles, 20 ms
    after the swap; a test that types into it sooner would type into dead inputs.
    """
    # A function, not an expression: the page's Content-Security-Policy (no 'unsafe-eval')
    # refuses the eval() Playwright polls a bare expression with.
    page.wait_for_function(
        "() => !document.querySelector("
        "'.htmx-request, .htmx-added, .htmx-settling, .htmx-swapping')"
    )


def axe_check(page) -> list[dict]:
    """The axe-core violations of impact serious or critical on the current page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [v for v in results.response["violations"] if v["impact"] in {"serious", "critical"}]


def describe(violations: list[dict]) -> str:
    """A readable list of axe violations for an assertion message."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        lines.extend(f"    {node['target']}" for node in violation["nodes"][:5])
    return "\n".join(lines)


class Dealt(random.Random):
    """A random source that deals the given faces first, then rolls as usual: the live
    server's dice made reproducible (the tests patch a service's random source with it)."""

    def __init__(self, *faces):
        super().__init__()
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0) if self.faces else super().randint(a, b)
