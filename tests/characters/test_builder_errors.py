"""{% field_error_slots %}: the live preview's out-of-band error slots (one per field,
empty for a field without errors so a fixed error disappears), the same markup as the
builder's own slots (templates/includes/field.html), escaped."""

import re

from django import forms
from django.template import Context, Template


class Sample(forms.Form):
    name = forms.CharField(max_length=3)
    locked = forms.BooleanField(required=False)
    tags = forms.MultipleChoiceField(choices=[("a", "A")], required=False,
                                     widget=forms.CheckboxSelectMultiple)
    age = forms.IntegerField(error_messages={"invalid": "<b>Age</b> & a number."})

    def clean(self):
        raise forms.ValidationError("The <whole> form is wrong.")


def slots(form, options="") -> dict[str, list[str]]:
    html = Template("{% load builder_errors %}{% field_error_slots form " + options + " %}"
                    ).render(Context({"form": form}))
    found = re.findall(r'<div id="errors-([^"]+)" hx-swap-oob="innerHTML">(.*?)</div>\n', html)
    assert "".join(f'<div id="errors-{n}" hx-swap-oob="innerHTML">{b}</div>\n'
                   for n, b in found) == html  # nothing else in it
    return {name: re.findall(r'<div class="invalid-feedback d-block">(.*?)</div>', body + "</div>")
            for name, body in found}


def test_a_slot_per_field_with_its_messages_escaped():
    form = Sample({"p-name": "long", "p-age": "x"}, prefix="p")
    form.is_valid()
    assert slots(form) == {
        "p-name": ["Ensure this value has at most 3 characters (it has 4)."],
        "p-locked": [], "p-tags": [],
        "p-age": ["&lt;b&gt;Age&lt;/b&gt; &amp; a number."],
    }


def test_no_slot_for_a_single_tick_box_and_the_forms_own_errors_last():
    form = Sample({"name": "ok", "age": "3"})
    form.is_valid()
    found = slots(form, "checkboxes=False non_field=True")
    assert list(found) == ["name", "tags", "age", "form"]
    assert found["form"] == ["The &lt;whole&gt; form is wrong."]
    assert found["name"] == found["age"] == []
