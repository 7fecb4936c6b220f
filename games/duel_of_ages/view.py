"""What each reader may see, and the hidden parts the no-leak check may shuffle."""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone

from . import catalog
from .orders import GRAMMAR
from .rules import build, labyrinth
from .state import SEATS, State


def view(state: State, seat: str | None) -> dict[str, Any]:
    """Everyone sees the map, positions, health and shown cards; a team also sees its own
    unrevealed cards and standing orders; the GM ("*") also sees the deck order."""
    chars = {}
    building = state.get("phase") == "build"
    dealt_face_down = not build.revealed(state)
    for key in sorted(state["chars"]):
        c = state["chars"][key]
        own = seat == "*" or seat == c["team"]
        if dealt_face_down and not own:
            continue  # dealt face down: shown before the labyrinths are placed
        data = catalog.character(key)
        entry: dict[str, Any] = {"team": c["team"], "title": data["title"],
                                 "age": data["age"], "honor": data["honor"],
                                 "respect": data["respect"],
                                 "status": c["status"], "space": c["space"],
                                 "down": c.get("down", False),
                                 "mount": c.get("mount"),
                                 "health": c["health"],
                                 "max_health": catalog.character(key)["health"]}
        if own:
            entry["cards"] = [dict(e) for e in c["cards"]]
        else:
            entry["cards"] = [{"card": e["card"], "revealed": True}
                              for e in c["cards"] if e["revealed"]]
            entry["unrevealed"] = sum(1 for e in c["cards"] if not e["revealed"])
        chars[key] = entry
    out: dict[str, Any] = {"round": state["round"], "rounds": state["rounds"],
                           "limit": state.get("limit", "rounds"),
                           "turns": state.get("turns", 0),
                           "clock_turns": state.get("clock_turns"),
                           "active": state["active"], "over": state["over"],
                           "winner": state["winner"], "summary": state["summary"],
                           "chars": chars, "deck_size": len(state["deck"]),
                           "discard": list(state["discard"])}
    # a guardian deck as the table shows it: face-up guardians by name, face-down ones
    # only by their place in the deck (the GM sees the whole order)
    out["labyrinths"] = {
        age: {"positions": dict(lab["positions"]), "cards": len(lab["deck"]),
              "guardian": labyrinth.faces(lab)[0], "faces": labyrinth.faces(lab),
              **({"deck": list(lab["deck"])} if seat == "*" else {})}
        for age, lab in state["labyrinths"].items()}
    # cards on the ground: face-up ones by name, face-down ones only counted
    out["ground"] = {where: ([dict(e) for e in pile] if seat == "*" else
                             {"shown": [e["card"] for e in pile if e["revealed"]],
                              "face_down": sum(1 for e in pile if not e["revealed"])})
                     for where, pile in state["ground"].items()}
    for s in SEATS:
        if seat in (s, "*"):
            out.setdefault("standing", {})[s] = [GRAMMAR.render(i)
                                                 for i in state["standing"][s]]
    if seat == "*":
        out["deck"] = list(state["deck"])
    if state.get("map"):
        out["map"] = state["map"]
    if building:
        out["build"] = build.describe(state)
    if dealt_face_down:
        out["hidden_chars"] = {s: sum(1 for c in state["chars"].values() if c["team"] == s)
                               for s in SEATS}
    return out


def perturb(state: State, seat: str | None, pick: Any) -> State | None:
    """Swap a card the reader cannot see (an enemy's unrevealed card, a face-down card on
    the ground, or the deck order) with another card from the deck; for a team, also
    rewrite the enemy's standing plans."""
    s = clone(state)
    hidden = [(("chars", k, "cards"), i) for k, c in sorted(s["chars"].items())
              for i, e in enumerate(c["cards"]) if not e["revealed"] and c["team"] != seat]
    hidden += [(("ground", where), i) for where, pile in sorted(s["ground"].items())
               for i, e in enumerate(pile) if not e["revealed"]]
    choices = ["deck"] if len(s["deck"]) >= 2 else []
    face_down = {age: [i for i, face in enumerate(labyrinth.faces(lab)) if face is None]
                 for age, lab in sorted(s["labyrinths"].items())}
    if any(len(places) >= 2 for places in face_down.values()):
        choices.append("guardians")
    if hidden and s["deck"]:
        choices.append("card")
    if seat in SEATS:
        choices.append("standing")
    undealt = [k for k in sorted(catalog.characters()) if k not in s["chars"]]
    hidden_chars = [k for k, c in sorted(s["chars"].items()) if c["team"] != seat]
    if not build.revealed(s) and seat != "*" and undealt and hidden_chars:
        choices.append("roster")
    if not choices:
        return None
    what = pick(choices)
    if what == "roster":
        # characters dealt face down: another one could have been dealt instead
        old, new = pick(hidden_chars), pick(undealt)
        entry = s["chars"][old]
        entry["health"] = catalog.character(new)["health"]
        s["chars"] = {(new if k == old else k): v for k, v in s["chars"].items()}
        return s
    if what == "guardians":
        # two face-down guardians change places (a face-up one is seen by all)
        age = pick([a for a, places in face_down.items() if len(places) >= 2])
        deck = s["labyrinths"][age]["deck"]
        first = face_down[age][0]
        i = pick(face_down[age][1:])
        deck[first], deck[i] = deck[i], deck[first]
    elif what == "deck":
        i = pick(range(1, len(s["deck"])))
        s["deck"][0], s["deck"][i] = s["deck"][i], s["deck"][0]
    elif what == "card":
        path, i = pick(hidden)
        holder: Any = s
        for step in path:
            holder = holder[step]
        j = pick(range(len(s["deck"])))
        holder[i]["card"], s["deck"][j] = s["deck"][j], holder[i]["card"]
    else:
        enemy = SEATS[1] if seat == SEATS[0] else SEATS[0]
        s["standing"][enemy] = s["standing"][enemy] + [{"order": {"op": "surrender"}}]
    return s
