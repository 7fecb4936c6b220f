"""`{% notify_proposal %}`: the proposed deadline hour on the new-game form."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def notify_proposal(context) -> str:
    user = getattr(context.get("request"), "user", None)
    if not getattr(user, "is_authenticated", False):
        return ""
    from gm.notify.views import proposal_for_creator

    p = proposal_for_creator(user)
    return format_html(
        '<p class="muted" id="deadline-proposal">Deadlines at a human hour: we propose '
        '<strong>{}:00 {}</strong> (outside the night of your time zone). Once players '
        "have joined, fix it on the game's notifications page, where the hour that puts the "
        "fewest of their deadlines in their night is proposed.</p>", f"{p['hour']:02d}", p["time_zone"])
