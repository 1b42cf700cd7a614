"""A page's forms as a browser would submit them (standard library only): the load
benchmark's clients (locustfile.py, which Locust imports with the project folder on
sys.path) and `manage.py bench` read the builder's and the Play pages' forms with it."""

from __future__ import annotations

import uuid
from html.parser import HTMLParser


class Forms(HTMLParser):
    """The forms of a page: each its action and its fields (name, value), as a browser
    would submit them with their first submit button."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action") or a.get("hx-post") or "",
                               "hx_post": a.get("hx-post") or "", "fields": []})
            return
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind in ("submit", "button", "file", "image"):
                return
            fields.append([name, a.get("value") or ("on" if kind == "checkbox" else "")])
        elif tag == "select" and name:
            self._select = name
            fields.append([name, None])
        elif tag == "option" and self._select:
            current = next(f for f in reversed(fields) if f[0] == self._select)
            if current[1] is None or "selected" in a:
                current[1] = a.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            fields.append([name, ""])
        elif tag == "button" and name and not self.forms[-1].get("button"):
            self.forms[-1]["button"] = [name, a.get("value") or ""]

    def handle_data(self, data):
        if self._textarea and self.forms:
            self.forms[-1]["fields"][-1][1] += data

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def forms_of(html: str) -> list[dict]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def fields_of(form: dict, **changes) -> dict:
    data = {}
    for name, value in form["fields"]:
        data.setdefault(name, value or "")
    if form.get("button"):
        data.setdefault(*form["button"])
    if "request_key" in data:
        data["request_key"] = uuid.uuid4().hex
    data.update(changes)
    return data
