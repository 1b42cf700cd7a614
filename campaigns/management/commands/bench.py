"""`manage.py bench`: how long the live recalculation and the character page take.

For the live-preview endpoint (POST characters:preview, as htmx sends it while the player
types) and the character page (GET characters:detail) it prints the median time of a
request through Django's whole handler and middleware stack (in-process, with
django.test.Client; no network; CSRF checked as in production), the database queries per
request and the response size, for a small, a typical and a 200-item character (the
query counts do not grow with the inventory; tests pin that, not this command). It also
times the campaign dashboard and its htmx poll as the Imp sees them, for 2 characters
with 2 sessions and for 8 with 200 (built by campaigns/systems/eldritch_gambit/bench.py),
and the printed sheet (campaigns/print_bench.py): one character's PDF and the Imp's party pack of 8.
Those are Eldritch Gambit's; every other registered game's builder preview and
character page are timed too, for one typical character of each made through its own
character service (`GAME_CHARACTERS`, the load benchmark's seed data: METTLE Core,
Errant, the encounter rules); a game registered without one is listed as not measured.

It measures and prints; it judges nothing. The times are of one process on the machine
it runs on, not what users feel under load: performance targets come from the load
benchmark (README, "Benchmarks").

Everything runs in a throwaway test database created for the command (in-memory with
SQLite; test_bench_<NAME> with PostgreSQL) and destroyed at the end, so the developer's
data is never read or written. Under a test runner the runner's test database is used
and the command's rows are rolled back.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

import django
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.backends.base.creation import TEST_DATABASE_PREFIX
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from campaigns import print_bench
from campaigns.loadtest import seed as load_seed
from campaigns.loadtest.page_forms import fields_of, forms_of
from campaigns.systems.eldritch_gambit import bench as campaign_bench
from characters.models import Character, InventoryItem
from characters.systems.eldritch_gambit import services
from characters.systems.eldritch_gambit.forms import initial_from_character
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules import systems
from rules.models import GearItem

VERBS = ("Assess", "Climb", "Decipher", "Haggle", "Forage", "Track", "Pick", "Brew", "Sing",
         "Forge")
NOUNS = ("treasure", "walls", "runes", "prices", "herbs", "beasts", "locks", "poisons")
STATUSES = ("blinded", "burning", "confused", "deafened", "diseased", "grappled", "poisoned",
            "surprised")
CONTAINERS = ("backpack", "sack-large", "sack-small")
CARRIED = ("sword", "dagger", "bow-short", "arrows-or-bolts-12", "rope-10m", "torches-3",
           "rations-3-days", "lantern", "bedroll", "waterskin")
SMALL_THINGS = ("flint-steel", "compass", "pen-ink", "mirror-small", "dart", "thieves-kit")


@dataclass
class Scenario:
    """A character to measure, described by what makes its pages bigger."""

    key: str
    label: str
    skills: int
    items: int
    in_containers: int
    statuses: int
    character: Character | None = field(default=None, repr=False)

    def as_dict(self) -> dict:
        return {"character": self.key, "skills": self.skills, "items": self.items,
                "in_containers": self.in_containers, "statuses": self.statuses}


SCENARIOS = (
    Scenario("small", "Small", skills=1, items=0, in_containers=0, statuses=0),
    Scenario("typical", "Typical", skills=30, items=5, in_containers=1, statuses=8),
    Scenario("hoard", "Hoard", skills=3, items=200, in_containers=60, statuses=2),
)
TIMED = "typical"  # the character of the main table


def _mettle_character(owner) -> Character:
    from characters.systems.mettle import services as mettle_services

    return mettle_services.character_create(
        owner=owner, data=load_seed.mettle_data(1, random.Random(1), gear_lines=5))


def _errant_character(owner) -> Character:
    return load_seed.seed_errant_character(1, owner, random.Random(1), load_seed.Sizes())


def _encounters_character(owner) -> Character:
    return load_seed.seed_encounters_character(1, owner, random.Random(1))


# Every game besides Eldritch Gambit (whose characters the tables above measure): a
# typical character made through the game's own service, as the load benchmark's seed
# makes them (campaigns/loadtest/seed.py). Keyed by GameSystem.key.
GAME_CHARACTERS: dict[str, Callable] = {
    "mettle-core": _mettle_character, "errant": _errant_character,
    "encounters": _encounters_character,
}


def query_shape(sql: str) -> str:
    """A query without its values and column list, to compare and to print."""
    sql = re.sub(r"'[^']*'", "?", sql)
    sql = re.sub(r"\b\d+\b", "?", sql)
    return re.sub(r"^SELECT .+? FROM ", "SELECT ... FROM ", sql)


class QueryOrigins:
    """An execute wrapper noting, for each query, the innermost line of our code that
    led to it and the innermost library line that ran it (a form field, a template)."""

    def __init__(self):
        self.origins: list[str] = []
        self.root = str(settings.BASE_DIR) + os.sep
        self.not_ours = (os.sep + ".venv" + os.sep, os.sep + "site-packages" + os.sep,
                         self.root + "manage.py", self.root + "tests" + os.sep, __file__,
                         campaign_bench.__file__)

    def __call__(self, execute, sql, params, many, context):
        self.origins.append(self.origin(sql))
        return execute(sql, params, many, context)

    def origin(self, sql: str) -> str:
        ours = via = None
        for frame in reversed(traceback.extract_stack()[:-2]):
            name = frame.filename
            if name.startswith(self.root) and not any(part in name for part in self.not_ours):
                ours = f"{os.path.relpath(name, self.root)}:{frame.lineno} ({frame.name})"
                break
            if via is None and "site-packages" in name and f"django{os.sep}db" not in name:
                library = name.split("site-packages" + os.sep, 1)[1]
                via = f"{library}:{frame.lineno} ({frame.name})"
        if ours is None:
            if "django_session" in sql:
                return "SessionMiddleware (loads the session)"
            if "auth_user" in sql:
                return "AuthenticationMiddleware (request.user)"
            return f"Django: {via}"
        return f"{ours} via {via}" if via else ours


@dataclass
class Measurement:
    median_ms: float
    queries: int
    bytes: int
    sql: list[str] = field(repr=False)
    origins: list[str] = field(repr=False)

    def repeated(self) -> list[tuple[int, str, list[str]]]:
        """Queries of the same shape run more than once in one request, with the
        lines that ran them."""
        shapes = Counter(query_shape(sql) for sql in self.sql)
        return [
            (n, shape, sorted({o for sql, o in zip(self.sql, self.origins, strict=True)
                               if query_shape(sql) == shape}))
            for shape, n in shapes.most_common() if n > 1
        ]

    def as_dict(self) -> dict:
        return {"median_ms": round(self.median_ms, 3), "queries": self.queries,
                "bytes": self.bytes}


def _looks_like_test_database() -> bool:
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        return True
    test_name = connection.settings_dict.get("TEST", {}).get("NAME")
    return name.startswith(TEST_DATABASE_PREFIX) or bool(test_name and name.startswith(test_name))


@contextmanager
def throwaway_database(verbosity: int) -> Iterator[str]:
    """A database nobody cares about for the length of the run."""
    if hasattr(mail, "outbox"):
        # setup_test_environment() has run: a test runner owns the database.
        if not _looks_like_test_database():
            raise CommandError(
                "A test environment is set up but the database "
                f"{connection.settings_dict['NAME']!r} is not a test database; not running."
            )
        with transaction.atomic():
            yield "the test runner's database, rolled back"
            transaction.set_rollback(True)
        return

    real_name = connection.settings_dict["NAME"]
    test_settings = connection.settings_dict.setdefault("TEST", {})
    saved_test_name = test_settings.get("NAME")
    # SQLite: in memory, whatever TEST NAME says. Others: a name of our own, so that a
    # test suite running at the same time keeps its test_<NAME>.
    test_settings["NAME"] = (
        None if connection.vendor == "sqlite" else f"{TEST_DATABASE_PREFIX}bench_{real_name}"
    )
    try:
        connection.creation.create_test_db(
            verbosity=max(verbosity - 1, 0), autoclobber=True, serialize=False, keepdb=False
        )
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            yield "throwaway in-memory SQLite database"
        else:
            yield f"throwaway {connection.vendor} database {connection.settings_dict['NAME']}"
    finally:
        if connection.settings_dict["NAME"] != real_name:
            connection.creation.destroy_test_db(real_name, verbosity=max(verbosity - 1, 0))
            connection.close()
        test_settings["NAME"] = saved_test_name


def _choices(scenario: Scenario, gear: dict[str, GearItem]) -> dict:
    """The cleaned data of CharacterForm for a Level 10 character."""
    skills = [f"{VERBS[i % len(VERBS)]} {NOUNS[i % len(NOUNS)]}" for i in range(scenario.skills)]
    wears = scenario.items > 0
    return {
        "level": 10, "xp": 3,
        "name": f"Bench {scenario.label}", "pronouns": "they/them",
        "career": "Grave robber", "quest": "Find the drowned library",
        "origin": "The salt marshes", "template_name": "Human",
        "description": "Quiet, patient, owes money to everyone in the harbour.",
        "skills": skills,
        "armor": gear.get("chain-mail") if wears else None, "armor_coverage": "full",
        "shield": gear.get("shield-medium") if wears else None,
        "coins_cp": 750, "hp_current": None, "wp_current": None,
        "statuses": list(STATUSES[: scenario.statuses]), "poison_buildup": 0,
        "str": 2, "wis": 1, "dex": 2, "agi": 2, "cha": 1, "end": 2,
    }


def _item(character: Character, catalog: GearItem | None, position: int, **extra):
    """A catalog line, or a free-text trinket when the catalog lacks the row."""
    if catalog is None:
        return InventoryItem(character=character, name=f"Trinket {position}", load=0,
                             position=position, **extra)
    return InventoryItem(character=character, catalog_item=catalog, name=catalog.name,
                         kind=catalog.category, position=position, **extra)


def _fill_inventory(character: Character, scenario: Scenario, gear: dict[str, GearItem]):
    """Add InventoryItem rows up to scenario.items; armor and shield came from the service."""
    count = character.items.count()
    missing = scenario.items - count
    if missing <= 0:
        return
    n_containers = max(1, scenario.in_containers // 20) if scenario.in_containers else 0
    containers = InventoryItem.objects.bulk_create(
        _item(character, gear.get(CONTAINERS[i % len(CONTAINERS)]), count + i)
        for i in range(min(n_containers, missing))
    )
    count += len(containers)
    rows = []
    inside = 0
    while count + len(rows) < scenario.items:
        position = count + len(rows)
        if inside < scenario.in_containers and containers:
            slug = SMALL_THINGS[inside % len(SMALL_THINGS)]
            rows.append(_item(character, gear.get(slug), position,
                              container=containers[inside % len(containers)]))
            inside += 1
        else:
            slug = CARRIED[(position - count) % len(CARRIED)]
            rows.append(_item(character, gear.get(slug), position,
                              equipped=position - count < 2))  # the first sword and dagger
    InventoryItem.objects.bulk_create(rows)


def _preview_payload(character: Character, csrf_token: str) -> dict:
    """What the builder form posts while the player types (one XP more), with the
    form's CSRF token."""
    character = EldritchGambitCharacter.objects.with_progress().get(pk=character.pk)
    items = list(character.items.select_related("catalog_item"))
    initial = {
        name: value() if callable(value) else value
        for name, value in initial_from_character(character, items).items()
    }
    initial["xp"] = initial["xp"] + 1
    payload = {"csrfmiddlewaretoken": csrf_token}
    for name, value in initial.items():
        if isinstance(value, list | tuple):
            payload[name] = [str(v) for v in value]
        else:
            payload[name] = "" if value is None else str(value)
    return payload


