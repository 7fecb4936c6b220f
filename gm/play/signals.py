"""Signals other apps (mail, referee) listen to. Always sent after the transaction commits."""

from django.dispatch import Signal

# turn=Turn: a new turn is open for orders; resolution=TurnRecord when a publication
# opened it (None when opened on its own, e.g. by the GM)
turn_opened = Signal()
# record=TurnRecord: a resolution's reports are published; followed=True when the same
# publication goes on to open the next turn or end the game (a signal naming this record
# as its `resolution` follows)
turn_published = Signal()
# game=Game: the game has ended; resolution=TurnRecord when a publication ended it
game_finished = Signal()
# submission=Submission: orders accepted or withdrawn
orders_received = Signal()

# Happenings about people rather than turns, for the notification layer (gm.notify turns
# each into notifications under every reader's budget; until a receiver exists they are
# only in the public log). game=Game; kind=str, one of "grace", "vacation",
# "civil_disorder", "bot_seat", "substitute_offer", "seat_taken", "seat_left",
# "gm_act", "orders_unreadable" (a new kind is added here first); text=str, one line
# of plain text in public wording unless `users` narrows it; users=list[int] | None
# (None: everyone in the game: seated players and GMs); urgent=bool (needs an action
# from the reader soon: may break quiet hours only if they allow it); url=str | None.
notable = Signal()
# seat=Seat, reason=str ("civil_disorder" | "leaving"): the seat wants a new player;
# the substitutes app offers it to volunteers.
seat_needs_player = Signal()

# --- pseudo seats (issue 27): seats an engine lists in `pseudo_seats`, played by the
# game's GM, never by a player (gm_adjudicated's "GM", whose orders are the GM's
# adjudication, kept by gm.gmadj). Sent INSIDE the resolving transaction, unlike the
# signals above: turn=Turn, seat=str. A receiver returns that seat's Orders for the
# turn, or None; with none the engine's default_orders stand (the GM is late).
pseudo_orders = Signal()
