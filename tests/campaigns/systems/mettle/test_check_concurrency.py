"""METTLE Checks under concurrent clicks (PostgreSQL only): a Surge spends Mettle once per
click and never to 0; a double click is one roll; one Twist per Check."""

import random

import pytest

from campaigns.systems.mettle import roll_services
from campaigns.systems.mettle.roll_services import CheckRequest, RollRefused
from campaigns.systems.mettle.rolls import MettleRoll
from characters.systems.mettle.models import MettleCharacter
from tests.characters.systems.mettle.helpers import make_viktor
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


def surge(points):
    return CheckRequest(label="NATURE Check", attribute="nature", pool=3, difficulty=3,
                        surge=points)


def test_ten_surges_at_once_stop_before_mettle_reaches_zero():
    viktor = make_viktor(UserFactory())  # Mettle 9, MOTIVE 4
    results = run_at_once(10, lambda i: roll_services.make_check(
        character=viktor, by=viktor.owner, request=surge(3), request_key=f"s{i}"))
    done = [r for r in results if isinstance(r, MettleRoll)]
    refused = [r for r in results if isinstance(r, RollRefused)]
    assert len(done) == 2 and len(refused) == 8  # 9 -> 6 -> 3; then at most 2 may go
    assert all(r.code == "surge_over_limit" for r in refused)
    assert sorted(r.mettle_before for r in done) == [6, 9]
    assert MettleCharacter.objects.get(pk=viktor.pk).mettle_current == 3


def test_a_double_clicked_surge_is_one_roll_and_one_spend():
    viktor = make_viktor(UserFactory())
    results = run_at_once(10, lambda i: roll_services.make_check(
        character=viktor, by=viktor.owner, request=surge(2), request_key="same"))
    assert all(isinstance(r, MettleRoll) for r in results)
    assert len({r.pk for r in results}) == 1
    assert MettleCharacter.objects.get(pk=viktor.pk).mettle_current == 7


def test_one_twist_from_ten_clicks():
    viktor = make_viktor(UserFactory())

    class Dealt(random.Random):
        def randint(self, a, b):
            return 6  # every die Edge: a failure with Edge against any Difficulty >= 0

    check = roll_services.make_check(character=viktor, by=viktor.owner,
                                     request=surge(0), rng=Dealt())
    assert not check.success and check.edge == 3
    results = run_at_once(10, lambda i: roll_services.call_twist(
        check=check, by=viktor.owner, price="Delay", request_key=f"t{i}"))
    assert len([r for r in results if isinstance(r, MettleRoll)]) == 1
    assert all(isinstance(r, RollRefused) and r.code == "twist_once"
               for r in results if not isinstance(r, MettleRoll))
    assert MettleRoll.objects.filter(kind="twist").count() == 1
