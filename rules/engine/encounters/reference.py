"""Encounter rules (seed 004): the rules reference, written in our own words.

The chapter has no open licence, so nothing here is its text: each entry explains one
mechanic as this app implements it, names where in the chapter it comes from (the
section and the rule id of next-games.md §3) and says that the text is not reproduced.
The numbers are the engine's own constants, so the reference shows what the tracker
computes with. The GameSystem names `reference`; the generic rules app serves it at
/rules/encounters/. Pure Python: no Django.
"""

from __future__ import annotations

from functools import cache

from ..reference import Block, Chapter, Entry, Reference
from . import calculators as calc
from . import declaring as decl
from .combatants import OUR_SKILL_ROLL

SOURCE = "seed 004, the Encounters chapter"
NOT_REPRODUCED = ("Described in our own words; the chapter's text is not reproduced.")
ATTRIBUTION = ("The mechanics of seed 004's Encounters chapter, described in our own "
               "words; no text, example or table of it is reproduced. The readings of "
               "what it leaves open are ours (docs/RULES.md, AMB-H and ENC).")


def _entry(chapter: str, chapter_name: str, slug: str, name: str, where: str,
           *paragraphs: str) -> Entry:
    blocks = [Block("paragraph", text=text) for text in paragraphs]
    blocks.append(Block("paragraph", term="Source:", text=f"{SOURCE}, {where}. "
                        f"{NOT_REPRODUCED}"))
    return Entry(chapter=chapter, slug=slug, name=name,
                 citation=f"{chapter_name} > {name}", blocks=tuple(blocks))


def _round() -> Chapter:
    key, name = "round", "The round"
    c = (key, name)
    return Chapter(key=key, name=name, intro="How a round of an encounter runs, phase by "
                   "phase, as the tracker walks it.", entries=(
        _entry(*c, "phases", "Phases", "§Conflict (H1)",
               "A fight is counted in rounds of a few seconds each; distances are in "
               "yards. Every round goes through three phases in turn: Initiative, then "
               "Action, then Recovery."),
        _entry(*c, "initiative", "Initiative", "§Conflict (H2, AMB-H1)",
               "Before the round each combatant says how it will spend it: maneuvering "
               "(a physical round, which rolls Quickness) or concentrating (a mental "
               "round, which rolls Command). Rolling is free. The highest result goes "
               "first. The Guide may add a bonus or a penalty for the circumstances.",
               "The chapter does not give the dice of a skill roll. Each campaign sets "
               f"its own formula; ours, the default, is {OUR_SKILL_ROLL}."),
        _entry(*c, "one-kind", "One kind of skill a round", "§Conflict (H2)",
               "A round is physical or mental, never both: a maneuvering combatant uses "
               "only physical skills that round, a concentrating one only mental skills. "
               "The tracker refuses a declaration that mixes them."),
        _entry(*c, "several-actions", "Several actions", "§Conflict (H3, AMB-H2)",
               "One major action a round is the usual. A combatant may declare more: each "
               f"one past the first costs {decl.PENALTY_STEP} on every skill it uses that "
               f"round, and each action comes {decl.STEP} Initiative lower than the one "
               "before it, in the order the player chose. Minor actions (a step or two, "
               "drawing a blade) use no skill and take no place in that order."),
        _entry(*c, "declaring", "Declaring", "§Conflict (H4, ENC-10)",
               "All of a round's actions are declared together, so the penalty is known "
               "before any skill is rolled. The tracker takes the declaration before a "
               "combatant's first action and lets it change until that action is taken."),
        _entry(*c, "defence-out-of-turn", "Defending out of turn", "§Conflict (H5, AMB-H11, "
               "ENC-5)",
               "A combatant attacked before its turn may defend at once. A defence of the "
               "round's own kind uses a declared defence; one of the other kind (a "
               "concentrating combatant dodging a blow) cancels the rest of its turn. "
               "Whether every defence counts as an action or all of a round's defences "
               "count as one is the campaign's setting. A combatant busy with an "
               "engrossing task may get no defence."),
        _entry(*c, "long-actions", "Actions over several rounds", "§Conflict (H6, ENC-7)",
               "A task that takes several rounds fails if its doer takes any damage before "
               "it is done."),
        _entry(*c, "down", "Down before acting", "§Conflict (H7, ENC-6)",
               "A combatant knocked out or killed before its action loses it, and every "
               "action of its round not yet taken."),
        _entry(*c, "haste", "Haste", "§Haste (H18, AMB-H4)",
               f"Spending an action on haste raises the Initiative of everything the "
               f"combatant does that round by {decl.HASTE_BONUS}; it may be repeated, and "
               "each haste counts toward the skill penalty like a major action."),
        _entry(*c, "recovery", "Recovery", "§Recovery (H20, AMB-H7, ENC-3, ENC-9)",
               "At the end of the round, a combatant that took no action (haste counts "
               "as one), is unhurt on Health and Sanity and took no damage this round "
               "gets one Stamina hit back, never above its maximum."),
    ))


