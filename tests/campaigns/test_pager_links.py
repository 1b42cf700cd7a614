"""The pager's links keep the page's other query parameters (the Guide's ?view=player on
an Initiative tracker, another list's page): only the pager's own parameter changes, and
each is escaped in the HTML."""

import re

from django.core.paginator import Paginator
from django.template.loader import render_to_string
from django.test import RequestFactory

from campaigns.paging import Slice


def links(query: str, **context) -> dict[str, str]:
    request = RequestFactory().get("/campaigns/1/initiative/2/" + query)
    html = render_to_string("includes/pager.html", {"request": request, **context})
    return {kind: href.replace("&amp;", "&") for kind, href in
            re.findall(r'data-pager-(\w+) href="([^"]*)"', html)}


def test_a_logs_older_and_newest_keep_the_players_view():
    found = links("?view=player&before=40", log=Slice(rows=[1], older=20, before=40),
                  anchor="#log")
    assert found == {"newest": "/campaigns/1/initiative/2/?view=player#log",
                     "older": "/campaigns/1/initiative/2/?view=player&before=20#log"}


def test_a_logs_links_without_other_parameters_are_as_before():
    found = links("?before=40", log=Slice(rows=[1], older=20, before=40))
    assert found == {"newest": "/campaigns/1/initiative/2/",
                     "older": "/campaigns/1/initiative/2/?before=20"}


def test_numbered_pages_and_a_fold_keep_the_other_lists_pages():
    page = Paginator(range(30), 10).get_page(2)
    found = links("?page=3&gear=2", page=page, param="gear")
    assert found == {"newer": "?page=3&gear=1", "older": "?page=3&gear=3"}
    assert links("?gear=2", fold=5, total=55) == {"all": "?gear=2&lines=all"}


def test_hostile_parameters_are_escaped_not_echoed():
    request = RequestFactory().get("/x/", {"view": '"><script>alert(1)</script>'})
    html = render_to_string("includes/pager.html", {
        "request": request, "log": Slice(rows=[1], older=20, before=40)})
    assert "<script>" not in html and "%3Cscript%3E" in html
