"""Errant's Downtime Turn and social tables as data: complications, trends, Conspicuous
Consumption (settlement dice, kinds, the trouble table), Retainers, creditors, Reaction Roll
DV shifts and the Negotiation exchange kinds.

Source: the web Errant SRD, DT = 11-downtime-turns.md, PR = 3-core-procedures.md,
QR = 0-core-quick-reference.md (text commit beca432, see ATTRIBUTION.md beside this file).
Licence: CC BY-SA 4.0. The Reaction Roll's 2D6 bands are NOT from the text: they are our
reading (AMB-E14), shipped as a Guide's setting and labelled so.
"""

from __future__ import annotations

# DT §Downtime Turn Procedure, the eleven steps in order, then lifestyle after the last Turn.
DOWNTIME_STEPS = (
    ("declare", "The Guide declares the Downtime Turn; the timekeeper notes its number."),
    ("recover", "Restore HP, Archetype resources, True Strikes and Deflects; remove any "
                "remaining Supply."),
    ("event_die", "The timekeeper rolls the Event Die; check Scourges and setbacks."),
    ("resolve_event", "The result of the Event Die is resolved."),
    ("debt", "Company debt doubles."),
    ("rumour", "The Company hears a rumour."),
    ("free_actions", "Free actions: shopping, socialising, hiring Retainers, funerals."),
    ("actions", "Each Errant declares and resolves their Downtime Turn action."),
    ("consumption", "Each Errant declares any Conspicuous Consumption; it is resolved."),
    ("factions", "The Guide resolves Faction turn actions."),
    ("calendar", "The Guide advances the calendar by one month."),
)
LIFESTYLE_STEP = ("lifestyle", "After the last Downtime Turn: lifestyle expenses are paid.")

# DT §Downtime Complications (eleven entries; the text says "Roll 2D6").
COMPLICATIONS = (
    "Natural disaster (e.g. a fire, a tornado, a meteor).",
    "Ongoing disaster (e.g. a famine, a plague, a drought).",
    "Major figure assassinated.",
    "Series of murders begins.",
    "A Scourge arises in the region.",
    "An Errant's Estate, Institution, infrastructure project, Domain, or other goal suffers "
    "a setback.",
    "Legal claims are brought against the Company or they are publicly slandered.",
    "An ally of the Company loses trust in or cuts ties with them.",
    "An insurrection or a siege occurs. If not dealt with in D4 Downtime Turns it will be "
    "successful.",
    "Two or more Factions begin to oppose each other or actively go to war.",
    "An ally of the Company dies.",
)
# DT §Downtime Trends (seven entries; the text says "Roll 2D4").
TRENDS = (
    "Two or more Factions announce an alliance.",
    "A religious event occurs (e.g. an omen or apparition).",
    "A scandal is revealed.",
    "New NPC arrives in the area.",
    "A rival Company arrives in the area",
    "A discovery is made (e.g. new technology, new lands).",
    "A new Faction emerges.",
)

# PR §Settlement Types order; DT §Conspicuous Consumption: die and multiplier per type;
# DT §Hiring Retainers: the Retainer die, and the henchmen's Renown die (hamlet: always 1).
SETTLEMENTS = ("hamlet", "village", "town", "city", "metropolis")
CONSUMPTION_DICE = {"hamlet": (4, 200), "village": (6, 400), "town": (8, 600),
                    "city": (10, 800), "metropolis": (12, 1000)}
RETAINER_DIE = {"hamlet": 4, "village": 6, "town": 8, "city": 10, "metropolis": 12}
MERCENARIES = {"hamlet": False, "village": False, "town": True, "city": True,
               "metropolis": True}
HENCHMAN_RENOWN_DIE = {"hamlet": 1, "village": 2, "town": 3, "city": 4, "metropolis": 5}
# DT §Hiring Retainers: henchman Archetype on a D10 (last face of each band).
HENCHMAN_ARCHETYPES = ((5, "Warrior"), (8, "Professional"), (10, "Magic user"))
# Retainer Morale from the employer's pres (highest pres of each band -> Morale) and the 2D6
# modifier (highest roll of each band -> modifier).
RETAINER_MORALE_BY_PRES = ((4, 5), (8, 6), (13, 7), (16, 8), (18, 9), (20, 10))
RETAINER_MORALE_ROLL = ((2, -2), (5, -1), (8, 0), (11, 1), (12, 2))