def _movement() -> Chapter:
    key, name = "movement", "Movement"
    c = (key, name)
    return Chapter(key=key, name=name, intro="Moving in a round, and the small "
                   "calculators the tracker offers.", entries=(
        _entry(*c, "movement-actions", "Movement actions", "§Movement (H8, ENC-10)",
               "Standing up, mounting or dismounting, a leap, a stretch of running or of "
               f"riding each take a movement action; a run takes one per "
               f"{calc.BASE_PACE} yards or part of it, a ride one per "
               f"{calc.RIDE_PACE_LOW} to {calc.RIDE_PACE_HIGH} yards by the mount. No "
               f"combatant takes more than {decl.MAX_MOVES} in a round."),
        _entry(*c, "movement-cost", "What moving costs", "§Movement (H9, AMB-H3, AMB-H6)",
               "Moving adds nothing to the skill penalty, but every movement action pushes "
               f"each later action {decl.STEP} Initiative lower, just as a major action "
               "does."),
        _entry(*c, "encumbered-pace", "Encumbered pace", "§Movement (H10, AMB-H9)",
               f"Carrying under {calc.UNHAMPERED_BELOW}% of its maximum lift, a combatant "
               f"covers {calc.BASE_PACE} yards per movement action. The chapter gives "
               "only one other point; our reading slows it in a straight line with the "
               f"load: {calc.BASE_PACE} x (1 - the fraction carried). A campaign may "
               "ignore encumbrance instead."),
        _entry(*c, "jumps", "Jumps", "§Movement (H11, ENC-13)",
               f"A standing long jump reaches the maximum lift / {calc.JUMP_DIVISOR} "
               f"yards, {calc.RUNNING_JUMP} times that with a run-up, shortened by the "
               "load as the pace is."),
        _entry(*c, "charge-momentum", "Charge momentum", "§Movement (H12, ENC-8)",
               f"An optional rule: each full {calc.MOMENTUM_YARDS} yards moved this round "
               "add one damage to the charger's melee blows, and one to melee blows it "
               "takes that round."),
        _entry(*c, "chases", "Races and chases", "§Movement (H13, ENC-13)",
               "Every round each runner rolls Quickness; the higher roll gains a yard on "
               "the other for each point of difference."),
    ))


def _waiting() -> Chapter:
    key, name = "waiting", "Waiting and surprise"
    c = (key, name)
    return Chapter(key=key, name=name, intro="Holding back, the first round of a fight, "
                   "and spending Stamina.", entries=(
        _entry(*c, "waiting", "Waiting", "§Waiting (H15, ENC-2)",
               "When its turn comes, a combatant may wait instead. It can then step in "
               "after any action that comes lower than its own Initiative, even in the "
               "middle of someone else's turn. It may also hold its action into the next "
               "round, where it goes first without rolling."),
        _entry(*c, "waiting-game", "The waiting game", "§Waiting (H16, AMB-H10, ENC-4)",
               "When everyone with actions left is waiting on everyone else, the round "
               "ends. The unhurt recover a Stamina hit, and the waiters go before every "
               "rolled Initiative next round, among themselves by new rolls."),
        _entry(*c, "round-zero", "Round zero", "§Round Zero (H17, ENC-1)",
               "Whoever starts a fight (one combatant, or a group on a signal) acts first, "
               "without rolling; the others can only defend. A side taken completely by "
               "surprise can do nothing at all in that round, not even defend. Everyone "
               "rolls from round one."),
        _entry(*c, "pushing-power", "Pushing Power", "§Pushing Power (H19, ENC-11)",
               f"A combatant may spend Stamina hits for strength of will: each gives "
               f"+{calc.PUSH_PER_HIT} Strength and +{calc.PUSH_PER_HIT} Willpower for the "
               "round, again every round if it likes. Spending the last hit, it "
               "collapses."),
    ))


def _range() -> Chapter:
    key, name = "range", "Range and senses"
    c = (key, name)
    weapons = ", ".join(f"{kind} {yards} yd" for kind, yards in calc.WEAPON_INCREMENTS.items())
    senses = ", ".join(f"{kind} {yards} yd" for kind, yards in calc.SENSE_INCREMENTS.items())
    return Chapter(key=key, name=name, intro="How far is too far.", entries=(
        _entry(*c, "range-challenge", "Range challenge", "§Range (H21, AMB-H8, ENC-12)",
               "Within one range increment (its edge included) there is no challenge; each "
               "further increment, or part of one, adds one. The challenge adds to the "
               "defence of a target that evades; a fixed target defends with 0 plus it.",
               f"Increments the tracker knows: weapons ({weapons}); senses ({senses}). "
               "A sorcery's increment is entered by the Guide."),
        _entry(*c, "perception", "Perception", "§Range (H22)",
               "Noticing things is a roll of the sense against a challenge the Guide sets, "
               "made harder or easier by light, noise, distraction and the other side's "
               "stealth; the unconscious notice nothing."),
    ))


@cache
def reference() -> Reference:
    return Reference(
        title="Encounter rules (seed 004)",
        attribution=ATTRIBUTION,
        licence="no open licence: described in our own words",
        licence_url="/about/#seed-004",
        chapters=(_round(), _movement(), _waiting(), _range()),
    )
