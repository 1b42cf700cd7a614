"""The shipped tables against the SRD text (Characters, Engine, Resources)."""

from rules.engine.mettle import data


def test_attribution_ships_with_the_tables():
    assert data.LICENSE == "CC BY 4.0"
    assert data.ATTRIBUTION.startswith("This work is based on the text of METTLE Core")
    assert "Creative Commons Attribution 4.0" in data.ATTRIBUTION


def test_weapons_table():
    assert len(data.WEAPONS) == 35
    sword = data.WEAPON_BY_NAME["Sword"]
    assert (sword.hit, sword.dm_text, sword.load, sword.cost) == (2, "FRAME+2", 1, 3)
    assert data.WEAPON_BY_NAME["Shotgun"].dm_text == "8"
    assert data.UNARMED.dm_text == "FRAME" and data.UNARMED.cost is None
    assert data.UNARMED.specials == ("Stun", "Soft")
    every_special = {s.split()[0].rstrip(",") for w in data.WEAPONS for s in w.specials}
    # Each special's first word is defined, but for the table's own "Tool" and "Scope".
    assert every_special - set(data.WEAPON_SPECIALS) == {"Tool", "Scope"}


def test_armor_table():
    by_name = {a.name: a for a in data.ARMOR}
    assert [(a.soak, a.load, a.cost) for a in data.ARMOR] == [
        (1, 1, 2), (2, 2, 3), (3, 3, 4), (1, 0, 3), (2, 1, 3), (3, 2, 4)]
    assert by_name["Kevlar vest (BP)"].bulletproof
    assert not by_name["Flak Jacket"].bulletproof


def test_vehicles_mounts_and_gear():
    assert len(data.VEHICLES) == 17
    jet = next(v for v in data.VEHICLES if v.name == "Jet, Fighter")
    assert (jet.handling, jet.speed, jet.frame, jet.cost) == (1, 10, 14, 7)
    assert [(m.name, m.pool, m.frame, m.speed) for m in data.MOUNTS][3] == ("Horse", 4, 7, 3)
    assert sum(item.load for item in data.MEDICINE) == 0
    assert [(k.load, k.cost) for k in data.STANDARD_KITS] == [(1, 2), (0, 1)]
    assert dict(data.COMMON_LOADS)["Body, Large (Pony, etc.)"] == 8


def test_ladders():
    assert [d for d, _ in data.DIFFICULTY] == [1, 3, 6, 10, 15]
    assert data.EDGE[0] == "OK" and data.EDGE[-1] == "Legendary"
    assert [data.CREDIT_RANKS[c] for c in (1, 6)] == ["Needy", "Rich"]
    assert data.DEFAULT_TWIST in {name for name, _, _ in data.TWIST_SEEDS}


def test_stun_only_weapons_are_the_stun_gun_and_the_taser():
    """RS §Weapons: "Stun (only!)" and "Stun (only), Reach"; a Club merely Stuns."""
    assert data.STUN_ONLY_WEAPONS == ("Stun gun", "Taser")
    assert data.WEAPON_BY_NAME["Taser"].stun_only
    assert not data.WEAPON_BY_NAME["Club"].stun_only
    assert data.ARMOR[3].name == "Kevlar vest (BP)" and data.ARMOR[3].bulletproof
    assert [a.name for a in data.ARMOR if a.bulletproof] == ["Kevlar vest (BP)"]
