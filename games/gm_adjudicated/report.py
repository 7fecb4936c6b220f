"""Markdown narration of a GM-adjudicated turn for one reader.

The GM's own words come first (the public report, then the reader's private report
and sheet); rolls and draws follow with their labels, so every die a report cites is
listed where anyone can check it against the export after the game.
"""

from __future__ import annotations

from games.core.types import Event, filter_events


def _quote(text: str) -> list[str]:
    return ["> " + line if line else ">" for line in text.split("\n")]


def render(events: list[Event], viewer: str | None) -> str:
    seen = filter_events(events, viewer)
    out: list[str] = []
    rolls: list[str] = []
    for e in seen:
        d = e.data
        kind = e.kind
        if kind == "setup":
            out += [f"The game begins with the seats {', '.join(d['seats'])}. Orders are "
                    + {"after_turn": "shown to everyone once each turn is adjudicated.",
                       "gm_only": "read by the GM only.",
                       "never": "read by the GM only."}[d["reveal"]], ""]
        elif kind == "closed":
            line = f"Orders for turn {d['turn']} are closed"
            line += f"; in: {', '.join(d['in'])}" if d["in"] else "; none came in"
            if d["missing"]:
                line += f"; missing: {', '.join(d['missing'])}"
            out += [line + ". The turn waits for the GM's adjudication.", ""]
        elif kind == "own":
            out += [f"Your orders as {d['seat']}:", "", *_quote(d["text"]), ""]
        elif kind == "all":
            out += ["Every seat's orders (GM only):", ""]
            for seat, text in d["orders"]:
                out += [f"**{seat}**", "", *_quote(text), ""]
        elif kind == "late":
            out += [f"The GM's adjudication of turn {d['turn']} is late "
                    f"({d['times']} time{'s' if d['times'] != 1 else ''}); it is still "
                    "awaited.", ""]
        elif kind == "revealed":
            out += [f"## Orders of turn {d['turn']}", ""]
            for seat, text in d["orders"]:
                out += [f"**{seat}**", "", *_quote(text), ""]
            if d["missing"]:
                out += [f"No orders from: {', '.join(d['missing'])}.", ""]
        elif kind == "public":
            out += [d["text"], ""]
        elif kind == "private":
            out += [f"## For {d['seat']} only", "", d["text"], ""]
        elif kind == "sheet":
            out += [f"## {d['seat']}'s sheet (version {d['version']})", "", d["text"], ""]
        elif kind == "notes":
            out += [f"## GM notes (version {d['version']})", "", d["text"], ""]
        elif kind == "roll":
            secret = " (secret)" if d["secret"] else ""
            rolls.append(f"- roll {d['n']}, {d['label']}{secret}: {d['text']}")
        elif kind == "draw":
            cards = ", ".join(d["cards"]) or "nothing (the deck is empty)"
            rolls.append(f"- draw {d['n']}, {d['label']}: from {d['deck']}: **{cards}** "
                         f"({d['left']} left)")
        elif kind == "deck":
            out += [f"Deck {d['name']} is set up with {d['size']} cards.", ""]
        elif kind == "seat-added":
            out += [f"Seat {d['seat']} joins the game from the next turn.", ""]
        elif kind == "seat-removed":
            out += [f"Seat {d['seat']} leaves the game.", ""]
        elif kind == "ended":
            out += [f"The GM ends the game with turn {d['turn']}.", ""]
    if rolls:
        out += ["## Dice and cards", "", *rolls, ""]
    return "\n".join(out).rstrip() + "\n"
