"""Errors the service's actions raise; views map them to 400/403/404/409 and form errors."""

from __future__ import annotations


class ActionError(Exception):
    """A request that cannot be carried out; `message` is meant for the user."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(ActionError):
    status = 403


class Conflict(ActionError):
    status = 409


class LateOrders(Conflict):
    """Orders for a turn that is no longer open: nothing is kept for it."""
