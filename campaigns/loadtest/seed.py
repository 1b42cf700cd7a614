"""Seed a realistic installation for the load benchmark, through the project's own
services only (Eldritch Gambit's character and inventory services, campaigns/services.py,
its Checks and Rolls and Initiative services in campaigns/systems/eldritch_gambit/;
METTLE Core's character service for a share of the characters, --mettle-share, and
its campaign services in campaigns/systems/mettle/ for the same share of the campaigns:
sessions with Highlights and Checks in their roll logs, a Volleyball Initiative fight),
and write what the simulated clients need to know (accounts, characters of each game,
campaigns of each game, sessions, trackers) as JSON.

Run by `manage.py loadtest` in a child process whose DATABASE_URL names the throwaway
database: `python -m campaigns.loadtest.seed WORLD.json --users 50 ...`.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import random
import sys
import time
from dataclasses import dataclass

PASSWORD = "load-bench-password"  # noqa: S105 - a throwaway database's accounts
# The seeded characters' Level and their campaigns' starting Level (Eldritch Gambit's
# campaign setting): ten Attribute points at Level 10.
LEVEL = 10
ATTRIBUTE_SPREADS = ((3, 2, 2, 1, 1, 1), (2, 2, 2, 2, 1, 1), (4, 2, 1, 1, 1, 1))
DESCRIPTORS = ("Itinerant gambler", "Svelte but wiry", "Competition", "Curmudgeon",
               "Old leg injury", "Silver tongue")
HIGHLIGHTS = ("Held the bridge alone", "Talked the ferryman down", "Found the hidden door",
              "Cooked for the whole caravan", "Outran the wolves", "Read the old runes")


@dataclass(frozen=True)
class Sizes:
    users: int = 50
    characters: int = 200
    campaigns: int = 10
    party: int = 6
    sessions: int = 50
    items_min: int = 5
    items_max: int = 30
    rolls_per_session: int = 2
    rolls_tonight: int = 40  # already in the log of the session under way
    # The share of the characters and of the campaigns that are METTLE Core's (the rest
    # Eldritch Gambit's); the night's typists, sheet readers and open tables follow it.
    mettle_share: float = 0.25


def character_data(n: int, rng: random.Random, *, armor) -> dict:
    """What the builder's form posts for a Level 10 adventurer (ten Attribute points)."""
    spread = list(rng.choice(ATTRIBUTE_SPREADS))
    rng.shuffle(spread)
    return {
        "name": f"Load hero {n}", "pronouns": "they/them", "career": "Grave robber",
        "quest": "Find the drowned library", "origin": "The river docks",
        "template_name": "Human", "description": "Seeded for the load benchmark.",
        "level": LEVEL, "xp": 0, **dict(zip(("str", "wis", "dex", "agi", "cha", "end"), spread,
                                          strict=True)),
        "skills": ["Swim", "Haggle"], "coins_cp": 500, "armor": armor, "shield": None,
        "armor_coverage": "full", "hp_current": None, "wp_current": None, "statuses": [],
        "poison_buildup": 0,
    }


def is_mettle(n: int, share: float) -> bool:
    """Whether the n-th character is METTLE Core's: `share` of them, spread evenly (with
    0.25, every fourth)."""
    return int((n + 1) * share) > int(n * share)


def mettle_campaigns(campaigns: int, share: float) -> int:
    """How many of the campaigns play METTLE Core: `share` of them, at least one and at
    most all but one (with 10 campaigns and 0.25, round() makes it 2)."""
    if not share or campaigns < 2:
        return 0
    return min(campaigns - 1, max(1, round(campaigns * share)))


