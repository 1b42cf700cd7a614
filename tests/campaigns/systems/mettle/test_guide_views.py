"""The Guide's screen of a METTLE campaign (guide_views.py; next-games.md §1.8, §1.10):
every view's permissions (anonymous, a stranger, a player who owns a character, the Guide,
a co-Guide; another system's campaign), the screen's computed numbers, and hostile input
answered beside the field with what was typed kept, never a 500."""

import random

import pytest
from django.urls import reverse

from campaigns.systems.mettle import guide
from campaigns.systems.mettle.guide_models import MettleFactionCheck, MettleNpc
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.models import MettleCharacter
from tests.factories import (
    CampaignFactory,
    CoImpMembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def triangle(campaign, gm):
    return guide.triangle_roll(campaign=campaign, by=gm, rng=random.Random(3))


@pytest.fixture
def npc(campaign, gm):
    return guide.npc_create(campaign=campaign, by=gm, name="Thug", pool=3)


class Threes(random.Random):
    def randint(self, a, b):
        return 3


def url(campaign, name, *args):
    return reverse(f"campaigns:mettle_{name}", args=[campaign.pk, *args])


def every_url(campaign, npc, triangle):
    entry = triangle.factions.get(role="rival").resources_entries.get()
    check = guide.faction_check_make(campaign=campaign, by=campaign.owner, actor="rival",
                                     target="backer", rng=random.Random(1))
    gets = [url(campaign, "guide"), url(campaign, "npc_edit", npc.pk)]
    posts = [url(campaign, "npc_add"), url(campaign, "npc_edit", npc.pk),
             url(campaign, "npc_delete", npc.pk), url(campaign, "factions_roll"),
             url(campaign, "faction_name"), url(campaign, "resources_change"),
             url(campaign, "resources_undo", entry.pk), url(campaign, "faction_check"),
             url(campaign, "faction_twist", check.pk), url(campaign, "faction_turn")]
    return gets, posts


def test_permissions_every_view(client, campaign, gm, player, npc, triangle):
    gets, posts = every_url(campaign, npc, triangle)
    for path in gets:
        response = client.get(path)
        assert response.status_code == 302 and "/login" in response.url
    for path in posts:
        response = client.post(path)
        assert response.status_code == 302 and "/login" in response.url
    client.force_login(UserFactory())  # a stranger: as if the page did not exist
    assert {client.get(p).status_code for p in gets} == {404}
    assert {client.post(p).status_code for p in posts} == {404}
    client.force_login(player)  # a player who owns a character of the campaign
    assert {client.get(p).status_code for p in gets} == {403}
    assert {client.post(p).status_code for p in posts} == {403}
    assert MettleNpc.objects.filter(pk=npc.pk).exists()
    client.force_login(gm)
    assert {client.get(p).status_code for p in gets} == {200}
    co_guide = CoImpMembershipFactory(campaign=campaign).user
    client.force_login(co_guide)
    assert {client.get(p).status_code for p in gets} == {200}


def test_another_systems_campaign_has_no_guide_screen(client):
    other = CampaignFactory()  # Eldritch Gambit
    client.force_login(other.owner)
    assert client.get(reverse("campaigns:mettle_guide", args=[other.pk])).status_code == 404
    assert client.post(reverse("campaigns:mettle_npc_add", args=[other.pk]),
                       {"name": "X", "pool": "3"}).status_code == 404


def test_the_campaign_page_links_the_screen(client, campaign, gm, player):
    """The Guide sees the link; a player, whom the screen refuses, is not offered it (both
    see the Initiative tracker's: its players' live view is theirs)."""
    initiative = reverse("campaigns:mettle_initiative_list", args=[campaign.pk])
    client.force_login(gm)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert url(campaign, "guide") in page and "Guide&#x27;s screen" in page
    assert initiative in page
    client.force_login(player)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert url(campaign, "guide") not in page and "Guide&#x27;s screen" not in page
    assert initiative in page


def test_screen_shows_tables_party_and_computed_numbers(client, campaign, gm, player):
    guide.npc_create(campaign=campaign, by=gm, name="Horse", pool=4,
                     higher_attribute="frame", higher_pool=7, armour="Medium (Chain)")
    client.force_login(gm)
    response = client.get(url(campaign, "guide"))
    page = response.content.decode()
    for text in ("Formidable", "10-14", "Legendary", "Parley", "NATURE vs MOTIVE",
                 "Horse 4D (FRAME 7)", "Roll the Faction triangle", "Imperil"):
        assert text in page
    # Viktor: Mettle MOTIVE 4 + highest 5 = 9, Soak FRAME 3, Credit 2 (his sheet's).
    row = page[page.index('id="party-glance"'):page.index("</table>", page.index("party-glance"))]
    assert "Viktor" in row and ">9/9<" in row and 'data-stat="soak">3<' in row
    assert 'data-stat="credit">2' in row
    npc_row = page[page.index('id="npc-pools"'):]
    assert 'data-stat="soak">9' in npc_row  # FRAME 7 + Chain 2
    assert "<td data-statuses>—</td>" in row


def test_the_party_shows_each_characters_statuses(client, campaign, gm, player):
    """Issue #13: a Staggered character (Mettle -2) shows Staggered with its effect, not
    Fallen; another at Mettle 0 shows Fallen."""
    viktor = campaign.characters.get()
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=-2,
                                                        statuses=["staggered", "blinded"])
    client.force_login(gm)
    page = client.get(url(campaign, "guide")).content.decode()
    row = page[page.index('id="party-glance"'):page.index("</table>", page.index("party-glance"))]
    assert 'data-status="staggered" title="No Free Move' in row
    assert 'data-status="blinded"' in row and 'data-status="fallen"' not in row
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=0, statuses=[])
    page = client.get(url(campaign, "guide")).content.decode()
    assert 'data-status="fallen"' in page and 'data-status="staggered"' not in page


