"""Seed a realistic installation for the load benchmark, through the project's own
services only (Eldritch Gambit's character and inventory services, campaigns/services.py,
its Checks and Rolls and Initiative services in campaigns/systems/eldritch_gambit/;
METTLE Core's character service for a share of the characters, --mettle-share, and
its campaign services in campaigns/systems/mettle/ for the same share of the campaigns:
sessions with Highlights and Checks in their roll logs, a Volleyball Initiative fight;
Errant's, --errant-share: its character service with rolled Attributes and the starting
kit, its campaigns with Checks through the Play page's form and roll_services, the
Company's debt and a Faction, Turns in the Turn log; the seed-004 encounter rules',
--encounters-share: its character service and an encounter under way in its tracker),
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
import math
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
    # Errant's and the encounter rules' shares, the same way (with 10 campaigns: 2 and 1;
    # with 4 or more every game has at least one campaign).
    errant_share: float = 0.15
    encounters_share: float = 0.1


# The games the seed plays besides Eldritch Gambit's, in the order they take their share
# of the characters and of the campaigns (the Sizes field of each share).
OTHER_GAMES = (("mettle", "mettle_share"), ("errant", "errant_share"),
               ("encounters", "encounters_share"))


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


def mettle_campaigns(campaigns: int, share: float) -> int:
    """How many of the campaigns play METTLE Core: `share` of them, at least one and at
    most all but one (with 10 campaigns and 0.25, round() makes it 2)."""
    return campaigns_by_game(campaigns, {"mettle": share})["mettle"]


def game_of_characters(count: int, shares: dict[str, float]) -> list[str]:
    """The game of each of `count` characters: each other game its share of them, spread
    evenly and at least one when its share is not 0 (the first characters go to the
    games in OTHER_GAMES order, then Eldritch Gambit's), the rest Eldritch Gambit's
    ("eldritch_gambit")."""
    taken = dict.fromkeys(shares, 0)
    games = []
    for n in range(count):
        game = next((key for key, share in shares.items()
                     if share and taken[key] < math.ceil((n + 1) * share)), "eldritch_gambit")
        if game in taken:
            taken[game] += 1
        games.append(game)
    return games


def campaigns_by_game(campaigns: int, shares: dict[str, float]) -> dict[str, int]:
    """How many of the campaigns each other game plays: its share, at least one, in
    OTHER_GAMES order while campaigns are left, and never all: the first is always
    Eldritch Gambit's (with 10 campaigns and 0.25, 0.15, 0.1: 2, 2 and 1; with 4, one
    each)."""
    counts = {}
    left = max(campaigns - 1, 0)
    for key, share in shares.items():
        counts[key] = min(left, max(1, round(campaigns * share))) if share else 0
        left -= counts[key]
    return counts


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


def seed_characters(sizes: Sizes, players, rng: random.Random) -> dict[str, list]:
    """sizes.characters characters over the players, each game its share
    (game_of_characters): Eldritch Gambit's each with 5-30 items, METTLE Core's each
    with 5-30 gear lines (at most as many as its builder takes), Errant's with rolled
    Attributes, the starting kit and a few lines more, the encounter rules' combatants."""
    from characters.systems.eldritch_gambit import inventory, services
    from characters.systems.mettle import services as mettle_services
    from characters.systems.mettle.forms import MAX_LINES
    from rules.models import GearItem

    catalog = [item for item in GearItem.objects.srd()
               if item.category not in ("armor", "shield")]
    armors = [item for item in GearItem.objects.srd() if item.category == "armor"]
    made: dict[str, list] = {"eldritch_gambit": [], **{key: [] for key, _ in OTHER_GAMES}}
    games = game_of_characters(sizes.characters, shares_of(sizes))
    for n, (owner, game) in enumerate(zip(itertools.cycle(players), games, strict=False)):
        if game == "mettle":
            lines = rng.randint(min(sizes.items_min, MAX_LINES), min(sizes.items_max, MAX_LINES))
            made[game].append(mettle_services.character_create(
                owner=owner, data=mettle_data(n, rng, gear_lines=lines)))
            continue
        if game == "errant":
            made[game].append(seed_errant_character(n, owner, rng, sizes))
            continue
        if game == "encounters":
            made[game].append(seed_encounters_character(n, owner, rng))
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
        made[game].append(character)
    return made


def shares_of(sizes: Sizes) -> dict[str, float]:
    return {key: getattr(sizes, field) for key, field in OTHER_GAMES}


# -- Errant ------------------------------------------------------------------------------

