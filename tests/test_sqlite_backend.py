"""The SQLite engine of the settings (config/sqlite): Django's, with each query's
placeholders converted once."""

import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.sqlite3.base import SQLiteCursorWrapper as DjangoCursor

from characters.models import Character
from config.sqlite.base import SQLiteCursorWrapper, format_to_qmark
from tests.factories import CharacterFactory

sqlite_only = pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite engine")


@pytest.mark.parametrize("query", [
    "SELECT %s",
    "SELECT a FROM t WHERE b = %s AND c IN (%s, %s)",
    "SELECT 'x%%' || %s",  # a literal percent sign
    "SELECT '%%s' || %s",  # a literal "%s" is not a placeholder
    "SELECT 1",
])
def test_the_conversion_is_djangos(query):
    assert format_to_qmark(query) == DjangoCursor.convert_query(None, query)


@sqlite_only
@pytest.mark.django_db
def test_sqlite_settings_use_the_engine():
    assert settings.DATABASES["default"]["ENGINE"] == "config.sqlite"
    with connection.cursor() as cursor:
        assert isinstance(cursor.cursor, SQLiteCursorWrapper)
        # Named parameters ("pyformat") are Django's own conversion.
        cursor.execute("SELECT %(a)s, %(b)s", {"a": 1, "b": "two"})
        assert cursor.fetchall() == [(1, "two")]
        cursor.execute("SELECT '100%%', %s", [3])
        assert cursor.fetchall() == [("100%", 3)]


@sqlite_only
@pytest.mark.django_db
def test_queries_run_and_repeat_through_the_remembered_conversion():
    character = CharacterFactory(name="100% Brannoc")
    format_to_qmark.cache_clear()

    for _ in range(3):
        assert Character.objects.filter(name__contains="100%").get() == character

    info = format_to_qmark.cache_info()
    assert info.misses == 1 and info.hits == 2
