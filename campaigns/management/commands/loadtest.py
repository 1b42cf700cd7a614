"""`manage.py loadtest`: the load benchmark (README, "Load benchmark"; issue #12).

A game night against the production server on a throwaway database, in steps of more
typing players and open tables, until a step has an endpoint with p99 over 100 ms or an
error. It measures and prints; it changes nothing outside its own database and server.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaigns.loadtest import night
from campaigns.loadtest.seed import Sizes


class Command(BaseCommand):
    help = ("Drive a game night with Locust against the production server on a throwaway, "
            "seeded database (PostgreSQL when DATABASE_URL names one, else SQLite), step by "
            "step, and print per endpoint latency, errors, server CPU and queries beside a "
            "bare view's, and the largest step held with every p99 under 100 ms.")

    def add_arguments(self, parser):
        sizes, ramp = Sizes(), night.Ramp()
        seeded = parser.add_argument_group("the seeded installation")
        seeded.add_argument("--users", type=int, default=sizes.users)
        seeded.add_argument("--characters", type=int, default=sizes.characters)
        seeded.add_argument("--items-min", type=int, default=sizes.items_min)
        seeded.add_argument("--items-max", type=int, default=sizes.items_max)
        seeded.add_argument("--campaigns", type=int, default=sizes.campaigns)
        seeded.add_argument("--party", type=int, default=sizes.party,
                            help="characters per campaign")
        seeded.add_argument("--sessions", type=int, default=sizes.sessions,
                            help="sessions per campaign, each with its ritual and rolls")
        seeded.add_argument("--rolls-per-session", type=int, default=sizes.rolls_per_session)
        seeded.add_argument("--rolls-tonight", type=int, default=sizes.rolls_tonight,
                            help="rolls already in the log of the session under way")
        seeded.add_argument("--mettle-share", type=float, default=sizes.mettle_share,
                            help="the share of the characters and of the campaigns that "
                                 "are METTLE Core's (the night's typists, sheet readers and "
                                 "open tables follow each game's share; default "
                                 "%(default)s)")
        seeded.add_argument("--errant-share", type=float, default=sizes.errant_share,
                            help="the share that are Errant's (default %(default)s)")
        seeded.add_argument("--encounters-share", type=float, default=sizes.encounters_share,
                            help="the share that are the seed-004 encounter rules' "
                                 "(default %(default)s); with 4 campaigns or more every "
                                 "game has at least one")
        steps = parser.add_argument_group("the ramp")
        steps.add_argument("--step-typists", type=int, default=ramp.typists,
                           help="typing players added at each step")
        steps.add_argument("--step-tables", type=int, default=ramp.tables,
                           help="open tables added at each step")
        steps.add_argument("--steps", type=int, default=ramp.steps, help="at most")
        steps.add_argument("--step-seconds", type=int, default=ramp.seconds,
                           help="measured per step, after the warm-up")
        steps.add_argument("--warmup", type=int, default=ramp.warmup,
                           help="seconds of each step not measured")
        steps.add_argument("--pdfs", type=int, default=ramp.pdfs,
                           help="Imps downloading a sheet PDF and their party's PDF every 60 s")
        parser.add_argument("--workers", type=int, default=None,
                            help="gunicorn workers (default: as the README's command runs)")
        parser.add_argument(
            "--seed-cache", default=str(night.DEFAULT_SEED_CACHE),
            help="SQLite only: keep a copy of the seeded database here and reuse it for the "
                 "same sizes, migrations and seed code ('' for none; default %(default)s)")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, **options):
        sizes = Sizes(**{field: options[field] for field in Sizes().__dict__})
        ramp = night.Ramp(typists=options["step_typists"], tables=options["step_tables"],
                          steps=options["steps"], seconds=options["step_seconds"],
                          warmup=options["warmup"], pdfs=options["pdfs"])
        if min(sizes.users, sizes.characters, sizes.campaigns, sizes.party) < 1:
            raise CommandError("Seed at least one user, character, campaign and party member.")
        shares = (sizes.mettle_share, sizes.errant_share, sizes.encounters_share)
        if not all(0 <= share < 1 for share in shares) or sum(shares) >= 1:
            raise CommandError("--mettle-share, --errant-share and --encounters-share are "
                               "shares from 0 to under 1, together under 1: the campaigns' "
                               "tables need Eldritch Gambit characters.")
        cache = Path(options["seed_cache"]) if options["seed_cache"] else None
        try:
            result = night.game_night(database_url=os.environ.get("DATABASE_URL", ""),
                                      sizes=sizes, ramp=ramp, workers=options["workers"],
                                      seed_cache=cache)
        except RuntimeError as error:
            raise CommandError(str(error)) from error
        except KeyboardInterrupt:
            raise CommandError("Interrupted; the database and the server are gone.") from None
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2))
        else:
            self.stdout.write(night.report(result))
