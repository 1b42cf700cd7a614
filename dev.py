#!/usr/bin/env python3
"""Developer entry point: one command to run the app, one to test it.

    python3 dev.py demo                 migrate, seed demo data, run the dev server
    python3 dev.py test [pytest args]   ruff, import contracts, then pytest
    python3 dev.py bench                run the benchmarks (manage.py bench)

Standard library only: it creates .venv when missing and installs the project into it,
again only when pyproject.toml has changed since the last install.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".install-stamp"
PYTEST_NO_TESTS_COLLECTED = 5


def say(message: str) -> None:
    print(f"[dev] {message}", flush=True)


def run(args: list[str | Path], env: dict[str, str] | None = None) -> int:
    say("$ " + " ".join(str(a) for a in args))
    return subprocess.call([str(a) for a in args], cwd=ROOT, env=env)


def install_stamp() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> None:
    if not PYTHON.exists():
        say(f"creating {VENV.relative_to(ROOT)} with {sys.executable}")
        try:
            venv.create(VENV, with_pip=True)
        except (subprocess.CalledProcessError, SystemExit):
            # Debian's python3 without python3-venv has no ensurepip: make the venv bare
            # and let this interpreter's pip install into it (pip >= 22.3).
            say("no ensurepip here; creating the venv without pip")
            venv.create(VENV, with_pip=False, clear=True)
    wanted = install_stamp()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    say("installing the project and its test dependencies (new .venv or pyproject.toml changed)")
    has_pip = subprocess.call(
        [str(PYTHON), "-m", "pip", "--version"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if has_pip == 0:
        pip = [PYTHON, "-m", "pip"]
    else:
        pip = [sys.executable, "-m", "pip", "--python", PYTHON]
    if run([*pip, "install", "--quiet", "--disable-pip-version-check", "-e", ".[test]"]) != 0:
        sys.exit("[dev] installing failed; see the pip output above")
    STAMP.write_text(wanted + "\n")


def venv_env(**overrides: str) -> dict[str, str]:
    env = dict(os.environ)
    env["VIRTUAL_ENV"] = str(VENV)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONHOME", None)
    env.update(overrides)
    return env


def manage(*args: str, env: dict[str, str]) -> int:
    return run([PYTHON, "manage.py", *args], env=env)


def has_command(name: str, env: dict[str, str]) -> bool:
    listing = subprocess.run(
        [str(PYTHON), "manage.py", "help", "--commands"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if listing.returncode != 0:
        sys.stderr.write(listing.stderr)
        sys.exit("[dev] manage.py help --commands failed; see above")
    return name in listing.stdout.split()


def cmd_demo(args: list[str]) -> int:
    env = venv_env(DJANGO_SETTINGS_MODULE="config.settings.local")
    if manage("migrate", "--noinput", env=env) != 0:
        return 1
    if has_command("seed_demo", env):
        if manage("seed_demo", env=env) != 0:
            return 1
    else:
        say("note: no seed_demo command yet, starting without demo data")
    address = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
    say(f"the app is at http://{address}/  (Ctrl+C stops it)")
    try:
        return manage("runserver", address, *args, env=env)
    except KeyboardInterrupt:
        return 0


def cmd_test(args: list[str]) -> int:
    env = venv_env()  # pytest's settings come from --ds in pyproject.toml
    steps = [
        ("ruff", [BIN / "ruff", "check", "."]),
        ("import contracts", [BIN / "lint-imports"]),
        ("pytest", [PYTHON, "-m", "pytest", *args]),
    ]
    results = []
    for name, argv in steps:
        started = time.monotonic()
        code = run(argv, env=env)
        seconds = time.monotonic() - started
        if name == "pytest" and code == PYTEST_NO_TESTS_COLLECTED:
            verdict = "FAILED (no tests collected)"
        elif code == 0:
            verdict = "passed"
        else:
            verdict = f"FAILED (exit {code})"
        results.append((name, verdict, seconds))
    database = os.environ.get("DATABASE_URL", "").split("://")[0] or "sqlite"
    print(f"\n[dev] summary (database: {database})")
    for name, verdict, seconds in results:
        print(f"  {name:<18} {verdict:<28} {seconds:6.1f}s")
    failed = [name for name, verdict, _ in results if verdict != "passed"]
    print(f"[dev] {'FAILED: ' + ', '.join(failed) if failed else 'all checks passed'}")
    return 1 if failed else 0


def cmd_bench(args: list[str]) -> int:
    env = venv_env()
    if not has_command("bench", env):
        say("benchmarks are not available yet (no manage.py bench command)")
        return 0
    return manage("bench", *args, env=env)


COMMANDS = {"demo": cmd_demo, "test": cmd_test, "bench": cmd_bench}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip())
        return 2
    ensure_venv()
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
