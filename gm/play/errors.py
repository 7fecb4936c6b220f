"""Errors the service's actions raise; views map them to 400/403/404/409 and form errors."""

from __future__ import annotations

from typing import Any


class ActionError(Exception):
    """A request that cannot be carried out; `message` is meant for the user."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def payload(self) -> dict[str, Any]:
        """The JSON body an API client gets (views add nothing else)."""
        return {"detail": self.message}


class NotAllowed(ActionError):
    status = 403


class Conflict(ActionError):
    status = 409


class LateOrders(Conflict):
    """Orders for a turn that is no longer open: nothing is kept for it."""


class TurnClosed(LateOrders):
    """Orders written for a turn that is no longer open: refused, never moved to another.

    `standing` is the receipt of what counts for that turn (the seat's last accepted
    version, None when it had none), `open_turn` the number now taking orders, if any.
    """

    def __init__(self, message: str, *, turn: int, open_turn: int | None = None,
                 standing: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.turn = turn
        self.open_turn = open_turn
        self.standing = standing

    def payload(self) -> dict[str, Any]:
        return {"detail": self.message, "turn": self.turn, "open_turn": self.open_turn,
                "standing": self.standing}
