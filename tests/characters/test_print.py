"""The printed sheet as a PDF: Asphodel's numbers in their boxes, the paper sizes, long
characters, the blank sheet and the party pack, read back with pdftotext."""

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit import quests
from characters.models import InventoryItem
from characters.systems.eldritch_gambit import printing
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.demo import ASPHODEL, seed_demo
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem
from tests.characters import pdf_tools
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

# Boxes of the sheet in mm from its top left corner (static/css/print.css).
LEVEL = (0, 22, 0, 27)
PROGRESS = (0, 58, 0, 27)
CONCEPT = (60.5, 230.5, 0, 27)
WEAPONS = (87, 230.5, 29.5, 67.5)
ATTRIBUTES = (60.5, 84.5, 70, 185)
SKILLS = (87, 157.5, 70, 136)
ARMOR = (160, 230.5, 70, 94)
RESOURCES = (160, 230.5, 96.5, 185)
DEFENSES = (233, 263, 29.5, 185)


@pytest.fixture
def asphodel():
    seed_demo()
    return EldritchGambitCharacter.objects.get(name=ASPHODEL["name"])


def get_pdf(client, url, **headers):
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def defense(found, label, next_label):
    """The words of one Defense block on the right edge: from its tab to the next."""
    column = pdf_tools.inside(found, *DEFENSES)
    top = next(w.y for w in column if w.text == label)
    bottom = next(w.y for w in column if w.text == next_label and w.y > top)
    found = [w.text for w in column if top < w.y < bottom - 0.5]
    # Only what is written in the boxes: not the "10" of the hint "10 + WIS".
    return [t for n, t in enumerate(found)
            if (t[0].isdigit() or t == "n/a") and found[n + 1:n + 2] != ["+"]]


def test_asphodel_prints_every_number_in_its_box(client, asphodel):
    client.force_login(asphodel.owner)
    pdf = get_pdf(client, reverse("characters:sheet_pdf", args=[asphodel.pk]) + "?paper=letter")
    pdf_tools.png(pdf, "asphodel")

    assert pdf_tools.pages(pdf) == 1
    found = pdf_tools.words(pdf)
    texts = lambda box: [w.text for w in pdf_tools.inside(found, *box)]  # noqa: E731

    assert "10" in texts(LEVEL)
    assert "Heroic" in texts(PROGRESS)
    concept = " ".join(texts(CONCEPT))
    for phrase in ("Asphodel the Grumbling Bloom", "she/her", "Vengeful Dragon Slayer",
                   "Destroy the dragon plaguing Ambrose",
                   "Escaped sacrifice from Ambrose village", "Human"):
        assert phrase in concept
    # Weapons: Hit = weapon bonus + DEX, Damage = die + STR (Resources > Weapons).
    assert pdf_tools.line_of(found, "Winged", *WEAPONS[:2]) == [
        "Winged", "spear", "+4", "1d8+3", "Reach,", "Range", "1", "1"]
    assert pdf_tools.line_of(found, "Father's", *WEAPONS[:2]) == [
        "Father's", "dagger", "+3", "1d6+3", "Range", "1", "-"]
    # The six Attributes, top to bottom: STR 3, WIS 1, DEX 2, AGI 1, CHA 1, END 2.
    attributes = [t for t in texts(ATTRIBUTES) if t.lstrip("-").isdigit()]
    assert attributes == ["3", "1", "2", "1", "1", "2"]
    assert texts(SKILLS)[1:] == ["Bake", "pies", "Escape", "bonds"]
    # Armor: chain mail, AP 10, the Rally die 1d8, Load 2.
    assert pdf_tools.line_of(found, "Chain", *ARMOR[:2]) == ["Chain", "mail", "10", "1d8", "2"]
    resources = " ".join(texts(RESOURCES))
    for phrase in ("Adventurer's pack 1", "Floral traveling clothes -",
                   "Sacrificial amulet -", "500 cp -"):
        assert phrase in resources
    # Load total against Load max (STR + END): 4 of 5.
    assert " ".join(pdf_tools.line_of(found, "Max", *RESOURCES[:2])) == \
        "Load Max 5 (STR + END) Total 4"
    # The Defenses on the right edge (Characters > Defenses): WP 11 (floor 6),
    # AF 11 with no shield, Base HP 15, Armored HP 25, Rally 1d8+2. Current WP and
    # Current HP are left blank for pencil: they change all session.
    assert defense(found, "WP", "AF") == ["11", "6"]
    assert defense(found, "AF", "HP") == ["11", "n/a"]
    assert defense(found, "HP", "Status") == ["15", "25", "1d8+2"]
    # The CC BY credit in the footer.
    assert "licensed for our use under the Creative Commons Attribution 4.0" in \
        pdf_tools.flat(pdf)


