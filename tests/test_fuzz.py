"""Hostile input at every endpoint: never a server error, and nothing written when refused.

The endpoints come from walking the URLconfs, so a new page is fuzzed without a change
here; a new kind of URL parameter (a new `<id:...>` name) fails
`test_every_url_parameter_has_a_value` until World.ids says which object it names. The form
field names come from the pages themselves: every page is fetched once as the Imp and as
a player, and every `name="..."` in it is a key to fuzz (plus the query parameters the
views read, in QUERY_KEYS).

Each request goes to one endpoint as the character's owner, the Imp, another user or
nobody, by GET (hostile query parameters) or POST (hostile form values, sometimes a key
twice), with hostile values in the URL now and then. It must not answer 500 (the test
client raises the view's exception), and where it is refused (4xx) the ledgers (XP,
coins, gear and its transfers, Rolls) must be as they were.

Bounded for CI: one sweep of every endpoint (five requests each) plus 300 Hypothesis
examples, about 25 s of CPU per database (more wall time on a busy machine). Run it on
PostgreSQL with
DATABASE_URL=postgres://postgres@127.0.0.1:5432/<name> pytest tests/test_fuzz.py.
"""

from __future__ import annotations

import re
from itertools import cycle

from django.core.management import call_command
from django.db.models import Count, Sum
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from campaigns.models import Campaign, Invitation, Membership
from campaigns.systems.eldritch_gambit import initiative, roll_services
from campaigns.systems.eldritch_gambit.models import Combatant, Encounter
from campaigns.systems.eldritch_gambit.rolls import Roll
from campaigns.systems.encounters.models import SeedEncounter, SeedEncounterStep
from campaigns.systems.errant import fight as errant_fight
from campaigns.systems.errant.advancement_models import (
    ErrantAncestryUse,
    ErrantFameRoll,
    ErrantRenownPick,
    ErrantWaste,
)
from campaigns.systems.errant.company_models import (
    ErrantDebtEntry,
    ErrantFaction,
    ErrantReputationEntry,
)
from campaigns.systems.errant.fight_models import ErrantFight, ErrantFightStep
from campaigns.systems.errant.rolls import ErrantRoll
from campaigns.systems.mettle import initiative as mettle_initiative
from campaigns.systems.mettle import roll_services as mettle_rolls
from campaigns.systems.mettle.encounters import (
    MettleCombatant,
    MettleEncounter,
    MettleInitiativeStep,
)
from campaigns.systems.mettle.guide_models import (
    MettleFactionCheck,
    MettleNpc,
    MettleResourcesEntry,
)
from campaigns.systems.mettle.hazard_models import MettleHazard
from campaigns.systems.mettle.rolls import MettleRoll
from characters.models import CoinEntry, GearTransfer, InventoryItem, XpEntry
from characters.systems.eldritch_gambit.demo import ASPHODEL
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from characters.systems.errant.apps import KEY as ERRANT
from characters.systems.errant.models import (
    ErrantAdjutant,
    ErrantCharacter,
    ErrantItem,
    ErrantRosterSwap,
    ErrantTrade,
    ErrantTradeTraining,
    ErrantTraining,
    ErrantWound,
    ErrantWoundHeal,
    ErrantXpShare,
)
from characters.systems.mettle.apps import KEY as METTLE
from characters.systems.mettle.demo import VIKTOR
from characters.systems.mettle.demo import seed_demo as seed_mettle_demo
from characters.systems.mettle.ledgers import AttributeRaise, ContactEvent, MakeUp, VoucherEntry
from characters.systems.mettle.models import CreditEntry, MettleCharacter
from config.parsing import MAX_ID
from rules.engine.eldritch_gambit.checks import CheckSpec
from rules.models import GearItem, Trait
from tests.factories import CharacterFactory, QuestFactory, UserFactory

# Not fuzzed, with the reason. Everything else the URLconfs name is.
SKIPPED_NAMESPACES = {
    "admin": "Django's own admin, behind is_staff",
}
SKIPPED_ROUTES = {
    "characters:sheet_pdf": "renders a PDF (seconds a request); its one parameter, paper, "
                            "is the print page's, fuzzed there",
    "characters:blank_sheet_pdf": "a PDF, as above",
    "campaigns:party_pdf": "a PDF, as above",
}

