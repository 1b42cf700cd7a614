"""Rolling a METTLE Check and its Twist with a random source (EN §Checks, §Twists,
§Raises, §Teamwork): the faces, raised dice as sixes, the Twist once and only after a
failure with Edge, the Teamwork die."""

import random

import pytest

from rules.engine.mettle.checks import roll_check, roll_twist, teamwork_bonus


class Faces(random.Random):
    """A source that deals the given faces in order."""

    def __init__(self, *faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


def test_the_engine_chapters_twist_example():
    check = roll_check(5, 3, 0, Faces(1, 4, 4, 5, 6))
    assert (check.score, check.edge, check.success, check.may_twist) == (1, 4, False, True)
    twisted = roll_twist(check, Faces(1, 3, 5, 5))
    assert twisted.final_faces == (1, 1, 3, 5, 5)
    assert (twisted.score, twisted.edge, twisted.success, twisted.quality) == (5, 2, True, "Great")


def test_raised_dice_are_sixes_and_not_rolled():
    check = roll_check(4, 2, 2, Faces(1, 2))
    assert check.faces == (1, 2, 6, 6)
    assert (check.score, check.edge, check.success, check.quality) == (3, 2, True, "Great")


def test_raised_dice_are_rerolled_by_a_twist():
    check = roll_check(3, 5, 2, Faces(3))
    assert check.may_twist
    twisted = roll_twist(check, Faces(3, 2))
    assert twisted.final_faces == (3, 3, 2) and twisted.success


def test_one_twist_and_only_after_a_failure_with_edge():
    with pytest.raises(ValueError):
        roll_twist(roll_check(2, 1, 0, Faces(2, 3)), Faces())  # a success
    with pytest.raises(ValueError):
        roll_twist(roll_check(2, 9, 0, Faces(2, 3)), Faces())  # a failure without Edge
    twisted = roll_twist(roll_check(2, 9, 0, Faces(2, 6)), Faces(4))
    with pytest.raises(ValueError):
        roll_twist(twisted, Faces(4))


def test_raises_beyond_the_pool_are_refused():
    with pytest.raises(ValueError):
        roll_check(2, 1, 3, Faces())


@pytest.mark.parametrize(("pool", "best", "bonus"), [(2, 4, 1), (4, 4, 0), (5, 4, 0),
                                                      (3, None, 0)])
def test_teamwork_die(pool, best, bonus):
    assert teamwork_bonus(pool, best) == bonus
