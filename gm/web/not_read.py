"""No typed line disappears quietly (issue 28): lines the web form skips as greetings or
sign-offs need the player's confirmation before the orders are stored.

The greeting rule (gm.mail.greetings) is shared with mail, where a mistyped first or last
order line (`JUMP NORTH` after `MOVE SOUTH`) is skipped as a sign-off. On the web the
player is still at the form, so the send stops once, lists the lines that would not be
read, and stores the orders only when the same lines are confirmed. The confirmation
names the lines by a hash, so editing the text to skip other lines asks again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

FIELD = "confirm_not_read"


def token(lines: Sequence[str]) -> str:
    """A short fingerprint of exactly these skipped lines, for the hidden form field."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:24]


def confirmed(post: Mapping[str, str], lines: Sequence[str]) -> bool:
    """True when nothing is skipped, or the player confirmed exactly these lines."""
    return not lines or post.get(FIELD, "") == token(lines)
