"""Errant's campaign side: the Company (roles, debt, reputation, Alignment, marching order)
and advancement (XP from money wasted, the Renown raises, the Fame roll, the Ancestry's
once-per-session ability). Named by characters/systems/errant/apps.py."""
