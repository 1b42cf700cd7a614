"""The portrait: uploaded as PNG, JPEG or WebP, checked and re-encoded (no metadata, at
most 1200 px), anything else refused beside the field; served only to who may see the
character; printed in the Picture box; the old file deleted on replace and remove."""

import io
import subprocess

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from characters import portraits
from tests.characters import pdf_tools
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)  # the old file goes on commit


def picture(kind="PNG", size=(60, 90), mode="RGB", **save) -> bytes:
    image = Image.new(mode, size, "#7a1f1f" if mode != "1" else 1)
    buffer = io.BytesIO()
    image.save(buffer, format=kind, **save)
    return buffer.getvalue()


def upload(client, character, content: bytes, name="portrait.png"):
    return client.post(reverse("characters:portrait", args=[character.pk]),
                       {"portrait": SimpleUploadedFile(name, content)})


@pytest.fixture
def owner_client(client):
    character = CharacterFactory(name="Framed")
    client.force_login(character.owner)
    client.character = character
    return client


@pytest.mark.parametrize(("kind", "extension"), [("PNG", "png"), ("JPEG", "jpg"),
                                                 ("WEBP", "webp")])
def test_a_picture_is_stored_re_encoded_in_its_format(owner_client, kind, extension):
    character = owner_client.character

    response = upload(owner_client, character, picture(kind), f"me.{extension}")

    assert response.status_code == 302
    character.refresh_from_db()
    assert character.portrait.name.startswith(f"portraits/{character.pk}/")
    assert character.portrait.name.endswith(f".{extension}")
    with default_storage.open(character.portrait.name) as stored, Image.open(stored) as image:
        assert image.format == kind
        assert image.size == (60, 90)


def test_metadata_is_stripped_and_big_pictures_shrink(owner_client):
    character = owner_client.character
    exif = Image.Exif()
    exif[0x010F] = "SpyCam"  # Make
    exif[0x0112] = 6  # Orientation: rotate 90 degrees to show it upright
    content = picture("JPEG", size=(3000, 2000), exif=exif.tobytes())
    with Image.open(io.BytesIO(content)) as original:
        assert original.getexif()[0x010F] == "SpyCam"

    upload(owner_client, character, content, "holiday.jpg")

    character.refresh_from_db()
    with default_storage.open(character.portrait.name) as stored, Image.open(stored) as image:
        assert not image.getexif()
        assert "icc_profile" not in image.info
        # Turned upright from its EXIF orientation, then fitted in 1200 x 1200.
        assert image.size == (800, 1200)


@pytest.mark.parametrize(("content", "name", "code", "message"), [
    (picture("GIF"), "me.gif", "format", "This is a GIF image; upload a PNG, JPEG or WebP"),
    (b"not a picture at all", "me.png", "not_an_image", "This file is not a picture we"),
    (picture("PNG")[:60], "cut.png", "corrupt", "This picture is damaged or incomplete"),
    (picture("PNG", size=(7000, 6000), mode="1"), "huge.png", "too_many_pixels",
     "This picture is 7000 x 6000 pixels, 42 MB once opened; a portrait may take at most 36"),
])
def test_other_files_are_refused_with_a_message_beside_the_field(owner_client, content, name,
                                                                code, message):
    character = owner_client.character

    response = upload(owner_client, character, content, name)

    assert response.status_code == 200
    form = response.context["form"]
    assert [error.code for error in form.errors.as_data()["portrait"]] == [code]
    page = response.content.decode()
    assert message in page
    assert 'id="errors-portrait"' in page  # the error slot next to the field
    character.refresh_from_db()
    assert not character.portrait


def test_a_small_file_holding_a_huge_picture_is_refused_before_it_is_decoded(
        owner_client, monkeypatch):
    """The tracker's case: a one-colour 6324 x 6324 PNG is about 155 KB as a file and
    120 MB decoded. Its size is read from the header; no pixel is ever decoded."""
    from PIL import ImageFile

    def no_decoding(self):
        raise AssertionError("the picture was decoded")

    character = owner_client.character
    content = picture("PNG", size=(6324, 6324))
    assert len(content) < portraits.PORTRAIT_MAX_BYTES
    monkeypatch.setattr(ImageFile.ImageFile, "load", no_decoding)

    response = upload(owner_client, character, content)

    assert [e.code for e in response.context["form"].errors.as_data()["portrait"]] == [
        "too_many_pixels"]
    page = response.content.decode()
    assert "This picture is 6324 x 6324 pixels, 120 MB once opened" in page
    assert 'id="errors-portrait"' in page


@pytest.mark.parametrize(("mode", "channels"), [("L", 1), ("RGB", 3), ("RGBA", 4)])
def test_the_budget_counts_pixels_times_channels(owner_client, mode, channels):
    """A picture at the budget is accepted; one row more is refused."""
    budget = portraits.PORTRAIT_MAX_DECODED_BYTES
    width = 2000
    height = budget // (width * channels)
    assert portraits.decoded_bytes(width, height, mode) <= budget
    assert portraits.decoded_bytes(width, height + 1, mode) > budget
    character = owner_client.character

    refused = upload(owner_client, character, picture("PNG", size=(width, height + 1),
                                                      mode=mode))
    assert refused.status_code == 200
    accepted = upload(owner_client, character, picture("PNG", size=(width, height),
                                                       mode=mode))
    assert accepted.status_code == 302
    character.refresh_from_db()
    with default_storage.open(character.portrait.name) as stored, Image.open(stored) as image:
        assert max(image.size) == portraits.PORTRAIT_MAX_SIDE


def test_decoded_bytes_counts_deep_channels():
    assert portraits.decoded_bytes(10, 10, "I;16") == 200
    assert portraits.decoded_bytes(10, 10, "F") == 400
    assert portraits.decoded_bytes(10, 10, "1") == 100