# Query parameters the views read from request.GET (the pages' forms give the rest).
QUERY_KEYS = ("a", "b", "q", "category", "confirm", "seed", "page", "paper", "view", "next",
              "before", "gear",
              "system")

HOSTILE = [
    "", "-1", "0", "1", "²", "①", "٣", "1.5", " 7 ", "1e9", "9" * 4301, str(MAX_ID),
    str(2**63), str(2**64), "-" + str(2**63), "\x00", "key\x00", "k" * 65, "x" * 10_001,
    "<script>alert(1)</script>", "null", "stash", "n0", "n99", "1d6+99999999999",
    "1d1+" + "9" * 40, "vs", "%00",
]

# URL parameters that are not ids.
TEXT_PARAMS = ("code", "chapter", "slug", "key", "uidb64", "token", "kind")

# Values for a URL path: a real one or a hostile one.
HOSTILE_IDS = [0, MAX_ID, 2**63, 2**64, 10**30]


def walk(patterns=None, prefix="", namespace=""):
    """(name, route, parameter names) for every URL pattern, included ones too."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if entry.namespace and namespace \
                else entry.namespace or namespace
            yield from walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern) and entry.name:
            name = f"{namespace}:{entry.name}" if namespace else entry.name
            route = prefix + str(entry.pattern)
            params = tuple(re.findall(r"<(?:\w+:)?(\w+)>", route))
            yield name, route, params


def url_for(route: str, values: dict) -> str:
    """The route with its parameters filled in as given: unlike reverse(), also with a
    value its converter would refuse (an id beyond 2^63)."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def endpoints():
    return [(name, route, params) for name, route, params in walk()
            if name.split(":")[0] not in SKIPPED_NAMESPACES and name not in SKIPPED_ROUTES]


