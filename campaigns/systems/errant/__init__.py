"""Errant's campaign side (a minimal package for the Checks at the table: the lead
replaces this file with errcamp's)."""
