"""The Initiative and Downtime tables shipped in the data package (CC BY-SA 4.0): sizes as
the SRD gives them and, where the SRD text is on this machine, word-for-word transcription."""

import re
from pathlib import Path

import pytest

from rules.engine.errant.data import downtime_tables as DT
from rules.engine.errant.data import initiative_tables as IT

SRD = Path("/work/shared/srd/errant/SRD")


def test_table_sizes():
    assert len(IT.CHASE_DEVELOPMENTS) == 10
    assert len(DT.COMPLICATIONS) == 11 and len(DT.TRENDS) == 7
    assert len(DT.CONSUMPTION_TROUBLE) == 20
    assert len(DT.DOWNTIME_STEPS) == 11
    assert len(DT.CREDITOR_ADJECTIVES) == len(DT.CREDITOR_FIGURES) == 6
    assert all(len(t) == 9 for t in IT.WOUND_TABLES.values())
    assert all("(inferred)" in name for name in IT.WOUND_COLUMNS.values())
    assert "Not from the text" in DT.DISPOSITION_BANDS_LABEL


def _norm(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("\\", "")
    return re.sub(r"\s+", " ", text).lower()


@pytest.fixture(scope="module")
def srd_text():
    if not SRD.exists():
        pytest.skip("the Errant SRD text is not on this machine")
    return _norm(" ".join(p.read_text() for p in SRD.glob("*.md")))


def test_wounds_transcribed(srd_text):
    for table in IT.WOUND_TABLES.values():
        for w in table:
            assert _norm(w.text) in srd_text, w.text


def test_downtime_tables_transcribed(srd_text):
    for text in (*DT.COMPLICATIONS, *DT.TRENDS, *DT.CONSUMPTION_TROUBLE):
        assert _norm(text) in srd_text, text


def test_chase_developments_transcribed(srd_text):
    for name, text in IT.CHASE_DEVELOPMENTS:
        assert _norm(f"{name} - {text[0].lower()}{text[1:]}") in srd_text or \
            _norm(f"{name} – {text[0].lower()}{text[1:]}") in srd_text, name
