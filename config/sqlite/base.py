"""Django's SQLite backend, converting each query's placeholders once.

Django writes queries with "%s" placeholders and its SQLite cursor rewrites them to
sqlite3's "?" on every execute, with a regular expression that tries a look-behind at
every character: 15-20 µs for a query selecting a model and its select_related rows,
more than SQLite takes to answer it. Most queries an app runs have a handful of
shapes, so the conversion is remembered per query text (the same text always gives
the same result, in every process). Settings use this engine wherever DATABASE_URL
names SQLite.
"""

from __future__ import annotations

from functools import lru_cache

from django.db.backends.sqlite3 import base

# Enough for every query shape of the app; queries with `IN (...)` lists of many
# lengths only churn the least recently used entries.
QUERY_CACHE_SIZE = 1024


@lru_cache(maxsize=QUERY_CACHE_SIZE)
def format_to_qmark(query: str) -> str:
    """What Django's SQLiteCursorWrapper.convert_query returns for positional params."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class SQLiteCursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query, *, param_names=None):
        if param_names is None:
            return format_to_qmark(query)
        return super().convert_query(query, param_names=param_names)


class DatabaseWrapper(base.DatabaseWrapper):
    def create_cursor(self, name=None):
        return self.connection.cursor(factory=SQLiteCursorWrapper)
