"""manage.py import_character FILE --owner USERNAME: a new character, of any installed
game system, from exchange JSON; prints only its id."""

import sys

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from characters import exchange


class Command(BaseCommand):
    @property
    def help(self):
        return (
            "Import a character of any installed game system from exchange JSON (README.md, "
            "'Exchange format') for a user; the file's format names its system "
            f"({exchange.formats_listed()}). Print the new character's id."
        )

    def add_arguments(self, parser):
        parser.add_argument("file", help='The JSON file, or "-" to read standard input.')
        parser.add_argument("--owner", required=True, help="The username of the new owner.")

    def handle(self, *args, **options):
        User = get_user_model()
        try:
            owner = User.objects.get(**{User.USERNAME_FIELD: options["owner"]})
        except User.DoesNotExist:
            raise CommandError(f"No user has the username {options['owner']!r}.") from None
        raw = self._read(options["file"], options.get("stdin") or sys.stdin)
        try:
            character = exchange.character_import(owner=owner, data=exchange.parse(raw))
        except ValidationError as error:
            problems = "\n".join(error.messages)
            raise CommandError(f"The file was not imported:\n{problems}") from None
        self.stdout.write(str(character.pk))

    def _read(self, path: str, stdin) -> bytes | str:
        """At most one byte over the limit, so parse can refuse a larger file."""
        if path == "-":
            stream = getattr(stdin, "buffer", stdin)
            return stream.read(exchange.MAX_BYTES + 1)
        try:
            with open(path, "rb") as file:
                return file.read(exchange.MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.") from None
