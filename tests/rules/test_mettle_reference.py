"""METTLE Core's rules reference, served through the registry (GameSystem.reference):
every chapter the app implements, statuses, Twists and the tables, each entry at its own
address under /rules/mettle-core/, searchable beside Eldritch Gambit's (each result says
its game), the CC BY 4.0 attribution on every page; the METTLE sheet's explanations link
their citations to it. Public pages: anonymous visitors, players and Guides read the same.
"""

import html
import re

import pytest
from django.urls import reverse

from characters.systems.mettle.apps import KEY
from rules import reference, systems
from rules.engine.mettle import data
from rules.engine.mettle.reference import reference as mettle_reference
from rules.engine.reference import Outcomes, parse_markdown
from tests.characters.systems.mettle.helpers import make_viktor, posted
from tests.factories import CampaignFactory, UserFactory

REF = mettle_reference()


def entry_url(chapter: str, slug: str) -> str:
    return reverse("rules:system_entry",
                   kwargs={"system": KEY, "chapter": chapter, "slug": slug})


def text_of(response) -> str:
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


# -- the data ---------------------------------------------------------------------------


def test_the_registry_hands_over_the_reference():
    assert systems.reference_of(systems.get(KEY)) is REF
    assert [c.key for c in REF.chapters] == ["characters", "engine", "scenes", "resources",
                                             "guidance", "statuses", "twists", "tables"]
    assert REF.attribution == data.ATTRIBUTION and REF.licence == "CC BY 4.0"


def test_every_action_has_its_entry_with_check_pair_and_outcomes():
    for action in data.ACTIONS:
        entry = REF.resolve(f"Scenes > Actions > {action.name}")
        assert entry is not None and entry.parent == "actions", action.name
        lead = entry.blocks[0]
        assert lead.term == "Check pair:"
        assert lead.text.startswith(f"{data.ATTRIBUTE_NAMES[action.active]} vs. "
                                    f"{action.passive}")
        outcomes = dict(next(b for b in entry.blocks if b.kind == "outcomes").outcomes)
        assert {"Success", "Edge", "Failure"} <= set(outcomes), action.name
        assert any(label.startswith("Twist") for label in outcomes), action.name


def test_attack_reads_as_the_text():
    attack = REF.entry("scenes", "attack")
    assert "NATURE vs. the target's POISE" in attack.blocks[0].text
    assert "Attackers Check NATURE vs. their target's POISE." in attack.plain


@pytest.mark.parametrize(("citation", "chapter", "slug"), [
    ("Scenes > Scenery > Fire", "scenes", "fire"),
    ("Scenes > Split Actions", "scenes", "split-actions"),
    ("Scenes > Staging > Initiative", "scenes", "initiative"),
    ("Engine > Mettle", "engine", "mettle"),
    ("Engine > Mettle Surges", "engine", "mettle-surges"),
    ("Engine > Taking Damage", "engine", "taking-damage"),
    ("Engine > Twists", "engine", "twists"),
    ("Characters > Step 3", "characters", "step-3-attributes"),
    ("Characters > Step 3: Attributes > POISE", "characters", "poise"),
    ("characters >  credit", "characters", "credit"),
    ("Statuses > Staggered", "statuses", "staggered"),
    ("Twists > Delay", "twists", "delay"),
    ("Tables > Difficulty", "tables", "difficulty"),
])
def test_citations_resolve(citation, chapter, slug):
    entry = REF.resolve(citation)
    assert (entry.chapter, entry.slug) == (chapter, slug)


@pytest.mark.parametrize("citation", ["", "Engine", "Engine >", "Bestiary > Size",
                                      "Engine > Nothing", ">>>", "Characters > Defenses"])
def test_a_citation_it_lacks_resolves_to_nothing(citation):
    assert REF.resolve(citation) is None


def test_the_statuses_the_engine_names_have_entries():
    names = [e.name for e in REF.chapter("statuses").entries]
    assert names == ["Staggered", "Fallen", "Afflicted", "Blinded", "Deafened",
                     "Encumbered", "Incapacitated", "Rattled", "Surprised"]
    staggered = REF.entry("statuses", "staggered").plain
    assert "Lose Free Move & Rally" in staggered and "further point of damage" in staggered
    assert "+3 Difficulty" in REF.entry("statuses", "blinded").plain


