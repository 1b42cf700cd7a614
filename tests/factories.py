"""factory_boy factories: one <Model>Factory per model, variants as subclasses."""

import factory
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    """A player; logs in with DEFAULT_PASSWORD unless created with password=..."""

    class Meta:
        model = get_user_model()

    # Not "player{n}": the demo's users are player1 and player2 (seed_demo), and a test
    # that seeds the demo after a few factory users would collide with them.
    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(DEFAULT_PASSWORD)


class CharacterFactory(factory.django.DjangoModelFactory):
    """A Level 10 Human with a legal spread of attributes and 500 cp.

    Level, XP and coins live in the ledgers: pass level=, xp=, coins_cp= and the
    factory writes the entries the builder would.
    """

    class Meta:
        model = "eldritch_gambit.EldritchGambitCharacter"
        skip_postgeneration_save = True

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Hero {n}")
    career = "Mercenary Captain"
    strength = 2
    wisdom = 1
    dexterity = 2
    agility = 1
    charisma = 1
    endurance = 3

    @factory.post_generation
    def progress(obj, create, extracted, **kwargs):
        from characters.models import CoinEntry, XpEntry

        if not create:
            return
        level = kwargs.get("level", 10)
        xp = kwargs.get("xp", 0)
        coins = kwargs.get("coins_cp", 500)
        XpEntry.objects.create(character=obj, kind=XpEntry.Kind.CREATION, level_change=level,
                               xp_change=xp)
        if coins:
            CoinEntry.objects.create(character=obj, kind=CoinEntry.Kind.STARTING,
                                     amount_cp=coins)


class AsphodelFactory(CharacterFactory):
    """The SRD's example character (Characters > Example Character)."""

    name = "Asphodel the Grumbling Bloom"
    pronouns = "she/her"
    career = "Vengeful Dragon Slayer"
    strength = 3
    wisdom = 1
    dexterity = 2
    agility = 1
    charisma = 1
    endurance = 2
    skills = factory.LazyFunction(lambda: ["Bake pies", "Escape bonds"])


class InventoryItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.InventoryItem"

    character = factory.SubFactory(CharacterFactory)
    name = factory.Sequence(lambda n: f"Trinket {n}")
    load = 0


class XpEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.XpEntry"

    character = factory.SubFactory(CharacterFactory)
    kind = "adjustment"
    xp_change = 1


# -- campaigns ---------------------------------------------------------------------------


class MembershipFactory(factory.django.DjangoModelFactory):
    """A player of a campaign; CoImpMembershipFactory for a co-Imp."""

    class Meta:
        model = "campaigns.Membership"

    campaign = factory.SubFactory("tests.factories.CampaignFactory")
    user = factory.SubFactory(UserFactory)
    role = "player"


class CoImpMembershipFactory(MembershipFactory):
    role = "co_imp"


class CampaignFactory(factory.django.DjangoModelFactory):
    """A campaign run by `owner`, its Imp (with the Imp's Membership)."""

    class Meta:
        model = "campaigns.Campaign"
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"The Drowned Crown {n}")
    pitch = "Pirates, a sunken god and a crown nobody should wear."
    owner = factory.SubFactory(UserFactory)
    imp_membership = factory.RelatedFactory(
        MembershipFactory, factory_related_name="campaign", role="imp",
        user=factory.SelfAttribute("..owner"),
    )


class InvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "campaigns.Invitation"

    campaign = factory.SubFactory(CampaignFactory)
    created_by = factory.SelfAttribute("campaign.owner")


class SessionFactory(factory.django.DjangoModelFactory):
    """The campaign's next session (numbers 1, 2, ... in order of creation)."""

    class Meta:
        model = "campaigns.Session"

    campaign = factory.SubFactory(CampaignFactory)
    number = factory.LazyAttribute(lambda session: session.campaign.sessions.count() + 1)
    created_by = factory.SelfAttribute("campaign.owner")


class QuestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "campaigns.Quest"

    character = factory.SubFactory(CharacterFactory)
    campaign = factory.SelfAttribute("character.campaign")
    text = "Revenge on the orc commander for taking my place"
