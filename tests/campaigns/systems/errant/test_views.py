"""The Company page and the advancement POSTs: who sees and does what (anonymous, another
player, the owner, the Guide, a campaign of another system) and hostile input answered
beside the field, never a 500."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.systems.errant import advancement
from characters.models import XpEntry
from characters.systems.errant.models import ErrantCharacter
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def co(name, campaign, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, *args])


def test_anonymous_is_sent_to_log_in(client, campaign):
    response = client.get(co("errant_company", campaign))
    assert response.status_code == 302 and "login" in response.url


def test_a_non_member_and_another_system_get_404(client, campaign, wren):
    outsider = MembershipFactory().user
    client.force_login(outsider)
    assert client.get(co("errant_company", campaign)).status_code == 404
    other_system = CampaignFactory()
    MembershipFactory(campaign=other_system, user=outsider)
    assert client.get(co("errant_company", other_system)).status_code == 404


def test_players_read_the_guide_edits(client, campaign, guide, player, wren):
    client.force_login(player)
    page = client.get(co("errant_company", campaign))
    assert page.status_code == 200 and b"Wren" in page.content
    assert b"Record the XP" not in page.content
    assert client.post(co("errant_waste", campaign), {}).status_code == 403
    assert client.post(co("errant_debt", campaign), {}).status_code == 403
    client.force_login(guide)
    assert b"Record the XP" in client.get(co("errant_company", campaign)).content


def test_the_guide_grants_xp_for_money_wasted(client, campaign, guide, wren):
    client.force_login(guide)
    response = client.post(co("errant_waste", campaign), {
        "characters": [wren.pk], "source": "funeral", "pennies": "2000",
        "note": "For poor Tobin"})
    assert response.status_code == 302
    assert services.progress(wren)[1] == 2000
    page = client.get(co("errant_company", campaign))
    assert b"to choose" in page.content  # Renown 2 raise pending


@pytest.mark.parametrize("data,field", [
    ({"source": "waste", "pennies": "ten"}, b"Give a whole number."),
    ({"source": "waste", "pennies": "99999999999999999999"}, b"At most"),
    ({"source": "waste"}, b"Give the pennies."),
    ({"source": "nope", "pennies": "5"}, b"Choose where the XP comes from."),
    ({"source": "conspicuous", "pennies": "5"}, b"Choose the kind of Conspicuous"),
])
def test_bad_waste_input_is_said_beside_the_field(client, campaign, guide, wren, data, field):
    client.force_login(guide)
    response = client.post(co("errant_waste", campaign), {"characters": [wren.pk],
                                                          "note": "kept text", **data})
    assert response.status_code == 200
    assert field in response.content and b"kept text" in response.content
    assert not XpEntry.objects.filter(character=wren, kind="waste").exists()


def test_waste_for_an_errant_of_another_campaign_is_refused(client, campaign, guide, other):
    from tests.characters.systems.errant.helpers import make_wren
    outsider = make_wren(other, name="Outsider")
    client.force_login(guide)
    response = client.post(co("errant_waste", campaign), {
        "characters": [outsider.pk], "source": "waste", "pennies": "5"})
    assert response.status_code == 200 and b"Choose Errants of the Company." in response.content


def test_debt_faction_roles_and_march_through_the_page(client, campaign, guide, wren, ash):
    client.force_login(guide)
    assert client.post(co("errant_debt", campaign), {"kind": "owed", "amount": "40"}
                       ).status_code == 302
    bad = client.post(co("errant_debt", campaign), {"kind": "repaid", "amount": "41"})
    assert bad.status_code == 200 and b"owes only 40" in bad.content
    assert client.post(co("errant_faction_add", campaign), {"name": "Guild", "score": "7"}
                       ).status_code == 302
    bad = client.post(co("errant_faction_add", campaign), {"name": "Guild2", "score": "13"})
    assert b"At most 12." in bad.content
    faction = campaign.errant_company.factions.get()
    bad = client.post(co("errant_reputation", campaign, faction.pk), {"change": "9"})
    assert b"a reputation runs 2 to 12" in bad.content
    assert client.post(co("errant_reputation", campaign, 999_999), {"change": "1"}
                       ).status_code == 404
    assert client.post(co("errant_roles", campaign), {"caller": str(wren.pk)}
                       ).status_code == 302
    bad = client.post(co("errant_roles", campaign), {"caller": "abc"})
    assert b"Choose an Errant of the Company, or nobody." in bad.content
    assert client.post(co("errant_march", campaign), {"character": str(ash.pk),
                                                      "direction": "up"}).status_code == 302
    assert client.post(co("errant_march", campaign), {"character": "x"}).status_code == 302
    page = client.get(co("errant_company", campaign))
    assert b'data-company-debt>40<' in page.content


def test_renown_raise_through_the_character_page(client, campaign, guide, player, other,
                                                 wren):
    advancement.waste_grant(campaign=campaign, characters=[wren], source="waste",
                            pennies=2_000, by=guide)
    page_url = reverse("campaigns:character", args=[campaign.pk, wren.pk])
    pick = co("errant_renown_pick", campaign, wren.pk)
    client.force_login(other)
    assert client.post(pick, {"who": "player", "attribute": "pres"}).status_code == 404
    client.force_login(player)
    response = client.post(pick, {"who": "player", "attribute": "pres"})
    assert response.status_code == 200 and b"The Company chooses" in response.content
    client.force_login(guide)
    page = client.get(page_url)
    assert b'id="raise-company"' in page.content
    assert client.post(pick, {"who": "company", "attribute": "phys"}).status_code == 302
    client.force_login(player)
    bad = client.post(pick, {"who": "player", "attribute": "phys"})
    assert b"choose a different Attribute" in bad.content
    bad = client.post(pick, {"who": "player", "attribute": "<script>"})
    assert b"Choose one of phys, skill, mind and pres." in bad.content
    assert client.post(pick, {"who": "player", "attribute": "pres"}).status_code == 302
    assert ErrantCharacter.objects.get(pk=wren.pk).renown_raises == [["phys", "pres"]]


def test_fame_and_ancestry_through_the_page(client, campaign, guide, player, other, wren,
                                            session):
    client.force_login(other)
    assert client.post(co("errant_fame", campaign, wren.pk)).status_code == 404
    assert client.post(co("errant_ancestry_use", campaign, wren.pk)).status_code == 404
    client.force_login(player)
    assert client.post(co("errant_fame", campaign, wren.pk)).status_code == 302
    assert client.post(co("errant_ancestry_use", campaign, wren.pk),
                       {"note": "Stayed at 1 HP"}).status_code == 302
    again = client.post(co("errant_ancestry_use", campaign, wren.pk), {"note": "again"})
    assert again.status_code == 200 and b"already used" in again.content
    page = client.get(reverse("campaigns:character", args=[campaign.pk, wren.pk]))
    assert b"data-fame-roll" in page.content and b"data-ancestry-used" in page.content
    assert client.post(co("errant_ancestry_undo", campaign, 999_999)).status_code == 404
    assert client.post(co("errant_renown_undo", campaign, 999_999)).status_code == 404


def test_anonymous_posts_are_sent_to_log_in(client, campaign, wren):
    for name, args in (("errant_waste", ()), ("errant_fame", (wren.pk,)),
                       ("errant_renown_pick", (wren.pk,))):
        response = client.post(co(name, campaign, *args), {})
        assert response.status_code == 302 and "login" in response.url


def test_the_campaign_page_links_the_company(client, campaign, player, wren):
    client.force_login(player)
    page = client.get(campaign.get_absolute_url())
    assert co("errant_company", campaign).encode() in page.content


def test_a_huge_or_foreign_id_is_404(client, campaign, guide, wren):
    client.force_login(guide)
    huge = f"/campaigns/{campaign.pk}/company/errants/99999999999999999999/fame/"
    assert client.post(huge).status_code == 404
    assert client.post(co("errant_fame", campaign, 999_999)).status_code == 404
    undo = client.post(co("errant_debt_undo", campaign, 999_999))
    assert undo.status_code == 302  # "That debt entry does not exist." beside the debt
    other_campaign = CampaignFactory(system="errant", owner=guide)
    assert client.post(co("errant_fame", other_campaign, wren.pk)).status_code == 404
