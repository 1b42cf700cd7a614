"""The links the generic campaign pages show to a game system's own campaign pages,
asked of the system's campaign package (campaigns.systems): a generic template names no
system's URL.

    {% load system_links %}
    {% campaign_links campaign runs as links %}{% for label, url in links %}...{% endfor %}
    {% session_links campaign session as links %}
    {% ritual_labels campaign.system as labels %}{{ labels.history }}
"""

from django import template

from campaigns import rituals, systems

register = template.Library()


@register.simple_tag
def campaign_links(campaign, runs=False) -> list[tuple[str, str]]:
    """`runs`: whether the viewer runs the campaign (the page's `runs`)."""
    return systems.campaign_links(campaign, runs=bool(runs))


@register.simple_tag
def session_links(campaign, session) -> list[tuple[str, str]]:
    return systems.session_links(campaign, session)


@register.simple_tag
def ritual_labels(system_key: str) -> dict[str, str]:
    """The words of the system's ritual (campaigns.rituals.labels) for a page whose view
    does not hand them over (the character's page, the members' page)."""
    return rituals.labels(system_key)
