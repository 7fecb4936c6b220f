"""Signals other apps (mail, referee) listen to. Always sent after the transaction commits."""

from django.dispatch import Signal

# turn=Turn: a new turn is open for orders
turn_opened = Signal()
# record=TurnRecord: a resolution's reports are published
turn_published = Signal()
# game=Game: the game has ended
game_finished = Signal()
# submission=Submission: orders accepted or withdrawn
orders_received = Signal()
