"""The load benchmark's run: a throwaway database, seeded; the production server on it;
a step ramp of game nights driven by Locust; the report.

Everything it starts it stops, and the database it makes it drops, on success, error or
Ctrl-C (the context managers below). Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from http.cookiejar import CookieJar
from pathlib import Path

from .seed import Sizes

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
LOCUSTFILE = Path(__file__).with_name("locustfile.py")
P99_LIMIT_MS = 100.0
DEFAULT_SEED_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / \
    "eldritch-table-loadtest"
# PDFs take longer than any page by design (WeasyPrint); the ramp's p99 limit is for the
# rest. They are measured and shown all the same, and their errors count.
NOT_HELD_TO_LIMIT = ("GET sheet PDF", "GET party PDF")


@dataclass(frozen=True)
class Ramp:
    typists: int = 10  # added at each step
    tables: int = 2  # added at each step
    steps: int = 10
    seconds: int = 40  # measured at each step, after the warm-up
    warmup: int = 8
    pdfs: int = 1  # Imps downloading a sheet PDF and their party's PDF every 60 s


def say(message: str) -> None:
    print(f"[loadtest] {message}", file=sys.stderr, flush=True)


def run(args: list, env: dict, what: str) -> None:
    result = subprocess.run([str(a) for a in args], cwd=ROOT, env=env, capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{what} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")


@contextmanager
def stopped_on_sigterm() -> Iterator[None]:
    """SIGTERM unwinds like Ctrl-C, so the cleanups below run."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def throwaway_database(database_url: str, workdir: Path) -> Iterator[str]:
    """A fresh database for the run: `load_<random>` on the PostgreSQL server
    DATABASE_URL names (created, then dropped), else a SQLite file in `workdir`."""
    url = urllib.parse.urlsplit(database_url)
    if not url.scheme.startswith("postgres"):
        yield f"sqlite:///{workdir / 'load.sqlite3'}"
        return
    import psycopg

    name = f"load_{secrets.token_hex(6)}"
    server = urllib.parse.urlunsplit(url._replace(path="/postgres"))
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    say(f"created PostgreSQL database {name}")
    try:
        yield urllib.parse.urlunsplit(url._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        say(f"dropped {name}")


def production_env(database_url: str, workdir: Path) -> dict[str, str]:
    """The environment the README's production section asks for, for plain HTTP on
    127.0.0.1 (no secure cookies, no HTTPS redirect), with the load benchmark's timing
    header and bare view switched on (LOAD_BENCH)."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DJANGO_", "SECURE_", "PYTEST", "LOADTEST_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production", DATABASE_URL=database_url,
        SECRET_KEY=secrets.token_urlsafe(50), DEBUG="false", ALLOWED_HOSTS="127.0.0.1",
        SECURE_COOKIES="false", SECURE_SSL_REDIRECT="false", LOAD_BENCH="true",
        MEDIA_ROOT=str(workdir / "media"), PDF_CACHE_DIR=str(workdir / "pdf-cache"),
        LOG_LEVEL="ERROR", PYTHONUNBUFFERED="1",
    )
    return env


def prepare(env: dict, sizes: Sizes, world: Path, cache: Path | None) -> None:
    """`migrate` and `collectstatic` as the README's production steps, then the seed;
    with SQLite and a `cache` directory, a copy of the seeded database made earlier for
    the same sizes, migrations and seed code (seeding through the services takes minutes)."""
    started = time.monotonic()
    database = Path(env["DATABASE_URL"].removeprefix("sqlite:///"))
    if env["DATABASE_URL"].startswith("postgres"):
        cache = None
    cached = cache / seed_key(sizes) if cache else None
    if cached and (cached / "world.json").exists():
        shutil.copyfile(cached / "load.sqlite3", database)
        shutil.copyfile(cached / "world.json", world)
        say(f"using the seeded database cached in {cached}")
    run([sys.executable, "manage.py", "migrate", "--noinput"], env, "migrate")
    run([sys.executable, "manage.py", "collectstatic", "--noinput"], env, "collectstatic")
    say(f"migrated and collected static files in {time.monotonic() - started:.0f} s")
    if world.exists():
        return
    say(f"seeding {sizes}")
    args = [f"--{k.replace('_', '-')}={v}" for k, v in asdict(sizes).items()]
    process = subprocess.run([sys.executable, "-m", "campaigns.loadtest.seed", world, *args],
                             cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    if process.returncode != 0:
        raise RuntimeError(f"seeding failed:\n{process.stderr[-4000:]}")
    say(process.stderr.strip().replace("\n", "; "))
    if cached:
        cached.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(database, cached / "load.sqlite3")
        shutil.copyfile(world, cached / "world.json")  # last: it marks the copy complete


def seed_key(sizes: Sizes) -> str:
    """What the seeded database depends on: the sizes, the seed code, the services it
    writes through (each game's character services, inventories and builds, the
    campaigns' and all their systems' modules: Errant's Turn log and Company, the
    encounter tracker; the rules engines whose kits, dice and tables they use, and the
    URLconfs that say whether the Errant Turn log exists), the migrations."""
    digest = hashlib.sha256(repr(asdict(sizes)).encode())
    for path in sorted([Path(__file__).with_name("seed.py"), *ROOT.glob("*/migrations/*.py"),
                        *ROOT.glob("*/*/*/migrations/*.py"),
                        *ROOT.glob("characters/systems/*/services.py"),
                        *ROOT.glob("characters/systems/*/inventory.py"),
                        *ROOT.glob("characters/systems/*/builds.py"),
                        *ROOT.glob("rules/engine/**/*.py"),
                        ROOT / "campaigns" / "services.py",
                        *ROOT.glob("campaigns/systems/*/*.py")]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def production_server(env: dict, workdir: Path, workers: int | None) -> Iterator[dict]:
    """`gunicorn config.wsgi`, as the README runs it (its settings: gunicorn's defaults,
    or gunicorn.conf.py / WEB_CONCURRENCY where the project sets them), bound to a free
    port on 127.0.0.1; `workers` overrides the number of workers."""
    port = free_port()
    command = [BIN / "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    if workers:
        command += ["--workers", str(workers)]
    with open(workdir / "gunicorn.log", "w") as log:  # the child keeps its own handle
        server = subprocess.Popen([str(c) for c in command], cwd=ROOT, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, server, workdir / "gunicorn.log")
        say(f"server up: {' '.join(str(c.name if isinstance(c, Path) else c) for c in command)}")
        yield {"url": base, "command": ["gunicorn", *[str(c) for c in command[1:]]],
               "log": workdir / "gunicorn.log"}
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def wait_until_up(base: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(f"{base}/accounts/login/", timeout=5).read()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer in 60 s:\n{log.read_text()[-3000:]}")


def log_in(base: str, username: str, password: str) -> dict[str, str]:
    """Log in through the login page as a browser does; the session and CSRF cookies."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{base}/accounts/login/", timeout=30).read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    body = urllib.parse.urlencode({"username": username, "password": password,
                                   "csrfmiddlewaretoken": token}).encode()
    opener.open(f"{base}/accounts/login/", body, timeout=30).read()
    cookies = {c.name: c.value for c in jar}
    if "sessionid" not in cookies:
        raise RuntimeError(f"could not log in as {username}")
    return cookies