class World:
    """The demo campaign (`seed_demo`), plus what it lacks: a stranger with a character
    and homebrew of their own, the player's homebrew, a stash line, an invitation, a
    Check to Gambit on, a fight with a combatant."""

    def __init__(self):
        call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
        self.campaign = Campaign.objects.get(system="eldritch-gambit")
        self.imp = self.campaign.owner
        self.hero = EldritchGambitCharacter.objects.get(name=ASPHODEL["name"])
        # The METTLE Core demo's Viktor, of the same player: the character pages of a
        # second game system get the same sweep.
        seed_mettle_demo()
        self.viktor = MettleCharacter.objects.get(name=VIKTOR["name"])
        # The demo METTLE campaign (seed_demo): the Guide's screen and its NPC pools,
        # Resources ledger and Faction Checks.
        self.mettle_campaign = Campaign.objects.get(system=METTLE)
        self.mettle_entry = MettleResourcesEntry.objects.filter(
            faction__triangle__campaign=self.mettle_campaign).latest("pk").pk
        # Viktor's pages in his campaign: a Check to Twist, a line of gear, a fight.
        self.viktor = MettleCharacter.objects.get(pk=self.viktor.pk)
        self.mettle_check = mettle_rolls.make_check(
            character=self.viktor, by=self.viktor.owner,
            request=mettle_rolls.CheckRequest(label="Fuzz Check", attribute="concept",
                                              pool=5, difficulty=3))
        self.mettle_item = self.viktor.items.first().pk
        self.mettle_encounter = mettle_initiative.create(
            campaign=self.mettle_campaign, by=self.mettle_campaign.owner, name="Fuzz fight")
        mettle_initiative.add_characters(encounter_id=self.mettle_encounter.pk, version=None,
                                         characters=[self.viktor],
                                         by=self.mettle_campaign.owner)
        self.mettle_combatant = MettleCombatant.objects.get(encounter=self.mettle_encounter).pk
        # A hazard on the Guide's screen to undo (the demo's PCs are in its fight, which
        # the service refuses: a row as the service writes one).
        self.mettle_hazard = MettleHazard.objects.create(
            campaign=self.mettle_campaign, character=self.viktor,
            kind=MettleHazard.Kind.FALL, dice=[3], inputs={"zones": 1}, damage=3, soak=2,
            through=1, mettle_before=None, mettle_after=8, summary="Fuzz fall",
            created_by=self.mettle_campaign.owner)
        # The encounter rules' demo campaign and its encounter ready to run.
        self.seed_encounter = SeedEncounter.objects.get(campaign__system="encounters")
        self.owner = self.hero.owner
        # The Errant demo's Wren (seed_demo seeds every system's), of the second player.
        self.wren = ErrantCharacter.objects.get(name="Wren")
        # A fight under way in the Errant demo (the Initiative Turns pages).
        self.errant_fight = errant_fight.start(
            campaign=self.wren.campaign, by=self.wren.campaign.owner, name="Fuzz fight",
            character_pks=[self.wren.pk])
        # A lasting wound Wren carries, and one healed (the wound card's heal and undo).
        self.errant_wound = ErrantWound.objects.create(
            character=self.wren, campaign=self.wren.campaign, column="toxic", row=3,
            text="Blood tainted. Can't recover HP.", fight_name="Fuzz fight")
        self.errant_heal = ErrantWoundHeal.objects.create(
            wound=ErrantWound.objects.create(
                character=self.wren, campaign=self.wren.campaign, column="trauma", row=2,
                text="Leg mangled. Can't run.", fight_name="Fuzz fight"),
            how="beneficence", created_by=self.wren.campaign.owner)
        self.stranger = UserFactory()
        self.strangers_hero = CharacterFactory(owner=self.stranger)
        self.gear = GearItem.objects.create(owner=self.owner, name="Lucky spoon",
                                            slug="lucky-spoon", category="item", cost_cp=3)
        self.trait = Trait.objects.create(owner=self.owner, name="Gills", slug="gills",
                                          group="Gills", load=1)
        self.strangers_gear = GearItem.objects.create(
            owner=self.stranger, name="Vorpal spoon", slug="vorpal-spoon", category="item",
            cost_cp=1)
        self.stash_item = InventoryItem.objects.create(stash=self.campaign, name="Rope")
        self.invitation = Invitation.objects.create(campaign=self.campaign,
                                                    created_by=self.imp)
        self.check = roll_services.make_check(character=self.hero, by=self.owner,
                                              spec=CheckSpec(die=20, modifier=2, df=10),
                                              label="Fuzz Check")
        encounter = Encounter.objects.filter(campaign=self.campaign).first() \
            or initiative.create(campaign=self.campaign, by=self.imp, name="Fuzz fight")
        if not encounter.combatants.exists():
            initiative.add_characters(encounter_id=encounter.pk, version=None,
                                      characters=[self.hero], by=self.imp)
        self.encounter = encounter
        self.roles = {"owner": self.owner, "imp": self.imp, "stranger": self.stranger,
                      "anonymous": None, "errant_owner": self.wren.owner}

        session = self.campaign.sessions.order_by("-number").first()
        self.quest = QuestFactory(character=self.hero)
        self.base_ids = {
            "roll_pk": self.check.pk,
            # A METTLE raise bought in play (none in the demo: each is a 404, fuzzed all
            # the same).
            "raise_pk": 1,
            "number": session.number,
            "quest_pk": self.quest.pk,
            "invitation_pk": self.invitation.pk,
            "user_pk": Membership.objects.filter(campaign=self.campaign, role="player")
                                         .first().user_id,
            "character_pk": self.hero.pk,
            "encounter_pk": self.encounter.pk,
            "combatant_pk": Combatant.objects.filter(encounter=self.encounter).first().pk,
            "npc_pk": MettleNpc.objects.filter(campaign=self.mettle_campaign).first().pk,
            # Each METTLE campaign route gets its own (ids() below); here for the check.
            "hazard_pk": 0,
            # The Errant Company's own (errant_ids() below); here for the check.
            "faction_pk": 0, "pick_pk": 0, "use_pk": 0, "link_pk": 0, "training_pk": 0,
            "attempt_pk": 0, "fight_pk": 0, "kind": "end", "wound_pk": 0, "heal_pk": 0,
            "turn_pk": 0,  # the Errant Turn log's (errant_turn_pk() below)
            "check_pk": MettleFactionCheck.objects.filter(
                triangle__campaign=self.mettle_campaign).first().pk,
            "code": self.invitation.code,
            "chapter": "basics",
            "slug": "initiative",
            "key": "prone",
            # Django's password reset link (a made-up user and token: refused, not a 500).
            "uidb64": "MQ", "token": "set-password",
        }
        self.xp_entry = XpEntry.objects.filter(character=self.hero).latest("pk").pk
        self.coin_entry = CoinEntry.objects.filter(character=self.hero).latest("pk").pk
        self.item = self.hero.items.first().pk

    def ids(self, name: str) -> dict:
        """A real value for each URL parameter of the endpoint `name`."""
        if name.startswith("rules:"):
            pk = (self.trait if "trait" in name else self.gear).pk
        elif name.startswith("campaigns:"):
            pk = self.campaign.pk
        else:
            pk = self.hero.pk
        campaign_side = name.startswith("campaigns:")
        ids = {
            **self.base_ids, "pk": pk,
            "item_pk": self.stash_item.pk if campaign_side else self.item,
            "entry_pk": self.xp_entry if campaign_side else self.coin_entry,
        }
        if name.startswith("campaigns:mettle_"):  # the METTLE campaign's own pages
            ids.update(pk=self.mettle_campaign.pk, entry_pk=self.mettle_entry,
                       encounter_pk=self.mettle_encounter.pk,
                       combatant_pk=self.mettle_combatant, hazard_pk=self.mettle_hazard.pk)
        elif name.startswith("campaigns:encounters_"):  # the encounter tracker's pages
            ids.update(pk=self.seed_encounter.campaign_id,
                       encounter_pk=self.seed_encounter.pk)
        elif name.startswith("campaigns:errant_"):  # the demo Errant campaign's pages
            ids.update(self.errant_ids())
            ids.update(turn_pk=self.errant_turn_pk())  # the Turn log (issue 15)
        elif name.startswith("characters:mettle_"):  # a METTLE character's own pages
            ids.update(pk=self.viktor.pk, roll_pk=self.mettle_check.pk,
                       item_pk=self.mettle_item)
        return ids

    def errant_ids(self) -> dict:
        """The demo Errant campaign (The Drowned Abbey): its Company's rows."""
        from campaigns.systems.errant.advancement_models import ErrantRenownPick
        from campaigns.systems.errant.company_models import ErrantDebtEntry, ErrantFaction

        campaign = Campaign.objects.get(system="errant")
        ash = ErrantRenownPick.objects.filter(character__campaign=campaign).first()
        return {"pk": campaign.pk, "character_pk": ash.character_id, "pick_pk": ash.pk,
                # The demo's first Faction (the sweep may add more with a name it sends).
                "faction_pk": ErrantFaction.objects.filter(
                    company__campaign=campaign).order_by("pk").first().pk,
                "entry_pk": ErrantDebtEntry.objects.filter(
                    company__campaign=campaign).first().pk,
                "use_pk": 0, "link_pk": 0, "training_pk": 0, "attempt_pk": 0,
                "fight_pk": self.errant_fight.pk,
                "wound_pk": self.errant_wound.pk, "heal_pk": self.errant_heal.pk}

    def other_ids(self) -> list:
        """Ids that exist but are someone else's."""
        return [self.strangers_hero.pk, self.strangers_gear.pk]

    def errant_turn_pk(self) -> int:
        """The demo Errant Company's newest Turn (demo.seed_travel_day)."""
        from campaigns.systems.errant.turn_models import ErrantTurn

        return ErrantTurn.objects.filter(company__campaign__system="errant").order_by(
            "-number").values_list("pk", flat=True).first() or 0


