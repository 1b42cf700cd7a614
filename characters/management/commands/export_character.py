"""manage.py export_character ID: print a character, of any installed game system, as
exchange JSON."""

from django.core.management.base import BaseCommand, CommandError

from characters import exchange
from characters.models import Character


class Command(BaseCommand):
    @property
    def help(self):
        return (
            "Print a character of any installed game system as JSON in the exchange format "
            "(README.md, 'Exchange format'): the envelope's format and version, then the "
            f"body of its system's format ({exchange.formats_listed()})."
        )

    def add_arguments(self, parser):
        parser.add_argument("id", type=int, help="The character's id.")

    def handle(self, *args, **options):
        character = Character.objects.filter(pk=options["id"]).first()
        if character is None:
            raise CommandError(f"No character has the id {options['id']}.")
        # With its build: the game system's own model.
        character = (character.game_system.character_model.objects.with_progress()
                     .get(pk=character.pk))
        self.stdout.write(exchange.export_json(character))
