"""METTLE Core's campaign models, registered with the campaigns app (app label
"campaigns"): campaigns/models.py imports this module through campaigns.systems.import_each."""

from .guide_models import (  # noqa: F401
    MettleFaction,
    MettleFactionCheck,
    MettleNpc,
    MettleRelation,
    MettleResourcesEntry,
    MettleTriangle,
)
