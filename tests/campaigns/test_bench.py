"""manage.py bench: it runs, prints every row and its numbers parse.

Timings are machine-dependent, so nothing here asserts on them; only that they are
numbers, and that the command judges nothing (no targets, no ratios: performance
targets come from the load benchmark). Under pytest the command uses the test database
and rolls its rows back.
"""

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.management.commands.bench import Command
from characters.models import Character
from tests.factories import AsphodelFactory

pytestmark = pytest.mark.django_db

ROW_NUMBERS = re.compile(r"\s+([\d.]+)\s+(\d+)\s+(\d+)$")


def run_bench(*args, **options) -> str:
    out = StringIO()
    call_command("bench", *args, requests=3, warmup=1, stdout=out, **options)
    return out.getvalue()


def line_starting(output: str, prefix: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1, f"expected one line starting {prefix!r} in:\n{output}"
    return lines[0]


def test_table_has_the_endpoint_rows_with_numbers():
    output = run_bench()

    for prefix in ("POST characters:preview (htmx)", "GET characters:detail"):
        match = ROW_NUMBERS.search(line_starting(output, prefix))
        assert match, line_starting(output, prefix)
        median_ms, queries, size = match.groups()
        assert float(median_ms) > 0
        assert int(queries) >= 1
        assert int(size) > 0


def test_table_has_the_sizes_and_no_targets():
    output = run_bench()

    expected = {"Small": (1, 0, 0), "Typical": (30, 5, 8), "Hoard": (3, 200, 2)}
    for label, (skills, items, statuses) in expected.items():
        cells = line_starting(output, f"{label} ").split()
        numbers = [float(cell) for cell in cells[1:]]
        assert len(numbers) == 10
        assert (numbers[0], numbers[1], numbers[3]) == (skills, items, statuses)
        assert all(n > 0 for n in numbers[4:])  # query counts, times and bytes
    assert not [line for line in output.splitlines() if re.match(r"(PASS|FAIL)  ", line)]
    assert "bare" not in output
    assert "Targets" not in output


def test_json_output_parses():
    data = json.loads(run_bench(json=True))

    endpoints = data["endpoints"]
    assert set(endpoints) == {"preview", "detail"}
    for measured in endpoints.values():
        assert measured["median_ms"] > 0
        assert measured["queries"] == len(measured["query_origins"])
        assert measured["bytes"] > 0
        assert not any(key.startswith("ratio") for key in measured)
    assert [size["character"] for size in data["sizes"]] == ["small", "typical", "hoard"]
    assert {size["items"] for size in data["sizes"]} == {0, 5, 200}
    assert "targets" not in data


def test_leaves_no_rows_behind():
    run_bench()

    assert not Character.objects.exists()


def test_the_campaign_dashboard_is_measured():
    output = run_bench()

    small = line_starting(output, "New table ").split()[1:]
    table = line_starting(output, "Table of 8 ").split()[2:]
    assert small[1:3] == ["2", "2"] and table[1:3] == ["8", "200"]
    # Page and poll query counts: the same for 8 characters and 200 sessions as for 2.
    assert small[3:5] == table[3:5]
    assert all(float(cell) > 0 for cell in table[5:])
    data = json.loads(run_bench(json=True))
    assert [c["campaign"] for c in data["campaigns"]] == ["small", "table"]
    for campaign in data["campaigns"]:
        for page in ("dashboard", "poll"):
            assert campaign[page]["queries"] == len(campaign[page]["query_origins"])
            assert campaign[page]["median_ms"] > 0


def test_posts_as_the_browser_does_with_the_csrf_check_on():
    """The bench's client checks CSRF as production does: the builder page's token
    passes, any other is refused."""
    character = AsphodelFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(character.owner)
    url = reverse("characters:preview", args=[character.pk])

    token = Command._csrf_token(client, character)

    assert Command._post_htmx(client, url, character, token)().status_code == 200
    assert Command._post_htmx(client, url, character, "x" * 64)().status_code == 403


def test_every_registered_game_has_its_preview_and_character_page_measured():
    """Every game besides Eldritch Gambit (whose three sizes the tables above measure):
    its typical character's builder preview and character page, with numbers."""
    from rules import systems

    data = json.loads(run_bench(json=True))

    others = {s.key for s in systems.all_systems()} - {systems.ELDRITCH_GAMBIT}
    games = {game["game"]: game for game in data["games"]}
    assert set(games) == others
    for key, game in games.items():
        assert game["measured"], key
        for page in ("preview", "detail"):
            assert game[page]["median_ms"] > 0, (key, page)
            assert game[page]["queries"] == len(game[page]["query_origins"]) >= 1
            assert game[page]["bytes"] > 0
    output = run_bench()
    for key in others:
        cells = line_starting(output, f"{systems.get(key).name} ").split()
        assert len(cells) >= 7 and all(float(c) > 0 for c in cells[-6:]), cells
