"""The night's clients, for Locust in headless mode (run by campaigns/loadtest/night.py).

Each simulated user is one open browser tab doing one thing on a fixed schedule
(its own pacing: a request every `interval` seconds from its first, sooner never; a slow
answer delays the next, and the requests it crowds out are counted as offered but not
served). The tabs start at random phases of their interval (seeded, so two runs start
alike), as a real night's tabs were opened at different moments, not in lockstep:

- Typist: a player typing in the builder nonstop, a live preview POST every
  TYPING_INTERVAL s (what Chromium sends, measured: tests/browser/test_keystroke.py);
  MettleTypist: the same in METTLE Core's builder (its share of the typists).
- RollLog, Checks: a player on the Checks and Rolls page (its log polls every 2 s;
  a Check or a Roll every 15 s); SheetReader: a player reading a sheet (every 10 s);
  MettleSheetReader: a METTLE Core player reading theirs, on the same schedule.
- Dashboard (every 5 s), SessionLog (every 2 s), Initiative (the player view, every
  2 s), Ritual (the Imp runs the ritual: a step every 10 s): one of each per open table.
- At each open METTLE Core table (LOADTEST_METTLE_TABLES of them; each endpoint named
  "... (METTLE Core)"): MettleDashboard (the Guide's party dashboard, every 5 s),
  MettleGuideScreen (the Guide's screen's party card, every 5 s), MettleSessionLog (the
  session's METTLE roll log, every 2 s), MettleInitiative (a player's live view of the
  fight, every 2 s), MettleChecks (two players on the Play page: the live odds while
  they choose, then the Check, every 15 s).
- At each open Errant table (LOADTEST_ERRANT_TABLES; endpoints "... (Errant)"):
  ErrantSessionLog (the Guide's session roll log, errant_session_log, every 2 s),
  ErrantCompany (the Company page, every 10 s), ErrantTurnLog (the Turn log page's
  poll, `errant_turn_log`, every 3 s as the page's hx-trigger, only when the
  installation has `campaigns:errant_turn_log`: the seed writes
  its URL per table, None when reverse() raised NoReverseMatch, and then the night has
  no such tab), ErrantChecks (two players on the Play page: the live odds, then the
  Check, every 15 s). ErrantTypist and ErrantSheetReader: the builder and the sheet.
- At each open encounter-rules table (LOADTEST_ENCOUNTERS_TABLES; "... (encounters)"):
  EncountersLive (a player's live view of the encounter under way, every 2 s) and
  EncountersTracker (the Guide's tracker page, every 10 s). EncountersTypist and
  EncountersSheetReader: the builder and the sheet.
- SheetPdf, PartyPdf: an Imp downloads a sheet PDF and the party's PDF, every 60 s.
- BarePost, BareGet: the bare view (login required, 2 bytes) on the preview's and the
  polls' schedules.

The environment says how many of each (LOADTEST_TYPISTS in Eldritch Gambit's builder,
LOADTEST_<GAME>_TYPISTS in each other game's; LOADTEST_TABLES of Eldritch Gambit and
LOADTEST_<GAME>_TABLES of each other game; LOADTEST_<GAME>_READERS; LOADTEST_PDFS; GAME
one of METTLE, ERRANT, ENCOUNTERS), where the seeded world and its session cookies
are (LOADTEST_WORLD) and where to write the measurements (LOADTEST_OUT); requests in
the first LOADTEST_WARMUP seconds are not counted.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from collections import defaultdict
from http.cookiejar import Cookie

import gevent
from locust import events, task
from locust.contrib.fasthttp import FastHttpUser

from campaigns.loadtest.night import has_turn_log
from campaigns.loadtest.page_forms import fields_of, forms_of

with open(os.environ["LOADTEST_WORLD"]) as world_file:
    WORLD = json.load(world_file)
TYPISTS = int(os.environ.get("LOADTEST_TYPISTS", "1"))
TABLES = int(os.environ.get("LOADTEST_TABLES", "1"))
METTLE_TYPISTS = int(os.environ.get("LOADTEST_METTLE_TYPISTS", "0"))
METTLE_READERS = int(os.environ.get("LOADTEST_METTLE_READERS", "0"))
METTLE_TABLES = int(os.environ.get("LOADTEST_METTLE_TABLES", "0"))
ERRANT_TYPISTS = int(os.environ.get("LOADTEST_ERRANT_TYPISTS", "0"))
ERRANT_READERS = int(os.environ.get("LOADTEST_ERRANT_READERS", "0"))
ERRANT_TABLES = int(os.environ.get("LOADTEST_ERRANT_TABLES", "0"))
ENCOUNTERS_TYPISTS = int(os.environ.get("LOADTEST_ENCOUNTERS_TYPISTS", "0"))
ENCOUNTERS_READERS = int(os.environ.get("LOADTEST_ENCOUNTERS_READERS", "0"))
ENCOUNTERS_TABLES = int(os.environ.get("LOADTEST_ENCOUNTERS_TABLES", "0"))
ALL_TYPISTS = TYPISTS + METTLE_TYPISTS + ERRANT_TYPISTS + ENCOUNTERS_TYPISTS
ALL_TABLES = TABLES + METTLE_TABLES + ERRANT_TABLES + ENCOUNTERS_TABLES
# Each game's pages are their own endpoints in the report (the generic URLs answer with
# the character's game's builder, preview and sheet): "POST preview (typing, METTLE Core)".
METTLE = "METTLE Core"
ERRANT = "Errant"
ENCOUNTERS = "encounters"
PDFS = int(os.environ.get("LOADTEST_PDFS", "1"))
WARMUP = float(os.environ.get("LOADTEST_WARMUP", "3"))
PLAYERS_AT_TABLE = 2  # per open table: players with the Checks and Rolls page open
BARE_PER_TYPISTS = 10  # one bare POST client per ten typists (at least one)
# The builder sends a preview 60 ms after a keystroke unless another comes first, so a
# player typing nonstop at a human pace (keystrokes about 200 ms apart) sends one preview
# per keystroke: one every 0.22-0.24 s, measured in Chromium by
# tests/browser/test_keystroke.py (with the old 250 ms delay, one every 0.3-0.6 s).
TYPING_INTERVAL = 0.24
HTMX = {"HX-Request": "true"}
# Each tab's phase: where in its interval it starts (at most 2 s in), from a fixed seed.
PHASES = random.Random(0)

started_at = time.monotonic()
samples: dict[str, dict] = defaultdict(lambda: {"ms": [], "cpu": [], "queries": [],
                                                "errors": 0, "error_examples": [],
                                                "offered": 0.0, "not_modified": 0})
user_starts: list[tuple[object, float]] = []
_counters: dict[str, itertools.count] = defaultdict(itertools.count)


def take(kind: str, items: list):
    """The next of `items` for this kind of client, round robin."""
    return items[next(_counters[kind]) % len(items)]


def table_for(kind: str) -> dict:
    return take(kind, WORLD["tables"][:TABLES] or WORLD["tables"])


def mettle_table_for(kind: str) -> dict:
    return take(kind, WORLD["mettle_tables"][:METTLE_TABLES] or WORLD["mettle_tables"])


def game_table_for(game: str, count: int, kind: str) -> dict:
    """One of the step's open tables of `game` ("errant", "encounters"), round robin."""
    return take(kind, WORLD[f"{game}_tables"][:count] or WORLD[f"{game}_tables"])


