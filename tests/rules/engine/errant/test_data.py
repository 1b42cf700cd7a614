"""The Errant data package: its licence and attribution travel with it, the d100 tables are
whole, and the price tables say their headers are inferred."""

from pathlib import Path

from rules.engine.errant import data as D


def test_the_package_carries_its_licence_and_attribution():
    folder = Path(D.__file__).parent
    text = (folder / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert "Ava Islam" in text and "Kill Jester Publishing, LLP" in text
    assert "CC BY SA 4.0" in text and "creativecommons.org/licenses/by-sa/4.0/" in text
    assert D.LICENSE == "CC BY-SA 4.0"
    assert "Ava Islam" in D.ATTRIBUTION


def test_d100_tables_are_whole():
    assert len(D.keepsakes()) == 100 and len(D.failed_professions()) == 100
    assert D.keepsakes()[0].startswith("The sword of the hero Black Mask")
    assert D.keepsakes()[99] == "Set of loaded dice."
    assert D.failed_professions()[0] == "Acrobat." and D.failed_professions()[99] == \
        "Worm rancher."
    assert not any("Graphic" in entry for entry in D.keepsakes())


def test_the_price_tables_mark_their_inferred_headers():
    tables = D.goods_tables()
    assert {t["name"] for t in tables} >= {"Weapons", "Light", "Adventuring Gear", "Retainers"}
    assert all(t["columns"][0] == "name" for t in tables)

