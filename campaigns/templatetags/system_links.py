"""The links the generic campaign pages show to a game system's own campaign pages,
asked of the system's campaign package (campaigns.systems): a generic template names no
system's URL.

    {% load system_links %}
    {% campaign_links campaign as links %}{% for label, url in links %}...{% endfor %}
    {% session_links campaign session as links %}
"""

from django import template

from campaigns import systems

register = template.Library()


@register.simple_tag
def campaign_links(campaign) -> list[tuple[str, str]]:
    return systems.campaign_links(campaign)


@register.simple_tag
def session_links(campaign, session) -> list[tuple[str, str]]:
    return systems.session_links(campaign, session)