def test_the_pdf_and_the_print_view_show_the_same_content(client, asphodel):
    client.force_login(asphodel.owner)
    pdf_text = pdf_tools.flat(get_pdf(client, reverse("characters:sheet_pdf",
                                                      args=[asphodel.pk])))
    page = client.get(reverse("characters:print", args=[asphodel.pk])).content.decode()

    sheet = sheet_for(asphodel)
    for field, value in (("level", 10), ("af", 11), ("hp-base", 15), ("hp-armored", 25),
                         ("rally", "1d8+2"), ("wp", 11), ("wp-floor", 6), ("load-max", 5),
                         ("load-total", 4)):
        assert f'data-field="{field}">{value}<' in page
    assert sheet.value("hp_armored") == 25
    for phrase in ("Winged spear", "Father's dagger", "Reach, Range 1", "Bake pies",
                   "Adventurer's pack", "500 cp", "Eldritch Table"):
        assert phrase in pdf_text
        assert phrase.replace("'", "&#x27;") in page


def test_current_hp_and_wp_are_left_blank_for_pencil(client, asphodel):
    """Current HP and WP change all session: the sheet leaves them for pencil, even
    for a wounded character, while the maxima stay printed."""
    EldritchGambitCharacter.objects.filter(pk=asphodel.pk).update(hp_current=9, wp_current=7)
    client.force_login(asphodel.owner)
    page = client.get(reverse("characters:print", args=[asphodel.pk])).content.decode()
    found = pdf_tools.words(get_pdf(client, reverse("characters:sheet_pdf",
                                                    args=[asphodel.pk])))

    assert 'data-field="hp-current"></div>' in page
    assert 'data-field="wp-current"></div>' in page
    assert 'data-field="hp-armored">25<' in page
    assert 'data-field="wp">11<' in page
    assert defense(found, "WP", "AF") == ["11", "6"]
    assert defense(found, "HP", "Status") == ["15", "25", "1d8+2"]


@pytest.mark.parametrize(("paper", "size"), [("letter", "792 x 612"),
                                             ("a4", "841.89 x 595.276")])
def test_the_paper_is_landscape_letter_or_a4(client, asphodel, paper, size):
    client.force_login(asphodel.owner)
    pdf = get_pdf(client, reverse("characters:sheet_pdf", args=[asphodel.pk]) + f"?paper={paper}")

    assert pdf_tools.info(pdf)["Page size"].startswith(size)
    assert pdf_tools.pages(pdf) == 1


def test_without_a_choice_the_paper_follows_the_browser_language(client, asphodel):
    client.force_login(asphodel.owner)
    url = reverse("characters:sheet_pdf", args=[asphodel.pk])

    us = get_pdf(client, url, accept_language="en-US,en;q=0.9")
    france = get_pdf(client, url, accept_language="fr-FR,fr;q=0.9,en;q=0.5")

    assert pdf_tools.info(us)["Page size"].startswith("792 x 612")
    assert pdf_tools.info(france)["Page size"].startswith("841.89 x 595.276")


def long_character(owner, *, description_words=250, skills=12, items=40):
    character = CharacterFactory(
        owner=owner, name="Magpie the Hoarder", pronouns="they/them",
        description=" ".join(f"word{n}" for n in range(description_words)),
        skills=[f"Skill number {n} of many" for n in range(1, skills + 1)],
    )
    catalog = list(GearItem.objects.srd().exclude(category__in=["weapon", "shield", "armor"])
                   .order_by("name")[:items])
    InventoryItem.objects.bulk_create(
        InventoryItem(character=character, catalog_item=gear, name=gear.name,
                      kind=gear.category, position=n) for n, gear in enumerate(catalog))
    # The rest free text, every third one with some Load.
    InventoryItem.objects.bulk_create(
        InventoryItem(character=character, name=f"Keepsake {n}",
                      load=int(n % 3 == 0), position=100 + n)
        for n in range(items - len(catalog)))
    assert character.items.count() == items
    return character


def designed_pages(character) -> int:
    character = EldritchGambitCharacter.objects.with_progress().get(pk=character.pk)
    items = list(character.items.select_related("catalog_item"))
    return printing.printed_sheet(character, items, sheet_for(character, items)).pages


