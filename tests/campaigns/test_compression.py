"""HTML answers are gzipped for clients that accept it (GZipMiddleware, with Django's
BREACH padding); static files stay WhiteNoise's own (its precompressed copies)."""

import gzip

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_page_is_gzipped_when_the_client_accepts_it(client_logged_in):
    plain = client_logged_in.get(reverse("characters:list"))
    zipped = client_logged_in.get(reverse("characters:list"), HTTP_ACCEPT_ENCODING="gzip")
    assert plain.status_code == zipped.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    html = gzip.decompress(zipped.content).decode()
    assert "<html" in html and len(zipped.content) < len(html.encode())


def test_a_polls_etag_survives_compression(client, campaign, imp):
    """GZip weakens the ETag (W/"..."); the poll sent back with it is still a 304."""
    client.force_login(imp)
    path = reverse("campaigns:detail", args=[campaign.pk])
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "party-dashboard",
               "HTTP_ACCEPT_ENCODING": "gzip"}
    first = client.get(path, **headers)
    assert first.status_code == 200
    etag = first["ETag"]
    assert first["Content-Encoding"] == "gzip" and etag.startswith("W/")
    again = client.get(path, HTTP_IF_NONE_MATCH=etag, **headers)
    assert again.status_code == 304 and again.content == b""