def test_an_oversized_file_is_refused_before_it_is_opened(owner_client):
    character = owner_client.character
    content = picture("PNG") + b"\0" * (portraits.PORTRAIT_MAX_BYTES + 1)

    response = upload(owner_client, character, content)

    assert [e.code for e in response.context["form"].errors.as_data()["portrait"]] == [
        "too_large"]
    assert "a portrait may be at most 5 MB" in response.content.decode()


def test_no_file_is_refused(owner_client):
    response = owner_client.post(reverse("characters:portrait",
                                         args=[owner_client.character.pk]), {})

    assert "Choose a picture to upload." in response.content.decode()


def test_replacing_and_removing_delete_the_old_file(owner_client):
    character = owner_client.character
    upload(owner_client, character, picture("PNG"))
    character.refresh_from_db()
    first = character.portrait.name

    upload(owner_client, character, picture("JPEG"), "second.jpg")
    character.refresh_from_db()
    second = character.portrait.name

    assert second != first
    assert not default_storage.exists(first)
    assert default_storage.exists(second)

    owner_client.post(reverse("characters:portrait", args=[character.pk]),
                      {"action": "remove"})
    character.refresh_from_db()
    assert not character.portrait
    assert not default_storage.exists(second)


def test_the_portrait_prints_in_the_picture_box(owner_client):
    character = owner_client.character
    upload(owner_client, character, picture("PNG", size=(300, 450)))

    page = owner_client.get(reverse("characters:print", args=[character.pk])).content.decode()
    pdf = owner_client.get(reverse("characters:sheet_pdf", args=[character.pk])).content

    assert 'alt="Portrait of Framed"' in page
    assert reverse("characters:portrait_image", args=[character.pk]) in page
    pdf_tools.require_poppler()
    images = subprocess.run(["pdfimages", "-list", "-"], input=pdf, capture_output=True,
                            check=True).stdout.decode().splitlines()[2:]
    assert len(images) == 1
    assert images[0].split()[3:5] == ["300", "450"]  # width, height in pixels


def served(client, character):
    return client.get(reverse("characters:portrait_image", args=[character.pk]))


@pytest.mark.parametrize(("who", "status"), [
    ("anonymous", 302), ("stranger", 404), ("player_of_the_campaign", 404), ("owner", 200),
    ("imp", 200), ("co_imp", 200)])
def test_the_picture_is_served_only_to_who_may_see_the_character(client, who, status):
    campaign = CampaignFactory()
    owner = MembershipFactory(campaign=campaign).user
    character = CharacterFactory(owner=owner, campaign=campaign)
    client.force_login(owner)
    upload(client, character, picture("PNG"))
    client.logout()
    users = {"stranger": UserFactory(), "owner": owner, "imp": campaign.owner,
             "player_of_the_campaign": MembershipFactory(campaign=campaign).user,
             "co_imp": CoImpMembershipFactory(campaign=campaign).user}
    if who != "anonymous":
        client.force_login(users[who])

    response = served(client, character)

    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"] == "image/png"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert "private" in response["Cache-Control"]
        assert b"".join(response.streaming_content).startswith(b"\x89PNG")


def test_no_portrait_is_a_404(owner_client):
    assert served(owner_client, owner_client.character).status_code == 404


@pytest.mark.parametrize(("who", "status"), [
    ("anonymous", 302), ("stranger", 404), ("imp", 404), ("owner", 200)])
def test_only_the_owner_changes_the_portrait(client, who, status):
    campaign = CampaignFactory()
    owner = MembershipFactory(campaign=campaign).user
    character = CharacterFactory(owner=owner, campaign=campaign)
    users = {"stranger": UserFactory(), "owner": owner, "imp": campaign.owner}
    if who != "anonymous":
        client.force_login(users[who])

    page = client.get(reverse("characters:portrait", args=[character.pk]))
    posted = upload(client, character, picture("PNG"))

    assert page.status_code == status
    assert posted.status_code == (302 if who in ("owner", "anonymous") else 404)
    character.refresh_from_db()
    assert bool(character.portrait) == (who == "owner")


def test_a_duplicate_keeps_the_picture_when_the_original_drops_it(owner_client):
    character = owner_client.character
    upload(owner_client, character, picture("PNG"))
    owner_client.post(reverse("characters:duplicate", args=[character.pk]))
    character.refresh_from_db()
    copy = type(character).objects.exclude(pk=character.pk).get()
    assert copy.portrait.name == character.portrait.name

    owner_client.post(reverse("characters:portrait", args=[character.pk]),
                      {"action": "remove"})

    assert default_storage.exists(copy.portrait.name)
    assert served(owner_client, copy).status_code == 200


def test_deleting_the_character_deletes_its_picture(owner_client):
    character = owner_client.character
    upload(owner_client, character, picture("PNG"))
    character.refresh_from_db()
    name = character.portrait.name

    owner_client.post(reverse("characters:delete", args=[character.pk]))

    assert not default_storage.exists(name)


@needs_postgresql
def test_uploads_at_once_leave_one_picture_and_no_orphan_file():
    character = CharacterFactory()
    contents = [portraits.reencode(SimpleUploadedFile("p.png", picture("PNG", size=(20 + i, 30))))
                for i in range(4)]

    results = run_at_once(4, lambda i: portraits.character_portrait_set(
        character=character, content=contents[i]))

    assert not [r for r in results if isinstance(r, Exception)]
    character.refresh_from_db()
    folder = f"portraits/{character.pk}"
    _, files = default_storage.listdir(folder)
    assert [f"{folder}/{name}" for name in files] == [character.portrait.name]