def _errant_turns() -> list:
    """The Errant Turn log (issue 15): Turns, undone Turns, changes."""
    from campaigns.systems.errant.turn_models import ErrantTurn, ErrantTurnChange

    return [ErrantTurn.objects.count(), ErrantTurn.objects.filter(undone_at__isnull=False)
            .count(), ErrantTurnChange.objects.count()]


def ledgers() -> dict:
    """Counts and sums of everything that matters: a refused request changes none."""
    return {
        "xp": XpEntry.objects.aggregate(n=Count("pk"), xp=Sum("xp_change"),
                                        levels=Sum("level_change")),
        "coins": CoinEntry.objects.aggregate(n=Count("pk"), cp=Sum("amount_cp")),
        "transfers": GearTransfer.objects.aggregate(n=Count("pk")),
        "items": InventoryItem.objects.aggregate(n=Count("pk"), quantity=Sum("quantity")),
        "rolls": Roll.objects.aggregate(n=Count("pk")),
        "npcs": MettleNpc.objects.aggregate(n=Count("pk"), dice=Sum("pool")),
        "resources": MettleResourcesEntry.objects.aggregate(n=Count("pk"), sum=Sum("change")),
        "faction_checks": MettleFactionCheck.objects.aggregate(n=Count("pk")),
        "mettle": [model.objects.count() for model in (AttributeRaise, VoucherEntry,
                                                       ContactEvent, MakeUp, MettleRoll,
                                                       MettleInitiativeStep, CreditEntry,
                                                       MettleHazard)],
        "hazards_undone": MettleHazard.objects.filter(undone_at__isnull=False).count(),
        "mettle_fights": MettleEncounter.objects.aggregate(n=Count("pk"),
                                                           version=Sum("version")),
        "seed_encounters": SeedEncounter.objects.aggregate(n=Count("pk"),
                                                           version=Sum("version")),
        "seed_encounter_steps": SeedEncounterStep.objects.filter(
            undone_at__isnull=True).count(),
        "errant_fights": [ErrantFight.objects.aggregate(n=Count("pk"), version=Sum("version")),
                          ErrantFightStep.objects.filter(undone_at__isnull=True).count()],
        "errant": [model.objects.count() for model in (
            ErrantWaste, ErrantRenownPick, ErrantFameRoll, ErrantAncestryUse, ErrantRoll,
            ErrantItem, ErrantTrade, ErrantDebtEntry, ErrantReputationEntry, ErrantFaction,
            ErrantAdjutant, ErrantRosterSwap, ErrantTraining, ErrantXpShare,
            ErrantTradeTraining)],
        "errant_turns": _errant_turns(),
    }


