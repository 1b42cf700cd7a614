"""Hostile input, read in one place: ids from URLs and form values, and request keys.

`str.isdigit()` is no test for an id: "²", "①" and "٣" pass it, and `int()` refuses the
first two and reads the third; a digit string over 4,300 characters makes `int()` raise;
a number over 2^63 - 1 overflows SQLite's integer (PostgreSQL answers "not found"). Every
id a request carries goes through `parse_id` (form values, query strings) or `IdConverter`
(URLs, registered as `<id:...>` in config/urls.py), so an unknown or impossible id is
simply not found, the same on both databases.
"""

from django import forms
from django.core.exceptions import BadRequest, ValidationError

# The largest value of a 64-bit signed integer column (SQLite's INTEGER, PostgreSQL's
# bigint): an id beyond it names nothing.
MAX_ID = 2**63 - 1
_MAX_ID_DIGITS = len(str(MAX_ID))

# The length of every `request_key` column (a uuid4 hex is 32 characters).
REQUEST_KEY_LENGTH = 64


def parse_id(value, *, high: int = MAX_ID) -> int | None:
    """`value` (a str or an int) as a whole number from 0 to `high`, or None.

    Only ASCII digits count, at most as many as MAX_ID has: no sign, no spaces, no
    unicode digits, nothing that could overflow a database integer."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and value.isascii() and value.isdigit() \
            and len(value) <= _MAX_ID_DIGITS:
        number = int(value)
    else:
        return None
    return number if 0 <= number <= high else None


def request_key(data, name: str = "request_key") -> str | None:
    """The idempotency key posted as `name` (None when absent or blank).

    The page wrote the key, so a key the column cannot hold (too long, or with a NUL byte)
    is a forged request: a 400, before it reaches the database."""
    return _checked_key(data.get(name) or None, name)


def _checked_key(value: str | None, name: str) -> str | None:
    if value and (len(value) > REQUEST_KEY_LENGTH or "\x00" in value):
        raise BadRequest(f"The form's {name} is not one this site wrote: reload the page.")
    return value


def search_text(value: str | None) -> str:
    """A typed search (`?q=`), stripped. No database stores a NUL byte (PostgreSQL
    refuses one even in a query), and no keyboard types one: a 400."""
    value = (value or "").strip()
    if "\x00" in value:
        raise BadRequest("A search cannot contain a NUL character.")
    return value


class RequestKeyField(forms.CharField):
    """A form's hidden idempotency key; a forged one is a 400, like `request_key()`."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(max_length=REQUEST_KEY_LENGTH, **kwargs)

    def clean(self, value):
        return super().clean(_checked_key(value, "request_key"))


class IdField(forms.CharField):
    """A form's id (hidden or chosen from a list), read by `parse_id`: what is not an id
    is the field's "invalid" error, never an int() exception or an overflowing query."""

    default_error_messages = {"invalid": "Choose one from the list."}

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        number = parse_id(value)
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class IdConverter:
    """`<id:pk>` in a URL: like `<int:pk>`, but a number beyond MAX_ID does not match,
    so it is a 404 on SQLite as it is on PostgreSQL."""

    regex = f"[0-9]{{1,{_MAX_ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(f"{value} is no id")  # the URL does not match: a 404
        return number

    def to_url(self, value) -> str:
        return str(int(value))
