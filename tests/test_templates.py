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
