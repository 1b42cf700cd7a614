"""Long lists paginate or fold (issue 12): campaigns/paging.py and the pages that use it
(the session list, the XP ledger, the Highlights log, the party stash). Each shows one
page, links the next, and gives a sensible page for any junk in the query string."""

import re

import pytest
from django.urls import reverse

from campaigns import paging
from characters.models import InventoryItem, XpEntry
from tests.factories import (
    CharacterFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
    XpEntryFactory,
)

pytestmark = pytest.mark.django_db

JUNK = ["abc", "-1", "0", "99999", "1.5", "²", "9" * 400, "", "%00"]


# `imp` and `campaign` are tests/campaigns/conftest.py's.
@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def hero(campaign, player):
    return CharacterFactory(owner=player, campaign=campaign, name="Hero")


# -- the helpers ---------------------------------------------------------------------------


def test_page_before_reads_the_newest_then_older_pages(hero):
    XpEntryFactory.create_batch(7, character=hero)
    entries = XpEntry.objects.filter(character=hero)
    pks = list(entries.order_by("-pk").values_list("pk", flat=True))[:7]
    entries = entries.filter(pk__in=pks)
    first = paging.page_before(entries, None, size=3)
    assert [e.pk for e in first.rows] == pks[:3] and first.older == pks[2] and first.newest
    second = paging.page_before(entries, str(first.older), size=3)
    assert [e.pk for e in second.rows] == pks[3:6] and not second.newest
    last = paging.page_before(entries, str(second.older), size=3)
    assert [e.pk for e in last.rows] == pks[6:] and last.older is None
    exact = paging.page_before(entries, str(pks[3]), size=3)  # exactly a page left
    assert [e.pk for e in exact.rows] == pks[4:] and exact.older is None


@pytest.mark.parametrize("junk", ["xyz", "-1", "1e3", "²", "9" * 400, "٣"])
def test_page_before_reads_junk_as_the_newest(hero, junk):
    XpEntryFactory.create_batch(4, character=hero)
    page = paging.page_before(XpEntry.objects.filter(character=hero), junk, size=3)
    assert len(page.rows) == 3 and page.newest and page.older is not None


def test_slice_before_and_fold():
    rows = list(range(10, 0, -1))  # a log held in memory, newest first
    page = paging.slice_before(rows, None, size=4)
    assert page.rows == [10, 9, 8, 7] and page.older == 7
    assert paging.slice_before(rows, "7", size=4).rows == [6, 5, 4, 3]
    assert paging.slice_before(rows, "3", size=4) == paging.Slice(rows=[2, 1], before=3)
    assert paging.slice_before(rows, "junk", size=4).rows == [10, 9, 8, 7]
    assert paging.fold(rows, None, at=4) == ([10, 9, 8, 7], 6)
    assert paging.fold(rows, "all", at=4) == (rows, 0)
    assert paging.fold(rows, "yes", at=10) == (rows, 0)


@pytest.mark.parametrize("junk", JUNK)
def test_page_of_gives_a_page_for_junk(junk):
    page = paging.page_of(list(range(60)), junk, per_page=25)
    assert page.number in (1, 3) and len(page.object_list) in (25, 10)


# -- the session list ----------------------------------------------------------------------


def session_numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r">Session (\d+)</a>", html)]


def test_the_session_list_shows_a_page_and_links_the_next(client, campaign, imp):
    for _ in range(paging.LOG_PAGE_SIZE + 5):
        SessionFactory(campaign=campaign)
    client.force_login(imp)
    url = reverse("campaigns:sessions", args=[campaign.pk])
    first = client.get(url).content.decode()
    assert session_numbers(first) == list(range(30, 5, -1))
    assert 'href="?page=2"' in first and "Page 1 of 2" in first
    assert "Start session 31" in first
    second = client.get(url + "?page=2").content.decode()
    assert session_numbers(second) == [5, 4, 3, 2, 1]
    assert 'href="?page=1"' in second and "Start session 31" in second


@pytest.mark.parametrize("junk", JUNK)
def test_the_session_list_survives_junk(client, campaign, player, junk):
    for _ in range(paging.LOG_PAGE_SIZE + 1):
        SessionFactory(campaign=campaign)
    client.force_login(player)
    response = client.get(reverse("campaigns:sessions", args=[campaign.pk]), {"page": junk})
    assert response.status_code == 200
    assert len(session_numbers(response.content.decode())) in (1, paging.LOG_PAGE_SIZE)


def test_a_short_session_list_has_no_pager(client, campaign, imp):
    SessionFactory.create_batch(3, campaign=campaign)
    client.force_login(imp)
    page = client.get(reverse("campaigns:sessions", args=[campaign.pk])).content.decode()
    assert session_numbers(page) == [3, 2, 1] and "data-pager" not in page


def test_the_session_list_is_still_members_only(client, campaign):
    url = reverse("campaigns:sessions", args=[campaign.pk])
    assert client.get(url + "?page=2").status_code == 302
    client.force_login(UserFactory())
    assert client.get(url + "?page=2").status_code == 404


# -- the XP ledger on the campaign's character page ---------------------------------------


