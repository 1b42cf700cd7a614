"""{% query_with "name" value %}: the page's own query string with one parameter set (or,
for None, removed), for the pager (templates/includes/pager.html), so that a link to
another page of a list keeps what else the address says (the Guide's ?view=player, the
other lists' own pages). Django's {% querystring %} does this for a parameter named in
the template; the pager's parameter is a variable ("gear", "page", "before")."""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def query_with(context, name: str, value) -> str:
    """"?..." with `name` set to `value` (removed when None), every other parameter of
    the request kept; "" when nothing is left."""
    request = context.get("request")
    params = request.GET.copy() if request is not None else None
    if params is None:
        return "" if value is None else f"?{name}={value}"
    if value is None:
        params.pop(name, None)
    else:
        params[name] = value
    return f"?{params.urlencode()}" if params else ""