def log_in_everyone(base: str, world: Path) -> None:
    """One login per account before the night, as players log in once; the simulated
    tabs share their account's cookies."""
    data = json.loads(world.read_text())
    with ThreadPoolExecutor(4) as pool:
        cookies = pool.map(lambda name: (name, log_in(base, name, data["password"])),
                           data["users"])
        data["cookies"] = dict(cookies)
    world.write_text(json.dumps(data))


# The games besides Eldritch Gambit, as the seed names them in the world (their
# `<game>_share`, `<game>_characters`, `<game>_tables`) and the Locust environment
# (LOADTEST_<GAME>_TABLES, _TYPISTS, _READERS).
OTHER_GAMES = ("mettle", "errant", "encounters")
GAME_NAMES = {"eldritch_gambit": "Eldritch Gambit", "mettle": "METTLE Core",
              "errant": "Errant", "encounters": "encounters"}
# The tabs each open table has (locustfile.py): Eldritch Gambit's ten (the bare GET, the
# dashboard, session log, Initiative and ritual tabs, the sheet reader, two players with
# the Checks and Rolls page and its roll log); METTLE Core's seven (the bare GET, the
# Guide's dashboard, screen and session log, a player's Initiative view, two players on
# the Play page); Errant's five (the bare GET, the session log, the Company page, two
# players on the Play page) and its Turn log poll when the site has it; the encounter
# rules' three (the bare GET, a player's live view, the Guide's tracker page).
TABS_PER_TABLE = {"eldritch_gambit": 10, "mettle": 7, "errant": 5, "encounters": 3}