def mettle_data(n: int, rng: random.Random, *, gear_lines: int) -> dict:
    """What METTLE Core's builder posts for a new character: the Array in a random order,
    a Descriptor for each pool, a weapon or two, gear lines."""
    from rules.engine.mettle.attributes import ARRAY
    from rules.engine.mettle.data import ARMOR, ATTRIBUTE_KEYS, WEAPONS

    pools = list(ARRAY)
    rng.shuffle(pools)
    return {
        "name": f"Load operative {n}", "appearance": "Seeded for the load benchmark",
        "background": "The river docks", "method": "array", "budget": 22,
        **dict(zip(ATTRIBUTE_KEYS, pools, strict=True)),
        **{f"{key}_descriptor": rng.choice(DESCRIPTORS) for key in ATTRIBUTE_KEYS},
        "backstories": ["Raised in Odesa (Ukrainian)"], "contacts": ["Oleg", "Samuelson"],
        "credit": 2, "mettle_current": None,
        "armor": rng.choice(ARMOR).name if n % 2 else "",
        "weapons": [{"name": "", "weapon": weapon.name, "concept": False}
                    for weapon in rng.sample(WEAPONS, rng.randint(1, 2))],
        "gear": [{"name": f"Keepsake {k}", "load": None, "quantity": 1}
                 for k in range(gear_lines)],
    }


def seed_accounts(sizes: Sizes):
    """The Imps (one per campaign) and the players, all with PASSWORD (hashed once)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    User = get_user_model()
    hashed = make_password(PASSWORD)
    imps = min(sizes.campaigns, max(sizes.users - 1, 1))
    names = [f"load-imp-{n}" if n < imps else f"load-player-{n - imps}"
             for n in range(sizes.users)]
    User.objects.bulk_create(User(username=name, password=hashed) for name in names)
    users = list(User.objects.filter(username__in=names).order_by("pk"))
    return users[:imps], users[imps:]


def seed_characters(sizes: Sizes, players, rng: random.Random) -> tuple[list, list]:
    """sizes.characters characters over the players: Eldritch Gambit's, each with 5-30
    items, and sizes.mettle_share of them METTLE Core's, each with 5-30 gear lines (at
    most as many as its builder takes)."""
    from characters.systems.eldritch_gambit import inventory, services
    from characters.systems.mettle import services as mettle_services
    from characters.systems.mettle.forms import MAX_LINES
    from rules.models import GearItem

    catalog = [item for item in GearItem.objects.srd()
               if item.category not in ("armor", "shield")]
    armors = [item for item in GearItem.objects.srd() if item.category == "armor"]
    characters, mettle = [], []
    for n, owner in zip(range(sizes.characters), itertools.cycle(players)):
        if is_mettle(n, sizes.mettle_share):
            lines = rng.randint(min(sizes.items_min, MAX_LINES), min(sizes.items_max, MAX_LINES))
            mettle.append(mettle_services.character_create(
                owner=owner, data=mettle_data(n, rng, gear_lines=lines)))
            continue
        armor = rng.choice(armors) if armors and n % 2 else None
        character = services.character_create(owner=owner,
                                               data=character_data(n, rng, armor=armor))
        for k in range(rng.randint(sizes.items_min, sizes.items_max)):
            if k % 4 == 3 or not catalog:
                inventory.item_add(character=character, by=owner, name=f"Keepsake {k}",
                                   load=0)
            else:
                inventory.item_add(character=character, by=owner,
                                   catalog_item=rng.choice(catalog))
        characters.append(character)
    return characters, mettle


def play_session(session, party, imp, rng: random.Random, sizes: Sizes) -> None:
    """The ritual (three rounds of Highlights, one a pass now and then; Quest XP), then
    the table's Checks and Rolls, all logged into this session."""
    from campaigns import services
    from campaigns.services import CampaignError
    from campaigns.systems.eldritch_gambit import quests

    if session.has_ritual:
        while turns := services.highlight_turns(session):
            character = turns[0][0]
            if rng.random() < 0.15:
                services.highlight_pass(session=session, character=character, by=imp)
            else:
                services.highlight_award(session=session, character=character, by=imp,
                                         text=rng.choice(HIGHLIGHTS))
        for character in party:
            with contextlib.suppress(CampaignError):  # no XP to invest this time
                quests.quest_invest(session=session, character=character, by=imp)
    for _ in range(sizes.rolls_per_session):
        seed_roll(rng.choice(party), rng)


