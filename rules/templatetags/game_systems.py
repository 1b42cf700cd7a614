"""What the generic templates show of a character through its game system
(rules/systems.py), never naming one."""

from django import template

register = template.Library()


@register.filter
def progress(character) -> list[dict]:
    """The character's standing in its system's words (GameSystem.progress): a list of
    {"label", "value", "stat"}, e.g. Level 10 and XP 2 for Eldritch Gambit, XP 0 for a
    system without Levels."""
    return [{"label": label, "value": getattr(character, attribute, None), "stat": stat}
            for label, attribute, stat in character.game_system.progress]


@register.filter
def progress_labels(system) -> str:
    """The heading of a column showing `progress`: "Level · XP"."""
    return " · ".join(label for label, _, _ in system.progress)


@register.filter
def progress_words(system) -> str:
    """The same in a sentence: "Level and XP"."""
    labels = [label for label, _, _ in system.progress]
    return f"{', '.join(labels[:-1])} and {labels[-1]}" if len(labels) > 1 else labels[0]


@register.filter
def role_in(role, system) -> str:
    """A campaign role in the system's words: "Imp", "Co-Imp" or "Player" for Eldritch
    Gambit, "Guide", "Co-Guide" or "Player" for METTLE Core (GameSystem.game_master).
    `role` is a membership's stored role ("imp", "co_imp", "player")."""
    master = system.game_master
    if role == "imp":
        return master[:1].upper() + master[1:]
    if role == "co_imp":
        return f"Co-{master}"
    return "Player"
