"""`manage.py seed_demo`: every game system seeds its own example (GameSystem.demo), and
the command says how to log in and where the demo campaigns are."""

from django.core.management.base import BaseCommand
from django.utils.module_loading import import_string

from rules import systems


class Command(BaseCommand):
    help = ("Create each game system's demo: for Eldritch Gambit the demo Imp, two demo "
            "players, Asphodel and the demo campaign (safe to run again).")

    def handle(self, *args, **options):
        users: dict[str, tuple[str, list[str]]] = {}  # username -> password, what it holds
        campaigns = []
        for system in systems.all_systems():
            demo = import_string(system.demo) if isinstance(system.demo, str) else system.demo
            if demo is None:
                continue
            seeded = demo()
            for username, password, role in seeded.get("users", ()):
                roles = users.setdefault(username, (password, []))[1]
                if role not in roles:
                    roles.append(role)
            campaigns += seeded.get("campaigns", [])
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in as:"))
        for username, (password, roles) in users.items():
            self.stdout.write(f"  {username:<8} password: {password:<20} {'; '.join(roles)}")
        for campaign in campaigns:
            self.stdout.write(f"Demo campaign: {campaign.name} ({campaign.get_absolute_url()})")
