"""The SRD chapters in the rules reference (Basics, Characters, Resources, Bestiary >
Templates, Magic > Materia/Ephemera): each heading at its own address, found by search,
and every citation an explanation carries links to its entry."""

import json
import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse

from characters.systems.eldritch_gambit.selectors import weapon_stats
from rules import reference
from rules.engine.eldritch_gambit import (
    CharacterBuild,
    TraitChoice,
    chapters,
    compute_sheet,
)
from rules.engine.eldritch_gambit.sheet import Stat
from tests.factories import UserFactory
from tests.rules.engine.srd_examples import ASPHODEL, CHAIN

ROOT = Path(__file__).resolve().parents[2]
SRD = Path("/work/shared/srd")

# -- the data ---------------------------------------------------------------------------


def test_every_implemented_chapter_is_there_with_its_headings():
    assert list(chapters.CHAPTERS) == ["basics", "characters", "resources", "bestiary",
                                       "magic"]
    names = {key: [s.name for s in chapter.sections]
             for key, chapter in chapters.CHAPTERS.items()}
    for name in ("Rolls", "Modifiers", "Roll-offs", "Rerolls", "Checks", "Gambits",
                 "Teamwork", "Helping Others"):
        assert name in names["basics"]
    for name in ("Level", "Attributes", "Defenses", "Willpower (WP)", "Agility Factor (AF)",
                 "Hit Points (HP)", "Status", "Gear", "Encumbrance", "Advancement",
                 "Highlights XP", "Quest XP", "Template", "Quest"):
        assert name in names["characters"]
    assert {"Armor", "Weapons", "Shields", "Money"} <= set(names["resources"])
    assert {"Templates", "Size"} <= set(names["bestiary"])
    assert {"Materia", "Ephemera"} <= set(names["magic"])
    # Slugs are unique within a chapter, so each heading has one address.
    for chapter in chapters.CHAPTERS.values():
        slugs = [s.slug for s in chapter.sections]
        assert len(slugs) == len(set(slugs))


def test_the_text_is_the_srds_words_without_markup():
    rerolls = chapters.section("basics", "rerolls")
    assert rerolls.section == "Basics > Rolls > Rerolls"
    assert "Rerolling costs a temporary Willpower" in rerolls.plain
    assert "cannot Reroll Checks" in rerolls.plain
    willpower = chapters.section("characters", "willpower")
    assert "WP is equal to ten plus WIS" in willpower.plain  # the smallcaps span is WIS
    assert "<" not in willpower.plain and "*" not in willpower.plain
    difficulties = next(b for b in chapters.section("basics", "checks").blocks
                        if b.kind == "table")
    assert difficulties.text == "DIFFICULTIES"
    assert difficulties.rows[0] == ("5", "Routine")
    assert difficulties.rows[-1] == ("25+", "Nigh impossible")


@pytest.mark.skipif(not SRD.is_dir(), reason="the SRD markdown is not on this machine")
def test_the_checked_in_data_is_what_the_build_command_makes():
    from rules.management.commands.build_chapters import OUTPUT, build

    assert json.loads(OUTPUT.read_text(encoding="utf-8"))["chapters"] == build(SRD)


def test_the_data_carries_the_catalogs_source_and_version():
    data = json.loads(chapters.DATA_FILE.read_text(encoding="utf-8"))
    source = json.loads((chapters.DATA_FILE.parent / "source.json").read_text())
    assert data["source"] == source["source"]["slug"] == "eldritch-gambit"
    assert data["version"] == source["version"]
    assert data["srd_revision"] == source["srd_revision"]


@pytest.mark.parametrize(("citation", "slug"), [
    ("Characters > Defenses > Willpower", ("characters", "willpower")),
    ("Characters > Defenses", ("characters", "defenses")),
    ("Basics > Rolls > Rerolls", ("basics", "rerolls")),
    ("Basics > Rerolls", ("basics", "rerolls")),  # a level skipped
    ("Bestiary > Size", ("bestiary", "size")),
    ("  characters  >  level ", ("characters", "level")),  # any case and spacing
    ("Characters &gt; Gear &gt; Encumbrance", ("characters", "encumbrance")),
])
def test_a_citation_resolves_to_its_heading(citation, slug):
    assert chapters.resolve(citation) == chapters.section(*slug)