def test_guide_adds_edits_and_deletes_an_npc(client, campaign, gm):
    client.force_login(gm)
    response = client.post(url(campaign, "npc_add"), {
        "name": "Hostile Village Elder", "pool": "5", "higher_attribute": "",
        "higher_pool": "", "armour": "", "notes": "Knows the well", "request_key": "n1"})
    assert response.status_code == 302 and response.url.endswith("#npcs")
    client.post(url(campaign, "npc_add"), {"name": "Hostile Village Elder", "pool": "5",
                                           "request_key": "n1"})  # a double click
    npc = MettleNpc.objects.get()
    assert npc.notes == "Knows the well"
    page = client.get(url(campaign, "guide")).content.decode()
    assert "Hostile Village Elder 5D" in page
    response = client.post(url(campaign, "npc_edit", npc.pk), {"name": "Elder", "pool": "6"})
    assert response.status_code == 302
    npc.refresh_from_db()
    assert (npc.name, npc.pool) == ("Elder", 6)
    assert client.post(url(campaign, "npc_delete", npc.pk)).status_code == 302
    assert not MettleNpc.objects.exists()
    assert client.post(url(campaign, "npc_delete", npc.pk)).status_code == 404


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"name": "", "pool": "3"}, "name", "This field is required."),
    ({"name": "Thug", "pool": "lots"}, "pool", "Enter a whole number of dice."),
    ({"name": "Thug", "pool": "9" * 40}, "pool", "At most 60 dice."),
    ({"name": "Thug", "pool": "-3"}, "pool", "At least 1 die."),
    ({"name": "Thug", "pool": "3", "higher_attribute": "luck", "higher_pool": "5"},
     "higher_attribute", "Select a valid choice."),
    ({"name": "Thug", "pool": "3", "higher_attribute": "frame"}, "higher_pool",
     "Give both the higher Attribute and its pool, or neither."),
    ({"name": "Thug", "pool": "3", "higher_attribute": "frame", "higher_pool": "2"},
     "higher_pool", "The noted Attribute is higher than the pool (3D), at most 60."),
    ({"name": "Thug", "pool": "3", "armour": "Mithril"}, "armour", "Select a valid choice."),
    ({"name": "x" * 500, "pool": "3"}, "name", "at most 120 characters"),
])
def test_npc_form_errors_beside_the_field_keep_the_input(client, campaign, gm, data, field,
                                                         message):
    client.force_login(gm)
    response = client.post(url(campaign, "npc_add"), data)
    assert response.status_code == 400
    page = response.content.decode()
    slot = page[page.index(f'id="errors-{field}"'):]
    assert message in slot[:slot.index("</div></div>") + 12]
    assert f'value="{data["name"]}"' in page  # what was typed is kept
    assert not MettleNpc.objects.exists()