def errant_data(n: int, rng: random.Random, *, extra_lines: int) -> dict:
    """What Errant's builder saves for a new Errant (as the demo's Wren): Attributes
    rolled (4D4 each, ER §Determine Attributes), now and then a swap, a random Ancestry
    with its minimum age rolled (ER §Choose Ancestry), an Archetype with its kit choice
    and the starting kit (ER §Select Starting Equipment), then a few lines of gear more."""
    from characters.systems.errant.builds import kit_choices, kit_lines
    from rules.engine.errant.data import ANCESTRIES, ARCHETYPE_KEYS, ATTRIBUTE_KEYS

    ancestry = rng.choice(list(ANCESTRIES.values()))
    minimum_age = ancestry.age_bonus + sum(rng.randint(1, ancestry.age_sides)
                                           for _ in range(ancestry.age_dice))
    archetype = rng.choice(ARCHETYPE_KEYS)
    choice = rng.choice(kit_choices(archetype) or ("",))
    swap = rng.sample(ATTRIBUTE_KEYS, 2) if n % 3 == 0 else ("", "")
    extra = [{"name": f"Keepsake {k}", "size": 1, "quantity": 1, "location": "backpack",
              "kind": "", "uses": None, "uses_max": None, "quality": None, "blocks": False,
              "magic": 0} for k in range(extra_lines)]
    return {
        "name": f"Load errant {n}", "method": "rolled",
        "dice": [[rng.randint(1, 4) for _ in range(4)] for _ in ATTRIBUTE_KEYS],
        "swap_first": swap[0], "swap_second": swap[1],
        "ancestry": ancestry.key, "minimum_age": minimum_age,
        "age": minimum_age + rng.randint(0, 10), "keepsake": "", "failed_profession": "",
        "archetype": archetype, "kit_choice": choice, "covenant_alignment": "",
        "favour_deeds": 0, "alignment": "", "extra_languages": [], "renown_raises": [],
        "guide_note": "", "proficiencies": [], "hp_current": None, "exhaustion": 0,
        "gear": [*kit_lines(archetype, choice), *extra],
    }


def seed_errant_character(n: int, owner, rng: random.Random, sizes: Sizes):
    """An Errant through its own character service, its build checked by the rules
    engine first as the builder checks it (an Errant the builder would refuse is a bug
    of the seed)."""
    from characters.systems.errant import services
    from characters.systems.errant.builds import build_from
    from rules.engine.errant.sheet import compute_sheet

    extra = rng.randint(0, max(0, min(sizes.items_max, 10) - sizes.items_min))
    data = errant_data(n, rng, extra_lines=extra)
    problems = compute_sheet(build_from(data)).errors
    if problems:
        raise RuntimeError(f"the seeded Errant is refused: {problems}")
    return services.character_create(owner=owner, data=data)


def seed_errant_check(character, rng: random.Random) -> None:
    """A Check or a Saving Throw as Errant's Play page makes it (roll_views.roll): its
    RollForm, then roll_services.make_roll."""
    from campaigns.systems.errant import roll_services
    from campaigns.systems.errant.roll_forms import RollForm
    from campaigns.systems.errant.roll_views import INITIAL
    from characters.systems.errant.builds import sheet_for
    from rules.engine.errant.data import ATTRIBUTE_KEYS

    save = rng.random() < 0.25
    data = {**INITIAL, "kind": "save" if save else "check",
            "save_against": "threat" if save else "", "attribute": rng.choice(ATTRIBUTE_KEYS),
            "dv": str(rng.choice((0, 1, 2, 4))), "label": "Seeded for the load benchmark"}
    form = RollForm({k: "" if v is None else str(v) for k, v in data.items()},
                    sheet=sheet_for(character))
    if not form.is_valid():
        raise RuntimeError(f"the seeded Errant Check is refused: {form.errors.as_json()}")
    roll_services.make_roll(character=character, by=character.owner, request=form.request(),
                            rng=rng)


def seed_errant_turns(campaign, guide, rng: random.Random, count: int) -> None:
    """A few Turns in the Company's Turn log (campaigns/systems/errant/turns.py): Travel
    Turns through the day with their Event Die rolled, now and then an Exploration Turn
    zoomed in from one."""
    from django.db import transaction

    from campaigns.systems.errant import turns
    from rules.engine.errant import event_die

    travel = None
    for n in range(count):
        with transaction.atomic():
            if travel is not None and n % 3 == 2:
                turn = turns.declare(campaign=campaign, kind="exploration", by=guide,
                                     parent=travel.pk, activity="Searching the ruin")
            else:
                travel = turn = turns.declare(
                    campaign=campaign, kind="travel", by=guide, day=1 + n // 6,
                    turn_of_day=1 + n % 6, activity="Along the old road")
            pace = rng.choice(("slow", "normal", "quick"))
            turns.roll_event(turn, event_die.event_dice(turn.kind, pace=pace), rng=rng)