def seed_roll(character, rng: random.Random) -> None:
    """A Check as the Checks and Rolls page makes it, or a damage or Rally Roll."""
    from campaigns.systems.eldritch_gambit import roll_services
    from campaigns.systems.eldritch_gambit.roll_forms import DEFAULT_DF, CheckForm
    from campaigns.systems.eldritch_gambit.rolls import Roll
    from characters.systems.eldritch_gambit.builds import sheet_for
    from rules.engine.eldritch_gambit import rolls

    sheet = sheet_for(character)
    if rng.random() < 0.6:
        form = CheckForm({"action": "attack-melee", "attribute": "dex", "ocs": "on",
                          "bonus": "0", "penalty": "0", "difficulty": str(DEFAULT_DF)},
                         sheet=sheet)
        if form.is_valid():
            roll_services.make_check(character=character, by=character.owner,
                                     spec=form.spec(), label=form.label(),
                                     action=form.chosen_action, detail=form.detail(),
                                     rng=rng)
            return
    if sheet.weapons:
        weapon = rng.choice(sheet.weapons)
        spec = rolls.weapon_damage(weapon.name, weapon.damage, weapon.critical_bonus)
        kind = Roll.Kind.DAMAGE
    else:
        spec, kind = rolls.rally(str(sheet.value("rally"))), Roll.Kind.RALLY
    roll_services.make_roll(character=character, by=character.owner, spec=spec, kind=kind,
                            rng=rng)


def seed_tracker(campaign, imp) -> int:
    """An Initiative tracker under way, as the demo's fight: the party against a Mob."""
    from campaigns.services import CampaignError
    from campaigns.systems.eldritch_gambit import initiative

    encounter = initiative.create(campaign=campaign, by=imp, name="Ambush at the ford")
    party = list(campaign.game_system.character_model.objects.filter(campaign=campaign)
                 .order_by("pk"))
    initiative.add_characters(encounter_id=encounter.pk, version=None, characters=party)
    mob = initiative.add_foe(encounter_id=encounter.pk, version=None, name="Bandits",
                             hp_max=5, af=10, wp=6, is_mob=True, members=4)
    fighters = encounter.combatants.exclude(character=None).order_by("pk")
    for first in fighters:  # the first who can act (a seeded hero may be down)
        try:
            initiative.step(encounter_id=encounter.pk, version=None, kind="trigger",
                            payload={"key": first.key}, by=imp)
            initiative.step(encounter_id=encounter.pk, version=None, kind="act",
                            payload={"actor": first.key, "targets": [mob.key],
                                     "action": "melee Attack"}, by=imp)
            break
        except CampaignError:
            continue
    return encounter.pk


def seed_campaigns(sizes: Sizes, imps, characters, rng: random.Random) -> list[dict]:
    """Each Imp's campaign: a party of players' characters, sizes.sessions sessions
    played (the last one under way: its ritual still open for the night's Imp, some rolls
    in its log), an Initiative tracker."""
    from campaigns import services

    free = list(characters)
    rng.shuffle(free)
    tables = []
    for n, imp in enumerate(imps):
        campaign = services.campaign_create(owner=imp, name=f"Load table {n + 1}",
                                            settings={"starting_level": LEVEL})
        invitation = services.invitation_create(campaign=campaign, by=imp)
        party, owners = [], set()
        for character in list(free):
            if len(party) == sizes.party:
                break
            if character.owner_id in owners:
                continue
            services.invitation_accept(code=invitation.code, user=character.owner)
            services.character_join(campaign=campaign, character=character,
                                    by=character.owner)
            character.refresh_from_db()  # its build's model, now in the campaign
            party.append(character)
            owners.add(character.owner_id)
            free.remove(character)
        session = None
        for _ in range(sizes.sessions):
            session = services.session_start(campaign=campaign, by=imp)
            if session.number < sizes.sessions:
                play_session(session, party, imp, rng, sizes)
        for _ in range(sizes.rolls_tonight if party else 0):
            seed_roll(rng.choice(party), rng)  # the ritual is left for the night's Imp
        tables.append({
            "campaign": campaign.pk, "imp": imp.username,
            "session": session.number if session else None,
            "encounter": seed_tracker(campaign, imp),
            "players": [{"user": c.owner.username, "character": c.pk} for c in party],
        })
    return tables


