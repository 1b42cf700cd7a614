"""The Quest form of Eldritch Gambit's campaign character page."""

from django import forms

from campaigns.forms import BootstrapForm


class QuestChangeForm(BootstrapForm):
    """A new Quest for the character: the active one is abandoned, its XP lost."""

    text = forms.CharField(max_length=200, label="New Quest",
                           help_text="Changing the Quest loses the XP invested in the old one.")
