"""Errant's character package: the third game system (the Errant SRD in
../shared/srd/errant/, CC BY-SA 4.0; the engine is rules/engine/errant/)."""
