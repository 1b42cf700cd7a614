"""Eldritch Gambit's demo for `manage.py seed_demo` (GameSystem.demo names `seed`): the
demo users and Asphodel (characters/systems/eldritch_gambit/demo.py), then the demo
campaign: the demo Imp runs "The Dragon of Ambrose"; player1 brings Asphodel and player2
brings Bram. Session 1 has a recap; session 2 is in the middle of its Highlights (Bram's
turn in round 2), so the tour can pick it up."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns import services
from campaigns.models import Campaign
from characters.models import Character
from characters.systems.eldritch_gambit import services as character_services
from characters.systems.eldritch_gambit.demo import ASPHODEL, seed_demo

REQUEST_KEY = "demo-campaign-ambrose"
BRAM = {
    "name": "Bram Underbough", "pronouns": "he/him", "career": "Disgraced cook",
    "quest": "Win the ostrich wing-eating competition", "origin": "The Ambrose docks",
    "template_name": "Human", "description": "", "level": 10, "xp": 8,
    "str": 2, "wis": 1, "dex": 1, "agi": 2, "cha": 3, "end": 1,
    "skills": ["Cook anything", "Haggle"], "coins_cp": 500, "armor": None, "shield": None,
    "armor_coverage": "full", "hp_current": None, "wp_current": None, "statuses": [],
    "poison_buildup": 0,
}


@transaction.atomic
def seed_demo_campaign(*, asphodel_name: str) -> Campaign | None:
    """The demo campaign, once (safe to run again); None without the demo users."""
    from .roll_demo import seed_demo_rolls  # Checks and Rolls' demo rolls (idempotent)

    existing = Campaign.objects.filter(request_key=REQUEST_KEY).first()
    if existing is not None:
        seed_demo_rolls(existing)  # a campaign seeded before the rolls existed gets them
        return existing
    users = {u.username: u for u in get_user_model().objects.filter(
        username__in=["imp", "player1", "player2"])}
    asphodel = Character.objects.filter(owner=users.get("player1"), name=asphodel_name,
                                        campaign=None).first()
    if len(users) < 3 or asphodel is None:
        return None
    imp = users["imp"]
    campaign = services.campaign_create(
        owner=imp, name="The Dragon of Ambrose", request_key=REQUEST_KEY,
        pitch="A dragon plagues the village of Ambrose. Someone has to do something.")
    invitation = services.invitation_create(campaign=campaign, by=imp)
    bram = character_services.character_create(owner=users["player2"], data=BRAM)
    for player, character in ((users["player1"], asphodel), (users["player2"], bram)):
        services.invitation_accept(code=invitation.code, user=player)
        services.character_join(campaign=campaign, character=character, by=player)
    first = services.session_start(campaign=campaign, by=imp)
    services.session_update(session=first, by=imp, recap=(
        "- Asphodel: Escaping the altar with the sacrificial amulet.\n"
        "- Bram: Talking the ferryman down to half price."))
    second = services.session_start(campaign=campaign, by=imp, final_round_about_other=True)
    services.highlight_award(session=second, character=asphodel, by=imp,
                             text="The pie that fed the whole caravan")
    services.highlight_award(session=second, character=bram, by=imp,
                             text="Cooking the dragon's egg (it was a goose egg)")
    services.highlight_award(session=second, character=asphodel, by=imp,
                             text="Holding the bridge with the winged spear")
    from .initiative_demo import seed_demo_fight  # Volleyball Initiative's demo fight

    seed_demo_fight(campaign)
    seed_demo_rolls(campaign)
    return campaign


def seed() -> dict:
    """The system's demo hook (GameSystem.demo): the demo users, Asphodel and the demo
    campaign, once (safe to run again)."""
    users = seed_demo()
    campaign = seed_demo_campaign(asphodel_name=ASPHODEL["name"])
    return {"users": users, "campaigns": [campaign] if campaign is not None else []}
