"""gunicorn's settings for `gunicorn config.wsgi` (README, "Production"; the load
benchmark, `manage.py loadtest`, runs the same command and so these settings).

Chosen from the load benchmark's measurements on a 2-core machine (README, "Load
benchmark"): with one sync worker (gunicorn's default) every request waited behind any
other, and a PDF (seconds of WeasyPrint) stopped the whole site. Threaded workers keep
serving while a request waits (for the database, for its PDF's render turn); at most
PDF_RENDERS PDFs render at once in the whole server, each in a renderer process beside
its worker (characters/printing.py), so they never hold every worker.

More processes with fewer threads each, not one process per core with many threads:
Python runs one thread at a time in a process, so two requests that land in the same
process take turns on one core while the other core may idle. In three pairs of load
nights alternated on one 2-core machine (the first step, SQLite), 5 processes of 4
threads (gunicorn's own advice for the number of workers: twice the cores plus one) had
3, 11 and 5 endpoints over a p99 of 100 ms where 2 processes of 12 had 8, 20 and 19, and
the bare view's p99 17 to 110 ms against 65 to 259 (README, "Processes, not threads").

Each setting can be changed without editing this file: WEB_CONCURRENCY (workers),
GUNICORN_THREADS, GUNICORN_TIMEOUT (seconds), or any gunicorn option on the command line
(`gunicorn config.wsgi --workers 4`).
"""

import multiprocessing
import os

worker_class = "gthread"
# Twice the cores plus one: Python runs one thread at a time per process, so the
# processes, not the threads, are what keep both cores busy.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1))
# Threads per process: requests that wait (the database, a PDF's turn) do not hold a core.
# At most PDF_REQUESTS_PER_PROCESS (2) of them wait for a PDF: 2 always serve the rest.
threads = int(os.environ.get("GUNICORN_THREADS", 4))
# A worker that stops answering gunicorn's heartbeat this long is restarted. With threads,
# the heartbeat goes on while a request (a PDF) works, so this bounds a stuck worker,
# not a slow request.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 60))
graceful_timeout = 30
keepalive = 5
