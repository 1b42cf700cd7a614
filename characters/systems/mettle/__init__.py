"""METTLE Core's character package: the second game system (the METTLE Core SRD in
../shared/srd/mettle-core/, CC BY 4.0; the rules are rules/engine/mettle/)."""
