"""The demo rolls for `manage.py seed_demo`: in the demo campaign's current session,
Asphodel's player makes a melee Attack and calls a Gambit on it, then rolls the winged
spear's damage and Rerolls it for a WP. Made through the roll services (real ledger rows,
WP really spent), each with a fixed request_key, so running seed_demo again adds nothing."""

from __future__ import annotations

import random

from campaigns.models import Campaign
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.engine.eldritch_gambit import rolls

from . import roll_services
from .roll_forms import DEFAULT_DF, CheckForm
from .rolls import Roll

KEY = "demo-rolls-{}"
ASPHODEL = "Asphodel the Grumbling Bloom"
# Seeds for the story: the Attack succeeds, the Gambit makes it a Critical (Bonus Damage),
# the spear's Critical damage (a 3) is Rerolled for a 7.
SEEDS = {"check": 0, "gambit": 6, "damage": 1, "reroll": 0}


def seed_demo_rolls(campaign: Campaign) -> list[Roll]:
    asphodel = (campaign.game_system.character_model.objects.filter(campaign=campaign)
                .filter(name=ASPHODEL).first())
    if asphodel is None or roll_services.current_session(asphodel) is None:
        return []
    by = asphodel.owner
    sheet = sheet_for(asphodel)
    # As her player fills in the Checks and Rolls page: a melee Attack (Scenes > Actions >
    # Attack) with DEX, on a d20 as every adventurer's Attack, against the default DF.
    form = CheckForm({"action": "attack-melee", "attribute": "dex", "ocs": "on", "bonus": "0",
                      "penalty": "0", "difficulty": str(DEFAULT_DF)}, sheet=sheet)
    if not form.is_valid():
        raise ValueError(f"The demo Check does not validate: {form.errors.as_text()}")
    check = roll_services.make_check(
        character=asphodel, by=by, spec=form.spec(), label=form.label(),
        action=form.chosen_action, detail=form.detail(),
        rng=random.Random(SEEDS["check"]), request_key=KEY.format("check"))
    gambit = roll_services.call_gambit(check=check, by=by, rng=random.Random(SEEDS["gambit"]),
                                       request_key=KEY.format("gambit"))
    made = [check, gambit]
    if sheet.weapons:
        spear = next((w for w in sheet.weapons if w.name == "Winged spear"), sheet.weapons[0])
        damage = roll_services.make_roll(
            character=asphodel, by=by, kind=Roll.Kind.DAMAGE,
            spec=rolls.weapon_damage(spear.name, spear.damage, spear.critical_bonus,
                                     critical=gambit.outcome == "critical"),
            rng=random.Random(SEEDS["damage"]), request_key=KEY.format("damage"))
        made.append(damage)
        if rolls.can_spend_wp(sheet["wp_current"].value, sheet["wp_floor"].value) or \
                Roll.objects.filter(request_key=KEY.format("reroll")).exists():
            made.append(roll_services.reroll(roll=damage, by=by,
                                             rng=random.Random(SEEDS["reroll"]),
                                             request_key=KEY.format("reroll")))
    return made
