"""Campaigns: the Imp's table, its sessions, the XP ritual and the Quests.

Models store what happened (who awarded which Highlight, who invested in which Quest);
XP and Levels live in the characters' XP ledger (characters.XpEntry), which these rows
point at. Every write goes through campaigns/services.py.
"""

from __future__ import annotations

import secrets

from django.conf import settings as conf
from django.db import models
from django.db.models import Q
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from rules import systems

# Characters > Advancement > Highlights XP: "This question goes around the table three
# times ... A short session may call for two, and a long one may call for four chances."
# The Highlight rounds the database holds: every system's range (campaigns.rituals:
# Eldritch Gambit's 2 to 4, METTLE Core's 1 to 3); the forms and services offer and check
# the campaign's own system's.
MIN_HIGHLIGHT_ROUNDS = 1
MAX_HIGHLIGHT_ROUNDS = 4
DEFAULT_HIGHLIGHT_ROUNDS = 3


def new_invitation_code() -> str:
    return secrets.token_urlsafe(24)


class Role(models.TextChoices):
    IMP = "imp", "Imp"
    CO_IMP = "co_imp", "Co-Imp"
    PLAYER = "player", "Player"


IMP_ROLES = (Role.IMP, Role.CO_IMP)


class CampaignQuerySet(models.QuerySet):
    def visible_to(self, user) -> CampaignQuerySet:
        """The campaigns a user is a member of (Imp, co-Imp or player)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(pk__in=Membership.objects.filter(user=user).values("campaign_id"))

    def run_by(self, user) -> CampaignQuerySet:
        """The campaigns a user runs, as the Imp or a co-Imp."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(pk__in=Membership.objects.filter(
            user=user, role__in=IMP_ROLES).values("campaign_id"))


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    # The game system (rules.systems): chosen when the campaign is created, fixed once a
    # character has joined; only characters of this system join.
    system = models.CharField(max_length=systems.KEY_MAX_LENGTH, default=systems.ELDRITCH_GAMBIT)
    pitch = models.TextField(max_length=2000, blank=True)
    # The game system's settings for the campaign (Eldritch Gambit: its starting Level),
    # defined and validated by the system's GameSystem.campaign_settings_form; the
    # campaign_create service stores only what that form accepts.
    settings = models.JSONField(default=dict, blank=True)
    default_highlight_rounds = models.PositiveSmallIntegerField(
        default=DEFAULT_HIGHLIGHT_ROUNDS
    )
    # The Imp. Kept equal to the one Membership with role "imp" (imp_handover moves both).
    owner = models.ForeignKey(
        conf.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_owned"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(default_highlight_rounds__gte=MIN_HIGHLIGHT_ROUNDS,
                            default_highlight_rounds__lte=MAX_HIGHLIGHT_ROUNDS),
                name="campaign_highlight_rounds_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:detail", args=[self.pk])

    @property
    def game_system(self) -> systems.GameSystem:
        return systems.get(self.system)

    @property
    def settings_summary(self) -> str:
        """A few words on the system's settings for the campaign's page and list
        (Eldritch Gambit: "starting Level 10"), or ""."""
        form = self.game_system.campaign_settings_form
        return form.summary(self.settings) if form is not None else ""

    @property
    def new_character_note(self) -> str:
        """What a character built for the campaign starts with ("it starts at the
        campaign's Level 10"), or ""."""
        form = self.game_system.campaign_settings_form
        return form.new_character(self.settings) if form is not None else ""


