"""The demo fight for `manage.py seed_demo`: Asphodel and Bram against a Mob of kobolds
at the mill, Round 1, Asphodel has just attacked the Mob (it must go next)."""

from __future__ import annotations

from campaigns.models import Campaign

from . import initiative as service


def seed_demo_fight(campaign: Campaign) -> None:
    if campaign.encounters.exists():
        return
    encounter = service.create(campaign=campaign, by=campaign.owner, name="Kobolds at the mill")
    party = list(campaign.game_system.character_model.objects.filter(campaign=campaign)
                 .order_by("pk"))
    service.add_characters(encounter_id=encounter.pk, version=None, characters=party)
    mob = service.add_foe(encounter_id=encounter.pk, version=None, name="Kobold pack",
                          hp_max=5, af=10, wp=6, is_mob=True, members=4)
    first = encounter.combatants.exclude(character=None).order_by("pk").first()
    for kind, payload in (
        ("trigger", {"key": first.key}),
        ("act", {"actor": first.key, "targets": [mob.key], "action": "melee Attack"}),
        ("damage", {"key": mob.key, "amount": 9}),
    ):
        service.step(encounter_id=encounter.pk, version=None, kind=kind, payload=payload,
                     by=campaign.owner)