def test_forged_request_key_is_a_400(client, campaign, gm):
    client.force_login(gm)
    response = client.post(url(campaign, "npc_add"), {"name": "X", "pool": "2",
                                                      "request_key": "k" * 500})
    assert response.status_code == 400 and not MettleNpc.objects.exists()


def test_bad_ids_are_404(client, campaign, gm, triangle):
    client.force_login(gm)
    other = CampaignFactory(system=KEY, owner=gm)
    elsewhere = guide.npc_create(campaign=other, by=gm, name="Elsewhere", pool=2)
    assert client.get(url(campaign, "npc_edit", elsewhere.pk)).status_code == 404
    for path in (f"/campaigns/{campaign.pk}/guide/npcs/{'9' * 30}/",
                 f"/campaigns/{campaign.pk}/guide/npcs/-1/",
                 f"/campaigns/{campaign.pk}/guide/factions/check/abc/twist/"):
        assert client.get(path).status_code == 404
        assert client.post(path).status_code == 404
    assert client.post(url(campaign, "resources_undo", 10**15)).status_code == 404
    assert client.post(url(campaign, "faction_twist", 10**15)).status_code == 404


def test_guide_rolls_the_triangle_and_plays_it(client, campaign, gm, monkeypatch):
    monkeypatch.setattr(guide, "RNG", random.Random(11))
    client.force_login(gm)
    response = client.post(url(campaign, "factions_roll"))
    assert response.status_code == 302 and response.url.endswith("#factions")
    client.post(url(campaign, "factions_roll"))  # a second click: still one triangle
    triangle = campaign.mettle_triangle
    resources = guide.resources_of(triangle)
    assert resources["rival"] == min(resources.values())
    assert all(4 <= value <= 9 for value in resources.values())
    page = client.get(url(campaign, "guide")).content.decode()
    for role, value in resources.items():
        card = page[page.index(f'data-faction="{role}"'):]
        assert f'data-stat="resources">{value}<' in card[:600]
    assert "Exact odds now" in page and page.count("<td>") >= 6 * 4
    # A Faction Check, its Twist when allowed, the next turn.
    response = client.post(url(campaign, "faction_check"), {
        "check-actor": "villain", "check-target": "rival", "check-request_key": "c1"})
    assert response.status_code == 302 and response.url.endswith("#factions")
    check = MettleFactionCheck.objects.get()
    assert len(check.faces) == resources["villain"] and check.difficulty == resources["rival"]
    assert client.post(url(campaign, "faction_turn"), {"turn": "1"}).status_code == 302
    triangle.refresh_from_db()
    assert triangle.turn == 2
    # Rename, change Resources, undo.
    client.post(url(campaign, "faction_name"), {"name-role": "villain",
                                                "name-name": "Doctor Nocturne"})
    client.post(url(campaign, "resources_change"), {
        "res-role": "backer", "res-change": "-1", "res-note": "Lost the airship",
        "res-request_key": "r1"})
    assert guide.resources_of(triangle)["backer"] == resources["backer"] - 1
    entry = triangle.factions.get(role="backer").resources_entries.get(kind="adjustment")
    assert client.post(url(campaign, "resources_undo", entry.pk)).status_code == 302
    assert guide.resources_of(triangle)["backer"] == resources["backer"]
    page = client.get(url(campaign, "guide")).content.decode()
    assert "Doctor Nocturne" in page and "Lost the airship" in page


@pytest.mark.parametrize(("data", "form", "field", "message"), [
    ({"check-actor": "rival", "check-target": "rival"}, "check", "target",
     "A Faction Checks against another Faction."),
    ({"check-actor": "dragon", "check-target": "rival"}, "check", "actor",
     "Select a valid choice."),
    ({"res-role": "backer", "res-change": "lots"}, "res", "change",
     "Enter a whole number, like -1."),
    ({"res-role": "backer", "res-change": "9" * 50}, "res", "change", "less than or equal"),
    ({"res-role": "rival", "res-change": "-59"}, "res", "change", "Resources stay between"),
    ({"name-role": "rival", "name-name": ""}, "name", "name", "This field is required."),
])
def test_faction_forms_refuse_beside_the_field(client, campaign, gm, triangle, data, form,
                                               field, message):
    client.force_login(gm)
    path = {"check": "faction_check", "res": "resources_change", "name": "faction_name"}[form]
    response = client.post(url(campaign, path), data)
    assert response.status_code == 400
    page = response.content.decode()
    slot = page[page.index(f'id="errors-{form}-{field}"'):]
    assert message in slot[:slot.index("</div></div>") + 12]
    assert not MettleFactionCheck.objects.exists()


