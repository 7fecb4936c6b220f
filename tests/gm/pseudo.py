"""Orders for any owing seat, pseudo seats included, for tests that play every engine.

A pseudo seat (Engine.pseudo_seats, e.g. gm_adjudicated's GM) has no Seat row: the game's
GM plays it at the adjudication desk (gm.gmadj), so its text is published there.
"""

from __future__ import annotations

from gm.play import actions


def submit(game, seat_name: str, text: str, *, turn_number: int | None = None):
    if seat_name in actions.engine_for(game).pseudo_seats:
        from gm.gmadj import actions as adj

        return adj.publish(game, game.gm, text=text, turn_number=turn_number)
    return actions.submit_orders(game, game.seats.get(name=seat_name), text,
                                 turn_number=turn_number)
