"""Eldritch Gambit's blank printed sheet, for pencil only (the character's printed sheet
is the generic characters/print_views.py's, through the system's `printed_sheets`)."""

from __future__ import annotations

import functools

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from characters import printing as pipeline

from . import printing


@functools.lru_cache(maxsize=len(pipeline.PAPERS))
def _blank_pdf(paper_key: str) -> bytes:
    html = pipeline.render_html([printing.blank_sheet()], paper=pipeline.PAPERS[paper_key],
                                title="Blank character sheet", template=printing.TEMPLATE)
    return pipeline.render_pdf(html)


@require_GET
def blank_sheet_pdf(request: HttpRequest) -> HttpResponse:
    """A sheet with nothing written on it. Open to anyone (it holds no one's data),
    rendered once per paper size and kept."""
    paper = pipeline.paper_for(request)
    return pipeline.pdf_response(_blank_pdf(paper.key), f"eldritch-gambit-blank-sheet-"
                                                        f"{paper.key}.pdf")