def test_refused_twist_and_turn_say_why(client, campaign, gm, triangle):
    client.force_login(gm)
    check = guide.faction_check_make(campaign=campaign, by=gm, actor="villain",
                                     target="rival", rng=Threes())
    assert guide.check_roll(check).success  # at least 4 threes beat at most 9
    response = client.post(url(campaign, "faction_twist", check.pk), follow=True)
    assert response.status_code == 200
    assert "A Twist is called only on a failure with Edge." in response.content.decode()
    check.refresh_from_db()
    assert check.twist_faces is None
    response = client.post(url(campaign, "faction_turn"), {"turn": "x" * 5000}, follow=True)
    assert "did not say which Faction turn" in response.content.decode()
    triangle.refresh_from_db()
    assert triangle.turn == 1



HX = {"HX-Request": "true"}


def test_htmx_answers_the_section_that_changed(client, campaign, gm):
    client.force_login(gm)
    response = client.post(url(campaign, "npc_add"), {"name": "Thug", "pool": "3"},
                           headers={**HX, "HX-Target": "npcs"})
    page = response.content.decode()
    assert response.status_code == 200 and page.lstrip().startswith('<section class="card')
    assert 'id="npcs"' in page and 'id="factions"' not in page and "<html" not in page
    assert "Saved Thug 3D." in page and "Thug 3D" in page
    # A refused form: the section again (htmx swaps a 200), the error beside the field.
    response = client.post(url(campaign, "npc_add"), {"name": "Ogre", "pool": "61"},
                           headers={**HX, "HX-Target": "npcs"})
    page = response.content.decode()
    assert response.status_code == 200 and "At most 60 dice." in page
    assert 'value="Ogre"' in page and MettleNpc.objects.count() == 1
    # The triangle, its Check and a refused button's reason, in the factions section.
    response = client.post(url(campaign, "factions_roll"), headers=HX)
    assert 'id="factions"' in response.content.decode()
    assert "The Faction triangle is rolled." in response.content.decode()
    response = client.post(url(campaign, "faction_check"), {
        "check-actor": "villain", "check-target": "rival"}, headers=HX)
    assert "Villain vs Rival: Score" in response.content.decode()
    response = client.post(url(campaign, "faction_turn"), {"turn": "nope"}, headers=HX)
    page = response.content.decode()
    assert response.status_code == 200 and "did not say which Faction turn" in page
    assert "alert-danger" in page


def test_the_party_card_polls_conditionally(client, campaign, gm, player):
    client.force_login(gm)
    headers = {**HX, "HX-Target": "party"}
    response = client.get(url(campaign, "guide"), headers=headers)
    page = response.content.decode()
    assert response.status_code == 200 and 'id="party"' in page and 'id="npcs"' not in page
    etag = response["ETag"]
    again = client.get(url(campaign, "guide"), headers={**headers, "If-None-Match": etag})
    assert again.status_code == 304
    viktor = campaign.characters.get()
    viktor.save()  # a saved character (its Mettle, armour...) is news
    assert client.get(url(campaign, "guide"),
                      headers={**headers, "If-None-Match": etag}).status_code == 200
    client.force_login(player)
    assert client.get(url(campaign, "guide"), headers=headers).status_code == 403


