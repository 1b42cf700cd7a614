"""Login throttling (django-axes): per account and per address, a message, a way back in."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.management import call_command
from django.test import RequestFactory, override_settings
from django.urls import reverse

from accounts.throttle import client_ip
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db]

HERE = "10.0.0.1"
ELSEWHERE = "10.0.0.99"


@pytest.fixture(autouse=True)
def axes_on(settings):
    """The test settings switch axes off so other tests cannot lock each other out."""
    settings.AXES_ENABLED = True


def log_in(client, user, password, address=HERE):
    return client.post(reverse("login"), {"username": user.get_username(), "password": password},
                       REMOTE_ADDR=address)


def fail(client, user, times, address=HERE):
    responses = [log_in(client, user, "wrong-password", address) for _ in range(times)]
    return responses[-1]


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_failures_below_the_limit_only_say_the_password_is_wrong(client, user):
    response = fail(client, user, settings.AXES_FAILURE_LIMIT - 1)
    assert response.status_code == 200
    assert response.context["form"].has_error("__all__", code="invalid_login")
    assert "locked_out" not in response.context


def test_the_limit_locks_with_a_message_on_the_login_page(client, user):
    response = fail(client, user, settings.AXES_FAILURE_LIMIT)
    assert response.status_code == 429
    assert "registration/login.html" in [t.name for t in response.templates]
    page = response.content.decode()
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    assert "Too many failed logins" in page
    assert f"Try again in {minutes} minutes" in page
    # The form is there again, with the username kept.
    assert f'value="{user.get_username()}"' in page


def test_a_locked_account_refuses_the_right_password(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT)
    response = log_in(client, user, password)
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert not logged_in(client)


def test_the_account_is_locked_from_another_address_too(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT)
    response = log_in(client, user, password, address=ELSEWHERE)
    assert response.status_code == 429
    assert not logged_in(client)


def test_the_address_is_locked_for_other_accounts(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT)
    response = log_in(client, UserFactory(), password, address=HERE)
    assert response.status_code == 429
    assert not logged_in(client)


def test_another_account_from_another_address_is_unaffected(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT)
    response = log_in(client, UserFactory(), password, address=ELSEWHERE)
    assert response.status_code == 302
    assert logged_in(client)


def test_failures_spread_over_accounts_still_lock_the_address(client, password):
    users = UserFactory.create_batch(settings.AXES_FAILURE_LIMIT)
    for one in users:
        fail(client, one, 1)
    response = log_in(client, UserFactory(), password)
    assert response.status_code == 429


def test_logging_into_ones_own_account_does_not_wipe_the_count(client, user, password):
    """Else a guesser with an account here could log into it between guesses."""
    guesser = UserFactory()
    fail(client, user, settings.AXES_FAILURE_LIMIT - 1)
    assert log_in(client, guesser, password).status_code == 302
    client.logout()
    assert fail(client, user, 1).status_code == 429


def test_axes_reset_unlocks(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT)
    call_command("axes_reset")
    response = log_in(client, user, password)
    assert response.status_code == 302
    assert logged_in(client)


def test_axes_reset_username_unlocks_that_account(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT, address=ELSEWHERE)
    call_command("axes_reset_username", user.get_username())
    assert log_in(client, user, password).status_code == 302


def test_the_cool_off_unlocks(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT)
    assert log_in(client, user, password).status_code == 429
    # Move every recorded failure back past the cool-off, as time would.
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= settings.AXES_COOLOFF_TIME + timedelta(seconds=1)
        attempt.save(update_fields=["attempt_time"])
    assert log_in(client, user, password).status_code == 302
    assert logged_in(client)


@override_settings(AXES_FAILURE_LIMIT=2)
def test_the_limit_is_a_setting(client, user):
    assert fail(client, user, 2).status_code == 429


def test_a_locked_login_keeps_a_local_next_and_drops_a_foreign_one(client, user, password):
    fail(client, user, settings.AXES_FAILURE_LIMIT)
    response = client.post(
        reverse("login"),
        {"username": user.get_username(), "password": password, "next": "/characters/"},
        REMOTE_ADDR=HERE,
    )
    assert 'name="next" value="/characters/"' in response.content.decode()
    response = client.post(
        reverse("login"),
        {"username": user.get_username(), "password": password, "next": "https://evil.example/"},
        REMOTE_ADDR=HERE,
    )
    assert "evil.example" not in response.content.decode()


def test_hostile_usernames_get_the_form_not_a_500(client):
    # Longer than axes' username column (PostgreSQL refused it with a 500): counted, cut.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": "x" * 5000, "password": "p"},
                               REMOTE_ADDR=ELSEWHERE)
    assert response.status_code == 429
    assert AccessAttempt.objects.get(ip_address=ELSEWHERE).username == "x" * 255
    hostile = "<script>alert(1)</script>"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": hostile, "password": "p"},
                               REMOTE_ADDR=HERE)
    assert response.status_code == 429
    assert hostile not in response.content.decode()
    assert "&lt;script&gt;" in response.content.decode()


# Which address counts


@pytest.mark.parametrize(
    ("behind_proxy", "forwarded", "expected"),
    [
        (False, "203.0.113.7", "192.0.2.1"),  # no proxy: a client's header is ignored
        (True, "203.0.113.7", "203.0.113.7"),
        (True, "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # the first one is forgeable
        (True, "", "192.0.2.1"),
        (True, "2001:db8::1", "2001:db8::1"),
        (True, "203.0.113.7, not-an-address", "192.0.2.1"),  # a misconfigured proxy
    ],
)
def test_client_ip(settings, behind_proxy, forwarded, expected):
    settings.BEHIND_PROXY = behind_proxy
    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.1",
                                    HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_signup_still_logs_the_new_user_in(client):
    response = client.post(reverse("signup"), {
        "username": "asphodel", "email": "", "password1": "a-long-Secret-77",
        "password2": "a-long-Secret-77"}, REMOTE_ADDR=HERE)
    assert response.status_code == 302
    assert logged_in(client)
