"""The rules engine: pure Python, no Django, one subpackage per game.

Every derived number the app shows is computed here from the player's choices.
"""
