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
