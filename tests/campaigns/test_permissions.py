"""Who may do what, for every campaign view and action: anonymous visitors, strangers,
the character's player, another player of the table, a co-Imp and the Imp.

Each case starts from the same table and checks the status, and for a refusal that
nothing at all changed (every campaign row, every XP entry, every role).
"""

import pytest
from django.urls import URLPattern, get_resolver, reverse

from campaigns import services
from campaigns.models import (
    Absence,
    Campaign,
    Highlight,
    Invitation,
    Membership,
    Session,
)
from campaigns.systems.eldritch_gambit.models import Quest, QuestInvestment
from characters.models import XpEntry
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    InvitationFactory,
    MembershipFactory,
    QuestFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "stranger", "owner", "other_player", "co_imp", "imp")
LOGIN, NOT_FOUND, FORBIDDEN, OK = "login", 404, 403, "ok"


@pytest.fixture
def table():
    """A campaign in its second session. The owner's Hero has had its three turns
    (passes) and has an active Quest; the other player's Sidekick got one Highlight,
    passed once and is next (round 3); their Bystander is marked absent."""
    campaign = CampaignFactory()
    imp = campaign.owner
    owner = MembershipFactory(campaign=campaign).user
    other_player = MembershipFactory(campaign=campaign).user
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    hero = CharacterFactory(owner=owner, campaign=campaign, name="Hero", progress__xp=3,
                            quest="Find the bell")
    sidekick = CharacterFactory(owner=other_player, campaign=campaign, name="Sidekick")
    bystander = CharacterFactory(owner=other_player, campaign=campaign, name="Bystander")
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    services.absence_set(session=session, character=bystander, by=imp)
    services.highlight_pass(session=session, character=hero, by=imp)
    award = services.highlight_award(session=session, character=sidekick, by=imp, text="Jump")
    services.highlight_pass(session=session, character=hero, by=imp)
    services.highlight_pass(session=session, character=sidekick, by=imp)
    services.highlight_pass(session=session, character=hero, by=imp)
    QuestFactory(character=hero, text="Find the bell")
    invitation = InvitationFactory(campaign=campaign)
    return {
        "campaign": campaign, "session": session, "hero": hero, "sidekick": sidekick,
        "bystander": bystander, "award": award, "invitation": invitation,
        "users": {"imp": imp, "owner": owner, "other_player": other_player,
                  "co_imp": co_imp, "stranger": UserFactory(), "anonymous": None},
    }


def snapshot() -> tuple:
    """Everything a campaign action could change."""
    return (
        list(XpEntry.objects.order_by("pk").values_list("pk", "xp_change", "level_change")),
        list(Highlight.objects.order_by("pk").values_list("pk", "awarded")),
        list(Absence.objects.values_list("pk")),
        list(QuestInvestment.objects.values_list("pk")),
        list(Quest.objects.order_by("pk").values_list("pk", "status", "text")),
        list(Membership.objects.order_by("pk").values_list("user_id", "role")),
        list(Invitation.objects.order_by("pk").values_list("pk", "revoked_at")),
        list(Session.objects.order_by("pk").values_list("pk", "notes", "recap",
                                                         "ritual_closed_at")),
        list(EldritchGambitCharacter.objects.order_by("pk")
             .values_list("pk", "campaign_id", "quest")),
        list(Campaign.objects.values_list("pk", "owner_id", "name", "settings")),
    )


def _campaign(t):
    return [t["campaign"].pk]


def _session(t):
    return [t["campaign"].pk, t["session"].number]


def _hero(t):
    return [t["campaign"].pk, t["hero"].pk]


def _user(role):
    return lambda t: [t["campaign"].pk, t["users"][role].pk]


