"""Errant Checks under concurrent clicks (PostgreSQL only): a double-clicked roll is one
roll; ten different rolls at once are ten rows, each with its own d20."""

import pytest

from campaigns.systems.errant import roll_services
from campaigns.systems.errant.roll_services import RollRequest
from campaigns.systems.errant.rolls import ErrantRoll
from tests.characters.systems.errant.helpers import make_wren
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


def check():
    return RollRequest(kind="check", attribute="phys", base_dv=4)


def test_a_double_clicked_roll_is_one_roll():
    wren = make_wren(UserFactory())
    results = run_at_once(10, lambda i: roll_services.make_roll(
        character=wren, by=wren.owner, request=check(), request_key="same"))
    assert all(isinstance(r, ErrantRoll) for r in results)
    assert len({r.pk for r in results}) == 1
    assert ErrantRoll.objects.count() == 1


def test_ten_rolls_at_once_are_ten_rows():
    wren = make_wren(UserFactory())
    results = run_at_once(10, lambda i: roll_services.make_roll(
        character=wren, by=wren.owner, request=check(), request_key=f"r{i}"))
    assert all(isinstance(r, ErrantRoll) for r in results)
    assert ErrantRoll.objects.count() == 10
