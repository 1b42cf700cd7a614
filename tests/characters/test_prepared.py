"""PreparedQuery (the live preview's compiled queries) and the shared form fields."""

import threading

import pytest
from django.db.models import Q
from django.db.models.signals import post_init

from characters.forms import CharacterForm
from characters.models import Character, InventoryItem
from characters.prepared import PreparedQuery, instance_builder
from characters.views import _EDITABLE_CHARACTER, _ITEMS_WITH_CATALOG
from rules.models import GearItem
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    InventoryItemFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def field_values(instance):
    return {field.attname: getattr(instance, field.attname)
            for field in instance._meta.concrete_fields}


@pytest.fixture
def character():
    character = CharacterFactory(skills=["Climb", "Haggle"], statuses=["burning"],
                                 template_traits=[{"name": "Flight", "value": "", "load": 2}])
    for slug in ("spear", "chain-mail", "backpack"):
        InventoryItemFactory(character=character, catalog_item=GearItem.objects.get(slug=slug),
                             name=slug)
    InventoryItemFactory(character=character, name="Her father's dagger")  # no catalog row
    return character


def test_the_editable_character_is_the_querysets_row_with_every_value(character):
    expected = Character.objects.editable_by(character.owner).get(pk=character.pk)

    found = _EDITABLE_CHARACTER.first(pk=character.pk, owner=character.owner_id)

    assert field_values(found) == field_values(expected)
    assert found.skills == ["Climb", "Haggle"]  # JSON converted back, as the ORM does
    assert found._state.adding is False and found._state.db == "default"


def test_another_players_character_is_not_found(character):
    assert _EDITABLE_CHARACTER.first(pk=character.pk, owner=UserFactory().pk) is None
    assert _EDITABLE_CHARACTER.first(pk=character.pk + 1000, owner=character.owner_id) is None


def test_the_items_come_with_their_catalog_rows_as_select_related_gives_them(
        character, django_assert_num_queries):
    expected = {item.pk: item for item in
                InventoryItem.objects.filter(character=character).select_related("catalog_item")}

    with django_assert_num_queries(1):
        items = _ITEMS_WITH_CATALOG.all(character=character.pk)
        catalog = [item.catalog_item for item in items]  # no query per item

    assert {item.pk for item in items} == set(expected)
    for item, row in zip(items, catalog, strict=True):
        assert field_values(item) == field_values(expected[item.pk])
        if expected[item.pk].catalog_item is None:
            assert row is None
        else:
            assert field_values(row) == field_values(expected[item.pk].catalog_item)


def test_each_thread_compiles_its_own_query(character):
    """Django's compilers are not thread-safe: the threaded dev server must not share
    one between requests."""
    compiled = []
    thread = threading.Thread(target=lambda: compiled.append(_EDITABLE_CHARACTER._compiled(
        "default")))
    thread.start()
    thread.join()

    mine = _EDITABLE_CHARACTER._compiled("default")
    assert compiled[0][0] is not mine[0]  # another compiler...
    assert compiled[0][1] == mine[1]  # ...for the same SQL
    assert _EDITABLE_CHARACTER._compiled("default") is mine  # compiled once per thread


def test_a_query_whose_sql_repeats_a_parameter_is_refused():
    repeated = PreparedQuery(
        lambda pk: Character.objects.filter(Q(pk=pk) | Q(owner_id=pk)), "pk",
    )
    with pytest.raises(ValueError, match="pk appears 2 times"):
        repeated.all(pk=1)


def test_forms_share_the_fields_they_never_change():
    first, second = CharacterForm(), CharacterForm()

    assert first.fields["name"] is second.fields["name"]
    assert first.fields["armor"] is second.fields["armor"]  # until the form renders it
    str(first["armor"])
    assert first.fields["armor"] is not second.fields["armor"]
    assert first.fields["armor"].queryset is not None and second.fields["armor"].queryset is None
    assert first.fields["level"] is CharacterForm.base_fields["level"]  # copied if disabled


def test_a_campaign_form_leaves_the_shared_fields_as_it_found_them():
    campaign = CampaignFactory()
    character = CharacterFactory(campaign=campaign, owner=campaign.owner)
    before = {name: dict(vars(field)) for name, field in CharacterForm.base_fields.items()}

    form = CharacterForm({"name": "Brannoc", "level": "3", "xp": "0", "str": "9"},
                         character=character, user=character.owner, items=[])
    form.is_valid()
    str(form["armor"]), str(form["name"]), str(form["level"])  # rendered too

    assert form.fields["level"].disabled is True
    assert CharacterForm.base_fields["level"].disabled is False
    after = {name: dict(vars(field)) for name, field in CharacterForm.base_fields.items()}
    assert after == before


def test_the_previews_models_are_built_without_model_init():
    """Character, InventoryItem and GearItem have nothing in __init__ to run: the fast
    builder applies to them (were one to gain a post_init receiver, it would not)."""
    for model in (Character, InventoryItem, GearItem):
        attnames = [field.attname for field in model._meta.concrete_fields]
        assert instance_builder(model, "default", attnames).__name__ == "build", model


def test_a_fast_built_instance_is_the_one_from_db_builds(character):
    attnames = [field.attname for field in Character._meta.concrete_fields]
    values = Character.objects.filter(pk=character.pk).values_list(*attnames).get()

    fast = instance_builder(Character, "default", attnames)(values)
    slow = Character.from_db("default", attnames, values)

    assert field_values(fast) == field_values(slow)
    assert vars(fast).keys() == vars(slow).keys()
    assert (fast._state.adding, fast._state.db) == (slow._state.adding, slow._state.db)
    assert fast == slow and fast.owner == character.owner and not fast.portrait


def test_a_fast_built_instance_saves_and_reloads(character):
    item = next(i for i in _ITEMS_WITH_CATALOG.all(character=character.pk)
                if i.catalog_item is not None)

    item.quantity = 7
    item.save()
    item.refresh_from_db()

    assert InventoryItem.objects.get(pk=item.pk).quantity == 7
    assert item.character.items.filter(pk=item.pk, catalog_item=item.catalog_item).exists()


def test_a_model_with_an_init_receiver_is_built_through_init(character):
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    attnames = [field.attname for field in GearItem._meta.concrete_fields]
    values = GearItem.objects.filter(slug="spear").values_list(*attnames).get()
    post_init.connect(receiver, sender=GearItem)
    try:
        built = instance_builder(GearItem, "default", attnames)(values)
    finally:
        post_init.disconnect(receiver, sender=GearItem)

    assert seen == [built]


def test_deferred_fields_are_built_through_from_db(character):
    attnames = ["id", "name"]
    values = Character.objects.filter(pk=character.pk).values_list(*attnames).get()

    built = instance_builder(Character, "default", attnames)(values)

    assert built.get_deferred_fields() >= {"skills", "description"}
    assert built.name == character.name
