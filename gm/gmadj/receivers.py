"""The play signals this app answers: the GM seat's orders, seat changes, lateness."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.gm_adjudicated.adjudication import GM
from gm.play import actions as play
from gm.play import signals
from gm.play.models import Seat, Turn

from . import actions


@receiver(signals.pseudo_orders)
def adjudication(sender: Any, turn: Turn, seat: str, **kwargs: Any) -> Any:
    if seat != GM or turn.game.ruleset != actions.RULESET:
        return None
    return actions.gm_orders(turn)


@receiver(signals.turn_published)
def after_publication(sender: Any, record: Any, **kwargs: Any) -> None:
    """Seats the GM added get a (vacant) seat row; each seat change and a late
    adjudication go in the public log; the GM is reminded of a late adjudication."""
    game = record.game
    if game.ruleset != actions.RULESET:
        return
    for event in record.events:
        kind, data = event["kind"], event.get("data", {})
        if kind == "seat-added":
            Seat.objects.get_or_create(game=game, name=data["seat"])
            play.record_log(game, "seat_added", f"The GM added seat {data['seat']} "
                            f"(from turn {record.number + 1}).", turn_number=record.number)
        elif kind == "seat-removed":
            play.record_log(game, "seat_removed", f"The GM removed seat {data['seat']}.",
                            turn_number=record.number)
        elif kind == "late":
            void = actions.void_rolls(record.turn, record.state_before)
            play.record_log(game, "adjudication_late", f"The GM's adjudication of turn "
                            f"{data['turn']} is late ({data['times']})." + (
                                " Rolls made into the draft, void now (the GM rolls "
                                "again): " + "; ".join(void) + "." if void else ""),
                            turn_number=record.number)
            if game.options.get("remind_gm", "on") == "on":
                _mail_gm(game, record, data)
                signals.notable.send(
                    sender=Turn, game=game, kind="adjudication_late",
                    text=f"Your adjudication of turn {data['turn']} of {game.title} is "
                         "late: the players wait for it.",
                    users=[game.gm_id], urgent=True,
                    url=f"/games/{game.pk}/adjudicate/")


def _mail_gm(game: Any, record: Any, data: dict[str, Any]) -> None:
    """The reminder by mail (the GM's deadline-reminder preference applies), once per
    late window: the outbox key names the record."""
    from django.conf import settings

    from gm.mail import outbox, prefs
    from gm.mail.models import Kind

    gm = game.gm
    if gm is None or not gm.email or not prefs.wants(gm, Kind.REMINDER):
        return
    url = f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}/adjudicate/"
    outbox.enqueue(key=f"gmadj-late:{record.pk}:{gm.pk}", kind=Kind.REMINDER, to=gm.email,
                   user=gm, subject=f"{game.title}: your adjudication of turn "
                                    f"{data['turn']} is late",
                   text=f"The players of {game.title} wait for your adjudication of turn "
                        f"{data['turn']} (late {data['times']} time"
                        f"{'s' if data['times'] != 1 else ''}).\n\nThe desk: {url}\n")