# DT §Conspicuous Consumption: the four kinds and the Attribute each names.
CONSUMPTION_KINDS = {
    "carousing": ("Carousing", "phys", "partying, substance abuse, orgies, and rodomontade"),
    "frippery": ("Frippery", "skill", "haute adornments and fashions, sumptuous "
                 "epicureanism and gourmandizing, fads and trends"),
    "obscurantism": ("Obscurantism", "mind", "sophistry, obsessive and trivial research, "
                     "supreme pretension"),
    "do_goodery": ("Do-goodery", "pres", "needless philanthropy, moral pomposity and "
                   "outrage, doomed, futile, or otherwise ineffectual causes"),
}
# DT §Conspicuous Consumption, the D20 table rolled on a failed Saving Throw.
CONSUMPTION_TROUBLE = (
    "Something gets burned down or destroyed; roll a D6 to see how bad it was: on a 1, "
    "confined to a single building; on a 6, a big part of town has gone up. Future "
    "Conspicuous Consumption rolls receive a penalty equal to the D6 roll till it's "
    "repaired. Roll another D6 to see who knows: on a 4 or lower, just the Company knows; on "
    "a 5, a blackmailer knows; on a 6, EVERYBODY knows.",
    "Beaten and robbed: lose half HP and all items in inventory.",
    "Magical affliction: someone or something has put a curse on you, or transformed you "
    "into an animal.",
    "You've gotten into legal trouble. You're due to appear in court. Roll a D6 to see how "
    "bad the charges are.",
    "You've contracted a disease or infection.",
    "You've made an enemy; a random NPC now hates you. Roll a D6 to see how bad it is: on a "
    "1, they can't stand your presence, on a 6, they're after your head.",
    "You've insulted a local person or organisation of import. Lose D4 Faction reputation.",
    "You wake up in a random adjacent hex, stark naked, in someone or something's "
    "house/lair. Your friends have all your stuff. Roll a Reaction Roll for your host.",
    "You get into a brawl. Lose D6 HP.",
    "You've got a hangover. All Checks for the next two Travel Turns have DV +2.",
    "You've made a pact with a god, devil, or some other supernatural power, and have to do "
    "some quest or task for them.",
    "You're betrothed. Calling off the marriage will incur the wrath of the family or your "
    "scorned lover. If you're already married, this could get messy.",
    "You've earned notoriety as a gadabout. Your next Conspicuous Consumption roll will be "
    "doubled.",
    "You've gotten a new tattoo or some other bodily alteration. Roll a D6 to see how bad it "
    "is: on a 1, it's offensive to EVERYONE (-2 to all Reaction Rolls while it's visible); on "
    "a 6, it's actually pretty cool.",
    "You've made an ass of yourself in town. No one will take you seriously for the next D4 "
    "Downtime Turns.",
    "You've been initiated into a cult, secret society, or some other organisation.",
    "You've impressed someone, made an ally, or attracted a new Retainer.",
    "You get a windfall. Receive half money spent on Conspicuous Consumption back.",
    "You make a discovery or hear a rumour of some sort.",
    "You make an advancement. Increase rolled Attribute by 1.",
)
# DT §Debts, the creditor table (two D6 columns: adjective, figure).
CREDITOR_ADJECTIVES = ("unctuous", "sententious", "truculent", "supercilious", "fulsome",
                       "vainglorious")
CREDITOR_FIGURES = ("eunuch", "merchant", "clergyman", "madam", "officer", "intellectual")

# DT §Downtime Turn Actions: tracker rubric.
TRACKER_RUBRIC = ((1, "Minor Advantage"), (3, "Significant Advantage"),
                  (5, "Campaign Defining Goal"), (7, "Major Campaign Defining Goal"))

# PR §Reaction Rolls: the dispositions in order and the DV each gives social Checks.
DISPOSITIONS = ("hostile", "unfriendly", "unsure", "amicable", "friendly")
DISPOSITION_NAMES = {"hostile": "Hostile", "unfriendly": "Unfriendly", "unsure": "Unsure",
                     "amicable": "Amicable", "friendly": "Friendly"}
DISPOSITION_DV = {"hostile": 8, "unfriendly": 4, "unsure": 0, "amicable": -2, "friendly": -4}
# NOT FROM THE TEXT (AMB-E14): the SRD gives no 2D6 bands. Our reading, a Guide's setting:
# the highest total of each band; anything above the last band is Friendly.
DEFAULT_DISPOSITION_BANDS = (("hostile", 2), ("unfriendly", 5), ("unsure", 8),
                             ("amicable", 11), ("friendly", 12))
DISPOSITION_BANDS_LABEL = "Not from the text: the Guide's reading of the 2D6 bands (AMB-E14)"

# PR §Negotiations: the five exchange kinds.
EXCHANGE_KINDS = ("banal", "giving", "taking", "convincing", "bribe")
