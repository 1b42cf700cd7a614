"""METTLE Core's campaign side: its start-of-session Highlights ritual (ritual.py). Its
registration (characters/systems/mettle/apps.py) names this package and its RITUAL."""
