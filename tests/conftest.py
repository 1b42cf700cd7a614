import pytest
from hypothesis import HealthCheck, settings

from tests.factories import DEFAULT_PASSWORD, UserFactory

# No per-example deadline: on a busy two-core machine (CI, or tests beside a browser)
# one slow example is not a failure. Hypothesis still reports real counterexamples.
settings.register_profile(
    "project", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True,
)
settings.load_profile("project")


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
