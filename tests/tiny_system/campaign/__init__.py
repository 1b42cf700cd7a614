"""A campaign side for the tiny system, for the tests of campaigns.systems alone (the tiny
system registers none by default): one page per campaign, "the brawl", and the link the
campaign page shows to it. Named by a copy of the tiny system's registration
(`with_campaign_package`), never imported by generic code."""

PACKAGE = __name__