def seed_mettle_check(character, rng: random.Random) -> None:
    """A Check as METTLE's Play page makes it (roll_views.check_roll): an Action of the
    Scenes chapter or a plain Check by Attribute, now and then a bonus die, against a
    Difficulty of the ladder, through its CheckForm and roll_services.make_check."""
    from campaigns.systems.mettle import roll_services
    from campaigns.systems.mettle.roll_forms import CheckForm
    from characters.systems.mettle.builds import sheet_for
    from rules.engine.mettle.data import ACTIONS, ATTRIBUTE_KEYS, DIFFICULTY

    sheet = sheet_for(character)
    action = rng.choice([None, *ACTIONS])
    data = {"action": action.name if action else "",
            "pool": action.active if action else rng.choice(ATTRIBUTE_KEYS),
            "bonus": str(rng.choice((0, 0, 1, 2))), "penalty": "0", "surge": "0",
            "team_best": "", "raises": "0", "target_pool": "",
            "difficulty": str(rng.choice(DIFFICULTY[:4])[0])}
    form = CheckForm(data, sheet=sheet, backstories=character.backstories,
                     surge_max=roll_services.surge_allowed(character))
    if not form.is_valid():
        raise RuntimeError(f"the seeded METTLE Check is refused: {form.errors.as_json()}")
    roll_services.make_check(character=character, by=character.owner, request=form.request(),
                             rng=rng)


def play_mettle_session(session, party, guide, rng: random.Random, sizes: Sizes) -> None:
    """METTLE's ritual (the Highlights rounds, a pass now and then), then the table's
    Checks, logged into this session."""
    from campaigns import services

    if session.has_ritual:
        while turns := services.highlight_turns(session):
            character = turns[0][0]
            if rng.random() < 0.15:
                services.highlight_pass(session=session, character=character, by=guide)
            else:
                services.highlight_award(session=session, character=character, by=guide,
                                         text=rng.choice(HIGHLIGHTS))
    for _ in range(sizes.rolls_per_session if party else 0):
        seed_mettle_check(rng.choice(party), rng)


def seed_mettle_tracker(campaign, guide) -> int:
    """A Volleyball Initiative fight under way (campaigns/systems/mettle/initiative.py):
    the party against a Mob of thugs; the first hero triggers and acts."""
    from campaigns.services import CampaignError
    from campaigns.systems.mettle import initiative

    encounter = initiative.create(campaign=campaign, by=guide, name="Ambush on the quay")
    party = list(campaign.game_system.character_model.objects.filter(campaign=campaign)
                 .order_by("pk"))
    if party:
        initiative.add_characters(encounter_id=encounter.pk, version=None, characters=party,
                                  by=guide)
    mob = initiative.add_npc(encounter_id=encounter.pk, version=None, name="Dockside thugs",
                             pool=4, is_mob=True, members=4, by=guide)
    for first in encounter.combatants.exclude(character=None).order_by("pk"):
        try:
            key = str(first.pk)
            initiative.step(encounter_id=encounter.pk, version=None, kind="trigger",
                            payload={"key": key}, by=guide)
            initiative.step(encounter_id=encounter.pk, version=None, kind="act",
                            payload={"actor": key, "targets": [str(mob.pk)],
                                     "action": "Attack"}, by=guide)
            break
        except CampaignError:
            continue
    return encounter.pk


