"""A character's portrait: the upload form, its checks, and the re-encoding.

An upload is opened with Pillow, checked (PNG, JPEG or WebP only, at most
PORTRAIT_MAX_BYTES as uploaded and PORTRAIT_MAX_DECODED_BYTES once decoded, the latter
read from the file's header before any pixel is decoded) and re-encoded in its own
format: shrunk to PORTRAIT_MAX_SIDE while it is decoded (a JPEG decodes at a reduced
scale), turned upright from its EXIF orientation, and saved without any metadata (EXIF,
GPS, ICC, comments). Only the re-encoded file is
stored, by the default storage (STORAGES["default"], under MEDIA_ROOT unless a
deployment says otherwise), and it is served only through a view that checks who
asks (characters.print_views.portrait_image).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from PIL import Image, ImageOps, UnidentifiedImageError

from .models import Character

PORTRAIT_MAX_BYTES = 5 * 1024 * 1024  # 5 MB as uploaded
# The decoded size a picture may have (pixels x channels x bytes per channel), checked from
# the header before decoding: a small file can hold a huge picture (a 155 KB one-colour PNG
# of 6324 x 6324 decodes to 120 MB, and Pillow's work takes several times that). 36 MB is a
# 12-megapixel colour photo (4000 x 3000 x 3), so a worker's peak stays near 100 MB.
PORTRAIT_MAX_DECODED_BYTES = 36_000_000
PORTRAIT_MAX_SIDE = 1200  # stored images fit in 1200 x 1200 (the sheet prints ~60 x 90 mm)


@dataclass(frozen=True)
class Format:
    extension: str
    content_type: str
    save_options: dict


FORMATS = {
    "PNG": Format("png", "image/png", {"optimize": True}),
    "JPEG": Format("jpg", "image/jpeg", {"quality": 88, "optimize": True}),
    "WEBP": Format("webp", "image/webp", {"quality": 88}),
}
CONTENT_TYPES = {f".{f.extension}": f.content_type for f in FORMATS.values()}


def content_type_for(name: str) -> str:
    """The content type of a stored portrait, from the extension we gave it."""
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return CONTENT_TYPES.get(suffix, "application/octet-stream")


def decoded_bytes(width: int, height: int, mode: str) -> int:
    """What a picture of this size and Pillow mode takes once decoded: pixels x channels
    x bytes per channel (2 for the 16-bit modes, 4 for 32-bit integer and float)."""
    channels = Image.getmodebands(mode)
    depth = 4 if mode in ("I", "F") else 2 if "16" in mode else 1
    return width * height * channels * depth


def reencode(upload) -> ContentFile:
    """The upload checked and re-encoded, or a ValidationError saying what is wrong."""
    if upload.size is not None and upload.size > PORTRAIT_MAX_BYTES:
        raise ValidationError(
            "This file is %(size)s MB; a portrait may be at most %(max)s MB.",
            code="too_large",
            params={"size": f"{upload.size / 1024 / 1024:.1f}",
                    "max": PORTRAIT_MAX_BYTES // 1024 // 1024},
        )
    try:
        upload.seek(0)
        with Image.open(upload) as probe:
            kind = probe.format
            width, height = probe.size
            if kind not in FORMATS:
                raise ValidationError(
                    "This is a %(kind)s image; upload a PNG, JPEG or WebP picture.",
                    code="format", params={"kind": kind or "unknown"},
                )
            decoded = decoded_bytes(width, height, probe.mode)
            if decoded > PORTRAIT_MAX_DECODED_BYTES:
                raise ValidationError(
                    "This picture is %(width)s x %(height)s pixels, %(decoded)s MB once "
                    "opened; a portrait may take at most %(max)s MB (a 12-megapixel colour "
                    "photo). Shrink it and upload it again.", code="too_many_pixels",
                    params={"width": width, "height": height,
                            "decoded": f"{decoded / 1_000_000:.0f}",
                            "max": PORTRAIT_MAX_DECODED_BYTES // 1_000_000},
                )
            probe.verify()  # a truncated or corrupt file fails here
        upload.seek(0)
        with Image.open(upload) as image:
            # Shrunk as it is decoded (in place; a JPEG is decoded at a reduced scale),
            # then turned upright: no full-size copy is ever made.
            image.thumbnail((PORTRAIT_MAX_SIDE, PORTRAIT_MAX_SIDE), Image.Resampling.LANCZOS)
            picture = ImageOps.exif_transpose(image)
    except ValidationError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError):
        raise ValidationError(
            "This file is not a picture we can read; upload a PNG, JPEG or WebP picture.",
            code="not_an_image",
        ) from None
    except (OSError, SyntaxError, ValueError):
        raise ValidationError(
            "This picture is damaged or incomplete; export it again and upload the new file.",
            code="corrupt",
        ) from None

    target = FORMATS[kind]
    if kind == "JPEG":
        picture = picture.convert("RGB")
    elif picture.mode not in ("RGB", "RGBA"):
        picture = picture.convert("RGBA" if "transparency" in picture.info
                                  or picture.mode in ("LA", "PA", "P") else "RGB")
    # A fresh image holds the pixels only: no EXIF, ICC profile, text chunks or comments.
    clean = Image.new(picture.mode, picture.size)
    clean.paste(picture)
    buffer = io.BytesIO()
    clean.save(buffer, format=kind, **target.save_options)
    return ContentFile(buffer.getvalue(), name=f"portrait.{target.extension}")


class PortraitForm(forms.Form):
    portrait = forms.FileField(
        label="Portrait",
        help_text=(f"A PNG, JPEG or WebP picture, at most {PORTRAIT_MAX_BYTES // 1024 // 1024} "
                   f"MB and {PORTRAIT_MAX_DECODED_BYTES // 3 // 1_000_000} megapixels. It is "
                   "stored without its metadata (camera, place) and printed in the sheet's "
                   "Picture box."),
        error_messages={"required": "Choose a picture to upload.",
                        "empty": "This file is empty; choose a picture."},
        widget=forms.ClearableFileInput(attrs={
            "accept": "image/png,image/jpeg,image/webp", "class": "form-control"}),
    )

    def clean_portrait(self) -> ContentFile:
        return reencode(self.cleaned_data["portrait"])


@transaction.atomic
def character_portrait_set(*, character: Character, content: ContentFile | None) -> Character:
    """Store a re-encoded portrait (or none), and delete the file it replaces once the
    change is committed. The row is locked, so two uploads at once leave one picture
    and no orphan file."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    old_name = locked.portrait.name
    storage = locked.portrait.storage
    if content is None:
        locked.portrait = ""
    else:
        locked.portrait.save(content.name, content, save=False)
    locked.save(update_fields=["portrait", "updated_at"])
    new_name = locked.portrait.name
    if old_name and old_name != new_name:
        portrait_file_forget(old_name, storage=storage)
    character.portrait = locked.portrait
    return locked


def portrait_file_forget(name: str, *, storage=None) -> None:
    """Delete a portrait file once the transaction commits, unless another character
    still shows it (a duplicate keeps the original's picture)."""
    if not name:
        return
    storage = storage or Character._meta.get_field("portrait").storage

    def forget():
        if not Character.objects.filter(portrait=name).exists():
            storage.delete(name)

    transaction.on_commit(forget)