TURN_LOG = "campaigns:errant_turn_log"  # what the Turn log page polls


def turn_log_url(campaign) -> str | None:
    """The Errant Turn log's page, when this installation has it (another part of the
    Errant table builds it): the night polls it only then. A `campaigns:errant_turn_log`
    that exists but does not take the campaign's id alone is the seed's to follow: an
    error, not a night quietly without the Turn log."""
    from django.urls import NoReverseMatch, get_resolver, reverse

    try:
        return reverse(TURN_LOG, args=[campaign.pk])
    except NoReverseMatch:
        namespace, name = TURN_LOG.split(":")
        _, urls = get_resolver().namespace_dict[namespace]
        if name in urls.reverse_dict:
            raise RuntimeError(f"{TURN_LOG} exists but does not take a campaign's id: "
                               "update campaigns/loadtest/seed.py turn_log_url") from None
        return None


def seed_errant_campaigns(sizes: Sizes, guides, characters, rng: random.Random) -> list[dict]:
    """Each Errant Guide's campaign, as seed_campaigns makes Eldritch Gambit's, through
    Errant's services: a party of Errants (one per player), sizes.sessions sessions, each
    with Checks from the Play page's form (the last under way, its log holding
    sizes.rolls_tonight), the Company's table roles, a debt and a Faction, and a few
    Turns in its Turn log."""
    from campaigns import services
    from campaigns.systems.errant import company
    from characters.systems.errant.apps import KEY

    tables = []
    free = list(characters)
    rng.shuffle(free)
    for n, guide in guides:
        campaign = services.campaign_create(owner=guide, name=f"Load Errant table {n + 1}",
                                            system=KEY)
        party = join_party(campaign, guide, free, sizes)
        session = None
        for _ in range(sizes.sessions):
            session = services.session_start(campaign=campaign, by=guide)
            if session.number < sizes.sessions:
                for _ in range(sizes.rolls_per_session if party else 0):
                    seed_errant_check(rng.choice(party), rng)
        for _ in range(sizes.rolls_tonight if party else 0):
            seed_errant_check(rng.choice(party), rng)
        if party:
            company.roles_set(campaign=campaign, by=guide, roles={
                "caller": party[0].pk, "mapper": party[-1].pk, "timekeeper": party[-1].pk})
        company.debt_change(campaign=campaign, kind="owed", amount=500, by=guide,
                            note="Lodging on credit")
        company.faction_add(campaign=campaign, name="The Lantern Guild", score=9, by=guide)
        seed_errant_turns(campaign, guide, rng, count=8)
        tables.append({
            "campaign": campaign.pk, "imp": guide.username,
            "session": session.number if session else None,
            "turns_url": turn_log_url(campaign),
            "players": [{"user": c.owner.username, "character": c.pk} for c in party],
        })
    return tables


# -- The encounter rules (seed 004) ----------------------------------------------------------

def encounters_data(n: int, rng: random.Random) -> dict:
    """What the encounter rules' builder saves: the four skills and the three maxima
    within the sheet's bounds (rules/engine/encounters/sheet.py BOUNDS), a load."""
    return {"name": f"Load combatant {n}",
            **{key: rng.randint(1, 6) for key in ("quickness", "command", "strength",
                                                  "willpower")},
            **{key: rng.randint(6, 12) for key in ("stamina_max", "health_max",
                                                   "sanity_max")},
            "load": rng.choice((0, 5, 10, 30))}


def seed_encounters_character(n: int, owner, rng: random.Random):
    from characters.systems.encounters import services

    return services.character_create(owner=owner, data=encounters_data(n, rng))


def seed_encounters_tracker(campaign, guide, rng: random.Random) -> int:
    """An encounter under way in the tracker (campaigns/systems/encounters/tracker.py),
    as the Guide's forms post it: the party (added at creation) against two foes, the
    round started, everyone's Initiative rolled (maneuver) and a strike declared, the
    Action phase begun (the players' view shows the order)."""
    from campaigns.systems.encounters import tracker
    from campaigns.systems.encounters.declaring_text import items_from_text
    from rules.engine.encounters import roll_initiative

    encounter = tracker.encounter_create(campaign=campaign, by=guide,
                                         name="Ghoul in the ossuary")
    for name in ("Ghoul", "Cultist"):
        tracker.step(encounter_id=encounter.pk, version=None, kind="add", by=guide,
                     payload={**encounters_data(0, rng), "key": tracker.foe_key(encounter),
                              "name": name, "side": tracker.FOES})
    tracker.step(encounter_id=encounter.pk, version=None, kind="start", by=guide,
                 payload={"round_zero": False, "initiators": [], "surprised": []})
    for fighter in tracker.state_of(encounter).fighters:
        payload = roll_initiative(tracker.state_of(encounter), fighter.key, "maneuver", rng)
        tracker.step(encounter_id=encounter.pk, version=None, kind="initiative",
                     payload={**payload, "bonus": 0}, by=guide)
        tracker.step(encounter_id=encounter.pk, version=None, kind="declare", by=guide,
                     payload={"key": fighter.key,
                              "items": items_from_text("major physical strike")})
    tracker.step(encounter_id=encounter.pk, version=None, kind="begin_actions", payload={},
                 by=guide)
    return encounter.pk