@pytest.mark.parametrize("citation", [
    "", "Characters", "Characters > Dragons", "Nowhere > Level", ">>>", "Basics >",
])
def test_a_citation_to_nothing_resolves_to_none(citation):
    assert chapters.resolve(citation) is None


# -- search -----------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "chapter", "slug"), [
    ("reroll", "basics", "rerolls"),
    ("willpower", "characters", "willpower"),
    ("advancement", "characters", "advancement"),
    ("highlights", "characters", "highlights-xp"),
    ("gambit", "basics", "gambits"),
    ("Reroll", "basics", "rerolls"),
    ("encumbrance", "characters", "encumbrance"),
])
@pytest.mark.django_db
def test_the_tables_words_find_their_entry_first(client, query, chapter, slug):
    url = reverse("rules:section", args=[chapter, slug])
    assert reference.search(query)[0].entry.url == url
    # And the search page lists it first.
    body = client.get(reverse("rules:search"), {"q": query}).content.decode()
    assert body.index(f'href="{url}"') < body.index('class="badge search-label"')


# -- every explanation links to its entry -----------------------------------------------

CITATION = re.compile(
    r'(?:"|; )((?:Basics|Characters|Resources|Bestiary|Scenes|Magic)(?: > [^";:{}()>]+)+)'
    r'(?=["; :)])')
# METTLE Core's SRD has its own chapters (and a Characters, Resources and Scenes of its own).
METTLE_CITATION = re.compile(
    r'(?:"|; )((?:Characters|Engine|Resources|Guidance|Scenes|Statuses|Twists|Tables)'
    r'(?: > [^";:{}()>]+)+)(?=["; :)])')
METTLE = "mettle-core"


