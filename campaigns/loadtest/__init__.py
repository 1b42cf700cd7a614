"""The load benchmark (`manage.py loadtest`, issue #12): a game night driven against the
production server, measured.

- seed.py: a realistic installation, made through the project's services.
- timing.py, urls.py: what the server adds when LOAD_BENCH=true (config/settings/base.py):
  a Server-Timing header with each request's CPU time and query count, and the bare view.
- locustfile.py: the night's clients (Locust, headless).
- night.py: the throwaway database, the server, the step ramp and the report.
"""
