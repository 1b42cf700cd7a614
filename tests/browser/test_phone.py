"""Every page a player and an Imp reach, on a 375 px phone: none scrolls sideways
(document.documentElement.scrollWidth <= 375). The print view shows the whole sheet,
scaled to fit the screen; printing it is unchanged. A full-page screenshot of each goes to
artifacts/screenshots/phone-<role>-<page>.png, to look at.

One test per role visits all its pages and reports every page that overflows at once,
with the widest elements, so one run shows everything that needs fixing."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from campaigns.systems.eldritch_gambit.demo import seed_demo_campaign
from characters.models import Character
from characters.systems.eldritch_gambit.demo import ASPHODEL, seed_demo
from rules import reference
from rules.engine.eldritch_gambit import scenes
from rules.models import GearItem
from tests.browser.conftest import PHONE, login, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

# The elements that stick out past the right edge, widest first, to say what to fix.
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 0.5) {
      const id = el.id ? "#" + el.id : "";
      const cls = el.classList.length ? "." + [...el.classList].join(".") : "";
      out.push([Math.round(box.right), el.tagName.toLowerCase() + id + cls]);
    }
  }
  return out.sort((a, b) => b[0] - a[0]).slice(0, 6);
}"""

@pytest.fixture
def demo(transactional_db):
    if not GearItem.objects.exists():  # emptied by the flush after a transactional test
        call_command("load_rules", stdout=io.StringIO())
    seed_demo()
    campaign = seed_demo_campaign(asphodel_name=ASPHODEL["name"])
    assert campaign is not None
    return {
        "campaign": Campaign.objects.get(pk=campaign.pk),
        "asphodel": Character.objects.get(name=ASPHODEL["name"]),
        "encounter": campaign.encounters.get(),
        "session": campaign.sessions.order_by("number").last(),
    }


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url,
                                  reduced_motion="reduce")
    page = context.new_page()
    yield page
    context.close()


def visit(page, role: str, name: str, url: str) -> str | None:
    """Open url at 375 px, screenshot it; what overflows, or None when it fits."""
    response = page.goto(url)
    if response is None or not response.ok:
        return f"{name} ({url}) answered {response and response.status}"
    page.wait_for_load_state("networkidle")
    screenshot(page, f"phone-{role}-{name}")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width <= PHONE["width"]:
        return None
    return f"{name} ({url}) is {width} px wide: {page.evaluate(OVERFLOWING)}"


def visit_all(page, role: str, urls: dict[str, str]) -> list[str]:
    return [problem for name, url in urls.items()
            if (problem := visit(page, role, name, url)) is not None]


def player_pages(demo) -> dict[str, str]:
    a, c = demo["asphodel"], demo["campaign"]
    return {
        "character-list": "/characters/",
        "builder-new": "/characters/new/?system=eldritch-gambit",
        "builder-edit": f"/characters/{a.pk}/edit/",
        "character": f"/characters/{a.pk}/",
        "inventory": f"/characters/{a.pk}/inventory/",
        "template": f"/characters/{a.pk}/template/",
        "compare": f"/characters/compare/?a={a.pk}&b={a.pk}",
        "checks-and-rolls": f"/characters/{a.pk}/play/",
        "import": "/characters/import/",
        "campaign-list": "/campaigns/",
        "campaign": f"/campaigns/{c.pk}/",
        "sessions": f"/campaigns/{c.pk}/sessions/",
        "session-ritual": f"/campaigns/{c.pk}/sessions/{demo['session'].number}/",
        "session-log": f"/campaigns/{c.pk}/sessions/{demo['session'].number}/log/",
        "members": f"/campaigns/{c.pk}/members/",
        "stash": f"/campaigns/{c.pk}/stash/",
        "campaign-character": f"/campaigns/{c.pk}/characters/{a.pk}/",
        "initiative-list": f"/campaigns/{c.pk}/initiative/",
        "initiative-player-view": f"/campaigns/{c.pk}/initiative/{demo['encounter'].pk}/",
    }


def imp_pages(demo) -> dict[str, str]:
    a, c = demo["asphodel"], demo["campaign"]
    return {
        "character-list": "/characters/",
        "character": f"/characters/{a.pk}/",  # a party member's sheet, read-only
        "checks-and-rolls": f"/characters/{a.pk}/play/",
        "campaign": f"/campaigns/{c.pk}/",
        "sessions": f"/campaigns/{c.pk}/sessions/",
        "session-ritual": f"/campaigns/{c.pk}/sessions/{demo['session'].number}/",
        "session-log": f"/campaigns/{c.pk}/sessions/{demo['session'].number}/log/",
        "members": f"/campaigns/{c.pk}/members/",
        "stash": f"/campaigns/{c.pk}/stash/",
        "highlights": f"/campaigns/{c.pk}/highlights/",
        "campaign-character": f"/campaigns/{c.pk}/characters/{a.pk}/",
        "handover": f"/campaigns/{c.pk}/handover/",
        "new-campaign": "/campaigns/new/",
        "initiative-list": f"/campaigns/{c.pk}/initiative/",
        "initiative-tracker": f"/campaigns/{c.pk}/initiative/{demo['encounter'].pk}/",
    }