class FuzzTests(TestCase):
    """Every endpoint, every role, hostile values; on the database DATABASE_URL names."""

    @classmethod
    def setUpTestData(cls):
        cls.world = World()
        cls.endpoints = endpoints()
        cls.names = cls._field_names()

    @classmethod
    def _field_names(cls) -> list[str]:
        """Every form field name on every page, as the Imp, the owner and the Errant's
        player see them."""
        from django.test import Client

        found = set(QUERY_KEYS) | {"request_key", "gambit_key"}
        for role in ("imp", "owner", "errant_owner"):
            client = Client()
            client.force_login(cls.world.roles[role])
            mettle_pages = [reverse("characters:edit", args=[cls.world.viktor.pk]),
                            f"{reverse('characters:create')}?system={METTLE}",
                            f"{reverse('characters:create')}?system={ERRANT}",
                            reverse("characters:detail", args=[cls.world.wren.pk]),
                            reverse("characters:edit", args=[cls.world.wren.pk])]
            urls = [url_for(route, cls.world.ids(name)) for name, route, _ in cls.endpoints]
            for url in urls + mettle_pages:
                response = client.get(url)
                if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                    found |= set(re.findall(r'name="([^"]+)"', response.content.decode()))
        return sorted(found)

    def request(self, name, route, *, role, method, data, path_ids=None, htmx=False):
        url = url_for(route, {**self.world.ids(name), **(path_ids or {})})
        user = self.world.roles[role]
        if user is None:
            self.client.logout()
        else:
            self.client.force_login(user)
        before = ledgers()
        headers = {"HX-Request": "true"} if htmx else {}
        if method == "GET":
            response = self.client.get(url, data, headers=headers)
        else:
            response = self.client.post(url, data, headers=headers)
        where = f"{method} {url} as {role} with {data!r}"[:2000]
        self.assertNotEqual(response.status_code, 500, where)
        if response.status_code >= 400:
            self.assertEqual(ledgers(), before, f"refused ({response.status_code}) yet "
                                                f"written: {where}")
        return response

    def test_every_url_parameter_has_a_value(self):
        """A new URL parameter must be given a real object here to be fuzzed."""
        known = set(self.world.ids("characters:detail"))
        missing = {(name, param) for name, _, params in self.endpoints for param in params
                   if param not in known}
        self.assertEqual(missing, set())
        self.assertGreater(len(self.endpoints), 80)  # the walk found the apps' URLconfs
        self.assertIn("request_key", self.names)
        self.assertIn("rolloff-attacker", self.names)  # the pages' own forms were read

    def test_every_endpoint_with_every_field_hostile(self):
        """A sweep: each endpoint once per role and method, every known field set to a
        hostile value (a different one for each field), a key sent twice."""
        values = cycle(HOSTILE + [str(pk) for pk in self.world.other_ids()])
        for name, route, _ in self.endpoints:
            for role, method in (("owner", "POST"), ("imp", "POST"), ("stranger", "POST"),
                                 ("anonymous", "POST"), ("owner", "GET")):
                data = {key: next(values) for key in self.names}
                if method == "POST":
                    data["request_key"] = [next(values), next(values)]
                else:
                    data = {key: data[key] for key in QUERY_KEYS}
                self.request(name, route, role=role, method=method, data=data,
                             htmx=role == "imp")

    def test_every_character_page_of_a_mettle_character_hostile(self):
        """The same sweep over the character pages with a METTLE Core character (the
        demo's Viktor) in the URL, and a new character of that system."""
        values = cycle(HOSTILE + [str(pk) for pk in self.world.other_ids()])
        self.assertIn("weapon_1_concept", self.names)  # the METTLE builder was read
        for name, route, params in self.endpoints:
            if not name.startswith("characters:"):
                continue
            for role, method in (("owner", "POST"), ("stranger", "POST"), ("owner", "GET")):
                data = {key: next(values) for key in self.names}
                data["system"] = METTLE
                if method == "GET":
                    data = {key: data[key] for key in QUERY_KEYS}
                path_ids = {"pk": self.world.viktor.pk} if "pk" in params else {}
                self.request(name, route, role=role, method=method, data=data,
                             path_ids=path_ids, htmx=method == "POST")

    def test_every_character_page_of_an_errant_hostile(self):
        """The same sweep with an Errant (the demo's Wren) in the URL, as her player, a
        stranger and her player reading, and a new Errant."""
        values = cycle(HOSTILE + [str(pk) for pk in self.world.other_ids()])
        self.assertIn("dice_phys", self.names)  # the Errant builder was read
        self.assertIn("item_3_location", self.names)  # ... and its item rows and moves
        self.assertIn("index", self.names)
        for name, route, params in self.endpoints:
            if not name.startswith("characters:"):
                continue
            for role, method in (("errant_owner", "POST"), ("stranger", "POST"),
                                 ("errant_owner", "GET")):
                data = {key: next(values) for key in self.names}
                data["system"] = ERRANT
                if method == "GET":
                    data = {key: data[key] for key in QUERY_KEYS}
                path_ids = {"pk": self.world.wren.pk} if "pk" in params else {}
                self.request(name, route, role=role, method=method, data=data,
                             path_ids=path_ids, htmx=method == "POST")

    def test_ids_beyond_the_database_are_not_found(self):
        """Every id in every URL, beyond 2^63 - 1: a 404 on every database (SQLite used
        to overflow)."""
        self.client.force_login(self.world.imp)
        for name, route, params in self.endpoints:
            for param in params:
                if param in TEXT_PARAMS:
                    continue
                for value in (2**63, 2**64):
                    url = url_for(route, {**self.world.ids(name), param: value})
                    response = self.client.post(url)
                    self.assertEqual(response.status_code, 404, url)

    @settings(max_examples=300, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def test_random_hostile_requests(self, data):
        name, route, params = data.draw(st.sampled_from(self.endpoints), label="endpoint")
        role = data.draw(st.sampled_from(sorted(self.world.roles)), label="role")
        method = data.draw(st.sampled_from(["GET", "POST"]), label="method")
        value = st.one_of(st.sampled_from(HOSTILE),
                          st.sampled_from([str(pk) for pk in self.world.other_ids()]),
                          st.integers(min_value=-2**70, max_value=2**70).map(str),
                          st.text(max_size=80))
        keys = st.sampled_from(list(QUERY_KEYS) if method == "GET" else self.names)
        fields = data.draw(st.dictionaries(keys, st.one_of(value, st.lists(value, max_size=3)),
                                           max_size=12), label="fields")
        path_ids = {}
        if params and data.draw(st.booleans(), label="hostile path"):
            param = data.draw(st.sampled_from(params), label="param")
            if param not in TEXT_PARAMS:
                path_ids[param] = data.draw(
                    st.sampled_from(HOSTILE_IDS + self.world.other_ids()), label="id")
        self.request(name, route, role=role, method=method, data=fields, path_ids=path_ids,
                     htmx=data.draw(st.booleans(), label="htmx"))
