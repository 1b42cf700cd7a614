"""Deployment settings: the security headers, and `check --deploy` with production.py."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[1]
# The environment README.md documents for production (HTTPS, HSTS switched on).
DEPLOY_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "SECRET_KEY": "a-long-random-production-key-" + "x7Qp2Lm9Zr4Tv8Wy1Bn6Hc3Jd5Kf0Gs",
    "ALLOWED_HOSTS": "table.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://table.example.org",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
}
# Not from the test run (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE, which --deploy
# rightly refuses), only what DEPLOY_ENV says.
NOT_INHERITED = ("DEBUG", "SECURE_", "BEHIND_PROXY", "DJANGO_", "SECRET_KEY", "LOGIN_")


def check_deploy(**overrides) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(NOT_INHERITED)}
    env.update(DEPLOY_ENV, **overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def test_check_deploy_passes_with_no_warnings():
    result = check_deploy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout, result.stdout + result.stderr


def test_check_deploy_warns_until_hsts_is_switched_on():
    result = check_deploy(SECURE_HSTS_SECONDS="0")
    assert result.returncode != 0
    assert "security.W004" in result.stdout + result.stderr


def production_settings(**env) -> dict:
    """The production settings module's values under `env` (run in a fresh interpreter)."""
    code = ("import json; from django.conf import settings as s; "
            "print(json.dumps({k: getattr(s, k, None) for k in ("
            "'SECURE_PROXY_SSL_HEADER', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', "
            "'SESSION_COOKIE_SECURE')}))")
    base = {k: v for k, v in os.environ.items() if not k.startswith(NOT_INHERITED)}
    base.update(DEPLOY_ENV, **env)
    result = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code],
                            cwd=ROOT, env=base, capture_output=True, text=True, timeout=60,
                            check=True)
    import json

    return json.loads(result.stdout)


def test_the_proxy_header_is_trusted_only_behind_a_proxy():
    assert production_settings()["SECURE_PROXY_SSL_HEADER"] is None
    assert production_settings(BEHIND_PROXY="true")["SECURE_PROXY_SSL_HEADER"] == [
        "HTTP_X_FORWARDED_PROTO", "https"]


def test_ssl_redirect_and_hsts_follow_the_environment():
    values = production_settings(SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="600")
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SECURE_HSTS_SECONDS"] == 600
    assert production_settings()["SECURE_SSL_REDIRECT"] is True


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client):
    policy = client.get(reverse("home"))["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_the_print_views_style_carries_the_headers_nonce(client_logged_in, user):
    import re

    from tests.factories import CharacterFactory

    character = CharacterFactory(owner=user)
    response = client_logged_in.get(reverse("characters:print", args=[character.pk]))
    nonce = re.search(r'<style nonce="([^"]+)">@page', response.content.decode()).group(1)
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]


def test_gunicorn_keeps_threads_free_of_pdfs_and_more_processes_than_cores(settings, monkeypatch):
    """gunicorn.conf.py as the README runs it: more processes than cores (Python runs one
    thread at a time in a process), and the PDF requests one process lets wait for their
    render turn (PDF_REQUESTS_PER_PROCESS) leave some of its threads to serve the rest."""
    import runpy

    for name in ("WEB_CONCURRENCY", "GUNICORN_THREADS", "GUNICORN_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf["worker_class"] == "gthread"
    assert conf["workers"] > (os.cpu_count() or 1)
    assert 0 < settings.PDF_REQUESTS_PER_PROCESS < conf["threads"]
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("GUNICORN_THREADS", "6")
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert (conf["workers"], conf["threads"]) == (3, 6)
