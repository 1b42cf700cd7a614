"""Errant's character package: the third game system (seed 003 and the Errant SRD in
../shared/srd/errant/SRD/, CC BY-SA 4.0; its tables ship in rules/engine/errant/data/ with
their ATTRIBUTION.md)."""
from django.apps import AppConfig

from rules import systems
from rules.engine.errant.data import ATTRIBUTION

KEY = "errant"
NAME = "Errant"
# The attribution CC BY-SA 4.0 asks for, on every sheet (the generic system line).
LICENCE = ATTRIBUTION


class ErrantConfig(AppConfig):
    name = "characters.systems.errant"
    label = "errant"
    verbose_name = "Errant"

    def ready(self):
        from . import inventory, pages, services
        from .builds import for_sheets, sheet_for
        from .campaign_settings import CampaignSettingsForm
        from .exchange import EXCHANGE
        from .forms import NEW_CHARACTER_INITIAL, ErrantForm, initial_from_character
        from .models import ErrantCharacter
        from .printing import TEMPLATE, printed_sheets

        systems.register(systems.GameSystem(
            key=KEY, name=NAME, licence=LICENCE,
            character_model=ErrantCharacter, exchange=EXCHANGE,
            form_class=ErrantForm,
            new_character_initial=NEW_CHARACTER_INITIAL,
            initial_from_character=initial_from_character,
            sheet=sheet_for,
            for_sheets=for_sheets,
            line_related=("errant_item",),
            summary=pages.summary,
            game_master="Guide",
            # The Settlement where the Company is (its tier): the market's default.
            campaign_settings_form=CampaignSettingsForm,
            create=services.character_create,
            update=services.character_update,
            printed_sheets=printed_sheets,
            templates=systems.SheetTemplates(
                builder="characters/errant/builder.html",
                detail="characters/errant/detail.html",
                print=TEMPLATE,
                compare="characters/errant/compare.html",
            ),
            builder_roll_actions=pages.ROLL_ACTIONS,
            builder_roll=pages.builder_roll,
            # Moving an item between hand, handy, worn and the containers (one action),
            # buying and selling (urls.py); the gear is the generic inventory's, in Item
            # Slots (inventory.py): the stash's slots, a duplicate's and a handed line's
            # ErrantItem rows.
            urls="characters.systems.errant.urls",
            inventory_url="characters:errant_gear",
            stash_loads=inventory.stash_loads,
            stash_unit="Item Slots",
            duplicated=inventory.duplicated,
            lines_handed=inventory.lines_handed,
            # Its campaign side (named, not imported: characters never import campaigns):
            # the Company, XP from money wasted, the Renown raises (errcamp).
            campaign_package="campaigns.systems.errant",
            ritual="campaigns.systems.errant.ritual.RITUAL",
            # Wren for player2, Ash for player1 and the demo Errant campaign (manage.py
            # seed_demo).
            demo="campaigns.systems.errant.demo.seed",
        ))
