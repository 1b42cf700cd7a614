"""Load (or reload) the SRD rules rows from rules/data/<source>/*.json.

Safe to run again: rows are matched on (source, slug) and updated in place. Rows that are
no longer in the files are left alone, since characters may still refer to them.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from rules.loaders import RulesDataError, available_sources, load_source_data
from rules.models import GearItem, Source, Trait


class Command(BaseCommand):
    help = "Create or update the rules rows (sources, gear, Traits) from the JSON data files."

    def add_arguments(self, parser):
        parser.add_argument(
            "sources",
            nargs="*",
            metavar="SOURCE",
            help="Source slugs to load (default: every directory in rules/data/).",
        )

    def handle(self, *args, sources, **options):
        known = available_sources()
        unknown = sorted(set(sources) - set(known))
        if unknown:
            raise CommandError(
                f"No data for {', '.join(unknown)}. Known sources: {', '.join(known)}."
            )
        for slug in sources or known:
            try:
                with transaction.atomic():
                    result = load_source_data(slug, Source=Source, GearItem=GearItem, Trait=Trait)
            except RulesDataError as exc:
                raise CommandError(str(exc)) from exc
            counts = ", ".join(
                f"{name}: {result.created.get(name, 0)} created, "
                f"{result.updated.get(name, 0)} updated"
                for name in ("Source", "GearItem", "Trait")
            )
            self.stdout.write(self.style.SUCCESS(f"{slug} {result.version}: {counts}"))
