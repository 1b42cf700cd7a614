"""Keystroke to updated number, measured inside headless Chromium (issue #12).

A player types into the builder at a human pace (a seeded schedule, so every run types
the same keys at the same gaps) and makes single edits with a pause after each; the page
itself times every edit, from the keystroke to the moment the dependent number (a
`data-stat` element) shows its new value: the keystroke's `event.timeStamp`, then a
MutationObserver's `performance.now()` when the stat's text changes, on the page's own
clock. Each change is attributed to the edit whose values the request carried (the last
edit when htmx sent it), so only edits that changed the number count, and an edit that
was never shown (a later keystroke's preview replaced it) is counted apart.

The test prints p50/p95/max and how many previews the browser sent while the player
typed; it asserts only that it measured the edits, not how fast they were (the numbers
depend on the machine: see README "Load benchmark").
"""

import math
import random
import time
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from rules.models import GearItem, Trait
from tests.browser.conftest import htmx_settled, login
from tests.factories import AsphodelFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# The page's own log of keystrokes, previews sent and changes of one stat; called again,
# it starts a new log (the listeners stay, and write to the newest). A function, not an
# expression: the Content-Security-Policy refuses eval().
INSTRUMENT = """(selector) => {
  const read = () => {
    const el = document.querySelector(selector);
    return el ? el.textContent.trim() : null;
  };
  window.__keystrokes = {edits: [], requests: [], changes: [], aborted: 0,
                         selector: selector, shown: read(), swapping: null};
  if (window.__keystrokesListening) return;
  window.__keystrokesListening = true;
  const log = () => window.__keystrokes;
  let keyAt = null, key = null;
  document.addEventListener("keydown", (e) => { keyAt = e.timeStamp; key = e.key; }, true);
  document.addEventListener("input", (e) => {
    log().edits.push({t: keyAt ?? e.timeStamp, key: key, name: e.target.name,
                      value: e.target.value});
    keyAt = key = null;
  }, true);
  document.body.addEventListener("htmx:beforeRequest", (e) => {
    const edit = log().edits.length - 1;
    e.detail.xhr.__sent = {log: log(), edit: edit};
    log().requests.push({t: performance.now(), edit: edit});
  });
  document.body.addEventListener("htmx:sendAbort", () => { log().aborted += 1; });
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    const sent = e.detail.xhr.__sent;
    log().swapping = sent && sent.log === log() ? sent.edit : null;
  });
  new MutationObserver(() => {
    const now = performance.now();
    const current = log();
    const el = document.querySelector(current.selector);
    const text = el ? el.textContent.trim() : null;
    if (text !== current.shown) {
      current.changes.push({t: now, text: text, edit: current.swapping});
      current.shown = text;
    }
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""

# Human typing: gaps between keystrokes around 200 ms (large studies of typists find a
# mean near 240 ms, fast typists near 120 ms), seeded so every run types alike.
MEDIAN_GAP_S = 0.2


def human_gaps(rng, n):
    return [min(0.6, max(0.08, rng.lognormvariate(math.log(MEDIAN_GAP_S), 0.4)))
            for _ in range(n)]


def percentile(values, p):
    """The p-th percentile, nearest rank (no interpolation: a value that was measured)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def number_keys(rng, count, value, low, top):
    """`count` keystrokes that each change a number field from `value`, staying within
    low..top (one digit each): a new digit typed over the selection, or the arrow keys
    stepping the number."""
    keys = []
    while len(keys) < count:
        if rng.random() < 0.4:
            digit = rng.choice([d for d in range(low, top + 1) if d != value])
            keys.append(("Control+a", str(digit)))
            value = digit
        elif value < top and (value == low or rng.random() < 0.5):
            keys.append((None, "ArrowUp"))
            value += 1
        else:
            keys.append((None, "ArrowDown"))
            value -= 1
    return keys


def measure(page):
    """Wait for the last preview, then read the page's log and time each shown edit."""
    htmx_settled(page)
    time.sleep(0.3)
    htmx_settled(page)
    log = page.evaluate("() => window.__keystrokes")
    edits = log["edits"]
    shown = {}
    for change in log["changes"]:
        if change["edit"] is not None and change["edit"] >= 0:
            shown.setdefault(change["edit"], change["t"] - edits[change["edit"]]["t"])
    return log, shown


def report(capsys, title, log, shown, typing_seconds):
    latencies = list(shown.values())
    lines = [f"{title}: {len(latencies)} edits changed the number"
             f" ({len(log['edits'])} keystrokes edited the field)"]
    by_arrow = {True: [], False: []}
    for i, t in shown.items():
        by_arrow[(log["edits"][i]["key"] or "").startswith("Arrow")].append(t)
    arrows, typed = by_arrow[True], by_arrow[False]
    for what, values in (("all", latencies), ("typed over", typed), ("arrow keys", arrows)):
        if values:
            lines.append(f"  keystroke to number, {what} ({len(values)}): p50"
                         f" {percentile(values, 50):.0f} ms, p95 {percentile(values, 95):.0f} ms,"
                         f" max {max(values):.0f} ms")
    sent = len(log["requests"])
    lines.append(f"  previews sent: {sent} in {typing_seconds:.1f} s of typing"
                 f" ({sent / typing_seconds:.1f}/s, one per {typing_seconds / max(sent, 1):.2f} s;"
                 f" {log['aborted']} aborted by a newer one)")
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    return latencies


