"""Helpers for the PostgreSQL-only concurrency tests: many clicks at once."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite has no row locks (select_for_update is a no-op) and "
           "answers concurrent writers with 'database is locked'",
)


def run_at_once(count, work):
    """Run work(i) in `count` threads released together; return results or errors."""
    barrier = threading.Barrier(count)

    def one(i):
        try:
            barrier.wait()
            return work(i)
        except Exception as error:  # noqa: BLE001 - reported by the test
            return error
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(one, range(count)))
