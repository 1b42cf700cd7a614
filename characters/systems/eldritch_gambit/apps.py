from django.apps import AppConfig

from rules import systems

# The attribution the SRD asks for (../shared/srd/eldritch-gambit/SOURCE-AND-LICENSE.md).
LICENCE = ("Based on Eldritch Gambit, a product of Planarian Games, by Jake Eldritch; "
           "CC BY 4.0 (http://creativecommons.org/licenses/by/4.0/)")


class EldritchGambitConfig(AppConfig):
    name = "characters.systems.eldritch_gambit"
    label = "eldritch_gambit"
    verbose_name = "Eldritch Gambit"

    def ready(self):
        from .models import EldritchGambitCharacter

        systems.register(systems.GameSystem(
            key=systems.ELDRITCH_GAMBIT, name="Eldritch Gambit", licence=LICENCE,
            character_model=EldritchGambitCharacter,
        ))