# (url name, method, url args, POST data, expected outcome per role in ROLES order)
PLAYERS_SEE = (LOGIN, NOT_FOUND, OK, OK, OK, OK)
IMPS_ONLY = (LOGIN, NOT_FOUND, FORBIDDEN, FORBIDDEN, OK, OK)
THE_IMP_ONLY = (LOGIN, NOT_FOUND, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)
OWNER_OR_IMPS = (LOGIN, NOT_FOUND, OK, FORBIDDEN, OK, OK)
CASES = [
    ("campaigns:detail", "get", _campaign, None, PLAYERS_SEE),
    ("campaigns:sessions", "get", _campaign, None, PLAYERS_SEE),
    ("campaigns:session_detail", "get", _session, None, PLAYERS_SEE),
    ("campaigns:bring", "get", _campaign, None, PLAYERS_SEE),
    ("campaigns:members", "get", _campaign, None, PLAYERS_SEE),
    ("campaigns:highlights", "get", _campaign, None, IMPS_ONLY),
    ("campaigns:character", "get", _hero, None, OWNER_OR_IMPS),
    ("campaigns:handover", "get", _campaign, None, THE_IMP_ONLY),
    ("campaigns:edit", "get", _campaign, None, IMPS_ONLY),
    ("campaigns:edit", "post", _campaign,
     {"name": "Renamed", "starting_level": "10", "default_highlight_rounds": "3"}, IMPS_ONLY),
    ("campaigns:invitation_create", "post", _campaign, {}, IMPS_ONLY),
    ("campaigns:invitation_revoke", "post",
     lambda t: [t["campaign"].pk, t["invitation"].pk], {}, IMPS_ONLY),
    ("campaigns:sessions", "post", _campaign,
     {"date": "2025-01-01", "highlight_rounds": "3"}, IMPS_ONLY),
    ("campaigns:session_detail", "post", _session, {"notes": "n", "recap": "r"}, IMPS_ONLY),
    ("campaigns:turn", "post", _session,
     lambda t: {"character": t["sidekick"].pk, "action": "award", "text": "A deed"},
     IMPS_ONLY),
    ("campaigns:absence", "post", _session,
     lambda t: {"character": t["bystander"].pk, "absent": "0"}, IMPS_ONLY),
    ("campaigns:ritual_close", "post", _session, {}, IMPS_ONLY),
    ("campaigns:quest_complete", "post",
     lambda t: [*_session(t), Quest.objects.get(character=t["hero"]).pk], {}, IMPS_ONLY),
    ("campaigns:xp_reverse", "post",
     lambda t: [*_session(t), t["award"].xp_entry_id], {}, IMPS_ONLY),
    ("campaigns:invest", "post", _session, lambda t: {"character": t["hero"].pk},
     (LOGIN, NOT_FOUND, OK, "refused", OK, OK)),
    ("campaigns:xp_adjust", "post", _hero, {"xp_change": "2", "note": "A good deed"},
     IMPS_ONLY),
    ("campaigns:character_xp_reverse", "post",
     lambda t: [t["campaign"].pk, t["sidekick"].pk, t["award"].xp_entry_id], {}, IMPS_ONLY),
    ("campaigns:quest_change", "post", _hero, {"text": "Ring the bell"}, OWNER_OR_IMPS),
    ("campaigns:quest_abandon", "post", _hero, {}, OWNER_OR_IMPS),
    ("campaigns:character_leave", "post", _hero, {}, OWNER_OR_IMPS),
    ("campaigns:co_imp_add", "post", _user("other_player"), {}, THE_IMP_ONLY),
    # A co-Imp may step down; only the Imp makes another co-Imp a player.
    ("campaigns:co_imp_remove", "post", _user("co_imp"), {},
     (LOGIN, NOT_FOUND, FORBIDDEN, FORBIDDEN, OK, OK)),
    # A player may leave; only the Imp removes another member.
    ("campaigns:membership_leave", "post", _user("owner"), {},
     (LOGIN, NOT_FOUND, OK, FORBIDDEN, FORBIDDEN, OK)),
    ("campaigns:handover", "post", _campaign, lambda t: {"user": t["users"]["owner"].pk},
     THE_IMP_ONLY),
    # Only one's own character is duplicated in: anyone else's is 404, Imps included.
    ("campaigns:duplicate_join", "post", _campaign, lambda t: {"character": t["hero"].pk},
     (LOGIN, NOT_FOUND, OK, NOT_FOUND, NOT_FOUND, NOT_FOUND)),
]


def _case_id(case):
    return f"{case[1]} {case[0].split(':')[1]}"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_every_view_and_action(client, table, case, role):
    name, method, args, data, outcomes = case
    expected = outcomes[ROLES.index(role)]
    user = table["users"][role]
    if user is not None:
        client.force_login(user)
    url = reverse(name, args=args(table))
    if callable(data):
        data = data(table)
    before = snapshot()

    response = client.get(url) if method == "get" else client.post(url, data)

    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif expected == OK:
        assert response.status_code in (200, 302), response.status_code
        if method == "post":
            assert snapshot() != before, "the action changed nothing"
            assert not [m for m in response.wsgi_request._messages if m.level_tag == "error"]
        return
    elif expected == "refused":
        # A member acting for someone else's character: a message, nothing written.
        assert response.status_code == 302
        assert [m for m in response.wsgi_request._messages if m.level_tag == "error"]
    else:
        assert response.status_code == expected
    assert snapshot() == before


def test_every_campaign_view_is_in_the_table():
    """A new view in campaigns/views.py needs its row in CASES."""
    resolver = get_resolver()
    names = set()
    for pattern in resolver.url_patterns:
        if getattr(pattern, "namespace", None) == "campaigns":
            for sub in pattern.url_patterns:
                if isinstance(sub, URLPattern) and sub.callback.__module__ == "campaigns.views":
                    names.add(f"campaigns:{sub.name}")
    covered = {case[0] for case in CASES} | {"campaigns:list", "campaigns:create",
                                              "campaigns:join"}  # tested in test_views
    assert names - covered == set()
