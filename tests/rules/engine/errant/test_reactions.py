"""Reaction Rolls and Negotiations (Errant SRD PR §Reaction Rolls, §Negotiations;
DT §Alignment; QR §Negotiations; AMB-E9, AMB-E14)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import reactions as R


def test_modifiers_capped_at_3_alignment_apart():
    r = R.reaction_roll([3, 4], [2, 2], alignment=-2)
    assert r.modifier == 3 and r.value == 8
    assert R.reaction_roll([1, 1], [-9]).value == -1


@pytest.mark.parametrize("bad", [[0, 3], [7, 1], [3], [1, 2, 3, 4], [3, 4, 7], [True, 2],
                                 ["3", 4]])
def test_bad_dice(bad):
    with pytest.raises(R.SocialError):
        R.reaction_roll(bad)


def test_a_speechcraft_master_rolls_3d6_all_summed():
    """ER §The Deviant, Speechcraft mastery: "rolled with 3D6" (AMB-E-SPEECH)."""
    r = R.reaction_roll([6, 5, 4], [1], alignment=-1)
    assert r.dice == (6, 5, 4) and r.value == 15
    assert R.DispositionBands().disposition(r.value) == "friendly"


@pytest.mark.parametrize(("company", "npc", "mod"), [
    (["N", "N"], "Chaotic", 0), (["C2", "N"], "Chaotic", 2), (["C2"], "Lawful", -2),
    (["L3", "C1"], "Lawful", 3), (["L2", "C2"], "Chaotic", -2), (["L2", "C2"], "Lawful", -2),
    (["C3"], "Neutral", 0)])
def test_alignment_most_extreme_member_worst_on_ties(company, npc, mod):
    assert R.alignment_modifier(company, npc) == mod


def test_bad_alignment():
    with pytest.raises(R.SocialError):
        R.alignment_modifier(["C4"], "Chaotic")
    with pytest.raises(R.SocialError):
        R.alignment_modifier(["N"], "Evil")


def test_default_bands_are_labelled_not_from_the_text():
    bands = R.DispositionBands()
    assert "Not from the text" in bands.label
    assert [bands.disposition(v) for v in (-1, 2, 3, 5, 6, 8, 9, 11, 12, 15)] == [
        "hostile", "hostile", "unfriendly", "unfriendly", "unsure", "unsure", "amicable",
        "amicable", "friendly", "friendly"]


def test_guide_can_set_other_bands_and_bad_bands_are_refused():
    bands = R.DispositionBands((("hostile", 3), ("unfriendly", 5), ("unsure", 9),
                                ("amicable", 10), ("friendly", 12)))
    assert bands.disposition(3) == "hostile" and bands.disposition(9) == "unsure"
    with pytest.raises(R.SocialError):
        R.DispositionBands((("hostile", 5), ("unfriendly", 5), ("unsure", 9),
                            ("amicable", 10), ("friendly", 12)))
    with pytest.raises(R.SocialError):
        R.DispositionBands((("hostile", 5),))


def test_social_dv_shifts():
    assert [R.social_dv(d) for d in ("hostile", "unfriendly", "unsure", "amicable",
                                     "friendly")] == [8, 4, 0, -2, -4]


@pytest.mark.parametrize("modifier", range(-3, 4))
def test_disposition_odds_by_enumeration(modifier):
    bands = R.DispositionBands()
    counts = Counter(bands.disposition(a + b + modifier)
                     for a, b in product(range(1, 7), repeat=2))
    odds = R.disposition_odds(modifier)
    assert odds == {k: Fraction(counts[k], 36) for k in odds}
    assert sum(odds.values()) == 1
    if modifier == 0:
        assert odds["hostile"] == Fraction(1, 36) and odds["unsure"] == Fraction(16, 36)


def test_3d6_disposition_odds_by_enumeration():
    """The 216 rolls of 3D6, counted by hand from the totals' counts (3: 1, 4: 3, 5: 6, 6:
    10, 7: 15, 8: 21, 9: 25, 10: 27, 11: 27, 12: 25, ... 18: 1) against the default bands:
    no Hostile roll at all, Friendly 81/216 against 1/36 on 2D6."""
    odds = R.disposition_odds(0, dice=3)
    assert odds == {"hostile": 0, "unfriendly": Fraction(10, 216),
                    "unsure": Fraction(46, 216), "amicable": Fraction(79, 216),
                    "friendly": Fraction(81, 216)}
    bands = R.DispositionBands()
    for modifier in range(-6, 7):
        counts = Counter()
        for a in range(1, 7):
            for b in range(1, 7):
                for c in range(1, 7):
                    counts[bands.disposition(a + b + c + modifier)] += 1
        assert R.disposition_odds(modifier, dice=3) == {
            k: Fraction(counts[k], 216) for k in R.DISPOSITIONS}
    assert R.disposition_odds(-3, dice=3)["hostile"] == Fraction(10, 216)  # 3 to 5, -3
    with pytest.raises(R.SocialError):
        R.disposition_odds(dice=4)


def test_giving_outcomes():
    n = R.start_negotiation(7)
    assert R.exchange(n, "giving", success=True).disposition == 8
    assert R.exchange(n, "giving", success=True, impact="strong").disposition == 10
    assert R.exchange(n, "giving", success=True, impact="weak").disposition == 7
    assert R.exchange(n, "giving", success=False).log[-1][1] == "unimpressed"


@pytest.mark.parametrize(("success", "position", "impact", "outcome", "change"), [
    (False, "dire", "fair", "upset", -3), (False, "risky", "fair", "refuses", -1),
    (False, "shaky", "fair", "compromise", 0), (True, "risky", "weak", "compromise", 0),
    (True, "risky", "fair", "agrees", 0), (True, "dire", "strong", "more_than_asked", 0)])
def test_taking_outcomes(success, position, impact, outcome, change):
    n = R.exchange(R.start_negotiation(7), "taking", success=success, position=position,
                   impact=impact)
    assert n.log[-1] == ("taking", outcome, change) and n.disposition == 7 + change


@pytest.mark.parametrize(("success", "position", "impact", "outcome", "change"), [
    (False, "dire", "fair", "offended", -3), (False, "risky", "fair", "insulted", -1),
    (False, "shaky", "fair", "unconvinced", 0), (True, "risky", "weak", "unconvinced", 0),
    (True, "risky", "fair", "receptive", 0), (True, "risky", "strong", "accepts", 0)])
def test_convincing_outcomes(success, position, impact, outcome, change):
    n = R.exchange(R.start_negotiation(7), "convincing", success=success, position=position,
                   impact=impact)
    assert n.log[-1] == ("convincing", outcome, change)


def test_banal_and_bribe_need_no_check():
    n = R.exchange(R.start_negotiation(5), "banal")
    assert n.disposition == 5 and n.exchanges == 1
    assert R.exchange(n, "bribe", bribe_change=2).disposition == 7
    with pytest.raises(R.SocialError) as err:
        R.exchange(n, "taking")
    assert err.value.code == "no_check"


def test_the_npc_tolerates_its_starting_disposition_then_ends_it():
    n = R.start_negotiation(3)
    n = R.exchange(n, "giving", success=True, impact="strong")  # disposition 6
    assert n.tolerance == 3  # changes do not move the tolerance
    n = R.exchange(R.exchange(n, "banal"), "banal")
    assert n.disposition == 6 and not n.ended
    n = R.exchange(n, "banal")  # 4th exchange: -2
    assert n.disposition == 4 and not n.ended
    n = R.exchange(n, "banal")
    assert n.disposition == 2 and n.ended
    with pytest.raises(R.SocialError) as err:
        R.exchange(n, "banal")
    assert err.value.code == "ended"


def test_overtime_never_raises_a_low_disposition():
    n = R.start_negotiation(1)
    n = R.exchange(n, "taking", success=False)  # 1 - 1 = 0, within tolerance
    assert n.disposition == 0 and not n.ended
    n = R.exchange(n, "banal")  # overtime at 0: ends, stays 0
    assert n.disposition == 0 and n.ended


@given(st.integers(-1, 12), st.lists(st.tuples(
    st.sampled_from(["banal", "giving", "taking", "convincing"]), st.booleans(),
    st.sampled_from(R.POSITIONS), st.sampled_from(R.IMPACTS)), max_size=30))
def test_overtime_costs_2_and_ends_at_2(start, steps):
    """Beyond the tolerated exchanges, each exchange lands 2 lower than its own outcome
    (stopping at 2, never raising a lower one), and 2 or less in overtime ends it."""
    n = R.start_negotiation(start)
    for kind, success, position, impact in steps:
        if n.ended:
            break
        before = n
        n = R.exchange(n, kind, success=success, position=position, impact=impact)
        patient = R.Negotiation(before.disposition, tolerance=10 ** 6)
        own = R.exchange(patient, kind, success=success, position=position,
                         impact=impact).disposition
        if n.exchanges <= n.tolerance:
            assert n.disposition == own and not n.ended
        elif own > R.END_DISPOSITION:
            assert n.disposition == max(R.END_DISPOSITION, own - 2)
            assert n.ended == (n.disposition == R.END_DISPOSITION)
        else:
            assert n.disposition == own and n.ended