def test_the_naming_leftovers_are_read_as_amb_m17():
    """AMB-M17: the Status Effects paragraph naming Shaken and Broken is left out; Use's
    "FOCUS" is said to be CONCEPT."""
    effects = REF.entry("engine", "status-effects").plain
    assert "Shaken" not in effects and "Broken" not in effects
    assert "aside from Staggered, and Fallen, above" in effects
    use = REF.entry("scenes", "use")
    assert use.blocks[0].text.startswith("CONCEPT vs. Difficulty")
    assert "FOCUS, an older name for CONCEPT" in use.blocks[0].text
    assert "FOCUS vs. Difficulty" in use.plain  # the text as published


def test_twists_are_the_twist_seeds():
    twists = REF.chapter("twists").entries
    assert [t.name for t in twists] == [name for name, _, _ in data.TWIST_SEEDS]
    assert "default Twist" in REF.entry("twists", data.DEFAULT_TWIST.lower()).plain


def table(chapter, slug):
    return next(b for b in REF.entry(chapter, slug).blocks if b.kind == "table")


def test_the_tables_come_from_the_engine_data():
    assert table("tables", "difficulty").rows == tuple(
        (str(df), name) for df, name in data.DIFFICULTY)
    assert table("tables", "edge").rows[-1] == ("5+", "Legendary")
    credit = table("tables", "credit").rows
    assert credit[0] == ("1", "$9", "Needy") and credit[-1] == ("6", "$999,999", "Rich")
    weapons = {row[0]: row for row in table("tables", "weapons").rows}
    assert len(weapons) == len(data.WEAPONS)
    assert weapons["Sword"][1:3] == ("+2D", "FRAME+2")
    armor = {row[0]: row for row in table("tables", "armor").rows}
    assert armor["Heavy (Plate)"][1:3] == ("+3", "3")
    for slug in ("common-loads", "medicine", "standard-kits", "vehicles", "mounts",
                 "weapon-specials", "attribute-pools"):
        assert table("tables", slug).rows, slug


def test_the_srd_tables_parse_with_their_captions():
    difficulty = table("engine", "success-failure")
    assert difficulty.text == "DIFFICULTY" and difficulty.headers == ("Difficulty", "Ranking")
    seeds = table("engine", "twists")
    assert seeds.text == "TWIST SEEDS" and seeds.headers == ("Type", "Example Consequences")


def test_markdown_parsing():
    chapter = parse_markdown(
        "---\ntitle: Demo\n---\n*An intro.*\n\n## Table of Contents\n\n- TOC\n\n## One: First\n\n"
        "Some **bold** and *italic*\ntext.\n\n-   **Term**: wrapped\n    item\n\n"
        "### Sub\n\n{: .outcomes }\n\n> -   **Success:** yes.\n> -   **Failure:** no.\n\n"
        "1.  Step one.\n2.  Step two.\n\n<center>\n<strong>T</strong>\n</center>\n\n"
        "| A | B |\n|---|---|\n| 1 | 2 |\n", key="demo")
    assert (chapter.name, chapter.intro) == ("Demo", "An intro.")
    one, sub = chapter.entries
    assert (one.slug, one.citation, one.short_name) == ("one-first", "Demo > One: First", "One")
    assert [b.kind for b in one.blocks] == ["paragraph", "item"]
    assert one.blocks[0].text == "Some bold and italic text."
    assert (one.blocks[1].term, one.blocks[1].text) == ("Term", "wrapped item")
    assert (sub.parent, sub.citation) == ("one-first", "Demo > One: First > Sub")
    assert sub.blocks[0].outcomes == Outcomes([("Success", "yes."), ("Failure", "no.")])
    assert [b.text for b in sub.blocks[1:3]] == ["Step one.", "Step two."]
    assert (sub.blocks[3].text, sub.blocks[3].rows) == ("T", (("1", "2"),))


# -- the pages ----------------------------------------------------------------------------


@pytest.fixture(params=["anonymous", "player", "guide"])
def visitor(request, client, db):
    if request.param == "player":
        client.force_login(UserFactory())
    elif request.param == "guide":
        client.force_login(CampaignFactory(system=KEY).owner)
    return client


def test_every_entry_has_a_page_with_the_attribution(visitor):
    count = 0
    for chapter in REF.chapters:
        response = visitor.get(reverse("rules:system_chapter",
                                       kwargs={"system": KEY, "chapter": chapter.key}))
        assert response.status_code == 200
        for entry in chapter.entries:
            response = visitor.get(entry_url(chapter.key, entry.slug))
            assert response.status_code == 200, entry.citation
            body = response.content.decode()
            assert html.escape(data.ATTRIBUTION) in body, entry.citation
            assert f"<h1 id=\"entry-heading\" class=\"h3 mb-1\">{html.escape(entry.name)}" \
                in body
            count += 1
    assert count > 100


