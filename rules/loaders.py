"""Load a source's rules rows from its versioned JSON files in `rules/data/<source>/`.

Used by the data migrations (with the historical models from `apps.get_model`) and by the
`load_rules` command (with the live models), so both write the same rows. Loading is
idempotent: each row is matched on (source, slug) and updated in place.

Each row's keys are the model's field names; a field a row leaves out gets its default, so
the files list only what the tables print. A key the given model does not have is skipped:
an old migration runs with its historical model, and the later migration that adds the
field loads the files again to fill it in. (A test keeps the files and the live models in
step, so a misspelt key does not go unnoticed.)
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"

# The files of a source directory, and the key under which each holds its rows.
SOURCE_FILE = "source.json"
GEAR_FILE = "gear.json"
TRAITS_FILE = "traits.json"


class RulesDataError(ValueError):
    """A data file is missing, malformed, or does not match its source."""


@dataclass
class LoadResult:
    source_slug: str
    version: str
    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)

    def count(self, model_name: str, outcome_created: bool) -> None:
        counts = self.created if outcome_created else self.updated
        counts[model_name] = counts.get(model_name, 0) + 1


def read_data_file(path: Path) -> dict:
    try:
        with path.open(encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, json.JSONDecodeError) as exc:
        raise RulesDataError(f"Cannot read {path}: {exc}") from exc
    if not isinstance(data, dict) or not data.get("version"):
        raise RulesDataError(f'{path} has no "version".')
    return data


def available_sources(data_dir: Path = DATA_DIR) -> list[str]:
    """The slugs of the sources that have data files."""
    return sorted(path.parent.name for path in data_dir.glob(f"*/{SOURCE_FILE}"))


# Fields a row never sets: the key, and the links the loader sets itself.
NOT_FROM_ROWS = {"id", "source", "owner"}


def row_values(model, row: dict) -> dict:
    """The field values of one data row for `model`, with defaults for the fields it omits."""
    values = {}
    for model_field in model._meta.concrete_fields:
        if model_field.name in NOT_FROM_ROWS:
            continue
        if model_field.name in row:
            values[model_field.name] = row[model_field.name]
        else:
            values[model_field.name] = model_field.get_default()
    return values


def _rows(data: dict, key: str, path: Path, source_slug: str) -> list[dict]:
    if data.get("source") != source_slug:
        raise RulesDataError(f'{path} belongs to "{data.get("source")}", not "{source_slug}".')
    rows = data.get(key)
    if not isinstance(rows, list):
        raise RulesDataError(f'{path} has no "{key}" list.')
    slugs = [row.get("slug") for row in rows]
    if not all(slugs) or len(set(slugs)) != len(slugs):
        raise RulesDataError(f"{path}: every row needs a slug, and slugs must be unique.")
    return rows


def load_source_data(
    source_slug: str, *, Source, GearItem, Trait, data_dir: Path = DATA_DIR
) -> LoadResult:
    """Create or update the Source, GearItem and Trait rows of one source directory."""
    directory = data_dir / source_slug
    source_data = read_data_file(directory / SOURCE_FILE)
    source_row = source_data.get("source")
    if not isinstance(source_row, dict) or source_row.get("slug") != source_slug:
        raise RulesDataError(f'{directory / SOURCE_FILE} must describe source "{source_slug}".')
    version = source_data["version"]
    result = LoadResult(source_slug=source_slug, version=version)

    defaults = row_values(Source, source_row)
    defaults.pop("slug")
    source, created = Source.objects.update_or_create(slug=source_slug, defaults=defaults)
    result.count("Source", created)

    for filename, key, model in ((GEAR_FILE, "items", GearItem), (TRAITS_FILE, "traits", Trait)):
        path = directory / filename
        data = read_data_file(path)
        if data["version"] != version:
            raise RulesDataError(
                f"{path} is version {data['version']}, {SOURCE_FILE} is version {version}."
            )
        for row in _rows(data, key, path, source_slug):
            defaults = row_values(model, row)
            slug = defaults.pop("slug")
            _, created = model.objects.update_or_create(
                source=source, slug=slug, defaults={**defaults, "owner": None}
            )
            result.count(model.__name__, created)
    return result


def unload_source_data(source_slug: str, *, Source, GearItem, Trait) -> None:
    """Delete a source and its rows (the reverse of `load_source_data`)."""
    GearItem.objects.filter(source__slug=source_slug).delete()
    Trait.objects.filter(source__slug=source_slug).delete()
    Source.objects.filter(slug=source_slug).delete()
