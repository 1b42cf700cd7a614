"""`manage.py seed_demo`: every game system seeds its own example (GameSystem.demo), and
the command says how to log in and where the demo campaigns are."""

from django.core.management.base import BaseCommand
from django.utils.module_loading import import_string

from rules import systems


class Command(BaseCommand):
    help = ("Create each game system's demo: for Eldritch Gambit the demo Imp, two demo "
            "players, Asphodel and the demo campaign (safe to run again).")

    def handle(self, *args, **options):
        users, campaigns = [], []
        for system in systems.all_systems():
            demo = import_string(system.demo) if isinstance(system.demo, str) else system.demo
            if demo is None:
                continue
            seeded = demo()
            users += [user for user in seeded.get("users", ()) if user not in users]
            campaigns += seeded.get("campaigns", [])
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in as:"))
        for username, password, role in users:
            self.stdout.write(f"  {username:<8} password: {password:<20} {role}")
        for campaign in campaigns:
            self.stdout.write(f"Demo campaign: {campaign.name} ({campaign.get_absolute_url()})")
