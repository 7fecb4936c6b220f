"""What each kind of event is: whether it asks something of the reader, and whether the
mail app composes its per-event mail itself (then the notify layer only decides whether
that mail goes, and records the notification)."""

from __future__ import annotations

# kinds whose per-event mail gm.mail composes (its templates, threading, reply address)
MAILED_BY_MAIL_APP = {"turn_opened", "report", "game_over", "reminder", "press"}
# kinds that ask the reader to act (orders owed, a seat offered to them)
NEEDS_ACTION = {"turn_opened", "reminder", "substitute_offer", "orders_unreadable",
                "orders_invalidated"}
# kinds never mailed one by one, in any mode: the thread and the GM's log are read on the
# page; they reach people through the digest, the in-page feed and webhooks
NOT_MAILED_EACH = {"post", "gm_act", "seat_taken", "seat_left", "bot_seat"}
# kinds a game's public webhook carries (public wording only)
PUBLIC = {"turn_opened_public", "report", "game_over", "post", "gm_act", "grace",
          "vacation", "civil_disorder", "bot_seat", "seat_taken", "seat_left",
          "substitute_offer"}
