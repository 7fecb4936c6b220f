"""Signals the referee sends, always after the transaction commits (the mail app listens).

Each carries the objects a notifier needs; what a player may read of them is in
`LogEntry.public`, the dispute's ruling and the thread post, never in private fields.
"""

from django.dispatch import Signal

# dispute=Dispute: a player filed a dispute (notify the GM and co-GMs)
dispute_filed = Signal()
# dispute=Dispute: the GM ruled (notify every seat)
dispute_ruled = Signal()
# dispute=Dispute: a player asked for a second opinion (notify the site's staff)
second_opinion_requested = Signal()
# dispute=Dispute: another site GM gave the second opinion (notify every seat and the GM)
second_opinion_given = Signal()
# turn=Turn, seats=[names]: these seats' orders no longer fit the state (amend, rerun,
# rollback) and they owe new ones by turn.deadline
orders_invalidated = Signal()
# entry=LogEntry: any GM act was recorded (pause, amend, rerun, ruling...)
gm_act = Signal()
