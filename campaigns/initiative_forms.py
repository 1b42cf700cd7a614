"""The forms every Initiative tracker shares (campaigns/initiative_views.py): a new
fight (its name and session), a Mob's members and the ticked Statuses of a combatant.
A system's tracker makes its own from these (campaigns/systems/<system>/
initiative_forms.py). Generic: imports no game system."""

from __future__ import annotations

from django import forms

from .forms import BootstrapForm


def typed_label(value: str, limit: int) -> str:
    """A label typed into a tracker (an Action, a Zone) as the engine gets it: spaces
    collapsed, no NUL byte (no database column stores one; PostgreSQL refuses it), cut at
    twice `limit` so the engine's length check still speaks for what was typed."""
    return " ".join((value or "").replace("\x00", "").split())[:limit * 2]


def encounter_form(*, name_length: int, example: str) -> type[BootstrapForm]:
    """A new fight's form: its name (`example`: the help text's) and the campaign's
    session it belongs to (the latest, unless chosen)."""

    class EncounterForm(BootstrapForm):
        name = forms.CharField(max_length=name_length, label="Name of the fight",
                               help_text=f"For example “{example}”.")
        session = forms.ModelChoiceField(queryset=None, required=False, label="Session",
                                         empty_label="(none)",
                                         error_messages={"invalid_choice":
                                                         "Choose a session of this campaign."})

        def __init__(self, *args, campaign, **kwargs):
            super().__init__(*args, **kwargs)
            sessions = campaign.sessions.order_by("-number")
            self.fields["session"].queryset = sessions
            self.fields["session"].label_from_instance = lambda s: f"Session {s.number}"
            latest = sessions.first()
            if latest is not None and not self.is_bound:
                self.initial.setdefault("session", latest.pk)

    return EncounterForm


def clean_mob(form, data: dict) -> None:
    """A Mob has at least 2 members; a single foe, one."""
    if data.get("is_mob"):
        members = data.get("members")
        if not members or members < 2:
            form.add_error("members", "A Mob has at least 2 members.")
    else:
        data["members"] = 1


def status_form(choices) -> type[BootstrapForm]:
    """The Statuses of one combatant, ticked (`choices`: the system's settable ones)."""

    class StatusForm(BootstrapForm):
        statuses = forms.MultipleChoiceField(
            choices=choices, required=False, widget=forms.CheckboxSelectMultiple,
            label="Statuses")

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["statuses"].widget.attrs["class"] = "form-check-input"

    return StatusForm
