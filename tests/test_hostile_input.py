"""The hostile inputs of "Night one at a real table", one by one: each gets a clear
refusal (a message beside the field, or a 400 or 404 page), never a server error, and
nothing is written. tests/test_fuzz.py throws the same kinds of value at every endpoint;
these pin what each answer is. Ids are read by config.parsing (tested first)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, Session
from campaigns.systems.eldritch_gambit import initiative
from campaigns.systems.eldritch_gambit.models import Combatant
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.models import CoinEntry, GearTransfer, InventoryItem, XpEntry
from config.parsing import MAX_ID, IdConverter, IdField, parse_id
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    InventoryItemFactory,
    MembershipFactory,
)

pytestmark = pytest.mark.django_db

# "²" and "①" pass str.isdigit() and break int(); "٣" is an Arabic-Indic 3 int() reads;
# 4,301 digits is past int()'s limit; 2^63 and up overflow SQLite's integer.
NOT_IDS = ["²", "①", "٣", "9" * 4301, str(2**63), str(2**64), "-1", " 1", "1.0", "", "\x00"]
CHECK = {"action": "attack-melee", "attribute": "dex", "ocs": "on", "bonus": "0",
         "penalty": "0", "difficulty": "10", "df_other": ""}
OVERLONG_KEY = "k" * 65


# -- the one id parser ----------------------------------------------------------------


@pytest.mark.parametrize("value", NOT_IDS)
def test_parse_id_refuses_what_is_not_an_id(value):
    assert parse_id(value) is None


@pytest.mark.parametrize(("value", "number"), [
    ("0", 0), ("7", 7), ("007", 7), (str(MAX_ID), MAX_ID), (12, 12), (MAX_ID, MAX_ID)])
def test_parse_id_reads_ascii_digits_up_to_the_64_bit_range(value, number):
    assert parse_id(value) == number


def test_parse_id_has_an_upper_bound_for_small_numbers():
    assert parse_id("50", high=49) is None and parse_id("49", high=49) == 49
    assert parse_id(2**63) is None and parse_id(-1) is None and parse_id(True) is None


@pytest.mark.parametrize("value", [v for v in NOT_IDS if v.strip() not in ("", "1")])
def test_an_id_field_names_what_is_not_an_id(value):
    field = IdField()
    with pytest.raises(ValidationError) as error:
        field.clean(value)
    assert error.value.code == "invalid"
    assert error.value.messages == ["Choose one from the list."]


def test_an_id_field_reads_an_id():
    assert IdField().clean("42") == 42
    assert IdField(required=False).clean("") is None


def test_the_url_converter_matches_only_ids_the_database_can_hold():
    converter = IdConverter()
    assert converter.to_python(str(MAX_ID)) == MAX_ID
    with pytest.raises(ValueError):
        converter.to_python(str(MAX_ID + 1))  # 19 digits, past the range: no match
    assert converter.to_url(42) == "42"


# -- the table ---------------------------------------------------------------------------


@pytest.fixture
def table():
    campaign = CampaignFactory()
    imp = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    friend = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                              campaign=campaign)
    spear = GearItem.objects.srd().get(name="Spear")
    InventoryItemFactory(character=hero, name="Spear", kind="weapon", catalog_item=spear)
    rope = InventoryItemFactory(character=hero, name="Rope")
    stashed = InventoryItem.objects.create(stash=campaign, name="Lantern")
    services.session_start(campaign=campaign, by=imp)
    encounter = initiative.create(campaign=campaign, by=imp, name="Ambush")
    return {"campaign": campaign, "imp": imp, "player": player, "hero": hero,
            "friend": friend, "rope": rope, "stashed": stashed, "encounter": encounter}


def ledgers():
    return (XpEntry.objects.count(), CoinEntry.objects.count(), GearTransfer.objects.count(),
            Roll.objects.count(), Campaign.objects.count(), Session.objects.count(),
            Combatant.objects.count(),
            sorted(InventoryItem.objects.values_list("pk", "character_id", "stash_id",
                                                     "container_id", "quantity")))


# -- request keys: a forged one is a 400 before it reaches the database -------------------


def key_posts(table):
    """(user, url, data) for each form that carries an idempotency key."""
    hero, campaign = table["hero"], table["campaign"]
    check = Roll.objects.filter(kind="check").first()
    rally = Roll.objects.filter(kind="rally").first()
    return {
        "campaign create": (table["imp"], reverse("campaigns:create"), {
            "name": "Keys", "starting_level": "10", "default_highlight_rounds": "3"}),
        "session create": (table["imp"], reverse("campaigns:sessions", args=[campaign.pk]), {
            "date": "2026-11-23", "highlight_rounds": "3"}),
        "check": (table["player"], reverse("characters:check", args=[hero.pk]), CHECK),
        "roll": (table["player"], reverse("characters:roll", args=[hero.pk]),
                 {"what": "rally"}),
        "reroll": (table["player"], reverse("characters:reroll", args=[hero.pk, rally.pk]),
                   {}),
        "gambit": (table["player"], reverse("characters:gambit", args=[hero.pk, check.pk]),
                   CHECK),
    }


@pytest.mark.parametrize("where", ["campaign create", "session create", "check", "roll",
                                   "reroll", "gambit"])
@pytest.mark.parametrize("key", [OVERLONG_KEY, "key\x00"])
def test_a_forged_request_key_is_a_400_and_writes_nothing(client, table, where, key):
    client.force_login(table["player"])
    client.post(reverse("characters:check", args=[table["hero"].pk]), CHECK)
    client.post(reverse("characters:roll", args=[table["hero"].pk]), {"what": "rally"})
    user, url, data = key_posts(table)[where]
    client.force_login(user)
    name = "gambit_key" if where == "gambit" else "request_key"
    before = ledgers()
    response = client.post(url, {**data, name: key})
    assert response.status_code == 400
    assert ledgers() == before


def test_the_400_page_says_nothing_was_saved(client, table):
    client.force_login(table["player"])
    response = client.post(reverse("characters:roll", args=[table["hero"].pk]),
                           {"what": "rally", "request_key": OVERLONG_KEY})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Bad request (400)" in text and "nothing was saved" in text


def test_a_key_of_64_characters_is_still_a_key(client, table):
    client.force_login(table["player"])
    url = reverse("characters:roll", args=[table["hero"].pk])
    client.post(url, {"what": "rally", "request_key": "k" * 64})
    client.post(url, {"what": "rally", "request_key": "k" * 64})  # the same request again
    assert Roll.objects.filter(request_key="k" * 64).count() == 1


# -- NUL bytes -------------------------------------------------------------------------


def test_a_nul_in_the_inventory_search_is_a_400(client, table):
    client.force_login(table["player"])
    hero = table["hero"]
    response = client.get(reverse("characters:inventory", args=[hero.pk]), {"q": "ro\x00pe"})
    assert response.status_code == 400
    response = client.get(reverse("characters:inventory_catalog", args=[hero.pk]),
                          {"q": "\x00"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400


def test_a_nul_in_a_join_code_is_not_found(client, table):
    client.force_login(table["player"])
    assert client.get("/campaigns/join/abc%00def/").status_code == 404
    assert client.post("/campaigns/join/%00/").status_code == 404


def test_a_nul_in_a_skill_is_named_beside_the_skills(client, table):
    client.force_login(table["player"])
    hero = table["hero"]
    response = client.post(reverse("characters:preview", args=[hero.pk]), {
        "name": hero.name, "skills": ["Bake\x00pies"], "str": "3"})
    assert response.status_code == 200
    assert "A Skill cannot contain a NUL character." in response.content.decode()


# -- the Roll-off's two sides fit the log --------------------------------------------------


@pytest.mark.parametrize(("attacker", "message"), [
    ("1d8+" + "1+" * 30 + "1", "Ensure this value has at most 48 characters"),
    ("1d1+99999999999", "totals more than 2,147,483,647"),
])
def test_a_roll_off_too_long_or_too_large_is_named_beside_it(client, table, attacker,
                                                             message):
    client.force_login(table["player"])
    response = client.post(reverse("characters:roll", args=[table["hero"].pk]), {
        "what": "rolloff", "rolloff-label": "Clash", "rolloff-side": "attacker",
        "rolloff-attacker": attacker, "rolloff-defender": "1d6"},
        HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert response.status_code == 200
    assert message in text[text.index('id="errors-rolloff-attacker"'):][:600]
    assert attacker in text  # what was typed is kept
    assert not Roll.objects.exists()


def test_the_longest_roll_off_fits_the_log(client, table):
    client.force_login(table["player"])
    side = "1+" * 22 + "1d10"
    assert len(side) == 48
    client.post(reverse("characters:roll", args=[table["hero"].pk]), {
        "what": "rolloff", "rolloff-label": "Clash", "rolloff-side": "attacker",
        "rolloff-attacker": side, "rolloff-defender": side})
    assert Roll.objects.get(kind="rolloff").expression == f"{side} vs {side}"


# -- not ids where ids belong ----------------------------------------------------------------


@pytest.mark.parametrize("value", NOT_IDS[:6])
def test_not_an_id_in_query_and_form_values(client, table, value):
    """Each place that read an id with isdigit() then int(): a 404, a message or the
    value ignored, and nothing written."""
    hero, campaign, rope = table["hero"], table["campaign"], table["rope"]
    encounter = table["encounter"]
    session = campaign.sessions.get()
    client.force_login(table["player"])
    before = ledgers()
    assert client.get(reverse("characters:compare"), {"a": value}).status_code == 404
    assert client.get(session.get_absolute_url(), {"confirm": value}).status_code == 200
    assert client.get(reverse("campaigns:character", args=[campaign.pk, hero.pk]),
                      {"confirm": value}).status_code == 200
    assert client.post(reverse("characters:create"), {
        "system": "eldritch-gambit", "action": "roll_attributes", "seed": value,
    }).status_code == 200
    assert client.post(reverse("characters:preview", args=[hero.pk]),
                       {"armor": value, "shield": value}).status_code == 200
    response = client.post(reverse("characters:inventory_add", args=[hero.pk]),
                           {"add-add": value, "add": value, "add-quantity": "1"})
    assert "Choose an item from the catalog" in response.content.decode()
    response = client.post(reverse("characters:item_move", args=[hero.pk, rope.pk]),
                           {"container": value})
    assert response.status_code in (200, 400)
    response = client.post(reverse("characters:item_give", args=[hero.pk, rope.pk]),
                           {"to": value, "quantity": "1"})
    assert response.status_code in (200, 400)
    response = client.post(reverse("campaigns:stash_take",
                                   args=[campaign.pk, table["stashed"].pk]),
                           {"to": value, "quantity": "1"})
    assert response.status_code in (200, 400)
    assert client.post(reverse("characters:roll", args=[hero.pk]),
                       {"what": "damage", "weapon": value}).status_code == 404
    assert client.post(reverse("characters:roll", args=[hero.pk]),
                       {"what": "damage", "weapon": "n" + value}).status_code == 404
    template = reverse("characters:template", args=[hero.pk])
    assert client.post(template, {"action": "add_trait", "traits-TOTAL_FORMS": value,
                                  "traits-INITIAL_FORMS": "0"}).status_code == 200
    assert client.post(template, {"template_name": "Human", "traits-TOTAL_FORMS": "1",
                                  "traits-INITIAL_FORMS": "0",
                                  "traits-0-trait": value}).status_code == 200
    client.force_login(table["imp"])
    client.post(reverse("campaigns:initiative_party", args=[campaign.pk, encounter.pk]),
                {"character": [value]})
    for ritual in ("turn", "absence", "invest"):  # a ritual form's hidden character
        response = client.post(reverse(f"campaigns:{ritual}",
                                       args=[campaign.pk, session.number]),
                               {"character": value, "action": "pass", "absent": "1"})
        assert response.status_code == 400
    assert ledgers() == before
    assert not Combatant.objects.exists()  # a character list of only non-ids adds nobody


def test_a_unicode_or_huge_id_is_named_beside_give_and_take(client, table):
    hero, rope = table["hero"], table["rope"]
    client.force_login(table["player"])
    for value in ("①", str(2**64)):
        response = client.post(reverse("characters:item_give", args=[hero.pk, rope.pk]),
                               {"to": value, "quantity": "1"}, follow=True)
        assert "Choose a character of the party or the party stash." in \
            response.content.decode()


@pytest.mark.parametrize("name", ["campaigns:detail", "campaigns:members",
                                  "campaigns:party_print", "characters:detail",
                                  "characters:preview"])
@pytest.mark.parametrize("pk", [MAX_ID, 2**63, 2**64, 10**40])
def test_ids_beyond_the_database_are_not_found(client, table, name, pk):
    """MAX_ID is an id nothing has; one past it used to overflow SQLite."""
    client.force_login(table["imp"])
    url = reverse(name, args=[1]).replace("/1/", f"/{pk}/")
    send = client.post if name == "characters:preview" else client.get
    assert send(url).status_code == 404