def test_a_long_character_loses_no_text(client, user):
    character = long_character(user)
    client.force_login(user)

    pdf = get_pdf(client, reverse("characters:sheet_pdf", args=[character.pk]))
    pdf_tools.png(pdf, "long-character")

    text = pdf_tools.flat(pdf)
    for item in character.items.all():
        assert item.name in text, item.name
    for skill in character.skills:
        assert skill in text
    assert all(f"word{n} " in text + " " for n in range(250))
    # 250 words do not fit the Description box: it continues on a marked second page.
    assert designed_pages(character) == 2
    assert pdf_tools.pages(pdf) == 2
    assert "Continued on page 2." in text
    assert "Magpie the Hoarder: continued from page 1 (page 2 of 2)" in text


def test_12_skills_and_40_items_with_a_short_description_fit_one_page(client, user):
    character = long_character(user, description_words=30)
    client.force_login(user)

    pdf = get_pdf(client, reverse("characters:sheet_pdf", args=[character.pk]))

    assert designed_pages(character) == 1
    assert pdf_tools.pages(pdf) == 1
    text = pdf_tools.flat(pdf)
    for item in character.items.all():
        assert item.name in text, item.name
    assert "Resources, continued" in text  # the Notes box takes what Resources cannot


def test_the_blank_sheet_has_the_boxes_and_nothing_written(client):
    pdf = get_pdf(client, reverse("characters:blank_sheet_pdf") + "?paper=a4")
    pdf_tools.png(pdf, "blank")

    assert pdf_tools.pages(pdf) == 1
    assert pdf_tools.info(pdf)["Page size"].startswith("841.89 x 595.276")
    text = pdf_tools.flat(pdf)
    for label in ("Level", "Concept", "Description", "Weapons", "Skills", "Armor",
                  "Resources", "WP", "AF", "HP", "Rally", "Staggered", "Fallen", "Picture",
                  "Strength", "Endurance", "Creative Commons Attribution 4.0"):
        assert label in text
    assert "Asphodel" not in text


def test_the_party_pack_prints_every_character_on_its_own_page(client):
    campaign = CampaignFactory()
    names = ["Ash", "Bram", "Corvina"]
    for name in names:
        member = MembershipFactory(campaign=campaign)
        CharacterFactory(owner=member.user, campaign=campaign, name=name)
    CharacterFactory(name="Not at this table")
    client.force_login(campaign.owner)

    pdf = get_pdf(client, reverse("campaigns:party_pdf", args=[campaign.pk]))

    assert pdf_tools.pages(pdf) == 3
    for page, name in enumerate(names, start=1):
        assert name in [w.text for w in pdf_tools.words(pdf, page)]
    assert "Not at this table" not in pdf_tools.flat(pdf)


def test_the_party_print_view_shows_every_character_a_page_each(client):
    campaign = CampaignFactory()
    names = ["Ash", "Bram", "Corvina"]
    for name in names:
        member = MembershipFactory(campaign=campaign)
        CharacterFactory(owner=member.user, campaign=campaign, name=name)
    CharacterFactory(name="Not at this table")
    client.force_login(campaign.owner)

    page = client.get(reverse("campaigns:party_print", args=[campaign.pk]) + "?paper=a4")

    text = page.content.decode()
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert text.count('<article class="sheet-page"') == 3
    for name in names:
        assert f'aria-label="Character sheet of {name}"' in text
    assert "Not at this table" not in text
    assert f"Print the party of {campaign.name}" in text
    assert reverse("campaigns:party_pdf", args=[campaign.pk]) + "?paper=a4" in text
    assert f'href="{campaign.get_absolute_url()}">Back to the campaign' in text


@pytest.mark.parametrize("name", ["campaigns:party_pdf", "campaigns:party_print"])
def test_an_empty_party_is_not_printed(client, name):
    campaign = CampaignFactory()
    client.force_login(campaign.owner)

    response = client.get(reverse(name, args=[campaign.pk]), follow=True)

    assert response.redirect_chain == [(campaign.get_absolute_url(), 302)]
    assert "nothing to print" in response.content.decode()


def test_the_quest_box_shows_the_xp_invested(client):
    campaign = CampaignFactory()
    member = MembershipFactory(campaign=campaign)
    character = CharacterFactory(owner=member.user, campaign=campaign,
                                 quest="Find the lost bell", progress__xp=3)
    client.force_login(member.user)
    url = reverse("characters:print", args=[character.pk])
    assert 'data-field="quest-invested">0<' in client.get(url).content.decode()

    quests.quest_invest(session=SessionFactory(campaign=campaign),
                                   character=character, by=member.user)
    page = client.get(url).content.decode()

    # Characters > Advancement > Quest XP: the XP left the character for its Quest.
    assert 'data-field="quest-invested">1<' in page
    assert 'data-field="xp">2<' in page
    assert 'data-field="quest">Find the lost bell<' in page