def seed_encounters_campaigns(sizes: Sizes, guides, characters, rng: random.Random
                              ) -> list[dict]:
    """Each encounter-rules Guide's campaign: a party of combatants (one per player),
    sizes.sessions sessions, an encounter under way."""
    from campaigns import services
    from characters.systems.encounters.apps import KEY

    tables = []
    free = list(characters)
    rng.shuffle(free)
    for n, guide in guides:
        campaign = services.campaign_create(owner=guide, name=f"Load encounters table {n + 1}",
                                            system=KEY)
        party = join_party(campaign, guide, free, sizes)
        session = None
        for _ in range(sizes.sessions):
            session = services.session_start(campaign=campaign, by=guide)
        tables.append({
            "campaign": campaign.pk, "imp": guide.username,
            "session": session.number if session else None,
            "encounter": seed_encounters_tracker(campaign, guide, rng),
            "players": [{"user": c.owner.username, "character": c.pk} for c in party],
        })
    return tables


def join_party(campaign, guide, free: list, sizes: Sizes) -> list:
    """Invite the players and seat up to sizes.party of the `free` characters (one per
    player), taking them out of `free`."""
    from campaigns import services

    invitation = services.invitation_create(campaign=campaign, by=guide)
    party, owners = [], set()
    for character in list(free):
        if len(party) == sizes.party:
            break
        if character.owner_id in owners:
            continue
        services.invitation_accept(code=invitation.code, user=character.owner)
        services.character_join(campaign=campaign, character=character, by=character.owner)
        character.refresh_from_db()  # its build's model, now in the campaign
        party.append(character)
        owners.add(character.owner_id)
        free.remove(character)
    return party


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
        party = join_party(campaign, imp, free, sizes)
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
        party = join_party(campaign, guide, free, sizes)
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
    made = seed_characters(sizes, players or imps, rng)
    print(f"seeded {len(imps) + len(players)} users and characters: "
          f"{', '.join(f'{len(c)} {game}' for game, c in made.items())} in "
          f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    # The last campaigns play the other games, each its share (at least one when there
    # are campaigns enough, and characters of that game), never all: the first is
    # always Eldritch Gambit's. In OTHER_GAMES order from the end: METTLE Core's last.
    counts = campaigns_by_game(len(imps), {key: share if made[key] else 0
                                           for key, share in shares_of(sizes).items()})
    numbered = list(enumerate(imps))
    guides = {}
    end = len(numbered)
    for key, _ in OTHER_GAMES:
        guides[key] = numbered[end - counts[key]:end]
        end -= counts[key]
    tables = seed_campaigns(sizes, imps[:end], made["eldritch_gambit"], rng)
    mettle_tables = seed_mettle_campaigns(sizes, guides["mettle"], made["mettle"], rng)
    errant_tables = seed_errant_campaigns(sizes, guides["errant"], made["errant"], rng)
    encounters_tables = seed_encounters_campaigns(sizes, guides["encounters"],
                                                  made["encounters"], rng)
    print(f"seeded {len(tables)} Eldritch Gambit, {len(mettle_tables)} METTLE Core, "
          f"{len(errant_tables)} Errant and {len(encounters_tables)} encounter-rules "
          f"campaigns in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)

    def owned(game: str, game_tables: list[dict]) -> list[dict]:
        # Those in no campaign first: the builder's typists take them first.
        seated = {p["character"] for t in game_tables for p in t["players"]}
        return [{"user": c.owner.username, "character": c.pk}
                for c in sorted(made[game], key=lambda c: c.pk in seated)]

    return {
        "password": PASSWORD,
        "users": [u.username for u in (*imps, *players)],
        "characters": [{"user": c.owner.username, "character": c.pk}
                       for c in made["eldritch_gambit"]],
        "mettle_characters": owned("mettle", mettle_tables),
        "errant_characters": owned("errant", errant_tables),
        "encounters_characters": owned("encounters", encounters_tables),
        "mettle_share": sizes.mettle_share,
        "errant_share": sizes.errant_share,
        "encounters_share": sizes.encounters_share,
        "tables": tables,
        "mettle_tables": mettle_tables,
        "errant_tables": errant_tables,
        "encounters_tables": encounters_tables,
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
