"""The rules rows' shared provenance (rules/models.py: rules_content, PROVENANCE_CONSTRAINTS).

GearItem and Trait inherit their source, owner, campaign and queryset from one abstract
base, and their provenance constraints from one list: the schema is the one the
migrations already hold (no pending migration), each constraint keeps its own model's
name, and the reverse names stay as they were.
"""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError, transaction

from campaigns.models import Campaign
from rules.models import GearItem, RulesContentQuerySet, Source, Trait
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

PROVENANCE = ("source_xor_owner", "shared_only_if_homebrew", "unique_source_slug",
              "unique_owner_slug")


@pytest.mark.django_db
def test_the_shared_base_needs_no_migration():
    call_command("makemigrations", "rules", check=True, dry_run=True, verbosity=0)


@pytest.mark.parametrize(
    ("model", "prefix"), [(GearItem, "rules_gearitem"), (Trait, "rules_trait")]
)
def test_each_model_names_its_provenance_constraints(model, prefix):
    names = [constraint.name for constraint in model._meta.constraints]
    assert names[:4] == [f"{prefix}_{name}" for name in PROVENANCE]


@pytest.mark.parametrize("model", [GearItem, Trait])
def test_the_provenance_fields_come_first_and_read_through_one_queryset(model):
    assert [field.name for field in model._meta.fields][:4] == ["id", "source", "owner", "campaign"]
    assert isinstance(model.objects.all(), RulesContentQuerySet)


def test_the_reverse_names_are_kept():
    def accessors(model):
        return {rel.get_accessor_name() for rel in model._meta.related_objects}

    assert {"gear_items", "traits"} <= accessors(Source)
    assert {"homebrew_gear_items", "homebrew_traits"} <= accessors(Campaign)
    assert {"homebrew_gear_items", "homebrew_traits"} <= accessors(get_user_model())


def test_the_owner_help_text_names_the_kind_of_row():
    assert GearItem._meta.get_field("owner").help_text == (
        "The author of a homebrew item; empty for SRD rows.")
    assert Trait._meta.get_field("owner").help_text == (
        "The author of a homebrew Trait; empty for SRD rows.")


@pytest.mark.django_db
@pytest.mark.parametrize("model", [GearItem, Trait])
def test_the_shared_constraints_hold_on_both(model):
    author = UserFactory()
    extra = {"category": "item"} if model is GearItem else {"group": "Flight"}
    row = model.objects.create(owner=author, name="Wings", slug="wings", **extra)
    assert str(row) == "Wings"
    with pytest.raises(IntegrityError), transaction.atomic():  # neither source nor owner
        model.objects.create(name="Stray", slug="stray", **extra)
    with pytest.raises(IntegrityError), transaction.atomic():  # the author's slug twice
        model.objects.create(owner=author, name="Wings", slug="wings", **extra)


@pytest.mark.django_db
@pytest.mark.parametrize("model", [GearItem, Trait])
def test_visible_to_shows_homebrew_shared_with_my_campaign(model):
    author, player, stranger = UserFactory(), UserFactory(), UserFactory()
    campaign = CampaignFactory(owner=author)
    MembershipFactory(campaign=campaign, user=player)
    extra = {"category": "item"} if model is GearItem else {"group": "Flight"}
    shared = model.objects.create(owner=author, campaign=campaign, name="Wings", slug="wings",
                                  **extra)
    assert shared in model.objects.visible_to(player)
    assert shared in model.objects.visible_to(author)
    assert shared not in model.objects.visible_to(stranger)