def ledger_rows(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-entry="(\d+)"', html)]


def test_the_xp_ledger_shows_the_newest_and_links_older(client, campaign, imp, hero):
    XpEntryFactory.create_batch(paging.LOG_PAGE_SIZE + 4, character=hero, note="Bonus")
    pks = list(hero.xp_entries.order_by("-pk").values_list("pk", flat=True))
    client.force_login(imp)
    url = reverse("campaigns:character", args=[campaign.pk, hero.pk])
    first = client.get(url).content.decode()
    assert ledger_rows(first) == pks[:paging.LOG_PAGE_SIZE]
    older = re.search(r'href="([^"]*\?before=(\d+))#ledger"', first)
    assert older and int(older.group(2)) == pks[paging.LOG_PAGE_SIZE - 1]
    second = client.get(older.group(1)).content.decode()
    assert ledger_rows(second) == pks[paging.LOG_PAGE_SIZE:]
    assert "data-pager-newest" in second and "data-pager-older" not in second
    # Level and XP are still the sums of every entry, on either page.
    def stats(html):
        return re.findall(r'<strong data-stat="(\w+)">([^<]*)</strong>', html)

    assert stats(first) and stats(first) == stats(second)


@pytest.mark.parametrize("junk", ["xyz", "-1", "99999999999999999999999", "", "²"])
def test_the_xp_ledger_survives_junk(client, campaign, player, hero, junk):
    XpEntryFactory.create_batch(paging.LOG_PAGE_SIZE + 1, character=hero)
    client.force_login(player)
    response = client.get(reverse("campaigns:character", args=[campaign.pk, hero.pk]),
                          {"before": junk})
    assert response.status_code == 200
    assert len(ledger_rows(response.content.decode())) == paging.LOG_PAGE_SIZE


def test_the_xp_ledger_pages_stay_private(client, campaign, hero):
    url = reverse("campaigns:character", args=[campaign.pk, hero.pk]) + "?before=5"
    client.force_login(MembershipFactory(campaign=campaign).user)  # another player
    assert client.get(url).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404


# -- the Highlights log --------------------------------------------------------------------


@pytest.mark.parametrize("junk", JUNK)
def test_the_highlights_log_survives_junk(client, campaign, imp, junk):
    for _ in range(15):
        SessionFactory(campaign=campaign)
    client.force_login(imp)
    response = client.get(reverse("campaigns:highlights", args=[campaign.pk]), {"page": junk})
    assert response.status_code == 200 and "data-pager" in response.content.decode()


# -- the party stash -----------------------------------------------------------------------


def stash_lines(html: str) -> list[str]:
    return re.findall(r'data-item="([^"]+)"', html)


def test_a_long_stash_folds_and_shows_all_on_asking(client, campaign, player, hero):
    chest = InventoryItem.objects.create(stash=campaign, name="Chest 000", load=0)
    InventoryItem.objects.bulk_create(  # the chest's contents run past the fold
        InventoryItem(stash=campaign, container=chest, name=f"Coin {n:03}", load=0)
        for n in range(paging.FOLD_AT + 10))
    InventoryItem.objects.create(stash=campaign, name="Zither", load=0)
    client.force_login(player)
    url = reverse("campaigns:stash", args=[campaign.pk])
    page = client.get(url).content.decode()
    assert len(stash_lines(page)) == paging.FOLD_AT and "Zither" not in page
    assert "And 12 more lines" in page and 'href="?lines=all#stash-heading"' in page
    # The cut list still closes every container it opened.
    items = page[page.index('<ul class="inv-list">'):page.index("data-pager")]
    assert items.count("<ul") == items.count("</ul>")
    everything = client.get(url, {"lines": "all"}).content.decode()
    assert len(stash_lines(everything)) == paging.FOLD_AT + 12 and "Zither" in everything
    assert "data-pager" not in everything


def test_a_take_from_the_whole_stash_keeps_it_whole(client, campaign, player, hero):
    InventoryItem.objects.bulk_create(InventoryItem(stash=campaign, name=f"Coin {n:03}",
                                                    load=0) for n in range(paging.FOLD_AT + 5))
    coin = InventoryItem.objects.get(stash=campaign, name="Coin 000")
    client.force_login(player)
    page = reverse("campaigns:stash", args=[campaign.pk])
    take = reverse("campaigns:stash_take", args=[campaign.pk, coin.pk])
    whole = client.post(take, {"to": hero.pk, "request_key": "k1"}, HTTP_HX_REQUEST="true",
                        HTTP_HX_CURRENT_URL=f"http://testserver{page}?lines=all")
    assert len(stash_lines(whole.content.decode())) == paging.FOLD_AT + 4
    coin = InventoryItem.objects.get(stash=campaign, name="Coin 001")
    take = reverse("campaigns:stash_take", args=[campaign.pk, coin.pk])
    folded = client.post(take, {"to": hero.pk, "request_key": "k2"}, HTTP_HX_REQUEST="true",
                         HTTP_HX_CURRENT_URL=f"http://testserver{page}")
    assert len(stash_lines(folded.content.decode())) == paging.FOLD_AT
    assert not InventoryItem.objects.filter(stash=campaign, name__in=["Coin 000", "Coin 001"])


@pytest.mark.parametrize("junk", ["abc", "-1", "99999", "ALL", ""])
def test_the_stash_fold_survives_junk(client, campaign, player, hero, junk):
    InventoryItem.objects.bulk_create(InventoryItem(stash=campaign, name=f"Coin {n:03}",
                                                    load=0) for n in range(paging.FOLD_AT + 1))
    client.force_login(player)
    response = client.get(reverse("campaigns:stash", args=[campaign.pk]), {"lines": junk})
    assert response.status_code == 200
    assert len(stash_lines(response.content.decode())) == paging.FOLD_AT


def test_the_stash_is_still_members_only(client, campaign):
    url = reverse("campaigns:stash", args=[campaign.pk]) + "?lines=all"
    assert client.get(url).status_code == 302
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
