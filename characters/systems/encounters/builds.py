"""From a stored combatant (or the builder's cleaned data) to the engine's derived view:
the one place the app turns these numbers into a sheet (rules/engine/encounters/sheet.py
computes it), for the builder's preview, the page, Compare, the print and the export.
A character in a campaign is shown with that campaign's settings (the skill roll, the
pace formula, charge momentum); one outside any, with the defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.engine.encounters.sheet import BOUNDS, EncounterSheet, compute_sheet

from .campaign_settings import settings_of


def values_of(character) -> dict[str, int]:
    return {name: getattr(character, name) for name in BOUNDS}


def sheet_from(values: Mapping, campaign=None) -> EncounterSheet:
    return compute_sheet(values, settings_of(campaign))


def sheet_for(character, items: Sequence | None = None) -> EncounterSheet:
    """The combatant's sheet (GameSystem.sheet); its inventory lines are not read."""
    campaign = character.campaign if character.campaign_id else None
    return sheet_from(values_of(character), campaign)
