"""What every game's character sheet answers the same way: a number by its name and the
rule problems by kind or field. A shared mechanism beside the engines (as dice.py and
volleyball.py): each system's CharacterSheet mixes it in over its own `stats` (name ->
Stat with a `value`) and `issues` (each with `is_error` and `field`)."""

from __future__ import annotations


class SheetLookups:
    def __getitem__(self, name: str):
        return self.stats[name]

    def value(self, name: str):
        return self.stats[name].value

    @property
    def errors(self) -> tuple:
        return tuple(issue for issue in self.issues if issue.is_error)

    @property
    def warnings(self) -> tuple:
        return tuple(issue for issue in self.issues if not issue.is_error)

    def issues_for(self, field_name: str) -> tuple:
        return tuple(issue for issue in self.issues if issue.field == field_name)