def test_an_action_page_shows_its_check_and_outcomes(client, db):
    page = text_of(client.get(entry_url("scenes", "defend")))
    assert "Check pair: POISE vs. the attacker's NATURE" in page
    assert "Success +2 to Soak" in page.replace(":", "")
    assert "METTLE Core SRD, Scenes > Actions > Defend" in page
    assert "← Attack" in page and "Know →" in page


def test_a_table_page(client, db):
    body = client.get(entry_url("tables", "weapons")).content.decode()
    assert "<caption" in body and "Sword cane" not in body
    assert re.search(r"<th scope=\"row\">Sword</th><td>\+2D</td><td>FRAME\+2</td>", body)


def test_the_index_lists_each_systems_chapters(client, db):
    body = client.get(reverse("rules:index")).content.decode()
    index = reverse("rules:system_index", kwargs={"system": KEY})
    assert f'href="{index}"' in body
    for chapter in REF.chapters:
        assert reverse("rules:system_chapter",
                       kwargs={"system": KEY, "chapter": chapter.key}) in body
    own = client.get(index).content.decode()
    assert entry_url("scenes", "split-actions") in own and entry_url("tables", "mounts") in own
    assert html.escape(data.ATTRIBUTION) in own


@pytest.mark.parametrize("url", [
    "/rules/mettle-core/nowhere/", "/rules/mettle-core/scenes/nowhere/",
    "/rules/mettle-core/nowhere/attack/", "/rules/mettle-core/statuses/attack/",
    "/rules/mettle-core/scenes/%3Cscript%3E/", "/rules/mettle-core/scenes/" + "a" * 3000 + "/",
    "/rules/eldritch-gambit/scenes/attack/", "/rules/no-such-game/scenes/attack/",
])
def test_bad_addresses_are_404(client, db, url):
    assert client.get(url).status_code == 404


def test_the_pages_answer_get_only(client, db):
    assert client.post(entry_url("scenes", "attack")).status_code == 405
    assert client.head(entry_url("scenes", "attack")).status_code == 200


# -- search ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("query", "chapter", "slug"), [
    ("Split Actions", "scenes", "split-actions"),
    ("Staggered", "statuses", "staggered"),
    ("mettle surges", "engine", "mettle-surges"),
    ("Imperil", "twists", "imperil"),
    ("Quarterstaff", "tables", "weapons"),
])
def test_search_finds_mettle_entries(client, query, chapter, slug):
    url = entry_url(chapter, slug)
    assert url in [m.entry.url for m in reference.search(query)]
    body = client.get(reverse("rules:search"), {"q": query}).content.decode()
    assert f'href="{url}"' in body
    assert 'data-game="METTLE Core"' in body


@pytest.mark.django_db
def test_results_say_which_game(client):
    body = client.get(reverse("rules:search"), {"q": "fire"},
                      HTTP_HX_REQUEST="true").content.decode()
    assert 'data-game="METTLE Core"' in body and 'data-game="Eldritch Gambit"' in body
    assert "<html" not in body  # the partial


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["<script>alert(1)</script>", "' OR 1=1 --", "\x00",
                                   "🙂" * 30, "(((", ".*", "x" * 101, "Mettle " * 20])
def test_hostile_queries_never_fail(client, query):
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.get(reverse("rules:search"), {"q": query}, **headers)
        assert response.status_code == 200
        assert "<script>alert(1)</script>" not in response.content.decode()


# -- the METTLE sheet's explanations link to their entries --------------------------------


def test_the_sheet_explanations_link_their_citations(client, user):
    viktor = make_viktor(user)
    client.force_login(user)
    body = client.get(viktor.get_absolute_url()).content.decode()
    assert f'<a href="{entry_url("engine", "mettle")}">Engine &gt; Mettle</a>' in body
    assert (f'<a href="{entry_url("engine", "taking-damage")}">Engine &gt; Taking Damage</a>; '
            f'<a href="{entry_url("resources", "armor")}">Resources &gt; Armor</a>') in body
    # The live preview too.
    preview = client.post(reverse("characters:preview"), posted(),
                          HTTP_HX_REQUEST="true").content.decode()
    assert entry_url("characters", "step-3-attributes") in preview


def test_the_systems_citations_do_not_cross():
    """"Resources > Armor" is a chapter of both SRDs: each system's own entry."""
    assert reference.citation_url("Resources > Armor") == reverse(
        "rules:section", args=["resources", "armor"])
    assert reference.citation_url("Resources > Armor", KEY) == entry_url("resources", "armor")
    assert reference.citation_url("Bestiary > Size", KEY) == ""
    assert reference.citation_url("Engine > Mettle", "no-such-game") == ""
