"""Errant's Initiative Turn tables as data: surprise, falls, wounds, Warbands, Chase
developments, NPC Morale bounds.

Source: the web Errant SRD, IT = 10-initiative-turns.md, QR = 0-core-quick-reference.md
(text commit beca432, see ATTRIBUTION.md beside this file). Licence: CC BY-SA 4.0. The
four wound tables lost their column headers in the SRD: the column keys and names below are
inferred from their content (next-games.md AMB-E11), marked "inferred".
"""

from __future__ import annotations

from dataclasses import dataclass

# IT §Surprise, the D6 table: 1-2 NPCs surprise, 3-4 nothing, 5-6 the Company surprises.
SURPRISE_NPCS, SURPRISE_NONE, SURPRISE_COMPANY = "npcs", "none", "company"
SURPRISE_TABLE = {1: SURPRISE_NPCS, 2: SURPRISE_NPCS, 3: SURPRISE_NONE, 4: SURPRISE_NONE,
                  5: SURPRISE_COMPANY, 6: SURPRISE_COMPANY}

# IT §Drowning, Falling, Burning, the fall table: feet -> the die multiplied with 1D6
# (None: 1D6 alone). 70' and more use the last row.
FALL_TABLE = ((10, None), (20, 4), (30, 6), (40, 8), (50, 10), (60, 12), (70, 20))

# IT §Warbands: categories by combatants (leader excluded).
WARBAND_CATEGORIES = (("small", 1, 5), ("medium", 6, 10), ("large", 11, 20))
# The table's rows and columns, in order: attacker row vs defender column; a positive number
# is enhanced, negative impaired. "Individual" is category 0.
WARBAND_ORDER = ("individual", "small", "medium", "large")


@dataclass(frozen=True)
class Wound:
    row: int  # 1-9
    text: str
    limit: int = 1  # how many times it can be received ("If both legs go ...": 2)
    deaths_door: bool = False
    deaths_door_exploration: bool = False  # "On death's door, but in Exploration Turns"
    reaper: bool = False
    out_of_action: bool = False
    exhaustion: int = 0
    halves_hp: bool = False  # "HP halved"
    no_hp_recovery: bool = False  # "Can't recover HP"
    stunned_turns: int = 0  # "Stunned for an Initiative Turn": no action that many Turns
    knocked_out_die: int = 0  # "Knocked out for D12 Initiative Turns": the die's sides
    limb: str = ""  # "leg", "arm" or "eye": "If both ... go" counts them (AMB-E-FIGHT-6)
    no_run: bool = False  # "Can't run"
    no_move: bool = False  # "Can't move"
    no_casting: bool = False  # "unable to cast Sorceries or Miracles"
    # "Wounds without a stated duration are permanent unless seen to by a physician, though
    # they cannot restore lost body parts" (AMB-E-WOUND-1): rows whose every effect has a
    # stated duration end with the fight; a body part severed, destroyed or burnt off is lost.
    ends_with_fight: bool = False
    lost_part: bool = False


# Column keys and names are inferred (AMB-E11): the SRD and QR print the four tables
# side by side without headers.
WOUND_COLUMNS = {
    "trauma": "Physical trauma (inferred)",
    "shock": "Shock and brain (inferred)",
    "burn": "Burns and acid (inferred)",
    "toxic": "Toxins and disease (inferred)",
}