def game_player(game: str, count: int, kind: str) -> dict:
    """A player seated at one of the step's open tables of `game` (any of the game's
    characters when none are)."""
    players = [p for t in WORLD[f"{game}_tables"][:count] for p in t["players"]]
    return take(kind, players or WORLD[f"{game}_characters"])


def character_of_table(kind: str) -> dict:
    players = [p for t in WORLD["tables"][:TABLES] for p in t["players"]]
    return take(kind, players or WORLD["characters"])


class Client(FastHttpUser):
    """A logged-in browser tab: the account's session and CSRF cookies from the login
    night.py made before the run (one login per account, as a real night has)."""

    abstract = True
    interval = 1.0
    endpoint = ""  # the one endpoint a polling tab requests; "" for mixed tabs
    phased = True  # start at a random moment of the first interval

    def wait_time(self):
        """Seconds until the next request is due: `interval` after the last one was due,
        or now when that moment has passed (a slow answer never earns a burst after it).
        Locust's constant_pacing measures from when each task started instead, and its
        tabs drifted back into step with each other, sending their requests in bursts."""
        now = time.monotonic()
        self.due = max(self.due + self.interval, now)
        return self.due - now

    def start_pacing(self) -> None:
        """The first request is due now; each later one an interval after the last."""
        self.due = time.monotonic()

    def log_in(self, username: str) -> None:
        cookies = WORLD["cookies"][username]
        for name, value in cookies.items():
            self.client.cookiejar.set_cookie(Cookie(
                0, name, value, None, False, "127.0.0.1", False, False, "/", True, False,
                None, False, None, None, {}))
        self.csrf = cookies["csrftoken"]
        if self.phased:
            gevent.sleep(PHASES.uniform(0, min(self.interval, 2.0)))
        self.start_pacing()
        if self.endpoint:
            user_starts.append((self, self.due))

    def get(self, url: str, name: str, htmx: bool = False, expect: str = ""):
        """`expect`: what a 200 answer must contain to count as served."""
        headers = HTMX if htmx else None
        if not expect:
            return self.client.get(url, name=name, headers=headers)
        with self.client.get(url, name=name, headers=headers, catch_response=True) as response:
            expected(response, expect)
            return response

    def poll(self, url: str, name: str, expect: str = "", **headers):
        """An htmx poll as the browser sends it: its XHR goes through the HTTP cache,
        which sends the ETag of the answer it keeps (If-None-Match) and, on a 304,
        hands htmx the kept answer. `expect`: what a 200 must contain (a 304 has no
        body: nothing new)."""
        etags = self.__dict__.setdefault("etags", {})
        sent = {**HTMX, **headers}
        if url in etags:
            sent["If-None-Match"] = etags[url]
        with self.client.get(url, name=name, headers=sent, catch_response=True) as response:
            if expect:
                expected(response, expect)
            if response.status_code == 200 and response.headers.get("ETag"):
                etags[url] = response.headers["ETag"]
            return response

    def post(self, url: str, name: str, data: dict, htmx: bool = True, expect: str = ""):
        """`expect`: what the answer must contain to count as served (an htmx form
        answers 200 with its errors beside the fields, which is no Check rolled)."""
        headers = {"X-CSRFToken": self.csrf, **(HTMX if htmx else {})}
        if not expect:
            return self.client.post(url, name=name, data=data, headers=headers)
        with self.client.post(url, name=name, data=data, headers=headers,
                              catch_response=True) as response:
            expected(response, expect)
            return response


