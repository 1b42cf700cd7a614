import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()


def logged_in_user_id(client):
    return client.session.get("_auth_user_id")


def signup_data(**overrides):
    data = {
        "username": "asphodel",
        "email": "",
        "password1": "a-long-Secret-77",
        "password2": "a-long-Secret-77",
    }
    data.update(overrides)
    return data


# Sign up


def test_signup_page_renders_for_anonymous(client):
    response = client.get(reverse("signup"))

    assert response.status_code == 200
    assert "accounts/signup.html" in [t.name for t in response.templates]


def test_signup_creates_the_user_and_logs_them_in(client):
    response = client.post(reverse("signup"), signup_data())

    assert response.status_code == 302
    user = User.objects.get(username="asphodel")
    assert logged_in_user_id(client) == str(user.pk)
    assert user.email == ""


def test_signup_keeps_an_optional_email(client):
    client.post(reverse("signup"), signup_data(email="asphodel@example.com"))

    assert User.objects.get(username="asphodel").email == "asphodel@example.com"


def test_signup_follows_a_local_next(client):
    response = client.post(reverse("signup"), signup_data(next="/about/"))

    assert response.status_code == 302
    assert response["Location"] == "/about/"


def test_signup_ignores_a_next_to_another_site(client):
    response = client.post(reverse("signup"), signup_data(next="https://evil.example/"))

    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_bad_signup_shows_field_errors_and_keeps_the_username(client):
    response = client.post(reverse("signup"), signup_data(password2="something-else-88"))

    assert response.status_code == 200
    form = response.context["form"]
    assert form.has_error("password2", code="password_mismatch")
    assert 'value="asphodel"' in response.content.decode()
    assert not User.objects.filter(username="asphodel").exists()
    assert logged_in_user_id(client) is None


def test_signup_rejects_a_taken_username(client, user):
    response = client.post(reverse("signup"), signup_data(username=user.username))

    assert response.status_code == 200
    assert response.context["form"].has_error("username", code="unique")


def test_signup_redirects_a_logged_in_user(client_logged_in):
    response = client_logged_in.get(reverse("signup"))

    assert response.status_code == 302


# Log in and out


def test_login_with_the_right_password(client, user, password):
    response = client.post(reverse("login"), {"username": user.username, "password": password})

    assert response.status_code == 302
    assert logged_in_user_id(client) == str(user.pk)


def test_login_with_a_wrong_password_shows_the_form_again(client, user):
    response = client.post(reverse("login"), {"username": user.username, "password": "nope"})

    assert response.status_code == 200
    assert response.context["form"].has_error("__all__", code="invalid_login")
    assert logged_in_user_id(client) is None


def test_logout_is_a_post_that_ends_the_session(client_logged_in):
    response = client_logged_in.post(reverse("logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert logged_in_user_id(client_logged_in) is None


def test_logout_refuses_get(client_logged_in):
    response = client_logged_in.get(reverse("logout"))

    assert response.status_code == 405
    assert logged_in_user_id(client_logged_in) is not None


# Password change


def test_password_change_sends_anonymous_to_login(client):
    url = reverse("password_change")

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert f"next={url}" in response["Location"]


def test_password_change_works_for_the_owner(client, user, password):
    client.force_login(user)

    response = client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "another-Long-secret-42",
            "new_password2": "another-Long-secret-42",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("another-Long-secret-42")
    assert logged_in_user_id(client) == str(user.pk)


def test_password_change_needs_the_old_password(client_logged_in):
    response = client_logged_in.post(
        reverse("password_change"),
        {
            "old_password": "wrong",
            "new_password1": "another-Long-secret-42",
            "new_password2": "another-Long-secret-42",
        },
    )

    assert response.status_code == 200
    assert response.context["form"].has_error("old_password", code="password_incorrect")


# Password reset


def test_password_reset_prints_the_mail_with_the_console_backend(client, settings, capsys):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    UserFactory(username="forgetful", email="forgetful@example.com")

    response = client.post(reverse("password_reset"), {"email": "forgetful@example.com"})

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    printed = capsys.readouterr().out
    assert "To: forgetful@example.com" in printed
    assert "/accounts/reset/" in printed


def test_password_reset_link_sets_a_new_password(client):
    user = UserFactory(email="forgetful@example.com")
    client.post(reverse("password_reset"), {"email": "forgetful@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)

    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"] is True
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "fresh-Secret-2024", "new_password2": "fresh-Secret-2024"},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("fresh-Secret-2024")


def test_password_reset_for_an_unknown_address_sends_nothing(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.status_code == 302
    assert mail.outbox == []
