"""The Play page's Rally with an ally's CHA, against the text: Scenes > Actions > Rally,
"An upside to this is that instead of their own END, the rallier may use the CHA of the
ally that passed Initiative to them." The page cannot know who passed Initiative outside
the tracker, so the player chooses the ally (the label says they affirm it); the server
takes only another character of the rallier's campaign, and the log names the ally."""

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.roll_kinds import BURNING_NO_RALLY, NO_SUCH_ALLY
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    InventoryItemFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """Asphodel (END 2, unarmored: Rally 1d4+2) and Gravemind (CHA 3) in a campaign."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    friend = MembershipFactory(campaign=campaign).user
    ally = CharacterFactory(name="Gravemind", owner=friend, campaign=campaign, charisma=3,
                            wisdom=0, strength=3)
    SessionFactory(campaign=campaign)
    return {"campaign": campaign, "imp": campaign.owner, "player": player, "hero": hero,
            "ally": ally, "friend": friend,
            "co_imp": CoImpMembershipFactory(campaign=campaign).user,
            "stranger": UserFactory()}


def rally(client, hero, ally="", htmx=True, **extra):
    data = {"what": "rally", "ally": ally, **extra}
    if htmx:
        return client.post(reverse("characters:roll", args=[hero.pk]), data,
                           HTTP_HX_REQUEST="true")
    return client.post(reverse("characters:roll", args=[hero.pk]), data)


def select_of(html):
    return " ".join(html.split('id="rally-ally"', 1)[1].split("</select>", 1)[0].split())


def test_the_rally_offers_each_ally_with_their_cha_and_says_the_player_affirms_it(
        client, table):
    hero, ally = table["hero"], table["ally"]
    other = CharacterFactory(name="Brisk", campaign=table["campaign"], charisma=-1)
    CharacterFactory(name="Elsewhere", campaign=CampaignFactory(), charisma=4)
    client.force_login(table["player"])
    html = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    options = select_of(html)
    assert '<option value="">Your own END (+2)</option>' in options
    assert f'<option value="{ally.pk}">Gravemind: CHA +3</option>' in options
    assert f'<option value="{other.pk}">Brisk: CHA -1</option>' in options
    assert "Elsewhere" not in options and f'value="{hero.pk}"' not in options
    assert "the CHA of the ally who passed you Initiative" in html
    assert "by choosing them you say they did" in html


def test_no_ally_choice_outside_a_campaign_or_alone_in_it(client, table):
    alone = AsphodelFactory()
    client.force_login(alone.owner)
    html = client.get(reverse("characters:play", args=[alone.pk])).content.decode()
    assert 'id="roll-rally"' in html and 'id="rally-ally"' not in html
    solo = AsphodelFactory(campaign=CampaignFactory())
    client.force_login(solo.owner)
    html = client.get(reverse("characters:play", args=[solo.pk])).content.decode()
    assert 'id="rally-ally"' not in html


def test_a_rally_with_the_allys_cha_adds_it_instead_of_end_and_names_the_ally(client, table):
    hero, ally = table["hero"], table["ally"]
    client.force_login(table["player"])
    response = rally(client, hero, ally=str(ally.pk), request_key="a" * 32)
    assert response.status_code == 200
    roll = Roll.objects.get(kind=Roll.Kind.RALLY)
    assert roll.label == "HP recovered with Gravemind's CHA"
    assert roll.expression == "1d4+3"  # 1d4, END 2 taken off, CHA 3 added
    assert roll.total == roll.dice[0] + 3
    assert roll.detail["note"] == "Gravemind's CHA +3 instead of END +2: Gravemind passed " \
                                  "Initiative"
    html = response.content.decode()
    assert "HP recovered with Gravemind&#x27;s CHA" in html
    # The choice stays chosen for the next Rally.
    assert f'<option value="{ally.pk}" selected>' in select_of(html)
    # The session's log names the ally too.
    log = client.get(reverse("campaigns:session_log",
                             args=[table["campaign"].pk, 1])).content.decode()
    assert "Gravemind&#x27;s CHA +3 instead of END +2" in log


def test_without_an_ally_the_rally_adds_end(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    assert rally(client, hero).status_code == 200
    roll = Roll.objects.get(kind=Roll.Kind.RALLY)
    assert (roll.label, roll.expression) == ("HP recovered", "1d4+2")


def test_the_rally_keeps_the_armor_die_and_a_reroll_keeps_the_cha(client, table):
    hero, ally = table["hero"], table["ally"]
    mail = GearItem.objects.srd().get(name="Chain mail")
    InventoryItemFactory(character=hero, name=mail.name, kind="armor", catalog_item=mail,
                         equipped=True)
    assert sheet_for(hero).value("rally") == "1d8+2"
    client.force_login(table["player"])
    rally(client, hero, ally=str(ally.pk))
    roll = Roll.objects.get(kind=Roll.Kind.RALLY)
    assert roll.expression == "1d8+3"
    again = roll_services.reroll(roll=roll, by=table["player"])
    assert again.expression == "1d8+3"
    assert again.total == again.detail["dice_total"] + 3


def test_burning_refuses_the_rally_with_an_ally_too(client, table):
    hero = table["hero"]
    hero.statuses = ["burning"]
    hero.save()
    client.force_login(table["player"])
    html = rally(client, hero, ally=str(table["ally"].pk)).content.decode()
    assert f'id="rally-error">{BURNING_NO_RALLY}' in html
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()


@pytest.mark.parametrize("value", ["x", "-1", "0", "1.5", "99999999", "9" * 40, "²", "<b>",
                                   "1 OR 1=1"])
def test_a_hostile_ally_is_refused_next_to_the_rally(client, table, value):
    hero = table["hero"]
    client.force_login(table["player"])
    response = rally(client, hero, ally=value)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="rally-error">' in html and "Choose an ally of this campaign" in html
    assert 'id="rally-ally" class="form-select form-select-sm mb-1 is-invalid"' in html
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()
    # Without JavaScript: the whole page, 409.
    response = rally(client, hero, ally=value, htmx=False)
    assert response.status_code == 409 and b'id="rally-error"' in response.content
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()


def test_oneself_or_a_character_of_another_campaign_is_no_ally(client, table):
    hero = table["hero"]
    stranger = CharacterFactory(name="Faraway", campaign=CampaignFactory(), charisma=4)
    loner = CharacterFactory(name="Loner", owner=table["player"], charisma=4)
    client.force_login(table["player"])
    for value in (hero.pk, stranger.pk, loner.pk):
        html = rally(client, hero, ally=str(value)).content.decode()
        assert NO_SUCH_ALLY.replace("'", "&#x27;") in html
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()
    # A character that left the campaign is no longer an ally.
    ally = table["ally"]
    ally.campaign = None
    ally.save()
    rally(client, hero, ally=str(ally.pk))
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()


def test_who_may_rally_with_an_ally(client, table):
    hero, ally = table["hero"], table["ally"]
    data = {"what": "rally", "ally": str(ally.pk)}
    url = reverse("characters:roll", args=[hero.pk])
    assert client.post(url, data).status_code == 302  # anonymous: to the login page
    for who in ("friend", "stranger"):  # the ally's own player is not the rallier's
        client.force_login(table[who])
        assert client.post(url, data).status_code == 404
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()
    for n, who in enumerate(("imp", "co_imp", "player")):
        client.force_login(table[who])
        assert client.post(url, {**data, "request_key": f"k{n}"}).status_code == 200
    assert Roll.objects.filter(kind=Roll.Kind.RALLY,
                               label="HP recovered with Gravemind's CHA").count() == 3


def test_a_double_click_is_one_rally(client, table):
    hero, ally = table["hero"], table["ally"]
    client.force_login(table["player"])
    for _ in range(2):
        rally(client, hero, ally=str(ally.pk), request_key="same")
    assert Roll.objects.filter(kind=Roll.Kind.RALLY).count() == 1
