"""Reference.resolve reads a citation through an index built once per Reference (a
sheet resolves dozens of citations a render): it must name the same entry the plain
reading of its docstring names, for every way a citation may name an entry of every
shipped reference (METTLE Core's, the encounter rules'), and for citations that name
none."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.encounters.reference import reference as encounters_reference
from rules.engine.mettle.reference import reference as mettle_reference
from rules.engine.reference import Chapter, Entry, Reference, _fold

REFERENCES = [mettle_reference(), encounters_reference()]


def plain_resolve(reference: Reference, citation: str) -> Entry | None:
    """The docstring's reading, entry by entry: the chapter by name, the entry whose own
    citation it is, else the first entry named by the last part (full or short name)."""
    parts = [_fold(part) for part in citation.split(">")]
    if len(parts) < 2:
        return None
    chapter = next((c for c in reference.chapters if _fold(c.name) == parts[0]), None)
    if chapter is None:
        return None
    for entry in chapter.entries:
        if _fold(entry.citation) == _fold(citation):
            return entry
    for entry in chapter.entries:
        if parts[-1] in (_fold(entry.name), _fold(entry.short_name)):
            return entry
    return None


def citations_of(reference: Reference):
    for chapter in reference.chapters:
        for entry in chapter.entries:
            yield entry.citation
            yield entry.citation.upper()
            yield f"{chapter.name} > {entry.name}"
            yield f"{chapter.name}  >  {entry.short_name} "
            yield f"{chapter.name} > Something between > {entry.name}"
            yield f"{chapter.name} > {entry.name} that is not one"
        yield chapter.name
        yield f"{chapter.name} > "
    yield ""
    yield "Nowhere > Anything"


@pytest.mark.parametrize("reference", REFERENCES, ids=lambda r: r.title)
def test_every_citation_resolves_as_the_plain_reading(reference):
    checked = 0
    for citation in citations_of(reference):
        assert reference.resolve(citation) is plain_resolve(reference, citation), citation
        checked += 1
    assert checked > 6 * len(list(reference.entries()))
    # Every entry is found by its own citation.
    for entry in reference.entries():
        assert reference.resolve(entry.citation) is not None


NAMES = st.sampled_from(["Engine", "Mettle", "Taking Damage", "Step 3: Gear", "Step 3",
                         "Round", "Movement", "x"])


@given(chapters=st.lists(st.tuples(NAMES, st.lists(st.tuples(NAMES, NAMES), max_size=5)),
                         max_size=3),
       citation=st.lists(NAMES, min_size=1, max_size=3).map(" > ".join))
def test_duplicate_names_resolve_to_the_first_in_order(chapters, citation):
    """Chapters and entries that share names (the index keeps the first of each, as the
    plain reading finds it)."""
    reference = Reference(title="t", attribution="", licence="", licence_url="", chapters=tuple(
        Chapter(key=f"c{i}", name=name, intro="", entries=tuple(
            Entry(chapter=f"c{i}", slug=f"e{j}", name=entry_name, citation=f"{name} > {cited}",
                  blocks=()) for j, (entry_name, cited) in enumerate(entries)))
        for i, (name, entries) in enumerate(chapters)))
    assert reference.resolve(citation) is plain_resolve(reference, citation)