WOUND_TABLES: dict[str, tuple[Wound, ...]] = {
    "trauma": (
        Wound(1, "Slow internal bleeding. On death's door, but in Exploration Turns.",
              deaths_door_exploration=True),
        Wound(2, "Leg mangled. Can't run. If both legs go, you can't walk.", limit=2,
              limb="leg", no_run=True),
        Wound(3, "Arm wrecked. If both arms go, you can't hold anything.", limit=2,
              limb="arm"),
        Wound(4, "On death's door.", deaths_door=True),
        Wound(5, "Leg destroyed (severed or hanging by sinews). Can't run. If both legs go, "
                 "you can't walk. Also on death's door.", limit=2, deaths_door=True,
              limb="leg", no_run=True, lost_part=True),
        Wound(6, "Arm destroyed (severed or hanging by sinews). If both arms go, you can't "
                 "hold anything. Also on death's door.", limit=2, deaths_door=True,
              limb="arm", lost_part=True),
        Wound(7, "Head shot. On death's door and major brain trauma.", deaths_door=True),
        Wound(8, "Throat or lung torn open. Consigned to the reaper.", reaper=True),
        Wound(9, "Guts hanging out. Consigned to the reaper and out of action.",
              reaper=True, out_of_action=True),
    ),
    "shock": (
        Wound(1, "Zapped. Stunned for an Initiative Turn.", stunned_turns=1,
              ends_with_fight=True),
        Wound(2, "Knocked out. Unconscious (Depletion 1).", out_of_action=True,
              ends_with_fight=True),
        Wound(3, "Concussed. Knocked out for D12 Initiative Turns and 1 point of Exhaustion.",
              knocked_out_die=12, exhaustion=1, ends_with_fight=True),
        Wound(4, "Cardiac arrest. On death's door and 1 point of Exhaustion.",
              deaths_door=True, exhaustion=1),
        Wound(5, "Scrambled. Major brain trauma and on death's door.", deaths_door=True),
        Wound(6, "Deep fried. Unconscious (Depletion 1), major brain trauma, and on death's "
                 "door.", deaths_door=True, out_of_action=True),
        Wound(7, "Internal damage. Coughing up blood or bleeding from eyes and mouth. "
                 "Consigned to the reaper.", reaper=True),
        Wound(8, "Respiratory system failure. Consigned to the reaper.", reaper=True),
        Wound(9, "Brain dead. Consigned to the reaper and out of action.", reaper=True,
              out_of_action=True),
    ),
    "burn": (
        Wound(1, "Eye destroyed. If both eyes go, you're blind.", limit=2, limb="eye",
              lost_part=True),
        Wound(2, "Mouth melted. Can't speak, only grunt and moan (unable to cast Sorceries or "
                 "Miracles.)", no_casting=True),
        Wound(3, "Face melted."),
        Wound(4, "Fingers burnt off.", lost_part=True),
        Wound(5, "Suffocating. On death's door and 1 point of Exhaustion.", deaths_door=True,
              exhaustion=1),
        Wound(6, "Nose is burnt off, inner ears ruined. Deaf and can no longer smell or "
                 "taste. Also on death's door.", deaths_door=True, lost_part=True),
        Wound(7, "Your lungs and face are burnt off. Also on death's door and 1 point of "
                 "Exhaustion.", deaths_door=True, exhaustion=1, lost_part=True),
        Wound(8, "Skin burned off. Consigned to the reaper.", reaper=True, lost_part=True),
        Wound(9, "Burnt to a crisp. Consigned to the reaper and out of action.", reaper=True,
              out_of_action=True),
    ),
    "toxic": (
        Wound(1, "Nauseous. 1 point of Exhaustion.", exhaustion=1),
        Wound(2, "Immune system compromised. HP halved.", halves_hp=True),
        Wound(3, "Blood tainted. Can't recover HP.", no_hp_recovery=True),
        Wound(4, "Bleeding from nose and eyes. On death's door, but in Exploration Turns.",
              deaths_door_exploration=True),
        Wound(5, "Excreting blood from pores. On death's door, but in Exploration Turns, and "
                 "1 point of Exhaustion.", deaths_door_exploration=True, exhaustion=1),
        Wound(6, "Rupture. You're throwing up black acrid blood. On death's door.",
              deaths_door=True),
        Wound(7, "Nervous system shutdown. Can't move and on death's door.", deaths_door=True,
              no_move=True),
        Wound(8, "Immune system shutdown. Consigned to the reaper.", reaper=True),
        Wound(9, "Total organ failure. Consigned to the reaper and out of action.",
              reaper=True, out_of_action=True),
    ),
}
DEAD_TEXT = "Dead."
DEADER_TEXT = "Deader than Dead (unable to be revived or properly buried.)"

# IT §Chases, "Chase Developments" (D10): name and what it does.
CHASE_DEVELOPMENTS = (
    ("Hiding Spot", "Neither side has line of sight on the other. The character with the "
     "lowest SPD makes a Check to hide. If they succeed, they can't be found and the Chase "
     "ends; if they fail, the pursuers immediately make a movement roll."),
    ("Throng", "A crowd of people, a flock of animals, or some other group impedes progress. "
     "The characters on that side may attempt to convince the throng to assist them if "
     "possible, or else someone must make a Check to clear a path. On a failed Check, the "
     "opposing side immediately makes a movement roll."),
    ("Dilemma", "The characters face a decision between two unfavourable options, such as "
     "having to choose to divert to a more difficult path or plough through a crowd."),
    ("Hazard", "Something threatens the side that rolled this result; they must make a Check "
     "to avoid damage, or some other unfavourable situation such as being knocked prone."),
    ("Obstacle", "Something impedes progress on the path; the character with the highest SPD "
     "must make a Check to bypass the obstacle, else the opposing side immediately makes a "
     "movement roll."),
    ("Opportunity", "A character on the side who rolled this result can immediately take an "
     "extra action, though they must decide what to do quickly."),
    ("Paths Converge", "A character on the side that rolled this result and a character on "
     "the opposing side cross paths momentarily, coming within a hair's breadth of each "
     "other; they may each make an action before the trail separates them once more."),
    ("Risky Shortcut", "A risky shortcut presents itself. Characters on this side may take "
     "this shortcut, but must make a Check to do so. If they succeed, they immediately "
     "sprint. If they fail, they are separated from the others on their side and taken out "
     "of the Chase."),
    ("Separated", "A character on the side which rolled this result is separated from the "
     "rest of their side, and is tracked separately till they can reunite with their group. "
     "If the character was on the pursuing side, they must make a Check or be taken out of "
     "the Chase."),
    ("Twist", "The situation changes in some way; perhaps a new group joins the Chase, or the "
     "side that is pursuing and the side that is being pursued switch; the environment might "
     "change, as might the conditions that end the Chase."),
)
