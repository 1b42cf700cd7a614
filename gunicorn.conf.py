"""gunicorn's settings for `gunicorn config.wsgi` (README, "Production"; the load
benchmark, `manage.py loadtest`, runs the same command and so these settings).

Chosen from the load benchmark's measurements on a 2-core machine (README, "Load
benchmark"): with one sync worker (gunicorn's default) every request waited behind any
other, and a PDF (seconds of WeasyPrint) stopped the whole site. Threaded workers keep
serving while a request waits (for the database, for its PDF's render turn), two
processes use both cores, and at most PDF_RENDERS PDFs render at once in the whole
server, each in a renderer process beside its worker (characters/printing.py), so they
never hold every worker.

Each setting can be changed without editing this file: WEB_CONCURRENCY (workers),
GUNICORN_THREADS, GUNICORN_TIMEOUT (seconds), or any gunicorn option on the command line
(`gunicorn config.wsgi --workers 4`).
"""

import multiprocessing
import os

worker_class = "gthread"
# One process per core (at least 2): Python runs one thread at a time per process.
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count())))
# Threads per process: requests that wait (the database, a PDF's turn) do not hold a core.
# At most PDF_REQUESTS_PER_PROCESS (8) of them wait for a PDF: 4 always serve the rest.
threads = int(os.environ.get("GUNICORN_THREADS", 12))
# A worker that stops answering gunicorn's heartbeat this long is restarted. With threads,
# the heartbeat goes on while a request (a PDF) works, so this bounds a stuck worker,
# not a slow request.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 60))
graceful_timeout = 30
keepalive = 5
