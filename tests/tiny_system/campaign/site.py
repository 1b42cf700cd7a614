"""The site's URLconf with the tiny campaign side's pages in the "campaigns" namespace,
for a test that registers that side (config/urls.py was loaded before it did): the
first "campaigns" include answers, so it carries the generic and Eldritch Gambit's pages
too."""

from django.urls import include, path

from campaigns import urls as campaign_urls
from config import urls as site_urls

from . import urls as tiny_urls

urlpatterns = [
    path("campaigns/", include((campaign_urls.urlpatterns + tiny_urls.campaign_urlpatterns,
                                "campaigns"))),
    *site_urls.urlpatterns,
]
