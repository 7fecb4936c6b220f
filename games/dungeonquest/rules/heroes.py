"""Choosing heroes before the first move.

The rulebook lets the players choose which characters they play before their first move.
With the game option `hero_choice = "players"` (the default) the game opens with one
simultaneous choice: every seat sends `HERO <name>` (several names are preferences, best
first). Two seats wanting the same hero roll a d6 each, as for a contested square; the
loser falls back on his next preference. A seat that sends nothing (or whose preferences
are all taken) gets the first hero nobody chose, in the order knight, barbarian, ranger,
adventurer starting from the `first_hero` option, in seat order.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.orders import Grammar, OrderSyntax, suggest
from games.core.rng import RngBase
from games.core.types import Event, Orders

from .. import content
from ..board import START_TOWERS, text_map
from ..content import HERO_ORDER
from ..state import State, new_char

SKIP = {"SIR", "EL", "OR", "THEN", "AND", "BRAVE"}


def _hero_words() -> dict[str, str]:
    """Every word that names a hero: key, name, title and the rulebook's other spellings
    (the order language: every revision's heroes carry the same names, see content.py)."""
    words: dict[str, str] = {}
    for key, hero in content.HERO_NAMES.items():
        names = [key, hero["name"], hero["title"], *hero["aliases"]]
        for name in names:
            for word in name.upper().replace("-", " ").split():
                if word not in SKIP and word != "THE":
                    words[word] = key
    return words


HERO_WORDS = _hero_words()


def _hero(tokens: list[str], ctx: Any) -> dict[str, Any]:
    prefs: list[str] = []
    for token in tokens:
        word = token.upper()
        if word in SKIP:
            continue
        key = HERO_WORDS.get(word)
        if key is None:
            raise OrderSyntax(f"there is no hero called {token.lower()!r}",
                              suggest(word, [k.upper() for k in HERO_ORDER]))
        if key not in prefs:
            prefs.append(key)
    if not prefs:
        raise OrderSyntax("HERO needs a hero's name", "e.g. HERO RANGER, or HERO RANGER KNIGHT "
                                                      "(the second if the first is taken)")
    return {"op": "hero", "heroes": prefs}


def _render(order: dict[str, Any]) -> str:
    return "HERO " + " ".join(h.upper() for h in order["heroes"])


GRAMMAR = Grammar({"HERO": _hero, "CHOOSE": _hero, "PLAY": _hero}, render=_render,
                  standing=False,
                  no_conditions="the hero choice takes no conditional orders: IF ... THEN "
                                "orders come with the first round's movement")


def rotation(first_hero: str) -> list[str]:
    start = HERO_ORDER.index(first_hero)
    return [HERO_ORDER[(start + i) % len(HERO_ORDER)] for i in range(len(HERO_ORDER))]


def prompt(state: State, seat: str) -> dict[str, Any]:
    # One line per hero after the first: the order form shows them as a list.
    tables = content.of(state)
    heroes = "\n".join(f"HERO {k.upper()}: {h['name']} {h['title']}, Strength "
                        f"{h['strength']}, Agility {h['agility']}, Armour {h['armour']}, "
                        f"Luck {h['luck']}, Life {h['life']}, the {tables.rings[h['ring']]['name']}. "
                        f"{h['ability_text']}" for k, h in tables.heroes.items())
    order = ", ".join(rotation(state["first_hero"]))
    return {"title": f"Choose your hero ({seat})",
            "help": f"Send HERO <name>; more names are preferences, best first. Two players "
                    f"wanting one hero roll a d6 each. Without a choice you play the first "
                    f"hero nobody chose, in the order {order}.\n{heroes}",
            "choices": [f"HERO {k.upper()}" for k in HERO_ORDER],
            "example": "HERO RANGER KNIGHT", "pending": False}


def roll_off(rng: RngBase, hero: str, seats: list[str], events: list[Event]) -> str:
    """Highest d6 wins the hero; ties roll again (after three ties, seat order)."""
    alive = list(seats)
    for round_no in range(1, 4):
        rolls = {s: rng.die(f"hero/{hero}/{s}", 6) for s in alive}
        top = max(rolls.values())
        alive = [s for s in alive if rolls[s] == top]
        shown = ", ".join(f"{s} {r}" for s, r in rolls.items())
        events.append(Event("line", {"seat": None, "phase": "setup",
                                     "text": f"{' and '.join(seats)} want the {hero}: d6 "
                                             f"{shown}{' (again)' if round_no > 1 else ''}."}))
        if len(alive) == 1:
            break
    return alive[0]


def assign(seats: list[str], prefs: dict[str, list[str]], first_hero: str, rng: RngBase,
           events: list[Event]) -> dict[str, str]:
    taken: dict[str, str] = {}  # hero -> seat
    while True:
        wants: dict[str, list[str]] = {}
        for seat in seats:
            if seat in taken.values():
                continue
            free = [h for h in prefs.get(seat, []) if h not in taken]
            if free:
                wants.setdefault(free[0], []).append(seat)
        if not wants:
            break
        for hero in HERO_ORDER:
            if hero in wants:
                group = wants[hero]
                taken[hero] = group[0] if len(group) == 1 else roll_off(rng, hero, group, events)
    chosen = {seat: hero for hero, seat in taken.items()}
    for seat in seats:
        if seat in chosen:
            rank = prefs[seat].index(chosen[seat]) + 1
            events.append(Event("line", {"seat": None, "phase": "setup",
                                         "text": f"{seat} plays the {chosen[seat]} (choice "
                                                 f"{rank} of {len(prefs[seat])})."}))
    spare = [h for h in rotation(first_hero) if h not in taken]
    for seat in seats:
        if seat not in chosen:
            chosen[seat] = spare.pop(0)
            why = "chose no hero" if not prefs.get(seat) else "found every choice taken"
            events.append(Event("line", {"seat": None, "phase": "setup",
                                         "text": f"{seat} {why} and plays the "
                                                 f"{chosen[seat]}."}))
    return chosen


def resolve_choice(state: State, orders: dict[str, Orders], rng: RngBase
                   ) -> tuple[State, list[Event]]:
    st = clone(state)
    prefs: dict[str, list[str]] = {}
    for seat in st["seats"]:
        given = orders.get(seat)
        for item in (given.items if given is not None else []):
            if "order" in item and item["order"].get("op") == "hero":
                prefs[seat] = list(item["order"]["heroes"])
                break
    events: list[Event] = []
    chosen = assign(st["seats"], prefs, st["first_hero"], rng, events)
    for seat, tower in zip(st["seats"], START_TOWERS):
        st["chars"][seat] = new_char(content.of(st), seat, chosen[seat], tower)
    st["picking"] = False
    out = setup_events(st, chosen=True, after_choice=True)
    return st, out[:1] + events + out[1:]


def setup_events(state: State, *, chosen: bool, after_choice: bool = False) -> list[Event]:
    """Report 0: the heroes to choose from, or (once chosen) each seat's hero, its tower
    and, privately, its ring; then the map. (Here rather than in engine.py, which calls
    it at setup, because the hero choice above calls it too: the rules never import the
    engine.)"""
    seats = state["seats"]
    towers = dict(zip(seats, START_TOWERS))
    stats = ("strength", "agility", "armour", "luck", "life", "ability_text")
    tables = content.of(state)
    data: dict[str, Any] = {"turns": state["turns"], "towers": towers, "chosen": chosen,
                            "after_choice": after_choice}
    if chosen:
        data["heroes"] = {}
        for seat in seats:
            ch = state["chars"][seat]
            h = tables.heroes[ch["hero"]]
            data["heroes"][seat] = {"name": ch["name"], "title": ch["title"],
                                    "tower": towers[seat], **{k: h[k] for k in stats}}
    else:
        data["choices"] = {key: {"name": h["name"], "title": h["title"],
                                 "ring": tables.rings[h["ring"]]["name"], **{k: h[k] for k in stats}}
                           for key, h in tables.heroes.items()}
        data["default_order"] = rotation(state["first_hero"])
    events = [Event("setup", data)]
    if chosen:
        for seat in seats:
            ring = state["chars"][seat]["rings"][0]
            events.append(Event("line", {"seat": seat, "phase": "setup",
                                         "text": f"You carry the {tables.rings[ring]['name']}: "
                                                 f"{tables.rings[ring]['text']}."}, (seat,)))
    marks = {towers[s]: str(i + 1) for i, s in enumerate(seats)}
    events.append(Event("map", {"rows": text_map(state["board"], marks), "chamber": []}))
    return events
