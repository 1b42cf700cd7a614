"""The printed sheet for `manage.py bench`: how long one character's PDF and the Imp's
party pack of 8 take, beside the print view's HTML (the same page without WeasyPrint),
which is the baseline: what WeasyPrint adds is the ratio.

It uses the bench's "Table of 8" campaign (campaigns/systems/eldritch_gambit/bench.py),
whose Imp is the bench's user: one character of it for the single sheet, all eight for
the pack. PDFs take hundreds of milliseconds, so it times fewer requests than the rest
of the bench: one in ten of --requests (at least 1, at most 10), after one untimed
single sheet that loads WeasyPrint's fonts.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable

from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from .models import Campaign


def pdf_pages(content: bytes) -> int | None:
    """Pages of a PDF, by pdfinfo (poppler-utils) when it is installed."""
    try:
        info = subprocess.run(["pdfinfo", "-"], input=content, capture_output=True,
                              check=True, timeout=30).stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return None
    for line in info.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return None


def _time(send: Callable, samples: int) -> tuple[float, float, object]:
    """Median wall-clock and CPU milliseconds (the CPU time of this process, which other
    programs on a busy machine do not inflate), and the last response."""
    times, cpu, response = [], [], None
    for _ in range(samples):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = send()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"{response.request['PATH_INFO']} answered "
                               f"{response.status_code}")
    return statistics.median(times), statistics.median(cpu), response


def measure(client: Client, campaign: Campaign, requests: int, warmup: int) -> dict:
    """Every PDF rendered afresh in this process (no PDF cache, no renderer process):
    what WeasyPrint costs, not what the cache saves."""
    uncached = {**settings.CACHES,
                "pdfs": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    with override_settings(CACHES=uncached, PDF_RENDER_PROCESS=False):
        return _measure(client, campaign, requests, warmup)


def _measure(client: Client, campaign: Campaign, requests: int, warmup: int) -> dict:
    character = campaign.characters.order_by("pk").first()
    samples = max(1, min(requests // 10, 10))
    urls = {
        "html": reverse("characters:print", args=[character.pk]) + "?paper=letter",
        "sheet": reverse("characters:sheet_pdf", args=[character.pk]) + "?paper=letter",
        "pack": reverse("campaigns:party_pdf", args=[campaign.pk]) + "?paper=letter",
    }
    if warmup:
        client.get(urls["sheet"])
    results = {"samples": samples, "characters": campaign.characters.count()}
    for key, url in urls.items():
        median, cpu, response = _time(lambda url=url: client.get(url), samples)
        content = response.content
        results[key] = {"median_ms": median, "cpu_ms": cpu, "bytes": len(content),
                        "pages": pdf_pages(content) if key != "html" else None}
    return results


def report(out: Callable[[str], None], results: dict, table: Callable) -> None:
    html = results["html"]["median_ms"]
    out(f"\nPrinted sheet (median of {results['samples']} after one untimed PDF; baseline: "
        "the print view's HTML, the same page without WeasyPrint)")
    out("")
    rows = []
    for key, label in (("html", "GET characters:print (HTML, baseline)"),
                       ("sheet", "GET characters:sheet_pdf (1 character)"),
                       ("pack", f"GET campaigns:party_pdf ({results['characters']} characters)")):
        m = results[key]
        rows.append([label, f"{m['median_ms']:.1f}", f"{m['cpu_ms']:.1f}", m["pages"] or "-",
                     m["bytes"], f"{m['median_ms'] / html:.1f}x"])
    out(table(["Request", "Median ms", "CPU ms", "Pages", "Bytes", "x print HTML"], rows))
    out("CPU ms: the processor time of this process alone; on a busy machine the wall clock "
        "(Median ms) is longer.")


def as_json(results: dict) -> dict:
    return {
        "samples": results["samples"], "characters": results["characters"],
        **{key: {"median_ms": round(results[key]["median_ms"], 3),
                 "cpu_ms": round(results[key]["cpu_ms"], 3),
                 "bytes": results[key]["bytes"], "pages": results[key]["pages"]}
           for key in ("html", "sheet", "pack")},
    }
