"""A tiny game system that exists only for the tests: proof that a game system plugs into
the generic pages with no edit to generic code (README, "Adding a game system").

Installed by config/settings/test.py alone (its table and migration), and registered with
rules.systems only by the tests that use it (the `tiny` fixture), so every other test,
like production and `python3 dev.py demo`, sees the one shipped system."""