def type_and_time(page, capsys, title, stat, keys, gaps):
    """Press `keys` (pairs: an optional selecting chord, then the key) with `gaps` after
    each, and return the latencies of the edits that changed `stat`."""
    page.evaluate(INSTRUMENT, stat)
    started = time.monotonic()
    for (select, key), gap in zip(keys, gaps, strict=True):
        if select:
            page.keyboard.press(select)
        page.keyboard.press(key)
        time.sleep(gap)
    return report(capsys, title, *measure(page), time.monotonic() - started)


def print_all(capsys, title, latencies):
    with capsys.disabled():
        print(f"  {title}, all edits: {len(latencies)} measured, p50"
              f" {percentile(latencies, 50):.0f} ms, p95 {percentile(latencies, 95):.0f} ms,"
              f" max {max(latencies):.0f} ms")


@pytest.fixture
def rules_catalog(transactional_db):
    """The rules rows (a data migration loads them; a transactional test's flush empties
    them)."""
    if not GearItem.objects.exists() or not Trait.objects.exists():
        call_command("load_rules", stdout=StringIO())


def test_keystroke_to_updated_number_in_the_builder(page, live_server, password, capsys):
    login(page, live_server, UserFactory(), password)
    page.goto("/characters/new/?system=eldritch-gambit")
    expect(page.get_by_role("heading", name="New character")).to_be_visible()
    htmx_settled(page)
    stat = "#stats-panel [data-stat=hp_base]"
    expect(page.locator(stat)).to_be_visible()
    top = int(page.get_by_label("Level", exact=True).input_value()) // 2  # STR's maximum
    rng = random.Random(12)
    page.get_by_label("Strength", exact=True).focus()

    # Typing at a human pace: a few dozen keystrokes, each changing Strength.
    keys = number_keys(rng, 36, 0, 0, top)
    typing = type_and_time(page, capsys, "Builder, typing Strength at a human pace", stat,
                           keys, human_gaps(rng, len(keys)))
    # Single edits: one keystroke, then the player reads the number.
    value = int(page.get_by_label("Strength", exact=True).input_value())
    single = type_and_time(page, capsys, "Builder, single edits of Strength", stat,
                           number_keys(rng, 12, value, 0, top), [0.8] * 12)

    # Prose in the Description (no number changes): what the browser sends while typing.
    page.get_by_label("Description", exact=True).focus()
    text = "A tall woman with a lantern, ink on her sleeves."
    page.evaluate(INSTRUMENT, stat)
    started = time.monotonic()
    for char, gap in zip(text, human_gaps(rng, len(text)), strict=True):
        page.keyboard.type(char)
        time.sleep(gap)
    log, _ = measure(page)
    report(capsys, "Builder, typing the Description at a human pace", log, {},
           time.monotonic() - started)

    print_all(capsys, "Builder", typing + single)
    assert len(single) == 12, "every single edit should have changed the number"
    assert len(typing) >= 10, f"only {len(typing)} typed edits were measured"
    assert len(log["requests"]) > 0, "typing the Description sent no preview"


def test_keystroke_to_updated_number_on_the_template_page(page, live_server, password,
                                                          rules_catalog, capsys):
    character = AsphodelFactory(owner=UserFactory())
    login(page, live_server, character.owner, password)
    page.goto(f"/characters/{character.pk}/template/")
    page.get_by_label("Trait", exact=True).select_option(label="Fast, Load 1 or more")
    stat = "#stats-panel [data-stat=load]"
    expect(page.locator(stat)).to_be_visible()
    htmx_settled(page)
    load = page.get_by_label("Load", exact=True)
    load.fill("1")  # Fast takes a Load of 1 or more
    expect(page.locator(stat)).to_have_text("1")
    page.wait_for_timeout(300)  # past the builder's delay: the preview has been sent
    htmx_settled(page)
    load.focus()
    rng = random.Random(12)

    keys = number_keys(rng, 24, int(load.input_value()), 1, 6)
    typing = type_and_time(page, capsys, "Template, typing a Trait's Load at a human pace",
                           stat, keys, human_gaps(rng, len(keys)))
    single = type_and_time(page, capsys, "Template, single edits of a Trait's Load", stat,
                           number_keys(rng, 8, int(load.input_value()), 1, 6), [0.8] * 8)

    print_all(capsys, "Template", typing + single)
    assert len(single) == 8, "every single edit should have changed the number"
    assert len(typing) >= 8, f"only {len(typing)} typed edits were measured"
