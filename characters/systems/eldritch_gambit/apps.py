"""Eldritch Gambit's character package: the first game system (seeds 000 and 002, the
companion SRD in ../shared/srd/eldritch-gambit/, CC BY 4.0)."""
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
        from . import pages, printing, selectors, services
        from .builds import sheet_for
        from .campaign_settings import CampaignSettingsForm
        from .exchange import EXCHANGE
        from .forms import NEW_CHARACTER_INITIAL, CharacterForm, initial_from_character
        from .models import EldritchGambitCharacter

        systems.register(systems.GameSystem(
            key=systems.ELDRITCH_GAMBIT, name="Eldritch Gambit", licence=LICENCE,
            character_model=EldritchGambitCharacter, exchange=EXCHANGE,
            form_class=CharacterForm,
            new_character_initial=NEW_CHARACTER_INITIAL,
            initial_from_character=initial_from_character,
            sheet=sheet_for,
            # A line's catalog row (SRD or homebrew): its AP, Load and damage.
            line_related=("catalog_item",),
            summary=pages.summary,
            game_master="Imp",
            # Its standing: the Level the XP bought, and the XP left (the ledgers' sums).
            progress=(("Level", "level_total", "level"), ("XP", "xp_total", "xp")),
            create=services.character_create,
            update=services.character_update,
            printed_sheets=selectors.printed_sheets,
            stash_loads=selectors.stash_loads,
            templates=systems.SheetTemplates(
                builder="characters/character_form.html",
                detail="characters/character_detail.html",
                print=printing.TEMPLATE,
                compare="characters/includes/compare_column.html",
            ),
            builder_roll_actions=pages.ROLL_ACTIONS,
            builder_roll=pages.builder_roll,
            urls="characters.systems.eldritch_gambit.urls",
            inventory_url="characters:inventory",
            # Its Quests, Checks and Rolls and its Initiative tracker, and the campaign and
            # session pages' links to them (campaigns may import characters, not the
            # reverse: named, not imported).
            campaign_package="campaigns.systems.eldritch_gambit",
            # Its ritual after the Highlights (Quest XP) and what its XP buys (Levels).
            ritual="campaigns.systems.eldritch_gambit.ritual.RITUAL",
            # Asphodel, the demo users and the demo campaign (manage.py seed_demo).
            demo="campaigns.systems.eldritch_gambit.demo.seed",
            # A campaign's starting Level.
            campaign_settings_form=CampaignSettingsForm,
        ))
