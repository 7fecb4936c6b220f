"""The values that cross the engine boundary: events, decisions, orders and their errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .canonical import canonical_json, sha256_hex

PUBLIC = None  # an Event audience of None means everyone, the public included


@dataclass(frozen=True)
class Event:
    """Something that happened during setup or resolution.

    `audience` is None for public events, or a tuple of seats that may read it. Reports,
    emails and API responses are built from events filtered by audience, never from state.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    audience: tuple[str, ...] | None = PUBLIC

    def visible_to(self, viewer: str | None) -> bool:
        """None = the public; "*" = the GM, who sees everything."""
        if viewer == "*":
            return True
        return self.audience is None or (viewer is not None and viewer in self.audience)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data,
                "audience": None if self.audience is None else list(self.audience)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        aud = data.get("audience")
        return cls(data["kind"], data.get("data", {}), None if aud is None else tuple(aud))


def filter_events(events: list[Event], viewer: str | None) -> list[Event]:
    return [e for e in events if e.visible_to(viewer)]


@dataclass(frozen=True)
class Decision:
    """Who owes orders now.

    `prompts` maps each owing seat to a JSON prompt: what the order form shows (a title,
    help text, and `choices`: the legal orders or their parts). One seat means a
    sequential turn; several mean simultaneous orders.
    """

    phase: str
    prompts: dict[str, dict[str, Any]]
    # A short decision (an out-of-turn reaction window): the service gives it the game's
    # shorter reaction deadline instead of a whole turn's.
    reaction: bool = False

    @property
    def seats(self) -> list[str]:
        return sorted(self.prompts)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"phase": self.phase, "prompts": self.prompts}
        if self.reaction:
            data["reaction"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(data["phase"], data["prompts"], bool(data.get("reaction", False)))


@dataclass(frozen=True)
class Orders:
    """A seat's parsed orders: JSON items the engine understands, plus the canonical text.

    `text` is the orders as understood (one per line, normalised), which is what receipts
    echo; `items` is what `resolve` consumes; `default` marks engine-supplied orders for a
    seat that missed the deadline.
    """

    seat: str
    items: list[Any]
    text: str
    default: bool = False

    @property
    def receipt(self) -> str:
        """SHA-256 of the canonical items: the same orders always give the same receipt."""
        return sha256_hex(canonical_json({"seat": self.seat, "items": self.items}))

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "items": self.items, "text": self.text,
                "default": self.default}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Orders:
        return cls(data["seat"], data["items"], data["text"], bool(data.get("default")))


@dataclass(frozen=True)
class OrderError:
    line: int  # 1-based line number in the submitted text; 0 = the orders as a whole
    message: str
    hint: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "message": self.message, "hint": self.hint}

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.message}" + (f" ({self.hint})" if self.hint else "")


class OrdersInvalid(ValueError):
    """Raised by parse_orders with every error found (not just the first)."""

    def __init__(self, errors: list[OrderError], accepted: list[str] | None = None) -> None:
        self.errors = errors
        self.accepted = accepted or []
        super().__init__("; ".join(str(e) for e in errors))


class OptionError(ValueError):
    """A bad game option: the message names the option and its allowed values."""


class IllegalState(AssertionError):
    """An engine invariant does not hold."""
