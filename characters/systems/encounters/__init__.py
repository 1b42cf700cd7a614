"""The encounter rules of seed 004 as the fourth game system: its character package (a
combatant's numbers, the campaign settings, the rules reference in our own words)."""