def test_outside_a_campaign_the_quest_box_is_left_for_pencil(client, user):
    character = CharacterFactory(owner=user)
    client.force_login(user)

    page = client.get(reverse("characters:print", args=[character.pk])).content.decode()

    assert 'data-field="quest-invested"></div>' in page


@pytest.mark.parametrize("who", ["anonymous", "other", "player_of_the_campaign"])
def test_who_may_not_print_a_character(client, who):
    campaign = CampaignFactory()
    owner = MembershipFactory(campaign=campaign).user
    character = CharacterFactory(owner=owner, campaign=campaign)
    if who == "other":
        client.force_login(UserFactory())
    elif who == "player_of_the_campaign":
        client.force_login(MembershipFactory(campaign=campaign).user)

    for name in ("print", "sheet_pdf"):
        response = client.get(reverse(f"characters:{name}", args=[character.pk]))
        if who == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response.url
        else:
            assert response.status_code == 404


@pytest.mark.parametrize("who", ["owner", "imp", "co_imp"])
def test_who_may_print_a_character(client, who):
    campaign = CampaignFactory()
    owner = MembershipFactory(campaign=campaign).user
    character = CharacterFactory(owner=owner, campaign=campaign, name="Printable")
    client.force_login({"owner": owner, "imp": campaign.owner,
                        "co_imp": CoImpMembershipFactory(campaign=campaign).user}[who])

    page = client.get(reverse("characters:print", args=[character.pk]))
    pdf = get_pdf(client, reverse("characters:sheet_pdf", args=[character.pk]))

    assert page.status_code == 200
    assert "Printable" in page.content.decode()
    assert "Printable" in pdf_tools.flat(pdf)


@pytest.mark.parametrize("name", ["campaigns:party_print", "campaigns:party_pdf"])
@pytest.mark.parametrize(("who", "status"), [
    ("anonymous", 302), ("stranger", 404), ("player", 403), ("co_imp", 200), ("imp", 200)])
def test_who_may_print_the_party(client, name, who, status):
    campaign = CampaignFactory()
    member = MembershipFactory(campaign=campaign)
    CharacterFactory(owner=member.user, campaign=campaign)
    users = {"stranger": UserFactory(), "player": member.user, "imp": campaign.owner,
             "co_imp": CoImpMembershipFactory(campaign=campaign).user}
    if who != "anonymous":
        client.force_login(users[who])

    response = client.get(reverse(name, args=[campaign.pk]))

    assert response.status_code == status
    if who == "anonymous":
        assert response.url.startswith(reverse("login"))
    if status == 200 and name == "campaigns:party_pdf":
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"].startswith('attachment; filename="the-drowned-crown')
    elif status == 200:
        assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("user_kind", ["anonymous", "player"])
def test_anyone_may_download_the_blank_sheet(client, user_kind):
    if user_kind == "player":
        client.force_login(UserFactory())

    response = client.get(reverse("characters:blank_sheet_pdf") + "?paper=letter")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert pdf_tools.pages(response.content) == 1


def test_the_print_view_offers_the_paper_and_the_pdf(client, asphodel):
    client.force_login(asphodel.owner)
    url = reverse("characters:print", args=[asphodel.pk])

    letter = client.get(url, headers={"accept-language": "en-US"}).content.decode()
    a4 = client.get(url + "?paper=a4", headers={"accept-language": "en-US"}).content.decode()

    assert "@page { size: letter landscape;" in letter
    assert '<option value="letter" selected>' in letter
    assert "@page { size: A4 landscape;" in a4
    assert '<option value="a4" selected>' in a4
    assert reverse("characters:sheet_pdf", args=[asphodel.pk]) + "?paper=a4" in a4
    assert '<label for="paper-select">Paper</label>' in a4


def test_the_character_and_campaign_pages_link_to_the_printed_sheet(client):
    campaign = CampaignFactory()
    member = MembershipFactory(campaign=campaign)
    character = CharacterFactory(owner=member.user, campaign=campaign)
    client.force_login(member.user)
    detail = client.get(character.get_absolute_url()).content.decode()
    assert reverse("characters:print", args=[character.pk]) in detail
    assert reverse("characters:portrait", args=[character.pk]) in detail
    client.force_login(campaign.owner)
    dashboard = client.get(campaign.get_absolute_url()).content.decode()
    assert reverse("campaigns:party_pdf", args=[campaign.pk]) in dashboard
    assert reverse("campaigns:party_print", args=[campaign.pk]) in dashboard
    assert reverse("characters:blank_sheet_pdf") in dashboard
