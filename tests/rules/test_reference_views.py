"""The rules reference pages: rendered from the structured data, public, searchable.

Every Action, Montage, Staging and Scenery entry and every Status has a page of its own
at a stable address; the index has the sections; the search matches names and text in
any case and says so when nothing matches. The reference is public (the rules are
CC BY): anonymous visitors, players and Imps all read the same pages; homebrew never
shows up in them.
"""

import html
import re

import pytest
from django.urls import reverse

from rules import reference
from rules.engine.eldritch_gambit import levels, scenes, statuses
from rules.models import GearItem, Trait
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db

ATTRIBUTION = "licensed for our use under the Creative Commons Attribution 4.0"


def entry_urls():
    urls = [reverse("rules:action" if a.kind == "action" else "rules:montage", args=[a.slug])
            for a in scenes.ACTIONS]
    urls += [reverse("rules:staging", args=[r.slug]) for r in scenes.STAGING]
    urls += [reverse("rules:scenery", args=[r.slug]) for r in scenes.SCENERY]
    urls += [reverse("rules:status", args=[s.key]) for s in statuses.STATUSES]
    return urls


def text_of(response) -> str:
    """The page's visible words, tags stripped and whitespace collapsed."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.fixture(params=["anonymous", "player", "other player", "imp"])
def visitor(request, client):
    """Everyone who may read the reference: it is public."""
    if request.param == "anonymous":
        return client
    client.force_login(CampaignFactory().owner if request.param == "imp" else UserFactory())
    return client


# -- every page renders, for everyone ---------------------------------------------------


def test_every_entry_has_a_page_for_everyone(visitor):
    urls = entry_urls()
    assert len(urls) == len(scenes.ACTIONS) + 5 + 9 + 13
    for url in urls:
        response = visitor.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert ATTRIBUTION in body, url  # the CC BY credit on every page
        assert 'role="search"' in body, url


def test_the_index_and_search_are_public(visitor):
    index = visitor.get(reverse("rules:index"))
    search = visitor.get(reverse("rules:search"), {"q": "grapple"})
    assert index.status_code == search.status_code == 200
    assert ATTRIBUTION in index.content.decode()
    assert ATTRIBUTION in search.content.decode()
    assert "Grapple" in text_of(search)


def test_entry_addresses_are_stable():
    assert reverse("rules:action", args=["attack-melee"]) == "/rules/actions/attack-melee/"
    assert reverse("rules:montage", args=["travel"]) == "/rules/montages/travel/"
    assert reverse("rules:staging", args=["initiative"]) == "/rules/staging/initiative/"
    assert reverse("rules:scenery", args=["fire"]) == "/rules/scenery/fire/"
    assert reverse("rules:status", args=["staggered"]) == "/rules/statuses/staggered/"
    assert reverse("rules:search") == "/rules/search/"


@pytest.mark.parametrize("url", [
    "/rules/actions/fireball/", "/rules/montages/attack-melee/x/", "/rules/scenery/initiative/",
    "/rules/staging/cover/", "/rules/statuses/sleepy/",
])
def test_unknown_entries_are_404(client, url):
    assert client.get(url).status_code == 404


def test_an_entry_under_the_wrong_kind_redirects_to_its_address(client):
    response = client.get("/rules/actions/crafting/")
    assert response.status_code == 301
    assert response["Location"] == "/rules/montages/crafting/"
    response = client.get("/rules/montages/grapple/")
    assert response["Location"] == "/rules/actions/grapple/"


def test_pages_only_answer_get(client):
    assert client.post(reverse("rules:index")).status_code == 405
    assert client.post(reverse("rules:search"), {"q": "x"}).status_code == 405
    assert client.post(reverse("rules:action", args=["dodge"])).status_code == 405


# -- the pages show the data's fields ---------------------------------------------------


def test_attack_melee_page_shows_check_ocs_outcomes_and_defaults(client):
    response = client.get(reverse("rules:action", args=["attack-melee"]))
    text = text_of(response)
    body = response.content.decode()
    assert "<h1" in body and "Attack, Melee" in text
    assert "Scenes > Actions > Attack, Melee" in text
    assert re.search(r'data-field="check">DEX vs\. AF<', body)
    assert "All adventurers use d20 for Attacks." in text
    assert "Critical hit and add Bonus damage equal to the max of your usual damage die." in text
    assert "Botch Countered: miss & take hit from foe!" in text
    assert "Every adventurer Checks this on a d20" in text
    # The defaults, with the standard table's effect and a link to its row.
    assert 'href="/rules/#critical-bonus-damage">Bonus Damage</a>: Add max of one die' in body
    assert 'href="/rules/#botch-countered">Countered</a>: Take retaliatory damage' in body
    # The notes' bullets are a list, bold lead and all.
    assert "<li><strong>Split Attacks</strong> divide the Action into two attacks" in body
    # Neighbours in SRD order.
    assert 'href="/rules/actions/attack-ranged/" rel="next"' in body


def test_move_offers_two_default_criticals_and_travel_its_own_botch(client):
    move = client.get(reverse("rules:action", args=["move"])).content.decode()
    assert ('<a href="/rules/#critical-assist-ally">Assist Ally</a>: Turn an ally’s Failure'
            in move)
    assert "<a href=\"/rules/#critical-hinder-foe\">Hinder foe</a>" in move
    travel = text_of(client.get(reverse("rules:montage", args=["travel"])))
    assert "Default Botch Lost" in travel
    parley = text_of(client.get(reverse("rules:action", args=["parley"])))
    assert "Default Critical None named: choose one that fits." in parley


def test_entries_without_a_check_show_no_check_or_outcomes(client):
    text = text_of(client.get(reverse("rules:action", args=["guard"])))
    assert "This protects a more precious ally within the same Zone." in text
    assert "Outcomes" not in text and "OCS" not in text
    rally = text_of(client.get(reverse("rules:action", args=["rally"])))
    assert "Roll recover 1d4* + END HP" in rally
    assert "*unarmored - armor improves this die." in rally


def test_scenery_page_renders_its_table_and_lists(client):
    body = client.get(reverse("rules:scenery", args=["cover"])).content.decode()
    assert '<caption class="caption-top fw-semibold">Cover</caption>' in body
    assert '<th scope="row">Wall, boulder, tree</th><td>Hard</td><td>-4*</td>' in body
    assert "*only after targeting another from Hard Cover" in body
    fire = text_of(client.get(reverse("rules:scenery", args=["fire"])))
    assert "A small fire like a torch does 1d6 damage" in fire
    assert "Eldritch Gambit SRD, Scenes > Scenery > Fire" in fire


def test_the_initiative_rules_page(client):
    response = client.get("/rules/staging/initiative/")
    text = text_of(response)
    assert "Volleyball" in text and "The one holding Initiative gets to take the first Action." \
        in text
    assert "Initiative ends when the conflict is over, by whatever means." in text
    assert "<ol class=\"rules-steps\"><li>Use Action.</li>" in response.content.decode()


def test_status_page_has_the_engine_summary_and_the_srd_words(client):
    text = text_of(client.get(reverse("rules:status", args=["staggered"])))
    assert statuses.STATUS_BY_KEY["staggered"].effect in text
    assert "Staggered combatants have taken a nasty wound." in text
    encumbered = text_of(client.get(reverse("rules:status", args=["encumbered"])))
    assert "sets this Status itself, from the character's Load" in encumbered


def test_the_index_has_every_section_and_links_every_entry(client):
    response = client.get(reverse("rules:index"))
    body = response.content.decode()
    for heading in ("Staging", "Actions", "Montages", "Scenery", "Statuses",
                    "Criticals &amp; Botches", "Difficulties", "Levels", "Gear", "Traits"):
        assert f">{heading}</h2>" in body, heading
    for url in entry_urls():
        assert f'href="{url}"' in body, url
    for name, _ in scenes.STANDARD_CRITICALS:
        assert f'id="{reference.critical_anchor(name)}"' in body
    for name, _ in scenes.STANDARD_BOTCHES:
        assert f'id="{reference.botch_anchor(name)}"' in body
    for rule in statuses.STATUSES:
        assert f'id="status-{rule.key}"' in body
    for item in GearItem.objects.srd():
        assert f'id="gear-{item.slug}"' in body
    assert 'id="difficulties"' in body
    assert '<th scope="row">25+</th><td>Nigh impossible</td>' in body
    assert ATTRIBUTION in body


def test_the_level_table_comes_from_the_engine(client):
    body = client.get(reverse("rules:index")).content.decode()
    rows = re.findall(r'<tr id="level-(\d+)"><th scope="row">\d+</th><td>(\d+)</td>'
                      r'<td>(\d+)</td><td>(.*?)</td></tr>', body)
    assert [int(level) for level, *_ in rows] == list(range(1, 21))
    for level, points, most, tier in rows:
        level = int(level)
        assert int(points) == levels.attribute_points(level)
        assert int(most) == levels.attribute_max(level)
        assert (levels.tier(level) or "—") in tier
    # The printed LEVEL BENEFITS: Level 9 is 9 (max 5), Level 19 is 19 (max 10).
    assert ("9", "9", "5") in [r[:3] for r in rows] and ("19", "19", "10") in [r[:3] for r in rows]
    assert '<tr id="level-10"><th scope="row">10</th><td>10</td><td>5</td><td><strong>Heroic' \
        in body


def test_actions_table_on_the_index(client):
    body = client.get(reverse("rules:index")).content.decode()
    assert re.search(r'<tr id="action-attack-melee"><th scope="row"><a href="/rules/actions/'
                     r'attack-melee/">Attack, Melee</a> <span class="badge d20-badge"[^>]*>d20'
                     r'</span></th><td>DEX vs\. AF</td><td>Bonus Damage</td><td>Countered</td>',
                     body)
    assert '<tr id="montage-training">' in body


# -- search ---------------------------------------------------------------------------


def hits(response) -> list[str]:
    return re.findall(r'<a href="([^"]+)" class="fw-semibold">', response.content.decode())


def test_search_finds_grapple_in_names_and_text_any_case(client):
    response = client.get(reverse("rules:search"), {"q": "GRAPPLE"})
    urls = hits(response)
    assert urls[0] == "/rules/actions/grapple/"  # the name match comes first
    assert "/rules/statuses/grappled/" in urls  # a name containing the word
    assert "/rules/scenery/traps/" in urls  # Trap Builder: "Causes Grappled status"
    assert "<mark>GRAPPLE</mark>" not in response.content.decode()  # marks show the text's case
    assert "<mark>Grapple</mark>" in response.content.decode()


def test_search_finds_fire(client):
    urls = hits(client.get(reverse("rules:search"), {"q": "fire"}))
    assert urls[0] == "/rules/scenery/fire/"
    assert "/rules/#botch-friendly-fire" in urls
    assert "/rules/statuses/burning/" in urls


def test_search_needs_every_word(client):
    urls = hits(client.get(reverse("rules:search"), {"q": "fire damage round"}))
    assert "/rules/scenery/fire/" in urls
    assert "/rules/#botch-friendly-fire" not in urls


def test_search_finds_gear_traits_levels_and_difficulties(client):
    assert "/rules/#gear-plate-mail" in hits(client.get(reverse("rules:search"), {"q": "plate"}))
    trait = Trait.objects.srd().first()
    assert f"/rules/#trait-{trait.slug}" in hits(
        client.get(reverse("rules:search"), {"q": trait.name}))
    assert "/rules/#difficulties" in hits(client.get(reverse("rules:search"), {"q": "daunting"}))


def test_search_with_no_results_says_so(client):
    response = client.get(reverse("rules:search"), {"q": "xylophone"})
    text = text_of(response)
    assert response.status_code == 200
    assert "Nothing in the rules matches “xylophone”." in text
    assert hits(response) == []


def test_search_for_nothing_invites_a_word(client):
    text = text_of(client.get(reverse("rules:search"), {"q": "   "}))
    assert "Type a word above" in text
    assert "Nothing in the rules matches" not in text


def test_a_too_long_search_gets_a_message_beside_the_field_and_keeps_the_text(client):
    query = "grapple " * 20
    response = client.get(reverse("rules:search"), {"q": query})
    body = response.content.decode()
    assert "Search for at most 100 characters (you typed 159)." in text_of(response)
    assert 'value="' + query.strip() + '"' in body
    assert "is-invalid" in body


def test_htmx_search_returns_only_the_results(client):
    response = client.get(reverse("rules:search"), {"q": "grapple"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "<html" not in body and "<form" not in body
    assert 'id="search-count"' in body and "/rules/actions/grapple/" in body
    assert "HX-Request" in response["Vary"]
    empty = client.get(reverse("rules:search"), {"q": "xylophone"}, HTTP_HX_REQUEST="true")
    assert "Nothing in the rules matches" in empty.content.decode()
    cleared = client.get(reverse("rules:search"), {"q": ""}, HTTP_HX_REQUEST="true")
    assert cleared.content.decode().strip() == ""


def test_the_search_input_is_wired_for_htmx_and_works_without_js(client):
    body = client.get(reverse("rules:index")).content.decode()
    form = re.search(r'<form role="search" method="get" action="/rules/search/".*?</form>', body,
                     flags=re.S).group(0)
    assert 'hx-get="/rules/search/"' in form
    assert 'hx-trigger="input changed delay:200ms, search"' in form
    assert 'hx-target="#search-results"' in form
    assert '<label for="rules-q"' in form and 'name="q"' in form
    assert '<button type="submit"' in form


def test_search_results_escape_what_was_typed(client):
    response = client.get(reverse("rules:search"), {"q": "<script>alert(1)</script>"})
    body = response.content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;" in body


def test_homebrew_never_shows_in_the_reference_or_its_search(client):
    author = UserFactory()
    GearItem.objects.create(owner=author, name="Wyrmtooth flail", slug="wyrmtooth-flail",
                            category="weapon", load=1, weapon_hit=1, weapon_damage="1d8")
    Trait.objects.create(owner=author, name="Glimmereyes", slug="glimmereyes", load=1,
                         effects="Sees in the dark.")
    for user in (None, author):
        if user:
            client.force_login(user)
        assert "Wyrmtooth flail" not in client.get(reverse("rules:index")).content.decode()
        # (Not "bone flail": the Magic chapter's Thighbone Flute and a Flail match that.)
        found = client.get(reverse("rules:search"), {"q": "wyrmtooth flail"}).content.decode()
        assert "Nothing in the rules matches" in found
        found = client.get(reverse("rules:search"), {"q": "glimmereyes"}).content.decode()
        assert "Nothing in the rules matches" in found


# -- the homebrew pages keep their permissions ------------------------------------------


def test_homebrew_pages_still_need_a_login(client):
    for name in ("rules:homebrew", "rules:gear_create", "rules:trait_create"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_another_players_homebrew_is_still_a_404(client):
    author = UserFactory()
    item = GearItem.objects.create(owner=author, name="Bone flail", slug="bone-flail",
                                   category="weapon", load=1, weapon_hit=1,
                                   weapon_damage="1d8")
    client.force_login(UserFactory())
    assert client.get(reverse("rules:gear_edit", args=[item.pk])).status_code == 404
    assert client.post(reverse("rules:gear_delete", args=[item.pk])).status_code == 404
    client.force_login(CampaignFactory().owner)  # an Imp is no exception
    assert client.get(reverse("rules:gear_edit", args=[item.pk])).status_code == 404
    client.force_login(author)
    assert client.get(reverse("rules:gear_edit", args=[item.pk])).status_code == 200


# -- the search helper ----------------------------------------------------------------


def test_search_ranks_names_before_text_and_keeps_section_order():
    entries = [
        reference.Entry("scenery", "Cover", "/c/", "hides you from fire"),
        reference.Entry("scenery", "Fire", "/f/", "hot"),
        reference.Entry("actions", "Fireball drill", "/fd/", "boom"),
    ]
    assert [m.entry.url for m in reference.search("fire", entries)] == ["/f/", "/fd/", "/c/"]
    assert reference.search("   ", entries) == []


def test_highlight_and_snippet():
    pattern = reference._pattern(["fire"])
    assert reference.highlight("Friendly Fire", pattern) == [("Friendly ", False),
                                                              ("Fire", True)]
    long = "word " * 60 + "the fire burns " + "word " * 60
    cut = reference.snippet(long, pattern)
    assert cut.startswith("…") and cut.endswith("…") and "the fire burns" in cut
    assert len(cut) < 2 * reference.SNIPPET + 20


def mentioned(client, url) -> list[str]:
    body = client.get(url).content.decode()
    section = re.search(r'<section aria-labelledby="mentioned-heading".*?</section>', body,
                        flags=re.S)
    return re.findall(r'<a href="([^"]+)"', section.group(0)) if section else []


def test_entry_pages_link_the_entries_their_text_names(client):
    grapple = mentioned(client, "/rules/actions/grapple/")
    assert "/rules/statuses/grappled/" in grapple
    assert "/rules/actions/grapple/" not in grapple  # not itself
    fire = mentioned(client, "/rules/scenery/fire/")
    assert {"/rules/statuses/burning/", "/rules/actions/rally/", "/rules/actions/use/"} <= set(fire)
    # "Friendly fire" is not the Fire rule: names match as words, case and all.
    assert "/rules/scenery/fire/" not in mentioned(client, "/rules/actions/attack-ranged/")
    # "Attack" names both Attacks.
    assert {"/rules/actions/attack-melee/", "/rules/actions/attack-ranged/"} <= set(
        mentioned(client, "/rules/actions/dodge/"))
    assert "/rules/staging/initiative/" in mentioned(client, "/rules/actions/rally/")
    assert "/rules/montages/recovery/" in mentioned(client, "/rules/statuses/staggered/")
