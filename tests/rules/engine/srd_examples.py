"""The SRD's worked examples that several engine tests build on."""

from rules.engine.eldritch_gambit import ArmorStats, Attributes, GearPiece, Kind

# Asphodel the Grumbling Bloom, the Characters chapter's example (Level 10).
ASPHODEL = Attributes(str=3, wis=1, dex=2, agi=1, cha=1, end=2)

# Chain mail as worn (Resources > Armor: AP 10, Rally d8, the second rank, Load 2).
CHAIN = GearPiece("Chain mail", Kind.ARMOR, load=2, armor=ArmorStats(10, 8, rank=2),
                  equipped=True)
