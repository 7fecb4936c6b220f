"""Mail actions a player takes on the web: which addresses may send orders for a seat."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from gm.play.errors import ActionError, NotAllowed
from gm.play.models import Seat

MAX_EXTRA_ADDRESSES = 5


def set_sender_addresses(seat: Seat, user, addresses: list[str]) -> Seat:
    """Replace the extra sender addresses of the user's own seat (Seat.emails).

    The account's address always counts; these are additions (a work address, a phone).
    """
    if seat.user_id != getattr(user, "pk", None):
        raise NotAllowed("only the seat's player can change its sender addresses")
    cleaned: list[str] = []
    for raw in addresses:
        addr = raw.strip().lower()
        if not addr:
            continue
        try:
            validate_email(addr)
        except ValidationError:
            raise ActionError(f"{raw.strip()!r} is not an email address") from None
        if addr not in cleaned and addr != (user.email or "").lower():
            cleaned.append(addr)
    if len(cleaned) > MAX_EXTRA_ADDRESSES:
        raise ActionError(f"at most {MAX_EXTRA_ADDRESSES} extra addresses per seat")
    seat.emails = cleaned
    seat.save(update_fields=["emails"])
    return seat
