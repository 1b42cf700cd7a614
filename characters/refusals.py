"""The one shape of a refused action, shared by every service that refuses one."""

from __future__ import annotations


class Refusal(Exception):
    """A refused action: a message for the table, a stable code, and the form field it
    belongs to (None: the action as a whole). Views show the message beside that field."""

    def __init__(self, message: str, code: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field

    def __str__(self) -> str:
        return self.message
