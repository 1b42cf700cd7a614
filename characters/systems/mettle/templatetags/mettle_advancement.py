"""{% mettle_ledgers character as ledgers %}: what the sheet's page shows of a METTLE
character's advancement ledgers (characters/systems/mettle/ledgers.py): its Downtime
Vouchers and the Contacts it lost. Two queries (one with no Contacts named)."""

from django import template

from ..ledgers import contacts_lost, vouchers

register = template.Library()


@register.simple_tag
def mettle_ledgers(character) -> dict:
    if character.pk is None:
        return {"vouchers": 0, "lost": {}}
    return {"vouchers": vouchers(character), "lost": contacts_lost(character)}
