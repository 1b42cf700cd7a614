from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Username, an optional e-mail address (for password resets), password twice."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"email": "Optional. Needed only to reset a forgotten password."}