def _table(headers: list[str], rows: list[list], left: int = 1) -> str:
    """Plain text columns: the first `left` columns left-aligned, numbers right."""
    cells = [headers, *[[str(cell) for cell in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        parts = [cell.ljust(w) if i < left else cell.rjust(w)
                 for i, (cell, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Time the live preview, the character page, the campaign dashboard and the "
        "printed sheet, and count their queries, in a throwaway database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=50,
                            help="Timed requests per endpoint and character (default 50).")
        parser.add_argument("--warmup", type=int, default=5,
                            help="Untimed requests of each kind before timing (default 5).")
        parser.add_argument("--json", action="store_true",
                            help="Print the results as JSON instead of tables.")

    def handle(self, *args, **options):
        requests, warmup = options["requests"], options["warmup"]
        if requests < 1 or warmup < 0:
            raise CommandError("--requests must be at least 1 and --warmup at least 0.")
        verbosity = options["verbosity"]
        with throwaway_database(verbosity) as database, override_settings(
            ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"],
            DEBUG=False,  # as in production: no query log, no template debug data
        ), warnings.catch_warnings():
            # WhiteNoise warns about a missing STATIC_ROOT with DEBUG off; no static
            # file is served here.
            warnings.filterwarnings("ignore", message="No directory at")
            results = self._run(requests, warmup)
        results["database"] = database
        if options["json"]:
            self.stdout.write(json.dumps(self._as_json(results), indent=2))
        else:
            self._print(results, verbosity)

    # Measuring -----------------------------------------------------------------------

    def _run(self, requests: int, warmup: int) -> dict:
        user = get_user_model().objects.create_user(username="bench-player", password=None)
        gear = {g.slug: g for g in GearItem.objects.srd()}
        scenarios = []
        for template in SCENARIOS:
            scenario = replace(template)
            scenario.character = services.character_create(
                owner=user, data=_choices(scenario, gear)
            )
            _fill_inventory(scenario.character, scenario, gear)
            scenarios.append(scenario)

        # CSRF is checked as in production (django.test.Client skips it by default): the
        # builder page gives the browser its CSRF cookie and the form's token.
        client = Client(enforce_csrf_checks=True, raise_request_exception=True)
        client.force_login(user)
        token = self._csrf_token(client, scenarios[0].character)

        series: dict[tuple[str, str], Callable] = {}
        for scenario in scenarios:
            pk = scenario.character.pk
            series[scenario.key, "preview"] = self._post_htmx(
                client, reverse("characters:preview", args=[pk]), scenario.character, token
            )
            series[scenario.key, "detail"] = self._get(client, "characters:detail", pk)

        # The campaign dashboard and its poll (campaigns/systems/eldritch_gambit/bench.py),
        # the user as the Imp.
        dashboards = []
        for template in campaign_bench.DASHBOARD_SIZES:
            size = replace(template)
            size.campaign = campaign_bench.build_campaign(imp=user, size=size)
            for page, send in campaign_bench.dashboard_requests(client, size.campaign).items():
                series[f"campaign-{size.key}", page] = send
            dashboards.append(size)

        # Every other game's builder preview and character page: its typical character.
        games = {}
        for system in systems.all_systems():
            if system.key == systems.ELDRITCH_GAMBIT:
                continue
            make = GAME_CHARACTERS.get(system.key)
            games[system.key] = {"name": system.name, "measured": make is not None}
            if make is None:
                continue
            character = make(user)
            series[f"game-{system.key}", "preview"] = self._post_builder_preview(
                client, character)
            series[f"game-{system.key}", "detail"] = self._get(client, "characters:detail",
                                                               character.pk)

        # Rounds of one request of each series, so that whatever else the machine does
        # weighs on every series alike, in a new order each round: a request is slower
        # after a big one (the caches hold its data), and a fixed order would always put
        # the same request after the 200-item page.
        for _ in range(warmup):
            for send in series.values():
                self._checked(send())
        times: dict[tuple[str, str], list[float]] = {key: [] for key in series}
        order = list(series.items())
        shuffle = random.Random(0).shuffle  # the same orders in every run
        for _ in range(requests):
            shuffle(order)
            for key, send in order:
                started = time.perf_counter()
                response = send()
                times[key].append((time.perf_counter() - started) * 1000)
                self._checked(response)
        measured = {}
        for key, send in series.items():
            # Counted apart from the timed requests: capturing slows every query down.
            origins = QueryOrigins()
            with CaptureQueriesContext(connection) as captured, \
                    connection.execute_wrapper(origins):
                response = self._checked(send())
            measured[key] = Measurement(
                median_ms=statistics.median(times[key]),
                queries=len(captured.captured_queries),
                bytes=len(response.content),
                sql=[q["sql"] for q in captured.captured_queries],
                origins=origins.origins,
            )
        sizes = {
            scenario.key: {
                "scenario": scenario,
                "preview": measured[scenario.key, "preview"],
                "detail": measured[scenario.key, "detail"],
            }
            for scenario in scenarios
        }
        campaigns = {
            size.key: {"size": size, "dashboard": measured[f"campaign-{size.key}", "dashboard"],
                       "poll": measured[f"campaign-{size.key}", "poll"]}
            for size in dashboards
        }
        for key, game in games.items():
            if game["measured"]:
                game["preview"] = measured[f"game-{key}", "preview"]
                game["detail"] = measured[f"game-{key}", "detail"]
        # The printed sheet: one character's PDF and the party pack of the Table of 8.
        printed = print_bench.measure(
            client, next(s for s in dashboards if s.key == "table").campaign, requests, warmup)
        return {"requests": requests, "warmup": warmup, "sizes": sizes,
                "campaigns": campaigns, "games": games, "print": printed}

    @staticmethod
    def _get(client: Client, url_name: str, *args) -> Callable:
        url = reverse(url_name, args=args)
        return lambda: client.get(url)

    @staticmethod
    def _csrf_token(client: Client, character: Character) -> str:
        """Open the builder as the player's browser does: the response sets the CSRF
        cookie in the client, and its form carries the token htmx posts back."""
        page = Command._checked(client.get(reverse("characters:edit", args=[character.pk])))
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
        if not match:
            raise CommandError("The builder page has no CSRF token to post back.")
        return match.group(1)

    @staticmethod
    def _post_htmx(client: Client, url: str, character: Character, token: str) -> Callable:
        """The request htmx sends to the preview while the player types in the builder:
        the whole form, urlencoded, with the form's CSRF token and the one in the
        X-CSRFToken header (hx-headers on <body>)."""
        payload = _preview_payload(character, token)
        headers = {
            "HX-Request": "true",
            "HX-Target": "stats-panel",
            "HX-Trigger": "id_xp",
            "HX-Current-URL": "http://testserver"
            + reverse("characters:edit", args=[character.pk]),
            "X-CSRFToken": token,
        }
        # htmx sends the form urlencoded, as a browser does, not as multipart.
        body = urlencode(payload, doseq=True)
        return lambda: client.post(
            url, body, content_type="application/x-www-form-urlencoded", headers=headers
        )

    @staticmethod
    def _post_builder_preview(client: Client, character: Character) -> Callable:
        """Any game's live preview as htmx sends it: the builder page's preview form with
        every field as the page renders it (its CSRF token too), urlencoded, without the
        Save button."""
        page = Command._checked(client.get(reverse("characters:edit", args=[character.pk])))
        form = next((f for f in forms_of(page.content.decode()) if "/preview/" in f["hx_post"]),
                    None)
        if form is None:
            raise CommandError(f"The builder of {character} has no live preview form.")
        payload = fields_of(form)
        if form.get("button"):
            payload.pop(form["button"][0], None)
        headers = {"HX-Request": "true", "HX-Target": "stats-panel",
                   "X-CSRFToken": payload.get("csrfmiddlewaretoken", "")}
        body = urlencode(payload, doseq=True)
        return lambda: client.post(form["hx_post"], body,
                                   content_type="application/x-www-form-urlencoded",
                                   headers=headers)

    @staticmethod
    def _checked(response):
        if response.status_code != 200:
            raise CommandError(
                f"{response.request['REQUEST_METHOD']} {response.request['PATH_INFO']} "
                f"answered {response.status_code}, not 200."
            )
        return response

    # Reporting -----------------------------------------------------------------------

    def _print(self, results: dict, verbosity: int) -> None:
        timed = results["sizes"][TIMED]
        scenario = timed["scenario"]
        out = self.stdout.write
        out(f"Benchmark: median of {results['requests']} requests after "
            f"{results['warmup']} warm-up, Django {django.get_version()}, "
            f"{results['database']}")
        out(f"Character: {scenario.label} ({scenario.skills} skills, {scenario.items} items, "
            f"{scenario.statuses} statuses)")
        out("")

        def row(name, m: Measurement):
            return [name, f"{m.median_ms:.2f}", m.queries, m.bytes]

        out(_table(
            ["Endpoint", "Median ms", "Queries", "Bytes"],
            [row("POST characters:preview (htmx)", timed["preview"]),
             row("GET characters:detail", timed["detail"])],
        ))
        out("\nBy character size (q: queries per request, B: response bytes; "
            "In bags: items inside a container)")
        out("")
        rows = []
        for size in results["sizes"].values():
            s = size["scenario"]
            rows.append([
                s.label, s.skills, s.items, s.in_containers, s.statuses,
                size["detail"].queries, size["preview"].queries,
                f"{size['detail'].median_ms:.2f}", f"{size['preview'].median_ms:.2f}",
                size["detail"].bytes, size["preview"].bytes,
            ])
        out(_table(
            ["Character", "Skills", "Items", "In bags", "Statuses", "Detail q",
             "Preview q", "Detail ms", "Preview ms", "Detail B", "Preview B"],
            rows,
        ))
        repeats: dict[tuple[str, int, str], dict] = {}
        for size in results["sizes"].values():
            for page in ("preview", "detail"):
                for n, shape, origins in size[page].repeated():
                    seen = repeats.setdefault((page, n, shape), {"sizes": [], "from": set()})
                    seen["sizes"].append(size["scenario"].label)
                    seen["from"].update(origins)
        if repeats:
            out("\nQueries repeated within one request")
            for (page, n, shape), seen in repeats.items():
                out(f"  {page}, {n}x ({', '.join(seen['sizes'])}): {shape}")
                for origin in sorted(seen["from"]):
                    out(f"      from {origin}")
        for page in ("preview", "detail"):
            out(f"\nQueries of one {page} request ({scenario.label})")
            m = timed[page]
            for n, (sql, origin) in enumerate(zip(m.sql, m.origins, strict=True), start=1):
                out(f"  {n}. {origin}")
                if verbosity >= 2:
                    out(f"     {query_shape(sql)}")
        self._print_games(results)
        self._print_campaigns(results, verbosity)
        print_bench.report(out, results["print"], _table)

    def _print_games(self, results: dict) -> None:
        """Every other registered game's builder preview and character page."""
        out = self.stdout.write
        out("\nEvery other game: a typical character's preview (POST characters:preview, "
            "htmx) and page (GET characters:detail)")
        out("")
        rows = []
        for game in results["games"].values():
            if not game["measured"]:
                rows.append([game["name"], "-", "-", "-", "-", "-", "-"])
                continue
            preview, detail = game["preview"], game["detail"]
            rows.append([game["name"], f"{preview.median_ms:.2f}", preview.queries,
                         preview.bytes, f"{detail.median_ms:.2f}", detail.queries,
                         detail.bytes])
        out(_table(["Game", "Preview ms", "Preview q", "Preview B", "Detail ms", "Detail q",
                    "Detail B"], rows))
        missing = [g["name"] for g in results["games"].values() if not g["measured"]]
        if missing:
            out(f"Not measured (no bench character yet): {', '.join(missing)}")

    def _print_campaigns(self, results: dict, verbosity: int) -> None:
        """The campaign dashboard as the Imp opens it, and the party-dashboard partial
        htmx asks for every 5 s while it is open."""
        out = self.stdout.write
        out("\nCampaign dashboard (GET campaigns:detail as the Imp; poll: the htmx request "
            "for the party every 5 s)")
        out("")
        rows = []
        for campaign in results["campaigns"].values():
            size, page, poll = campaign["size"], campaign["dashboard"], campaign["poll"]
            rows.append([size.label, size.characters, size.sessions, page.queries,
                         poll.queries, f"{page.median_ms:.2f}", f"{poll.median_ms:.2f}",
                         page.bytes, poll.bytes])
        out(_table(["Campaign", "Characters", "Sessions", "Page q", "Poll q", "Page ms",
                    "Poll ms", "Page B", "Poll B"], rows))
        table = results["campaigns"]["table"]["dashboard"]
        out(f"\nQueries of one dashboard request ({results['campaigns']['table']['size'].label})")
        for n, (sql, origin) in enumerate(zip(table.sql, table.origins, strict=True), start=1):
            out(f"  {n}. {origin}")
            if verbosity >= 2:
                out(f"     {query_shape(sql)}")

    @staticmethod
    def _as_json(results: dict) -> dict:
        timed = results["sizes"][TIMED]

        def endpoint(m: Measurement) -> dict:
            return {
                **m.as_dict(),
                "query_origins": m.origins,
                "repeated_queries": [{"count": n, "sql": shape, "from": origins}
                                     for n, shape, origins in m.repeated()],
            }

        return {
            "django": django.get_version(),
            "database": results["database"],
            "requests": results["requests"],
            "warmup": results["warmup"],
            "character": TIMED,
            "endpoints": {
                "preview": endpoint(timed["preview"]),
                "detail": endpoint(timed["detail"]),
            },
            "sizes": [
                {
                    **size["scenario"].as_dict(),
                    "detail": endpoint(size["detail"]),
                    "preview": endpoint(size["preview"]),
                }
                for size in results["sizes"].values()
            ],
            "campaigns": [
                {
                    **campaign["size"].as_dict(),
                    "dashboard": endpoint(campaign["dashboard"]),
                    "poll": endpoint(campaign["poll"]),
                }
                for campaign in results["campaigns"].values()
            ],
            "games": [
                {"game": key, "name": game["name"], "measured": game["measured"],
                 **({"preview": endpoint(game["preview"]), "detail": endpoint(game["detail"])}
                    if game["measured"] else {})}
                for key, game in results["games"].items()
            ],
            "print": print_bench.as_json(results["print"]),
        }
