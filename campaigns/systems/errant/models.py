"""Errant's campaign models, registered with the campaigns app (app label "campaigns"):
campaigns/models.py imports this module through campaigns.systems.import_each. Each part
keeps its models in its own module and imports them here."""

# Advancement: money wasted, Renown raises, Fame rolls, the Ancestry ability (errcamp).
from .advancement_models import (  # noqa: F401
    ErrantAncestryUse,
    ErrantFameRoll,
    ErrantRenownPick,
    ErrantWaste,
)

# The Company: roles, marching order, debt, reputation with Factions (errcamp).
from .company_models import (  # noqa: F401
    ErrantCompany,
    ErrantDebtEntry,
    ErrantFaction,
    ErrantReputationEntry,
)

# The Play page's Checks, Saving Throws and opposed Checks, the session log (errroll).
from .rolls import ErrantRoll  # noqa: F401, E402

# The Turn log: every Turn, its Event Die and what it changed (issue 15; turns.py).
from .turn_models import ErrantTurn, ErrantTurnChange  # noqa: F401, E402

# isort: split
# A fight of Initiative Turns and its step ledger (issue 15, "Initiative Turns"; fight.py).
from .fight_models import ErrantFight, ErrantFightStep  # noqa: F401, E402
