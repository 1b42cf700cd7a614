"""METTLE Core's character package: the second game system (seed 001 and the companion
SRD in ../shared/srd/mettle-core/, CC BY 4.0)."""
from django.apps import AppConfig

from rules import systems
from rules.engine.mettle.data import ATTRIBUTION

KEY = "mettle-core"
NAME = "METTLE Core"
# The attribution the SRD asks for, on every sheet (the generic system line).
LICENCE = f"{ATTRIBUTION} (CC BY 4.0)"


class MettleConfig(AppConfig):
    name = "characters.systems.mettle"
    label = "mettle"
    verbose_name = "METTLE Core"

    def ready(self):
        from . import inventory, pages, services
        from .builds import sheet_for
        from .exchange import EXCHANGE
        from .forms import NEW_CHARACTER_INITIAL, MettleForm, initial_from_character
        from .models import MettleCharacter
        from .printing import TEMPLATE, printed_sheets

        systems.register(systems.GameSystem(
            key=KEY, name=NAME, licence=LICENCE,
            character_model=MettleCharacter, exchange=EXCHANGE,
            form_class=MettleForm,
            new_character_initial=NEW_CHARACTER_INITIAL,
            initial_from_character=initial_from_character,
            sheet=sheet_for,
            summary=pages.summary,
            game_master="Guide",
            create=services.character_create,
            update=services.character_update,
            printed_sheets=printed_sheets,
            templates=systems.SheetTemplates(
                builder="characters/mettle/builder.html",
                detail="characters/mettle/detail.html",
                print=TEMPLATE,
                compare="characters/mettle/compare.html",
            ),
            builder_roll_actions=pages.ROLL_ACTIONS,
            builder_roll=pages.builder_roll,
            # The gear is the generic inventory's, weighed by METTLE's tables; its page
            # (urls.py) and what joining, leaving and duplicating do (inventory.py).
            urls="characters.systems.mettle.urls",
            inventory_url="characters:mettle_inventory",
            stash_loads=inventory.stash_loads,
            duplicated=inventory.duplicated,
            campaign_changed=inventory.campaign_changed,
            # Its campaign side (named, not imported: characters never import campaigns).
            campaign_package="campaigns.systems.mettle",
            # The Highlights at the start of each session after the first; its XP buys
            # nothing by itself (Attribute raises are bought any time).
            ritual="campaigns.systems.mettle.ritual.RITUAL",
            # Viktor, the SRD's example character, for the demo player (manage.py seed_demo).
            demo="characters.systems.mettle.demo.seed_demo",
        ))
