"""Eldritch Gambit's character package: the first game system (seeds 000 and 002, the
companion SRD in ../shared/srd/eldritch-gambit/, CC BY 4.0)."""
