"""Eldritch Gambit's campaign side: its ritual after the Highlights and its advancement
(ritual.py, the GameSystem.ritual hook; quests.py, quest_views.py: Quest XP, payouts,
Level-ups, the WP refill of a new campaign), Checks and Rolls from the sheet with their
odds, the session's roll log (roll_*.py, rolls.py) and the Volleyball Initiative tracker
(initiative*.py). Named by the system's registration (GameSystem.campaign_package);
urls.py holds its pages, models.py and admin.py what the campaigns app registers."""
