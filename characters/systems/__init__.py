"""The game systems' character packages: one Django app per game (listed in
INSTALLED_APPS), each registering its GameSystem with rules.systems."""
