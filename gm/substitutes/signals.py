"""Signals of the substitutes app, sent after the transaction commits."""

from django.dispatch import Signal

# game=Game, seat=Seat, old_user=User | None, new_user=User, how=str ("substitute" |
# "gm"): a seat changed hands (gm.substitutes.handover.hand_over). The absence app ends
# the seat's civil disorder and its vacations on it; the seat's mode is already active.
seat_handed_over = Signal()
