from django.core.management.base import BaseCommand

from campaigns.demo import seed_demo_campaign
from characters.systems.eldritch_gambit.demo import ASPHODEL, seed_demo


class Command(BaseCommand):
    help = ("Create the demo Imp, two demo players, Asphodel and the demo campaign "
            "(safe to run again).")

    def handle(self, *args, **options):
        users = seed_demo()
        campaign = seed_demo_campaign(asphodel_name=ASPHODEL["name"])
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in as:"))
        for username, password, role in users:
            self.stdout.write(f"  {username:<8} password: {password:<20} {role}")
        if campaign is not None:
            self.stdout.write(f"Demo campaign: {campaign.name} ({campaign.get_absolute_url()})")
