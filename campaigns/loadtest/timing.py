"""What each response costs the server, for the load benchmark: on only with
LOAD_BENCH=true (config/settings/base.py puts it first in MIDDLEWARE).

`Server-Timing: cpu;dur=12.345, queries;desc="6"`: the CPU time of the thread that served
the request (time.thread_time, right under sync and threaded workers alike) through every
middleware after this one, the view and the template, and the number of database queries.
"""

from __future__ import annotations

import time

from django.db import connection


class ServerTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        queries = 0

        def count(execute, sql, params, many, context):
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        started = time.thread_time()
        with connection.execute_wrapper(count):
            response = self.get_response(request)
        cpu_ms = (time.thread_time() - started) * 1000
        response["Server-Timing"] = f'cpu;dur={cpu_ms:.3f}, queries;desc="{queries}"'
        return response
