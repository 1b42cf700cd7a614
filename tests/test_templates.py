"""Template hygiene that Django does not check itself."""

from pathlib import Path

import pytest

TEMPLATES = sorted((Path(__file__).resolve().parents[1] / "templates").rglob("*.html"))


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_no_comment_spans_lines(template):
    """A {# #} comment must open and close on one line; otherwise Django prints it
    on the page as text (use {% comment %} for longer ones)."""
    for number, line in enumerate(template.read_text().splitlines(), start=1):
        opened = line.count("{#")
        assert opened == line.count("#}"), f"{template.name}:{number}: {line.strip()}"


INLINE = [
    ("an inline style attribute", r"\sstyle\s*="),
    ("an event handler attribute", r"\son[a-z]+\s*=\s*[\"']"),
    ("a javascript: URL", r"javascript:"),
]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_nothing_inline_that_the_csp_refuses(template):
    """The Content-Security-Policy allows no inline script or style (config/settings):
    scripts and styles come from static files, one-off looks are classes in app.css."""
    import re

    text = template.read_text()
    for what, pattern in INLINE:
        match = re.search(pattern, text, flags=re.IGNORECASE)
        assert not match, f"{template.name} has {what}: {match.group(0)!r}"
    for tag in re.findall(r"<script\b[^>]*>", text, flags=re.IGNORECASE):
        assert "src=" in tag, f"{template.name} has an inline <script>: {tag}"
    for tag in re.findall(r"<style\b[^>]*>", text, flags=re.IGNORECASE):
        # Only the print view's per-request @page rule, with the request's nonce.
        assert template.name == "base_print.html" and "csp_nonce" in tag, (
            f"{template.name} has a <style> element: {tag}")
