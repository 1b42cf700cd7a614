"""Eldritch Gambit's campaign side: its ritual after the Highlights and its advancement
(ritual.py, the GameSystem.ritual hook; quests.py, quest_views.py: Quest XP, payouts,
Level-ups, the WP refill of a new campaign), Checks and Rolls from the sheet with their
odds, the session's roll log (roll_*.py, rolls.py), the Volleyball Initiative tracker
(initiative*.py) and giving gear from its inventory page (transfer_views.py). Named by the
system's registration (GameSystem.campaign_package); urls.py holds its pages and the
generic pages' links to them, models.py and admin.py what the campaigns app registers."""