def cited_in_code(system: str | None = None) -> set[str]:
    """Every citation of a game's SRD written as a string in the app's code (the engine's
    Stat sources, the weapon rows' sources, messages), not comments: Eldritch Gambit's
    (system None) everywhere but in METTLE Core's packages, METTLE Core's in them."""
    pattern = METTLE_CITATION if system == METTLE else CITATION
    found = set()
    for folder in ("rules", "characters", "campaigns"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts or ("mettle" in path.parts) != (system == METTLE):
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                code = line.split("#", 1)[0] if line.lstrip().startswith("#") else line
                found.update(m.strip() for m in pattern.findall(code))
    return found


def test_every_citation_in_the_code_resolves_to_an_entry():
    cited = cited_in_code()
    # The scan sees the engine's sources (not a vacuous pass).
    assert {"Characters > Defenses > Willpower", "Characters > Level", "Basics > Checks",
            "Resources > Weapons", "Bestiary > Size", "Characters > Gear > Encumbrance",
            "Resources > Armor", "Characters > Advancement"} <= cited
    unresolved = {c for c in cited if not reference.citation_url(c)}
    assert unresolved == set()


def test_every_mettle_citation_in_the_code_resolves_to_an_entry():
    cited = cited_in_code(METTLE)
    assert {"Characters > Step 3", "Engine > Mettle", "Engine > Taking Damage",
            "Resources > Armor", "Characters > Encumbrance", "Guidance > Characters",
            "Characters > Spending XP"} <= cited
    unresolved = {c for c in cited if not reference.citation_url(c, METTLE)}
    assert unresolved == set()
    for citation in cited:
        assert reference.citation_url(citation, METTLE).startswith(f"/rules/{METTLE}/")


def every_stat(sheet):
    yield from sheet.stats.values()
    for row in weapon_stats(sheet):
        yield row["hit"]
        yield row["damage"]


def test_every_stat_the_sheet_explains_links_to_an_entry():
    build = CharacterBuild(
        level=10, attributes=ASPHODEL, gear=(CHAIN,),
        traits=(TraitChoice("Attack", "melee", 1), TraitChoice("Size", "Large", 2)))
    sheet = compute_sheet(build)
    assert sheet.weapons or sheet.natural_attacks
    sources = {stat.source for stat in every_stat(sheet) if stat.source}
    assert "Characters > Defenses > Willpower" in sources
    assert any("Bestiary > Size" in source for source in sources)
    for source in sources:
        for citation, url in reference.citation_links(source):
            assert url, f"{citation!r} (from {source!r}) links nowhere"
            assert url.startswith("/rules/")


def render_stat(stat):
    return Template("{% load sheet %}{% stat s %}").render(Context({"s": stat}))


def test_the_explanation_links_each_citation():
    html = render_stat(Stat("weapon_damage", "Axe damage", "1d10+2",
                            source="Resources > Weapons; Bestiary > Size"))
    weapons = reverse("rules:section", args=["resources", "weapons"])
    size = reverse("rules:section", args=["bestiary", "size"])
    assert (f'SRD: <a href="{weapons}">Resources &gt; Weapons</a>; '
            f'<a href="{size}">Bestiary &gt; Size</a>') in html


def test_a_citation_the_reference_lacks_stays_plain_and_escaped():
    html = render_stat(Stat("x", "X", 1, source="Homebrew > <b>Mine</b>"))
    assert "SRD: Homebrew &gt; &lt;b&gt;Mine&lt;/b&gt;" in html
    assert "<b>" not in html and "<a " not in html.split("SRD:")[1]


def test_scenes_citations_link_to_their_entries():
    assert reference.citation_url("Scenes > Actions > Dodge") == reverse(
        "rules:action", args=["dodge"])
    assert reference.citation_url("Scenes > Scenery > Fire") == reverse(
        "rules:scenery", args=["fire"])
    assert reference.citation_url("Scenes > Actions").endswith("#actions-heading")


@pytest.mark.django_db
def test_the_builder_links_its_explanations_to_the_reference(client):
    client.force_login(UserFactory())
    body = client.get(reverse("characters:create"), {"system": "eldritch-gambit"}).content.decode()
    for chapter, slug, citation in (
        ("characters", "willpower", "Characters &gt; Defenses &gt; Willpower"),
        ("characters", "defenses", "Characters &gt; Defenses"),
        ("basics", "checks", "Basics &gt; Checks"),
        ("characters", "level", "Characters &gt; Level"),
    ):
        url = reverse("rules:section", args=[chapter, slug])
        assert f'<a href="{url}">{citation}</a>' in body


# -- the pages ---------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
def test_an_entry_is_public_and_credits_its_source(client, who):
    if who != "anonymous":
        client.force_login(UserFactory(is_staff=who == "staff"))
    response = client.get("/rules/basics/rerolls/")
    assert response.status_code == 200
    assert response.templates[0].name == "rules/section_detail.html"
    body = response.content.decode()
    assert "<h1" in body and "Rerolls" in body
    assert "Eldritch Gambit SRD, Basics &gt; Rolls &gt; Rerolls" in body
    assert "Rerolling costs a temporary Willpower" in body
    credit = reference.source_credit()
    assert credit["license_name"] in body and credit["license_url"] in body
    # Its place: the chapter, the parent heading, the neighbours.
    assert 'href="/rules/basics/"' in body
    assert 'href="/rules/basics/rolls/"' in body
    assert 'href="/rules/basics/roll-offs/" rel="prev"' in body
    assert 'href="/rules/basics/checks/" rel="next"' in body


@pytest.mark.django_db
def test_a_parent_heading_lists_its_children_and_a_chapter_its_headings(client):
    body = client.get("/rules/characters/defenses/").content.decode()
    for slug in ("willpower", "agility-factor", "hit-points", "status"):
        assert f'href="/rules/characters/{slug}/"' in body
    body = client.get("/rules/characters/").content.decode()
    for section in chapters.CHAPTERS["characters"].sections:
        assert f'href="{reference.section_url(section)}"' in body
    # The index lists every chapter.
    body = client.get(reverse("rules:index")).content.decode()
    for key in chapters.CHAPTERS:
        assert f'href="/rules/{key}/"' in body


@pytest.mark.django_db
def test_an_entry_links_the_actions_and_statuses_it_names(client):
    body = client.get("/rules/characters/hit-points/").content.decode()
    assert 'href="/rules/statuses/staggered/"' in body
    assert 'href="/rules/actions/rally/"' in body


@pytest.mark.django_db
@pytest.mark.parametrize("path", [
    "/rules/dragons/", "/rules/dragons/rerolls/", "/rules/basics/dragons/",
    "/rules/basics/willpower/",  # a Characters heading, not a Basics one
    "/rules/basics/%3Cscript%3E/", "/rules/basics/" + "a" * 5000 + "/",
    "/rules/basics/rerolls/../../admin/",
])
def test_hostile_or_unknown_addresses_are_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "<script>" not in response.content.decode()


@pytest.mark.django_db
def test_entries_are_read_only(client):
    assert client.post("/rules/basics/rerolls/").status_code == 405
    assert client.post("/rules/basics/").status_code == 405


def test_every_entry_is_searchable_under_its_chapter_label():
    entries = [e for e in reference._engine_entries() if e.section in chapters.CHAPTERS]
    assert len(entries) == len(chapters.SECTIONS)
    assert {e.label for e in entries} == {c.name for c in chapters.CHAPTERS.values()}


@pytest.mark.django_db
def test_every_entry_page_renders(client):
    for section in chapters.SECTIONS:
        assert client.get(reference.section_url(section)).status_code == 200


@pytest.mark.django_db
def test_the_standard_tables_have_anchors_the_checks_page_links_to(client):
    body = client.get("/rules/basics/gambits/").content.decode()
    assert 'id="standard-criticals"' in body and 'id="standard-botches"' in body
    template = (ROOT / "templates" / "campaigns" / "eldritch_gambit" / "play.html").read_text()
    assert "{% url 'rules:section' 'basics' 'gambits' %}#standard-criticals" in template
    assert "{% url 'rules:section' 'basics' 'gambits' %}#standard-botches" in template


@pytest.mark.django_db
def test_the_citations_on_the_reference_pages_link_to_their_entries(client):
    body = client.get(reverse("rules:index")).content.decode()
    for chapter, slug, text in (
        ("characters", "status", "Characters &gt; Defenses &gt; Status"),
        ("basics", "gambits", "Basics &gt; Checks &gt; Gambits"),
        ("basics", "checks", "Basics &gt; Checks"),
        ("characters", "level", "Characters &gt; Level"),
        ("resources", "shields", "Resources &gt; Weapons &gt; Shields"),
        ("characters", "encumbrance", "Characters &gt; Gear &gt; Encumbrance"),
        ("bestiary", "templates", "Bestiary &gt; Templates"),
    ):
        assert f'<a href="/rules/{chapter}/{slug}/">{text}</a>' in body
    # A Status's page cites (and links) the heading its words come from.
    body = client.get(reverse("rules:status", args=["blinded"])).content.decode()
    assert '<a href="/rules/characters/status/">Characters &gt; Defenses &gt; Status</a>' in body
    # An entry's own citation is plain text, not a link to itself.
    body = client.get("/rules/characters/status/").content.decode()
    assert "Eldritch Gambit SRD, Characters &gt; Defenses &gt; Status</p>" in body


def test_cite_escapes_what_it_cannot_link():
    html = Template('{% load reference_tags %}{{ c|cite }}').render(
        Context({"c": "Basics > Rerolls; <script>x</script>"}))
    assert html == ('<a href="/rules/basics/rerolls/">Basics &gt; Rerolls</a>; '
                    "&lt;script&gt;x&lt;/script&gt;")
