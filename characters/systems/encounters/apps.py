"""The encounter rules of seed 004: the fourth game system (issue #16). The chapter has no
open licence: its mechanics are implemented and described in our own words
(rules/engine/encounters/), and none of its text ships."""
from django.apps import AppConfig

from rules import systems

KEY = "encounters"
NAME = "Encounter rules (seed 004)"
# The credit line on every sheet (the generic system line) and the printed page.
LICENCE = ("mechanics of seed 004's Encounters chapter, described in our own words; "
           "no text reproduced")


class EncountersConfig(AppConfig):
    name = "characters.systems.encounters"
    label = "encounters"
    verbose_name = "Encounter rules (seed 004)"

    def ready(self):
        from . import pages, services
        from .builds import sheet_for
        from .campaign_settings import CampaignSettingsForm
        from .exchange import EXCHANGE
        from .forms import NEW_CHARACTER_INITIAL, EncounterForm, initial_from_character
        from .models import EncounterCharacter
        from .printing import TEMPLATE, printed_sheets

        systems.register(systems.GameSystem(
            key=KEY, name=NAME, licence=LICENCE,
            character_model=EncounterCharacter, exchange=EXCHANGE,
            form_class=EncounterForm,
            new_character_initial=NEW_CHARACTER_INITIAL,
            initial_from_character=initial_from_character,
            sheet=sheet_for,
            summary=pages.summary,
            game_master="Guide",
            create=services.character_create,
            update=services.character_update,
            printed_sheets=printed_sheets,
            templates=systems.SheetTemplates(
                builder="characters/encounters/builder.html",
                detail="characters/encounters/detail.html",
                print=TEMPLATE,
                compare="characters/encounters/compare.html",
            ),
            # Its campaign side: the round-by-round tracker (named, not imported).
            campaign_package="campaigns.systems.encounters",
            # The skill roll, defence counting, charge momentum and pace formula.
            campaign_settings_form=CampaignSettingsForm,
            # Sable for player1, Bram for player2, the demo campaign and its encounter.
            demo="campaigns.systems.encounters.demo.seed",
            # The rules described in our own words, served at /rules/encounters/.
            reference="rules.engine.encounters.reference.reference",
        ))