def test_npc_edit_refuses_beside_the_field_and_keeps_the_input(client, campaign, gm, npc):
    client.force_login(gm)
    page = client.get(url(campaign, "npc_edit", npc.pk)).content.decode()
    assert 'value="Thug"' in page and 'value="3"' in page
    response = client.post(url(campaign, "npc_edit", npc.pk), {
        "name": "Big thug", "pool": "3", "higher_attribute": "frame", "higher_pool": "①"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Enter a whole number of dice." in page and 'value="Big thug"' in page
    npc.refresh_from_db()
    assert (npc.name, npc.higher_attribute) == ("Thug", "")


def test_the_guides_party_card_follows_credit_and_armour(client, campaign, gm, player):
    """The card's poll answers 304 only while nothing it shows changed: a Credit entry,
    armour put on, a direct write of Mettle (the Initiative's, a Hazard's) and a character
    leaving each give the new numbers."""
    from characters.systems.mettle import inventory
    from characters.systems.mettle.models import CreditEntry

    viktor = MettleCharacter.objects.get(campaign=campaign)
    bought = inventory.item_buy(character=viktor, by=player, key="Armour:Medium (Chain)")
    client.force_login(gm)
    headers = {**HX, "HX-Target": "party"}

    def card(etag=None):
        response = client.get(url(campaign, "guide"),
                              headers={**headers, **({"If-None-Match": etag} if etag else {})})
        return response

    def stat(response, name):
        page = response.content.decode()
        cell = page.split(f'data-stat="{name}">', 1)[1]
        return cell.split("<", 1)[0].strip()

    first = card()
    etag, credit, soak = first["ETag"], stat(first, "credit"), stat(first, "soak")
    assert card(etag).status_code == 304
    CreditEntry.objects.create(character=viktor, kind=CreditEntry.Kind.IMPORT, change=1,
                               note="Lost to a bad bargain", created_by=gm)
    changed = card(etag)
    assert changed.status_code == 200 and stat(changed, "credit") == str(int(credit) - 1)
    etag = changed["ETag"]
    assert card(etag).status_code == 304
    inventory.item_wear(character=viktor, item=bought.item)
    worn = card(etag)
    assert worn.status_code == 200 and int(stat(worn, "soak")) > int(soak)
    etag = worn["ETag"]
    assert card(etag).status_code == 304
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=1)  # no updated_at
    hurt = card(etag)
    assert hurt.status_code == 200 and stat(hurt, "mettle").startswith("1/")
    etag = hurt["ETag"]
    assert card(etag).status_code == 304
    MettleCharacter.objects.filter(pk=viktor.pk).update(campaign=None)
    gone = card(etag)
    assert gone.status_code == 200 and "No character has joined yet" in gone.content.decode()


def test_the_party_card_poll_refuses_before_any_304(client, campaign, gm, player):
    """A player's poll gets 403 and a stranger's 404, even with the Guide's ETag."""
    client.force_login(gm)
    headers = {**HX, "HX-Target": "party"}
    etag = client.get(url(campaign, "guide"), headers=headers)["ETag"]
    client.force_login(player)
    assert client.get(url(campaign, "guide"),
                      headers={**headers, "If-None-Match": etag}).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url(campaign, "guide"),
                      headers={**headers, "If-None-Match": etag}).status_code == 404
    client.logout()
    assert client.get(url(campaign, "guide"),
                      headers={**headers, "If-None-Match": etag}).status_code == 302


def test_the_party_cards_new_answer_costs_6_queries_flat_with_the_sheets_numbers(
        client, campaign, gm):
    """When something changed, the card alone is rendered (not the screen's forms, NPCs
    and Factions): the session, the user, the role with the party's rows, ledgers'
    newest entries and gear lines (one query), the membership, then the characters with
    their ledgers' sums (XP among them, without with_progress's Level and coins) and
    their gear lines. 6 queries for 2 characters as for 5 with a long history, and each
    row's numbers are the character's own sheet's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from characters.systems.mettle.builds import sheet_for
    from tests.campaigns.test_poll_queries import mettle_party

    client.force_login(gm)
    counts = []
    for n, history in ((2, 1), (5, 12)):
        party = mettle_party(campaign, gm, n, history)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(campaign, "guide"), headers={**HX, "HX-Target": "party"})
        assert response.status_code == 200
        counts.append(len(queries))
        page = response.content.decode()
        assert 'id="party"' in page and 'id="npcs"' not in page
        for character in party:
            sheet = sheet_for(MettleCharacter.objects.get(pk=character.pk))
            row = page.split(f'data-character="{character.pk}"', 1)[1].split("</tr>", 1)[0]
            assert (f'data-stat="mettle">{sheet.value("mettle_current")}/'
                    f'{sheet.value("mettle_max")}<') in row
            assert f'data-stat="soak">{sheet.value("soak")}<' in row
    assert counts == [6, 6]
