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
        from .builds import for_sheets, sheet_for, xp_earned
        from .campaign_settings import CampaignSettingsForm, join_refusal
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
            for_sheets=for_sheets,
            line_related=("mettle_weapon", "container"),
            summary=pages.summary,
            game_master="Guide",
            create=services.character_create,
            # A copy keeps the raises, so it opens with the XP earned (ledgers.py).
            copy_xp=xp_earned,
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
            # A Freestyle budget above the campaign's may not join (AMB-M-BUD-1).
            join_refusal=join_refusal,
            # Its campaign side (named, not imported: characters never import campaigns).
            campaign_package="campaigns.systems.mettle",
            # The Highlights at the start of each session after the first; its XP buys
            # nothing by itself (Attribute raises are bought any time).
            ritual="campaigns.systems.mettle.ritual.RITUAL",
            # The make-up XP of a returning player (AMB-M10) and the Freestyle budget
            # (AMB-M-BUD-1).
            campaign_settings_form=CampaignSettingsForm,
            # Viktor for player1 and the demo METTLE campaign (manage.py seed_demo).
            demo="campaigns.systems.mettle.demo.seed",
            # Its rules reference (the SRD's chapters, statuses, Twists and the tables),
            # which the rules app serves at /rules/mettle-core/ and links citations to.
            reference="rules.engine.mettle.reference.reference",
        ))