def expected(response, expect: str) -> None:
    """A 200 answer without `expect` in it counts as an error (a page that rendered
    something else: a form's errors, an empty log)."""
    if response.status_code == 200 and expect not in (response.text or ""):
        response.failure(f"{response.status_code} without {expect!r}: "
                         f"{(response.text or '')[:150]}")


class Typist(Client):
    fixed_count = TYPISTS
    interval = TYPING_INTERVAL
    endpoint = "POST preview (typing)"

    def on_start(self):
        who = take("typist", WORLD["characters"])
        self.log_in(who["user"])
        page = self.get(f"/characters/{who['character']}/edit/", "GET builder page")
        form = next(f for f in forms_of(page.text or "") if "/preview/" in f["hx_post"])
        self.url, self.data = form["hx_post"], fields_of(form)
        self.keys = itertools.count()

    @task
    def type_a_key(self):
        n = next(self.keys)
        data = {**self.data, "description": f"Typing, keystroke {n}",
                "str": str(1 + n % 3)}
        self.post(self.url, self.endpoint, data)


class MettleTypist(Client):
    """A player typing nonstop in METTLE Core's builder, on the Typist's schedule: the
    whole form, a Descriptor's text and a pool changed at each keystroke."""

    fixed_count = METTLE_TYPISTS
    interval = TYPING_INTERVAL
    endpoint = f"POST preview (typing, {METTLE})"

    def on_start(self):
        who = take("mettle-typist", WORLD["mettle_characters"])
        self.log_in(who["user"])
        page = self.get(f"/characters/{who['character']}/edit/", f"GET builder page ({METTLE})")
        form = next(f for f in forms_of(page.text or "") if "/preview/" in f["hx_post"])
        self.url, self.data = form["hx_post"], fields_of(form)
        if form.get("button"):  # htmx posts the fields, not a roll button (the builder's)
            self.data.pop(form["button"][0], None)
        self.keys = itertools.count()

    @task
    def type_a_key(self):
        n = next(self.keys)
        data = {**self.data, "concept_descriptor": f"Typing, keystroke {n}",
                "frame": str(1 + n % 5)}
        self.post(self.url, self.endpoint, data)