class MembershipQuerySet(models.QuerySet):
    """Who sits at which table: the one place the campaign pages, the stash, the printed
    party and the services look a member up."""

    def of(self, user, campaign: Campaign | int | None) -> MembershipQuerySet:
        """The user's membership of the campaign (a Campaign or its id): one row at most,
        none for an anonymous user or no campaign."""
        if campaign is None or user is None or not user.is_authenticated:
            return self.none()
        campaign_id = campaign if isinstance(campaign, int) else campaign.pk
        return self.filter(campaign_id=campaign_id, user=user)

    def of_or_404(self, user, campaign: Campaign | int | None) -> Membership:
        """The user's membership of the campaign, with the campaign. Non-members get 404,
        as if the campaign did not exist."""
        membership = self.select_related("campaign").of(user, campaign).first()
        if membership is None:
            raise Http404("No such campaign.")
        return membership

    def role_of(self, user, campaign: Campaign | int | None) -> str | None:
        """The user's role in the campaign, or None for a non-member."""
        return self.of(user, campaign).values_list("role", flat=True).first()

    def running(self) -> MembershipQuerySet:
        """The memberships of those who run their campaign: the Imp's and the co-Imps'.
        The lower apps reach it through the user (`user.memberships.running()`) without
        importing campaigns."""
        return self.filter(role__in=IMP_ROLES)


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        ordering = ["campaign", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_once"),
            models.UniqueConstraint(fields=["campaign"], condition=Q(role=Role.IMP),
                                    name="membership_one_imp"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def runs_campaign(self) -> bool:
        return self.role in IMP_ROLES


class Invitation(models.Model):
    """A join link. Anyone holding the code may join as a player until it is revoked."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(max_length=64, unique=True, default=new_invitation_code)
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign}"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:join", args=[self.code])

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class Session(models.Model):
    """One game of the campaign, numbered 1, 2, ... Its ritual (Highlights of the last
    session, then Quest investments) happens at its start."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    date = models.DateField(default=timezone.localdate)
    notes = models.TextField(max_length=10_000, blank=True)  # the Imp's, for Imps only
    recap = models.TextField(max_length=10_000, blank=True)  # for the whole table
    highlight_rounds = models.PositiveSmallIntegerField(default=DEFAULT_HIGHLIGHT_ROUNDS)
    # "the Imp may demand the final round of Highlights be for something another
    # character did" (Characters > Advancement > Highlights XP).
    final_round_about_other = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # The ritual's end (the XP diagram's "Level Up?"): the Imp closes it, or the next
    # session's start does. Until then a present character's Level-ups wait for its
    # Highlights and its Quest step (campaigns/services.py, ritual_close).
    ritual_closed_at = models.DateTimeField(null=True, blank=True)
    ritual_closed_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="session_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
            models.CheckConstraint(
                condition=Q(highlight_rounds__gte=MIN_HIGHLIGHT_ROUNDS,
                            highlight_rounds__lte=MAX_HIGHLIGHT_ROUNDS),
                name="session_highlight_rounds_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign}, session {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:session_detail", args=[self.campaign_id, self.number])

    @property
    def has_ritual(self) -> bool:
        """Highlights XP: "At the start of every game after the first"."""
        return self.number > 1

    @property
    def ritual_open(self) -> bool:
        return self.ritual_closed_at is None


class Absence(models.Model):
    """A character whose player is not at the table for this session: no turn in its
    ritual (no Highlights, no Quest investment) and no penalty."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="absences")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="absences"
    )
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "character"], name="absence_once"),
        ]

    def __str__(self) -> str:
        return f"{self.character} absent from {self.session}"


class Highlight(models.Model):
    """One turn of one character in one round of a session's ritual: an awarded
    Highlight (1 XP, the linked ledger entry) or a pass (no XP). An undone award stays,
    marked undone, and its round is played again."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="highlights")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="highlights"
    )
    round_number = models.PositiveSmallIntegerField()
    text = models.TextField(max_length=2000, blank=True)
    awarded = models.BooleanField(default=True)
    about_other = models.BooleanField(default=False)
    # Undoing the award gives the turn back: the row stays (the Highlights log shows it
    # undone), and the round is open to retell or pass.
    undone_at = models.DateTimeField(null=True, blank=True)
    xp_entry = models.OneToOneField(
        "characters.XpEntry", null=True, blank=True, on_delete=models.CASCADE,
        related_name="highlight",
    )
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["session", "round_number", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["session", "character", "round_number"],
                                    condition=Q(undone_at__isnull=True),
                                    name="highlight_one_turn_per_round"),
            models.CheckConstraint(
                condition=Q(round_number__gte=1, round_number__lte=MAX_HIGHLIGHT_ROUNDS),
                name="highlight_round_1_to_4",
            ),
            models.CheckConstraint(
                condition=Q(awarded=True, xp_entry__isnull=False)
                | Q(awarded=False, xp_entry__isnull=True),
                name="highlight_award_has_xp",
            ),
        ]

    def __str__(self) -> str:
        what = "Highlight" if self.awarded else "Pass"
        return f"{what}: {self.character}, round {self.round_number} of {self.session}"


# The game systems' campaign models (campaigns/systems/<system>/models.py: Eldritch
# Gambit's Quests, roll log and Initiative tracker), imported here so that Django
# registers them with this app.
from .systems import import_each  # noqa: E402

import_each("models")