def has_turn_log(world: dict) -> bool:
    """Whether the seeded site has the Errant Turn log's page (the seed wrote its URL
    for every Errant table: `campaigns:errant_turn_log` resolved)."""
    tables = world.get("errant_tables") or []
    return bool(tables) and all(t.get("turns_url") for t in tables)


def run_step(base: str, world: Path, workdir: Path, *, typists: int, tables: int,
             ramp: Ramp) -> dict:
    """One game night of `ramp.seconds` (after the warm-up) with Locust, headless."""
    out = workdir / f"step-{typists}-{tables}.json"
    seeded = json.loads(world.read_text())
    clients = game_clients(seeded, typists=typists, tables=tables)
    split = table_split(seeded, tables)
    env = {**os.environ, "LOADTEST_WORLD": str(world), "LOADTEST_OUT": str(out),
           "LOADTEST_TYPISTS": str(clients["eldritch_gambit"][0]),
           "LOADTEST_TABLES": str(split["eldritch_gambit"]),
           "LOADTEST_PDFS": str(ramp.pdfs), "LOADTEST_WARMUP": str(ramp.warmup)}
    for game in OTHER_GAMES:
        env[f"LOADTEST_{game.upper()}_TABLES"] = str(split[game])
        env[f"LOADTEST_{game.upper()}_TYPISTS"] = str(clients[game][0])
        env[f"LOADTEST_{game.upper()}_READERS"] = str(clients[game][1])
    # Every game's typists and readers, the bare POST clients (one per ten typists), each
    # open table's tabs, two PDF clients per --pdfs: Locust needs that many users for the
    # fixed counts.
    all_typists = sum(typing for typing, _ in clients.values())
    users = (all_typists + max(1, all_typists // 10)
             + sum(readers for _, readers in clients.values())
             + sum(TABS_PER_TABLE[game] * count for game, count in split.items())
             + (split["errant"] if has_turn_log(seeded) else 0) + 2 * ramp.pdfs)
    command = [BIN / "locust", "-f", LOCUSTFILE, "--headless", "--host", base,
               "--users", users, "--spawn-rate", max(users, 1),
               "--run-time", f"{ramp.seconds + ramp.warmup}s", "--stop-timeout", "30",
               "--only-summary", "--loglevel", "WARNING", "--exit-code-on-error", "0"]
    locust = subprocess.Popen([str(c) for c in command], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        _, errors = locust.communicate(timeout=ramp.seconds + ramp.warmup + 120)
    finally:
        if locust.poll() is None:
            os.killpg(locust.pid, signal.SIGKILL)
            locust.wait()
    if not out.exists():
        raise RuntimeError(f"Locust wrote no results:\n{errors[-3000:]}")
    raw = json.loads(out.read_text())
    endpoints = summarise(raw["endpoints"])
    failed = [name for name, e in endpoints.items()
              if e["errors"] or (name not in NOT_HELD_TO_LIMIT and e["p99"] >= P99_LIMIT_MS)]
    return {"typists": typists, "tables": tables, "mettle_tables": split["mettle"],
            "tables_by_game": split, "typists_by_game": {g: c[0] for g, c in clients.items()},
            "turn_log": has_turn_log(seeded),
            "open_tables": sum(split.values()), "seconds": round(raw["seconds"], 1),
            "held": not failed, "over_limit": failed, "endpoints": endpoints}


def share_of(world: dict, game: str, seeded: str) -> float:
    """The seed's share of `game` when it seeded some of it (`seeded`: "characters" or
    "tables"), else 0."""
    return world.get(f"{game}_share", 0) if world.get(f"{game}_{seeded}") else 0


def game_clients(world: dict, *, typists: int, tables: int) -> dict[str, tuple[int, int]]:
    """Per game, how many of the step's players type in its builder and how many read
    their sheets: each other game's share of the typists and of one sheet reader per
    table, at least one each when it has characters, so every game's pages are in every
    night; Eldritch Gambit's typists the rest, at least one (so a step of few typists
    types in every game's builder: more than --step-typists then). Eldritch Gambit's
    sheet readers are its tables' own (SheetReader), not counted here."""
    clients = {}
    for game in OTHER_GAMES:
        share = share_of(world, game, "characters")
        clients[game] = ((max(1, round(typists * share)) if typists else 0,
                          max(1, round(tables * share)) if tables else 0) if share else (0, 0))
    others = sum(typing for typing, _ in clients.values())
    return {"eldritch_gambit": (max(1, typists - others) if typists else 0, 0), **clients}


def table_split(world: dict, tables: int) -> dict[str, int]:
    """The step's open tables by game. Each other game's seeded share of them, at least
    one when its tables were seeded, and at least one Eldritch Gambit's when its were: a
    step of one table opens one of each game's, so that every game's table pages are in
    every night."""
    split = {game: (max(1, round(tables * share_of(world, game, "tables")))
                    if tables and share_of(world, game, "tables") else 0)
             for game in OTHER_GAMES}
    others = sum(split.values())
    eldritch = (max(1, tables - others) if world.get("tables") else 0) if others else tables
    return {"eldritch_gambit": eldritch, **split}


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank percentile of a sorted list."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def summarise(raw: dict) -> dict:
    """Per endpoint: served and offered, latency percentiles, errors, the server's CPU
    and queries per request, and those beside the bare view's (a GET beside the bare
    GET, a POST beside the bare POST)."""
    endpoints = {}
    for name, sample in sorted(raw.items()):
        ms = sorted(sample["ms"])
        cpu, queries = sorted(sample["cpu"]), sample["queries"]
        endpoints[name] = {
            "served": len(ms) - sample["errors"],
            "offered": round(sample["offered"]) if sample["offered"] else None,
            "errors": sample["errors"], "error_examples": sample["error_examples"],
            "not_modified": sample.get("not_modified", 0),  # 304s: a poll found nothing new
            "p50": round(percentile(ms, 50), 1), "p95": round(percentile(ms, 95), 1),
            "p99": round(percentile(ms, 99), 1), "max": round(ms[-1], 1) if ms else 0.0,
            "cpu_ms": round(percentile(cpu, 50), 2) if cpu else None,
            "queries": round(sum(queries) / len(queries), 1) if queries else None,
        }
    for name, e in endpoints.items():
        bare = endpoints.get("POST bare view" if name.startswith("POST") else "GET bare view")
        e["cpu_x_bare"] = (round(e["cpu_ms"] / bare["cpu_ms"], 1)
                           if bare and e["cpu_ms"] and bare["cpu_ms"] else None)
        e["queries_x_bare"] = (round(e["queries"] / bare["queries"], 1)
                               if bare and e["queries"] is not None and bare["queries"]
                               else None)
    return endpoints


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def game_night(*, database_url: str, sizes: Sizes, ramp: Ramp, workers: int | None,
               seed_cache: Path | None = None) -> dict:
    """The whole benchmark; returns its result (night.report prints it)."""
    result = {"database": "postgresql" if database_url.startswith("postgres") else "sqlite",
              "sizes": asdict(sizes), "ramp": asdict(ramp), "cpus": os.cpu_count(),
              "load_before": load_average(), "p99_limit_ms": P99_LIMIT_MS, "steps": []}
    workdir = Path(tempfile.mkdtemp(prefix="loadtest-"))
    try:
        with stopped_on_sigterm(), throwaway_database(database_url, workdir) as database:
            env = production_env(database, workdir)
            world = workdir / "world.json"
            prepare(env, sizes, world, seed_cache)
            with production_server(env, workdir, workers) as server:
                result["server"] = " ".join(server["command"])
                log_in_everyone(server["url"], world)
                for step in range(1, ramp.steps + 1):
                    typists, tables = step * ramp.typists, step * ramp.tables
                    say(f"step {step}: {typists} typing players, {tables} open tables")
                    outcome = run_step(server["url"], world, workdir, typists=typists,
                                       tables=tables, ramp=ramp)
                    result["steps"].append(outcome)
                    if not outcome["held"]:
                        say(f"not held: {', '.join(outcome['over_limit'])}")
                        break
                if any(e["errors"] for s in result["steps"] for e in s["endpoints"].values()):
                    # What the server said about its errors (Django logs them at ERROR).
                    result["server_log_tail"] = server["log"].read_text()[-4000:]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    held = [s for s in result["steps"] if s["held"]]
    result["held"] = ({"typists": held[-1]["typists"], "tables": held[-1]["tables"]}
                      if held else {"typists": 0, "tables": 0})
    result["load_after"] = load_average()
    return result


def report(result: dict) -> str:
    """The result as text: the ramp, then per endpoint the last step held and the
    first that was not."""
    lines = [
        f"Load benchmark: {result['database']}, {result['cpus']} CPUs, "
        f"server `{result.get('server', '?')}`",
        f"Seeded: {result['sizes']}",
        f"Load average before {result['load_before']}, after {result['load_after']}",
        "",
        "Step  Typing  Tables  Open (EG/METTLE/Errant/enc.)  Held  "
        "Over the p99 limit or with errors",
    ]
    for n, step in enumerate(result["steps"], start=1):
        by_game = step.get("tables_by_game") or {"mettle": step.get("mettle_tables", 0)}
        open_tables = (f"{step.get('open_tables', step['tables'])} ("
                       f"{'/'.join(str(by_game.get(g, 0)) for g in GAME_NAMES)})")
        lines.append(f"{n:>4}  {step['typists']:>6}  {step['tables']:>6}  {open_tables:>28}  "
                     f"{'yes' if step['held'] else 'no':>4}  {', '.join(step['over_limit'])}")
    held = result["held"]
    lines += ["", f"Held with every p99 under {result['p99_limit_ms']:.0f} ms and no errors "
              f"(PDFs excepted from the p99 limit): {held['typists']} typing players and "
              f"{held['tables']} open tables."]
    shown = [s for s in result["steps"] if s["held"]][-1:] + \
        [s for s in result["steps"] if not s["held"]][:1]
    for step in shown:
        by_game = step.get("tables_by_game") or {"mettle": step.get("mettle_tables", 0)}
        games = ", ".join(f"{count} {GAME_NAMES[game]}" for game, count in by_game.items()
                          if count)
        lines += ["", f"{step['typists']} typing players, {step['tables']} tables "
                  f"({step.get('open_tables', step['tables'])} open: {games}; "
                  f"{'held' if step['held'] else 'not held'}; {step['seconds']} s measured)",
                  endpoint_table(step["endpoints"])]
    return "\n".join(lines)


def endpoint_table(endpoints: dict) -> str:
    header = ("Endpoint", "Served", "Offered", "Errors", "304s", "p50 ms", "p95 ms", "p99 ms",
              "max ms", "CPU ms", "x bare", "Queries", "x bare")
    rows = [header]
    for name, e in endpoints.items():
        rows.append((name, e["served"], e["offered"] or "-", e["errors"],
                     e.get("not_modified") or "-", e["p50"], e["p95"],
                     e["p99"], e["max"], e["cpu_ms"] if e["cpu_ms"] is not None else "-",
                     e["cpu_x_bare"] or "-",
                     e["queries"] if e["queries"] is not None else "-",
                     e["queries_x_bare"] or "-"))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(header))]
    text = ["  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                      for i, (c, w) in enumerate(zip(row, widths, strict=True)))
            for row in rows]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(text)
