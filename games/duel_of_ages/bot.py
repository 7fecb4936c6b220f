"""The seat bot: an aggressive team, decided from the seat's view and prompt only.

(games/duel_of_ages/bots.py holds the engine's own order texts, which read the state:
the deadline defaults and the conformance suite's random orders.)

On the map build it lays the prompt's suggested piece. On its team's turn each character
on the map shoots if the prompt offers it a shot (at the enemy with least health left,
ties broken with `pick`), else challenges its labyrinth guardian if it stands on its
team's guardian position, else walks toward the nearest enemy it can reach (the route
from the view's map) and fights him in melee; a character in a tunnel stays put. On the
enemy's turn every character on the map takes opportunity fire.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import Pick

from . import hexmap


def _colour(view: dict[str, Any], seat: str) -> str:
    return next((c for c, s in view.get("seats", {}).items() if s == seat), seat)


def seat_bot(view: dict[str, Any], prompt: dict[str, Any], seat: str, pick: Pick) -> str:
    choices: list[str] = list(prompt.get("choices") or [])
    if "build" in view or not any(c.startswith(("FIRE ", "HOLD ")) for c in choices):
        return prompt.get("example") or "\n".join(choices[:1])
    colour = _colour(view, seat)
    chars = view["chars"]
    mine = sorted(k for k, c in chars.items() if c["team"] == colour and c["status"] == "map")
    enemies = sorted(k for k, c in chars.items()
                     if c["team"] != colour and c["status"] == "map")
    moving = view["active"] == colour
    if not moving:
        return "\n".join(f"FIRE {k}" for k in mine if f"FIRE {k}" in choices)
    lines: list[str] = []
    claimed: list[str] = []  # guardian positions a team-mate is already walking to
    with hexmap.using(view.get("map")):
        for key in mine:
            shots = [c.split()[-1] for c in choices if c.startswith(f"FIRE {key} AT ")]
            if shots:
                least = min(chars[e]["health"] for e in shots)
                lines.append(f"FIRE {key} AT " + pick([e for e in shots
                                                       if chars[e]["health"] == least]))
                continue
            if f"CHALLENGE {key}" in choices:
                lines.append(f"CHALLENGE {key}")
                continue
            me = chars[key]
            if me["down"]:
                continue
            here = me["space"]
            close = [e for e in enemies if not chars[e]["down"]
                     and hexmap.distance(here, chars[e]["space"]) <= 3
                     and chars[e]["health"] <= me["health"]]
            guardians = [hexmap.labyrinths()[age][lab["positions"][colour]]
                         for age, lab in sorted(view.get("labyrinths", {}).items())]
            goals = sorted({chars[e]["space"] for e in close},
                           key=lambda s: (hexmap.distance(here, s), s))
            goals += sorted(set(guardians) - set(claimed),
                            key=lambda s: (hexmap.distance(here, s), s))
            for goal in goals:
                if goal != here and hexmap.cheapest_path(here, goal) is not None:
                    lines.append(f"MOVE {key} TO {goal}")
                    claimed.append(goal)
                    break
    return "\n".join(lines)