class BarePost(Client):
    fixed_count = max(1, ALL_TYPISTS // BARE_PER_TYPISTS)
    interval = TYPING_INTERVAL
    endpoint = "POST bare view"

    def on_start(self):
        self.log_in(take("bare-post", WORLD["characters"])["user"])

    @task
    def bare(self):
        self.post("/load/bare/", self.endpoint, {"description": "Typing"})


class BareGet(Client):
    fixed_count = ALL_TABLES  # one per open table, of every game
    interval = 2.0
    endpoint = "GET bare view"

    def on_start(self):
        self.log_in(table_for("bare-get")["imp"])

    @task
    def bare(self):
        self.get("/load/bare/", self.endpoint, htmx=True)


class Dashboard(Client):
    fixed_count = TABLES
    interval = 5.0
    endpoint = "GET dashboard poll"

    def on_start(self):
        self.table = table_for("dashboard")
        self.log_in(self.table["imp"])

    @task
    def dashboard(self):
        url = f"/campaigns/{self.table['campaign']}/"
        self.poll(url, self.endpoint, **{"HX-Target": "party-dashboard", "HX-Current-URL": url})


class SessionLog(Client):
    fixed_count = TABLES
    interval = 2.0
    endpoint = "GET session log poll"

    def on_start(self):
        self.table = table_for("session-log")
        self.log_in(self.table["imp"])

    @task
    def session_log(self):
        # The session the Imp's Ritual tab has reached (it starts new ones).
        number = self.table.get("current", self.table["session"])
        self.poll(f"/campaigns/{self.table['campaign']}/sessions/{number}/log/", self.endpoint)


class Initiative(Client):
    fixed_count = TABLES
    interval = 2.0
    endpoint = "GET initiative poll (player)"

    def on_start(self):
        self.table = table_for("initiative")
        self.log_in(self.table["players"][0]["user"] if self.table["players"]
                    else self.table["imp"])

    @task
    def initiative(self):
        self.poll(f"/campaigns/{self.table['campaign']}/initiative/{self.table['encounter']}/",
                  self.endpoint)


class Ritual(Client):
    """The Imp runs the ritual: the session page, then whatever comes next on it (the
    Highlight of whoever's turn it is, a Quest investment), or the next session."""

    fixed_count = TABLES
    interval = 10.0

    def on_start(self):
        self.table = table_for("ritual")
        self.log_in(self.table["imp"])

    @task
    def step(self):
        campaign = self.table["campaign"]
        number = self.table.get("current", self.table["session"])
        page = self.get(f"/campaigns/{campaign}/sessions/{number}/", "GET session page")
        forms = forms_of(page.text or "")
        for ending, extra in (("/turn/", {"text": "A deed worth telling"}), ("/invest/", {})):
            form = next((f for f in forms if f["action"].endswith(ending)), None)
            if form:
                self.post(form["action"], f"POST ritual {ending.strip('/')}",
                          fields_of(form, **extra), htmx=False)
                return
        sessions = f"/campaigns/{campaign}/sessions/"
        page = self.get(sessions, "GET sessions page")
        form = next((f for f in forms_of(page.text or "")
                     if f["action"] in ("", sessions) and any(
                         name == "highlight_rounds" for name, _ in f["fields"])), None)
        if form is not None:
            started = self.post(sessions, "POST session start", fields_of(form), htmx=False)
            if started.status_code < 400:
                self.table["current"] = number + 1


class RollLog(Client):
    fixed_count = TABLES * PLAYERS_AT_TABLE
    interval = 2.0
    endpoint = "GET roll log poll (player)"

    def on_start(self):
        self.who = character_of_table("roll-log")
        self.log_in(self.who["user"])

    @task
    def roll_log(self):
        self.poll(f"/characters/{self.who['character']}/play/log/", self.endpoint)


class Checks(Client):
    fixed_count = TABLES * PLAYERS_AT_TABLE
    interval = 15.0

    def on_start(self):
        self.who = character_of_table("checks")
        self.log_in(self.who["user"])
        page = self.get(f"/characters/{self.who['character']}/play/", "GET play page")
        forms = forms_of(page.text or "")
        self.check = next(f for f in forms if f["action"].endswith("/play/check/"))
        self.rolls = [f for f in forms if f["action"].endswith("/play/roll/")]
        self.turn = itertools.count()

    @task
    def roll(self):
        if next(self.turn) % 2 == 0 or not self.rolls:
            self.post(self.check["action"], "POST check", fields_of(self.check))
        else:
            form = self.rolls[0]
            self.post(form["action"], "POST roll", fields_of(form))


class SheetReader(Client):
    fixed_count = TABLES
    interval = 10.0
    endpoint = "GET character page"

    def on_start(self):
        self.who = character_of_table("sheet")
        self.log_in(self.who["user"])

    @task
    def read(self):
        self.get(f"/characters/{self.who['character']}/", self.endpoint)


class MettleSheetReader(Client):
    fixed_count = METTLE_READERS
    interval = 10.0
    endpoint = f"GET character page ({METTLE})"

    def on_start(self):
        self.who = take("mettle-sheet", WORLD["mettle_characters"])
        self.log_in(self.who["user"])

    @task
    def read(self):
        self.get(f"/characters/{self.who['character']}/", self.endpoint)


class MettleDashboard(Client):
    """The Guide's party dashboard at a METTLE Core table (the generic campaign page, its
    METTLE party cards)."""

    fixed_count = METTLE_TABLES
    interval = 5.0
    endpoint = f"GET dashboard poll ({METTLE})"

    def on_start(self):
        self.table = mettle_table_for("mettle-dashboard")
        self.log_in(self.table["imp"])

    @task
    def dashboard(self):
        url = f"/campaigns/{self.table['campaign']}/"
        self.poll(url, self.endpoint, **{"HX-Target": "party-dashboard", "HX-Current-URL": url})


class MettleGuideScreen(Client):
    """The Guide's screen, whose party card polls every 5 s (HX-Target: party)."""

    fixed_count = METTLE_TABLES
    interval = 5.0
    endpoint = f"GET Guide's screen poll ({METTLE})"

    def on_start(self):
        self.table = mettle_table_for("mettle-guide")
        self.log_in(self.table["imp"])

    @task
    def party(self):
        url = f"/campaigns/{self.table['campaign']}/guide/"
        self.poll(url, self.endpoint, **{"HX-Target": "party", "HX-Current-URL": url})


class MettleSessionLog(Client):
    """The session's METTLE roll log the Guide keeps open (mettle_session_log)."""

    fixed_count = METTLE_TABLES
    interval = 2.0
    endpoint = f"GET session log poll ({METTLE})"

    def on_start(self):
        self.table = mettle_table_for("mettle-session-log")
        self.log_in(self.table["imp"])

    @task
    def session_log(self):
        self.poll(f"/campaigns/{self.table['campaign']}/sessions/{self.table['session']}"
                  "/mettle-log/", self.endpoint, **{"HX-Target": "session-log"})


class MettleInitiative(Client):
    """A player's live view of the METTLE fight (mettle_initiative, htmx's #live)."""

    fixed_count = METTLE_TABLES
    interval = 2.0
    endpoint = f"GET initiative poll (player, {METTLE})"

    def on_start(self):
        self.table = mettle_table_for("mettle-initiative")
        self.log_in(self.table["players"][0]["user"] if self.table["players"]
                    else self.table["imp"])

    @task
    def initiative(self):
        self.poll(f"/campaigns/{self.table['campaign']}/mettle-initiative/"
                  f"{self.table['encounter']}/", self.endpoint, **{"HX-Target": "live"})


class MettleChecks(Client):
    """A player on METTLE's Play page: while choosing, the live odds (the form's bonus
    dice and Difficulty changed one after the other, a POST each, as the page's
    hx-trigger sends), then the Check; every 15 s."""

    fixed_count = METTLE_TABLES * PLAYERS_AT_TABLE
    interval = 15.0
    # What the player changes before rolling: the bonus dice, then the Difficulty
    # (values of the page's ladder: 1 Routine, 3 Challenging, 6 Daunting).
    CHOICES = ({"bonus": "1"}, {"bonus": "2", "difficulty": "3"}, {"difficulty": "6"})

    def on_start(self):
        players = [p for t in WORLD["mettle_tables"][:METTLE_TABLES] for p in t["players"]]
        self.who = take("mettle-checks", players or WORLD["mettle_characters"])
        self.log_in(self.who["user"])
        page = self.get(f"/characters/{self.who['character']}/mettle/play/",
                        f"GET play page ({METTLE})")
        forms = forms_of(page.text or "")
        self.check = next(f for f in forms if f["action"].endswith("/mettle/play/check/"))
        self.odds_url = self.check["action"].replace("/play/check/", "/play/odds/")

    @task
    def choose_and_roll(self):
        data = fields_of(self.check)  # with a fresh request key, as the page renders it
        for change in self.CHOICES:
            data.update(change)
            self.post(self.odds_url, f"POST check odds ({METTLE})", data,
                      expect='data-odds="success"')
        self.post(self.check["action"], f"POST check ({METTLE})", data,
                  expect='id="check-result"')


class GameTypist(Client):
    """A player typing nonstop in another game's builder, on the Typist's schedule: the
    whole form (htmx posts the fields, not the builder's Save button), a text and a
    number changed at each keystroke; an answer without the preview's numbers counts as
    an error."""

    abstract = True
    interval = TYPING_INTERVAL
    game = ""
    label = ""

    def on_start(self):
        who = take(f"{self.game}-typist", WORLD[f"{self.game}_characters"])
        self.log_in(who["user"])
        page = self.get(f"/characters/{who['character']}/edit/",
                        f"GET builder page ({self.label})")
        form = next(f for f in forms_of(page.text or "") if "/preview/" in f["hx_post"])
        self.url, self.data = form["hx_post"], fields_of(form)
        if form.get("button"):
            self.data.pop(form["button"][0], None)
        self.keys = itertools.count()

    def keystroke(self, n: int) -> dict:
        raise NotImplementedError

    @task
    def type_a_key(self):
        n = next(self.keys)
        self.post(self.url, self.endpoint, {**self.data, **self.keystroke(n)},
                  expect='id="stats-panel"')


class ErrantTypist(GameTypist):
    """Errant's builder: the Keepsake typed, the Exhaustion changed (the numbers move)."""

    fixed_count = ERRANT_TYPISTS
    endpoint = f"POST preview (typing, {ERRANT})"
    game, label = "errant", ERRANT

    def keystroke(self, n: int) -> dict:
        return {"keepsake": f"Typing, keystroke {n}", "exhaustion": str(n % 3)}


class EncountersTypist(GameTypist):
    """The encounter rules' builder: the name typed, Quickness changed."""

    fixed_count = ENCOUNTERS_TYPISTS
    endpoint = f"POST preview (typing, {ENCOUNTERS})"
    game, label = "encounters", ENCOUNTERS

    def keystroke(self, n: int) -> dict:
        return {"name": f"Typing, keystroke {n}", "quickness": str(1 + n % 5)}


class GameSheetReader(Client):
    """A player of another game reading their sheet (every 10 s, as SheetReader)."""

    abstract = True
    interval = 10.0
    game = ""
    expect = ""

    def on_start(self):
        self.who = take(f"{self.game}-sheet", WORLD[f"{self.game}_characters"])
        self.log_in(self.who["user"])

    @task
    def read(self):
        self.get(f"/characters/{self.who['character']}/", self.endpoint, expect=self.expect)


class ErrantSheetReader(GameSheetReader):
    fixed_count = ERRANT_READERS
    endpoint = f"GET character page ({ERRANT})"
    game, expect = "errant", 'id="errant-sheet"'


class EncountersSheetReader(GameSheetReader):
    fixed_count = ENCOUNTERS_READERS
    endpoint = f"GET character page ({ENCOUNTERS})"
    game, expect = "encounters", 'data-stat="stamina_max"'


class ErrantSessionLog(Client):
    """The session's Errant roll log the Guide keeps open (errant_session_log)."""

    fixed_count = ERRANT_TABLES
    interval = 2.0
    endpoint = f"GET session log poll ({ERRANT})"

    def on_start(self):
        self.table = game_table_for("errant", ERRANT_TABLES, "errant-session-log")
        self.log_in(self.table["imp"])

    @task
    def session_log(self):
        self.poll(f"/campaigns/{self.table['campaign']}/sessions/{self.table['session']}"
                  "/errant-log/", self.endpoint, expect='id="session-log"',
                  **{"HX-Target": "session-log"})


class ErrantCompany(Client):
    """The Company page (roles, marching order, debt, Factions), which the table keeps
    open and reloads: every 10 s."""

    fixed_count = ERRANT_TABLES
    interval = 10.0
    endpoint = f"GET Company page ({ERRANT})"

    def on_start(self):
        self.table = game_table_for("errant", ERRANT_TABLES, "errant-company")
        self.log_in(self.table["imp"])

    @task
    def company(self):
        self.get(f"/campaigns/{self.table['campaign']}/company/", self.endpoint,
                 expect='id="members"')


# The Turn log's page is another part of the Errant table's: the seed writes its URL per
# table when `campaigns:errant_turn_log` (the page's poll) resolves (None on
# NoReverseMatch), and the night
# polls it only then.
HAS_TURN_LOG = has_turn_log(WORLD)


class ErrantTurnLog(Client):
    """The Company's Turn log page's poll (the log alone, conditional: 304 when nothing is
    new), every 3 s as the page's hx-trigger sends it, when the site has it."""

    fixed_count = ERRANT_TABLES if HAS_TURN_LOG else 0
    interval = 3.0
    endpoint = f"GET Turn log poll ({ERRANT})"

    def on_start(self):
        self.table = game_table_for("errant", ERRANT_TABLES, "errant-turns")
        self.log_in(self.table["players"][0]["user"] if self.table["players"]
                    else self.table["imp"])

    @task
    def turns(self):
        self.poll(self.table["turns_url"], self.endpoint)


class ErrantChecks(Client):
    """A player on Errant's Play page: while choosing, the live odds (the DV, then the
    Attribute, then the DV again changed, a POST each, as the page's hx-trigger sends),
    then the d20; every 15 s. An odds answer without the chance of success, or a roll
    answer without its result, counts as an error."""

    fixed_count = ERRANT_TABLES * PLAYERS_AT_TABLE
    interval = 15.0
    CHOICES = ({"dv": "2"}, {"attribute": "skill"}, {"dv": "4"})

    def on_start(self):
        self.who = game_player("errant", ERRANT_TABLES, "errant-checks")
        self.log_in(self.who["user"])
        page = self.get(f"/characters/{self.who['character']}/errant/play/",
                        f"GET play page ({ERRANT})")
        forms = forms_of(page.text or "")
        self.check = next(f for f in forms if f["action"].endswith("/errant/play/roll/"))
        self.odds_url = self.check["action"].replace("/play/roll/", "/play/odds/")

    @task
    def choose_and_roll(self):
        data = fields_of(self.check)  # with a fresh request key, as the page renders it
        for change in self.CHOICES:
            data.update(change)
            self.post(self.odds_url, f"POST check odds ({ERRANT})", data,
                      expect='data-odds="success"')
        self.post(self.check["action"], f"POST check ({ERRANT})", data,
                  expect='id="roll-result"')


class EncountersLive(Client):
    """A player's live view of the encounter under way (htmx's #live, every 2 s)."""

    fixed_count = ENCOUNTERS_TABLES
    interval = 2.0
    endpoint = f"GET encounter poll (player, {ENCOUNTERS})"

    def on_start(self):
        self.table = game_table_for("encounters", ENCOUNTERS_TABLES, "encounters-live")
        self.log_in(self.table["players"][0]["user"] if self.table["players"]
                    else self.table["imp"])

    @task
    def live(self):
        self.poll(f"/campaigns/{self.table['campaign']}/encounters/{self.table['encounter']}/",
                  self.endpoint, expect='id="live"', **{"HX-Target": "live"})


class EncountersTracker(Client):
    """The Guide's tracker page (the board, the forms, the ledger), which every step's
    form reloads: every 10 s."""

    fixed_count = ENCOUNTERS_TABLES
    interval = 10.0
    endpoint = f"GET tracker page ({ENCOUNTERS})"

    def on_start(self):
        self.table = game_table_for("encounters", ENCOUNTERS_TABLES, "encounters-tracker")
        self.log_in(self.table["imp"])

    @task
    def tracker(self):
        self.get(f"/campaigns/{self.table['campaign']}/encounters/{self.table['encounter']}/",
                 self.endpoint, expect='id="board"')


class SheetPdf(Client):
    """The Imp downloads a sheet PDF every minute..."""

    fixed_count = PDFS
    interval = 60.0
    phased = False  # its own start, just after the warm-up
    endpoint = "GET sheet PDF"

    def on_start(self):
        self.table = table_for("sheet-pdf")
        self.log_in(self.table["imp"])
        gevent.sleep(WARMUP + 2)  # the first PDF in the measured window, not the warm-up
        self.start_pacing()

    @task
    def pdf(self):
        who = self.table["players"][0] if self.table["players"] else WORLD["characters"][0]
        self.get(f"/characters/{who['character']}/sheet.pdf", self.endpoint)


class PartyPdf(Client):
    """... and the party's PDF."""

    fixed_count = PDFS
    interval = 60.0
    phased = False  # its own start, just after the warm-up
    endpoint = "GET party PDF"

    def on_start(self):
        self.table = table_for("party-pdf")
        self.log_in(self.table["imp"])
        gevent.sleep(WARMUP + 2)  # the first PDF in the measured window, not the warm-up
        self.start_pacing()

    @task
    def pdf(self):
        self.get(f"/campaigns/{self.table['campaign']}/party.pdf", self.endpoint)


def server_timing(response) -> tuple[float | None, int | None]:
    header = (response.headers.get("Server-Timing") if response is not None else None) or ""
    cpu = queries = None
    for metric in header.split(","):
        name, _, params = metric.strip().partition(";")
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if name == "cpu" and key == "dur":
                cpu = float(value)
            elif name == "queries" and key == "desc":
                queries = int(value.strip('"'))
    return cpu, queries


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, response=None,
               exception=None, **kwargs):
    # A request counts in the window it was sent in (as `offered` counts the schedule's).
    if time.monotonic() - response_time / 1000 - started_at < WARMUP:
        return
    sample = samples[name]
    sample["ms"].append(response_time)
    if exception is not None:
        sample["errors"] += 1
        if len(sample["error_examples"]) < 3:
            sample["error_examples"].append(str(exception)[:200])
        return
    if response is not None and response.status_code == 304:
        sample["not_modified"] += 1
    cpu, queries = server_timing(response)
    if cpu is not None:
        sample["cpu"].append(cpu)
    if queries is not None:
        sample["queries"].append(queries)


@events.test_start.add_listener
def on_test_start(**kwargs):
    global started_at
    started_at = time.monotonic()


@events.quitting.add_listener
def on_quitting(environment, **kwargs):
    """What each polling tab was scheduled to send in the measured window (offered),
    beside what was answered (served), then everything to LOADTEST_OUT."""
    now = time.monotonic()
    window_start = started_at + WARMUP
    for user, since in user_starts:
        seconds = now - max(since, window_start)
        if seconds >= 0:
            # A tab sends at most every `interval`: one at the window's start and one each
            # interval after (never more than that, so served <= offered).
            samples[user.endpoint]["offered"] += seconds // user.interval + 1
    with open(os.environ["LOADTEST_OUT"], "w") as file:
        json.dump({"seconds": now - window_start, "endpoints": samples}, file)
