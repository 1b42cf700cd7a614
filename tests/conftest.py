import pytest

from tests.factories import DEFAULT_PASSWORD, UserFactory


@pytest.fixture
def password():
    return DEFAULT_PASSWORD


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def other_user(db):
    return UserFactory()


@pytest.fixture
def client_logged_in(client, user):
    """The test client, logged in as `user`."""
    client.force_login(user)
    return client
