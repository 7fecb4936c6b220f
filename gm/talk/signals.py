"""Signals of the press and thread app, for the channels above it (gm.mail mails press).

The talk app stores and checks press; it does not know how a reader is told. Sent inside
the caller's transaction, right after the message is stored: a receiver queues its mail
through the outbox, whose wake-up waits for the commit.
"""

from django.dispatch import Signal

# game=Game, message=gm.talk.models.Message: a press message was stored
press_posted = Signal()