def seed_mettle_campaigns(sizes: Sizes, guides, characters, rng: random.Random) -> list[dict]:
    """Each METTLE Guide's campaign, as seed_campaigns makes Eldritch Gambit's: a party of
    METTLE characters (one per player), sizes.sessions sessions played (Highlights and
    Checks; the last under way, its ritual open and Checks in its log), a fight under
    way. The characters left over stay in no campaign (the builder's typists use them)."""
    from campaigns import services
    from characters.systems.mettle.apps import KEY

    free = list(characters)
    rng.shuffle(free)
    tables = []
    for n, guide in guides:
        campaign = services.campaign_create(owner=guide, name=f"Load METTLE table {n + 1}",
                                            system=KEY)
        invitation = services.invitation_create(campaign=campaign, by=guide)
        party, owners = [], set()
        for character in list(free):
            if len(party) == sizes.party:
                break
            if character.owner_id in owners:
                continue
            services.invitation_accept(code=invitation.code, user=character.owner)
            services.character_join(campaign=campaign, character=character,
                                    by=character.owner)
            character.refresh_from_db()
            party.append(character)
            owners.add(character.owner_id)
            free.remove(character)
        session = None
        for _ in range(sizes.sessions):
            session = services.session_start(campaign=campaign, by=guide)
            if session.number < sizes.sessions:
                play_mettle_session(session, party, guide, rng, sizes)
        for _ in range(sizes.rolls_tonight if party else 0):
            seed_mettle_check(rng.choice(party), rng)
        tables.append({
            "campaign": campaign.pk, "imp": guide.username,
            "session": session.number if session else None,
            "encounter": seed_mettle_tracker(campaign, guide),
            "players": [{"user": c.owner.username, "character": c.pk} for c in party],
        })
    return tables


def seed(sizes: Sizes, *, seed_value: int = 12) -> dict:
    rng = random.Random(seed_value)
    started = time.monotonic()
    imps, players = seed_accounts(sizes)
    characters, mettle = seed_characters(sizes, players or imps, rng)
    print(f"seeded {len(imps) + len(players)} users, {len(characters)} Eldritch Gambit "
          f"characters and {len(mettle)} METTLE Core characters in "
          f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    # The last campaigns play METTLE Core: their share, at least one (when there are two
    # campaigns or more) and never all (the first is always Eldritch Gambit's).
    count = mettle_campaigns(len(imps), sizes.mettle_share) if mettle else 0
    tables = seed_campaigns(sizes, imps[:len(imps) - count], characters, rng)
    mettle_tables = seed_mettle_campaigns(
        sizes, list(enumerate(imps))[len(imps) - count:], mettle, rng)
    print(f"seeded {len(tables)} Eldritch Gambit and {len(mettle_tables)} METTLE Core "
          f"campaigns in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    seated = {p["character"] for t in mettle_tables for p in t["players"]}
    return {
        "password": PASSWORD,
        "users": [u.username for u in (*imps, *players)],
        "characters": [{"user": c.owner.username, "character": c.pk} for c in characters],
        # Those in no campaign first: the builder's typists take them first.
        "mettle_characters": [{"user": c.owner.username, "character": c.pk}
                              for c in sorted(mettle, key=lambda c: c.pk in seated)],
        "mettle_share": sizes.mettle_share,
        "tables": tables,
        "mettle_tables": mettle_tables,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    for field, default in Sizes().__dict__.items():
        parser.add_argument(f"--{field.replace('_', '-')}", type=type(default),
                            default=default)
    args = vars(parser.parse_args())
    out = args.pop("out")

    import django

    django.setup()
    world = seed(Sizes(**args))
    with open(out, "w") as file:
        json.dump(world, file)


if __name__ == "__main__":
    main()