def public_pages() -> dict[str, str]:
    return {
        "home": "/",
        "about": "/about/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
        "rules": "/rules/",
        "rules-search": "/rules/search/?q=attack",
        "rules-action": reference.action_url(scenes.ACTIONS_ONLY[0]),
        "rules-staging": reference.rule_url(scenes.STAGING[0]),
        "rules-status": "/rules/statuses/staggered/",
    }


def test_no_public_page_scrolls_sideways_on_a_phone(phone, demo):
    problems = visit_all(phone, "anonymous", public_pages())

    assert not problems, "\n".join(problems)


def test_no_player_page_scrolls_sideways_on_a_phone(phone, live_server, demo):
    login(phone, live_server, demo["asphodel"].owner, "player1-demo-pass")
    problems = visit_all(phone, "player", player_pages(demo))

    assert not problems, "\n".join(problems)


def test_no_imp_page_scrolls_sideways_on_a_phone(phone, live_server, demo):
    login(phone, live_server, demo["campaign"].owner, "imp-demo-pass")
    problems = visit_all(phone, "imp", imp_pages(demo))

    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("role", "url"), [("player", "/characters/{a}/print/"),
                                           ("imp", "/campaigns/{c}/party/print/")])
def test_the_print_view_scales_the_sheet_to_fit_a_phone(phone, live_server, demo, role, url):
    user = demo["asphodel"].owner if role == "player" else demo["campaign"].owner
    login(phone, live_server, user, f"{user.username}-demo-pass")
    phone.goto(url.format(a=demo["asphodel"].pk, c=demo["campaign"].pk))
    expect(phone.locator("[data-field=hp-armored]").first).to_have_text("25")
    phone.wait_for_load_state("networkidle")
    screenshot(phone, f"phone-{role}-print")

    width = phone.evaluate("document.documentElement.scrollWidth")
    sheet = phone.locator(".sheet-page").first.bounding_box()
    assert width <= PHONE["width"], phone.evaluate(OVERFLOWING)
    assert sheet is not None and sheet["x"] >= 0 and sheet["x"] + sheet["width"] <= PHONE["width"]
    # Printing is unchanged: the sheet keeps its full size on paper.
    phone.emulate_media(media="print")
    printed = phone.locator(".sheet").first.bounding_box()
    assert printed is not None and printed["width"] > 900  # 263 mm at 96 px per inch


def test_without_javascript_the_print_view_scrolls_only_the_sheet(browser, live_server, demo):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url,
                                  java_script_enabled=False)
    page = context.new_page()
    login(page, live_server, demo["asphodel"].owner, "player1-demo-pass")
    page.goto(f"/characters/{demo['asphodel'].pk}/print/")

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The whole sheet is still there, full size, in a box that scrolls sideways.
    assert page.evaluate("document.querySelector('main').scrollWidth") > 900
    context.close()


def test_the_demo_inventory_rows_show_their_main_action_and_fold_the_rest(phone, live_server,
                                                                          demo):
    """Each line shows its main action (Take off for the worn chain mail) and a "More"
    fold; quantity, move, give, drop, sell and remove wait inside it."""
    login(phone, live_server, demo["asphodel"].owner, "player1-demo-pass")
    phone.goto(f"/characters/{demo['asphodel'].pk}/inventory/")
    controls = phone.evaluate("""() => [...document.querySelectorAll("li.inv-item")].map(li => [
      li.dataset.item,
      [...li.querySelector(":scope > .inv-actions").querySelectorAll(
         "button, select, input:not([type=hidden]), summary")]
        .filter(el => el.checkVisibility()).map(el => el.textContent.trim())])""")
    height = phone.evaluate("document.documentElement.scrollHeight")
    screenshot(phone, "phone-player-inventory-folded")
    print(f"demo inventory at 375 px: {height} px tall")

    assert dict(controls)["Chain mail"] == ["Take off Chain mail", "More for Chain mail"]
    for name, shown in controls:
        assert shown[-1] == f"More for {name}", (name, shown)
        assert len(shown) <= 2, (name, shown)
    chain = phone.locator('li.inv-item[data-item="Chain mail"]')
    chain.locator("summary").press("Enter")  # keyboard: the fold opens from its summary
    for label in ("Qty of Chain mail", "Move to (for Chain mail)",
                  "Give to (for Chain mail)"):
        expect(chain.get_by_label(label)).to_be_visible()
    for button in ("Drop Chain mail", "Sell Chain mail", "Remove Chain mail"):
        expect(chain.get_by_role("button", name=button, exact=True)).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
