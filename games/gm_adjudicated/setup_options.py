"""The GM's set-up, read from the game's options (free text the new-game form sends)."""

from __future__ import annotations

from typing import Any

from games.core.types import OptionError

from .adjudication import GM, SEAT_NAME

MAX_SEATS = 40


def seat_list(text: str) -> list[str]:
    """Seat names from `France, England, Germany` (commas or new lines)."""
    names = [" ".join(n.split()) for n in text.replace("\n", ",").split(",")]
    return [n for n in names if n]


def check_seats(text: str) -> list[str]:
    names = seat_list(text)
    for name in names:
        if not SEAT_NAME.match(name) or name == GM:
            raise OptionError(f"option 'seats': {name!r} is not a seat name (1-30 letters, "
                              "digits, spaces, . _ ' -; not GM)")
    if len(set(names)) != len(names):
        raise OptionError("option 'seats': two seats have the same name")
    if len(names) > MAX_SEATS:
        raise OptionError(f"option 'seats': at most {MAX_SEATS} seats")
    return names


def seat_help(text: str) -> dict[str, str]:
    """Per-seat help from lines `France: armies move first`."""
    found: dict[str, str] = {}
    for line in text.replace(";", "\n").split("\n"):
        seat, sep, help_text = line.partition(":")
        if sep and seat.strip() and help_text.strip():
            found[" ".join(seat.split())] = help_text.strip()
    return found


def decks(text: str) -> dict[str, list[str]]:
    """Decks from lines `omens: raven, comet, eclipse` (one deck a line or `;`)."""
    found: dict[str, list[str]] = {}
    for line in text.replace(";", "\n").split("\n"):
        if not line.strip():
            continue
        name, sep, cards = line.partition(":")
        names = [c.strip() for c in cards.split(",") if c.strip()]
        if not sep or not name.strip() or not names:
            raise OptionError(f"option 'decks': {line.strip()!r} is not `name: card, card, ...`")
        found[" ".join(name.split())] = names
    return found


def check(options: dict[str, Any]) -> None:
    """The free-text options hold together (OptionError names the option)."""
    for name in ("seats", "help", "seat_help", "first_words", "decks"):
        if name in options and not isinstance(options[name], str):
            raise OptionError(f"option {name!r} must be text")
        if name in options and len(options[name]) > 4000:
            raise OptionError(f"option {name!r}: at most 4000 characters")
    check_seats(options.get("seats", ""))
    decks(options.get("decks", ""))
