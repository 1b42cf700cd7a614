"""Character exchange, the envelope: one JSON file per character, of any game system
(README.md, "Exchange format").

Every file is one JSON object: `{"format": ..., "version": ..., **body}`. This module
owns what every system shares: `parse` (a JSON object of sane size, no key named twice),
the header (`format` names the game system, `version` the version of its body), the
import form, the filename and the JSON writing. The body, every other key, belongs to the
character's game system: `system.exchange` (rules/systems.py), registered by the system's
package, for Eldritch Gambit characters/systems/eldritch_gambit/exchange.py.

A system's exchange is an object with (see `SystemExchange`):
- `format`: the file's format name, its own ("eldritch-gambit-character");
- `version`: the version it writes, and the newest one it reads (from 1);
- `export_body(character) -> dict`: every key of the file but "format" and "version";
- `import_body(*, owner, data, version) -> Character`: a new character from `data`, the
  file's object without "format" and "version", of a `version` from 1 to its own. It
  raises `ExchangeError` listing every problem, each with the key it is about (`Problems`
  collects them), and writes everything in one transaction or nothing.

Import treats the file as untrusted: the envelope refuses what is no JSON object, an
unknown format and a version the system does not read before any body is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from django import forms
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.utils.text import slugify

from rules import systems

MAX_BYTES = 1024 * 1024  # 1 MB: a character with 500 gear items is far smaller
MAX_REPORTED = 20  # problems listed before "... and N more"
HEADER_KEYS = ("format", "version")


class SystemExchange(Protocol):
    """What a game system registers as `GameSystem.exchange`."""

    format: str
    version: int

    def export_body(self, character) -> dict: ...

    def import_body(self, *, owner, data: dict, version: int): ...


class ExchangeError(ValidationError):
    """A refused file: a ValidationError whose messages each start with the key they are
    about ("level: expected a whole number from 1 to 100, got "ten"."), with a code."""


# ---------------------------------------------------------------------------
# Export


def system_exchange(system: systems.GameSystem) -> SystemExchange:
    if system.exchange is None:
        raise ImproperlyConfigured(f"The game system {system.key!r} registers no exchange "
                                   "format (GameSystem.exchange).")
    return system.exchange


def character_export(character) -> dict:
    """The character as its file's object: the header, then its system's body (handed
    the character as its system's model, with its ledger sums)."""
    system = character.game_system
    exchange = system_exchange(system)
    if not isinstance(character, system.character_model):
        character = system.character_model.objects.with_progress().get(pk=character.pk)
    body = exchange.export_body(character)
    clash = set(HEADER_KEYS) & set(body)
    if clash:
        raise ImproperlyConfigured(f"The {exchange.format} body writes {sorted(clash)}, "
                                   "which the envelope writes.")
    return {"format": exchange.format, "version": exchange.version, **body}


def export_json(character) -> str:
    return json.dumps(character_export(character), indent=2, ensure_ascii=False)


def export_filename(character) -> str:
    return f"{slugify(character.name) or f'character-{character.pk}'}.json"


# ---------------------------------------------------------------------------
# Import: parsing


class _NotJson(ValueError):
    pass


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _refuse_constant(name: str):
    raise _NotJson(f"{name} is not a number JSON allows")


def _refuse_duplicates(pairs: list[tuple[str, object]]) -> dict:
    """An object's keys, each once: JSON parsers disagree on which of two wins (Python's
    keeps the last), so a file that names a key twice is ambiguous and refused."""
    data = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


def parse(raw: bytes | str) -> dict:
    """The file's top-level object, or a ValidationError saying why not."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise ExchangeError(
            "The file is over 1 MB (%(max)s bytes), more than any character needs.",
            code="too_large", params={"max": f"{MAX_BYTES:,}"},
        )
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ExchangeError(
                "The file is not UTF-8 text (a character export is JSON text).",
                code="not_text",
            ) from error
    try:
        data = json.loads(raw, parse_constant=_refuse_constant,
                          object_pairs_hook=_refuse_duplicates)
    except json.JSONDecodeError as error:
        raise ExchangeError(
            "The file is not valid JSON: %(problem)s at line %(line)s, column %(column)s.",
            code="not_json",
            params={"problem": error.msg, "line": error.lineno, "column": error.colno},
        ) from error
    except _NotJson as error:
        raise ExchangeError("The file is not valid JSON: %(problem)s.", code="not_json",
                            params={"problem": error}) from error
    except _DuplicateKey as error:
        raise ExchangeError(
            "The file names the key %(key)s twice in one object; keep one of them, so it "
            "is clear which value is meant.", code="duplicate_key",
            params={"key": json.dumps(error.key[:60], ensure_ascii=False)
                    + ("…" if len(error.key) > 60 else "")},
        ) from error
    except (ValueError, RecursionError) as error:
        raise ExchangeError(
            "The file is not valid JSON: it nests too deep or holds a number too long.",
            code="not_json",
        ) from error
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        raise ExchangeError(
            "The file is not valid JSON text: it escapes a lone surrogate (like \\ud800), "
            "which is no character.", code="not_json",
        ) from error
    if not isinstance(data, dict):
        raise ExchangeError(
            "The file holds %(what)s; expected a JSON object ({...}) with a character.",
            code="not_object", params={"what": what(data)},
        )
    return data


# ---------------------------------------------------------------------------
# Import: the header


def _formats() -> dict[str, systems.GameSystem]:
    """Every installed system's format name, each with its system."""
    formats: dict[str, systems.GameSystem] = {}
    for system in systems.all_systems():
        if system.exchange is None:
            continue
        known = formats.setdefault(system.exchange.format, system)
        if known is not system:
            raise ImproperlyConfigured(f"Two game systems, {known.key!r} and {system.key!r}, "
                                       f"register the format {system.exchange.format!r}.")
    return formats


def _listed(formats: Iterable[tuple[str, systems.GameSystem]]) -> str:
    shown = [f"{json.dumps(name)} ({system.name})" for name, system in formats]
    return shown[0] if len(shown) == 1 else "one of " + ", ".join(shown)


def formats_listed() -> str:
    """The installed systems' format names, for a help text: '"x-character" (X), ...'."""
    return ", ".join(f"{json.dumps(name)} ({system.name})"
                     for name, system in sorted(_formats().items()))


def read_header(data: dict) -> tuple[systems.GameSystem, int]:
    """The file's game system and version. Format and version first: for a file no
    installed system reads, nothing else is worth reading."""
    formats = _formats()
    fmt = data.get("format", MISSING)
    system = formats.get(fmt) if isinstance(fmt, str) else None
    if system is None:
        got = "missing" if fmt is MISSING else f"got {what(fmt)}"
        raise ExchangeError(
            "format: expected %(formats)s, %(got)s. Is this a character file exported from "
            "this site?", code="wrong_format",
            params={"formats": _listed(sorted(formats.items())), "got": got},
        )
    newest = system.exchange.version
    version = data.get("version", MISSING)
    if not is_int(version) or version < 1:
        got = "missing" if version is MISSING else f"got {what(version)}"
        raise ExchangeError("version: expected a whole number from 1 to %(max)s, %(got)s.",
                            code="wrong_version", params={"max": newest, "got": got})
    if version > newest:
        raise ExchangeError(
            "version: the file is version %(version)s, newer than this site reads for "
            "%(system)s (versions up to %(max)s).", code="unsupported_version",
            params={"version": what(version), "system": system.name, "max": newest},
        )
    return system, version


def character_import(*, owner, data: dict):
    """A new character for `owner` from a parsed file, by the system its `format` names;
    nothing is written unless every check passes."""
    system, version = read_header(data)
    body = {key: value for key, value in data.items() if key not in HEADER_KEYS}
    return system.exchange.import_body(owner=owner, data=body, version=version)


# ---------------------------------------------------------------------------
# Checking a body: helpers every system's body may use


MISSING: Any = object()


def what(value) -> str:
    """A value as a problem message shows it: its JSON, shortened."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def is_int(value) -> bool:
    # bool is an int in Python; true is not a number in JSON.
    return isinstance(value, int) and not isinstance(value, bool)


class Problems:
    """Problems found in a file, each with the path of its key."""

    def __init__(self):
        self.messages: list[tuple[str, str]] = []

    def __bool__(self) -> bool:
        return bool(self.messages)

    def add(self, path: str, message: str, code: str = "invalid") -> None:
        self.messages.append((f"{path}: {message}" if path else message, code))

    def unknown_keys(self, obj: dict, allowed: frozenset, path: str) -> None:
        for key in sorted(set(obj) - allowed):
            shown = key if len(key) <= 40 else key[:39] + "…"
            where = f"{path}.{shown}" if path else shown
            self.add(where, "unknown key; expected only "
                     + ", ".join(sorted(allowed)) + ".", code="unknown_key")

    def integer(self, obj: dict, key: str, path: str, low: int, high: int, *,
                default=MISSING, nullable: bool = False):
        value = obj.get(key, MISSING)
        if value is MISSING:
            if default is MISSING:
                self.add(path, f"missing; expected a whole number from {low} to {high}.",
                         code="missing")
            return default if default is not MISSING else None
        if value is None and nullable:
            return None
        if not is_int(value):
            either = " or null" if nullable else ""
            self.add(path, f"expected a whole number from {low} to {high}{either}, "
                           f"got {what(value)}.")
            return None
        if not low <= value <= high:
            self.add(path, f"{value} is out of range; expected {low} to {high}.",
                     code="out_of_range")
            return None
        return value

    def boolean(self, obj: dict, key: str, path: str, default: bool = False):
        value = obj.get(key, default)
        if not isinstance(value, bool):
            self.add(path, f"expected true or false, got {what(value)}.")
            return default
        return value

    def text(self, obj: dict, key: str, path: str, max_length: int, *, default: str = "",
             required: bool = False) -> str:
        value = obj.get(key, MISSING)
        if value is MISSING:
            if required:
                self.add(path, f"missing; expected text of up to {max_length} characters.",
                         code="missing")
            return default
        if not isinstance(value, str):
            self.add(path, f"expected text of up to {max_length} characters, "
                           f"got {what(value)}.")
            return default
        value = value.strip()
        if "\x00" in value:
            self.add(path, "contains a null character.")
        elif len(value) > max_length:
            self.add(path, f"{len(value)} characters is too long; the most is {max_length}.",
                     code="too_long")
        elif required and not value:
            self.add(path, "is empty.", code="missing")
        return value

    def choice(self, obj: dict, key: str, path: str, choices, default: str) -> str:
        value = obj.get(key, default)
        if value not in choices:
            self.add(path, f"expected one of {', '.join(choices)}, got {what(value)}.",
                     code="invalid_choice")
            return default
        return value

    def error(self) -> ExchangeError:
        shown = self.messages[:MAX_REPORTED]
        errors = [ValidationError(message, code=code) for message, code in shown]
        if len(self.messages) > MAX_REPORTED:
            errors.append(ValidationError(
                f"... and {len(self.messages) - MAX_REPORTED} more problems.", code="more"))
        return ExchangeError(errors)


# ---------------------------------------------------------------------------
# The import form


class CharacterImportForm(forms.Form):
    """Upload a file or paste its text; the one given is parsed, and `source`
    names its field, where the import's problems are shown."""

    source = "text"

    file = forms.FileField(
        label="Character file", required=False,
        help_text="A .json file exported from this site (at most 1 MB).",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json",
                                               "class": "form-control"}),
    )
    text = forms.CharField(
        label="Or paste the JSON", required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false",
                                     "class": "form-control font-monospace"}),
    )

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        text = cleaned.get("text") or ""
        if upload:
            self.source = "file"
            raw = upload.read(MAX_BYTES + 1)
        elif text.strip():
            self.source = "text"
            raw = text
        else:
            raise ValidationError("Choose a file, or paste the JSON of a character.",
                                  code="empty")
        try:
            cleaned["data"] = parse(raw)
        except ValidationError as error:
            self.add_error(self.source, error)
        return cleaned
