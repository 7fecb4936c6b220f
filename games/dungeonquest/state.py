"""The game state: building it, drawing from its hidden piles, showing it, checking it.

State is plain JSON. Hidden piles (tile bag, decks, ring pool, hoard, dragon counters) are
lists whose order only the engine knows; `view` never shows their order or their
discards, which would reveal other heroes' private draws.
"""

from __future__ import annotations

from typing import Any

from games.core.canonical import clone
from games.core.engine import REVISION
from games.core.rng import RngBase

from . import content
from .board import CHAMBER, START_TOWERS, initial_board
from .content import HERO_ORDER, Content

TURNS = 26
STATUSES = ("in", "escaped", "dead")

State = dict[str, Any]
Char = dict[str, Any]


def seated(state: State) -> list[tuple[str, Char]]:
    """(seat, character) in seat order: what numbers the heroes on the map and orders
    every list of them (a stored state's keys come back in its store's order)."""
    return [(s, state["chars"][s]) for s in state["seats"]]


def new_char(tables: Content, seat: str, hero: str, tower: str) -> Char:
    """A hero's sheet as the game's content (`tables`, of its rules revision) has it."""
    h = tables.heroes[hero]
    return {
        "seat": seat, "hero": hero, "name": h["name"], "title": h["title"],
        "status": "in", "pos": tower, "entry": None, "prev": None, "via": None,
        "life": h["life"], "max_life": h["life"], "treasure": [], "potion": False,
        "rope": False, "rings": [h["ring"]], "arrows": h["arrows"],
        "destination": None, "standing": [], "pending": None, "searches": 0,
        "torch": False, "trapdoor": False, "spider": False, "skip": 0, "fate": None,
    }


def new_state(seats: list[str], first_hero: str, rng: RngBase, *, revision: int) -> State:
    """A new game of rules `revision`, with that revision's content. Revision 1 (a game
    recorded before revisions) carries no revision key, as such games always did."""
    tables = content.for_revision(revision)
    start = HERO_ORDER.index(first_hero)
    heroes = [HERO_ORDER[(start + i) % len(HERO_ORDER)] for i in range(len(seats))]
    decks = {name: {"draw": rng.shuffle(f"setup/deck/{name}", tables.deck_cards(name)),
                    "discard": []} for name in sorted(tables.decks)}
    return {
        "turn": 1, "turns": TURNS, "seats": list(seats), "over": False,
        "picking": False, "first_hero": first_hero,
        "chars": {seat: new_char(tables, seat, hero, START_TOWERS[i])
                  for i, (seat, hero) in enumerate(zip(seats, heroes))},
        "board": initial_board(),
        "bag": rng.shuffle("setup/tiles", tables.tile_bag()),
        "spent_tiles": [],
        "decks": decks,
        "ring_pool": rng.shuffle("setup/rings", list(tables.ring_pool)),
        "hoard": rng.shuffle("setup/hoard", tables.hoard_counters()),
        "dragon": {"pool": rng.shuffle("setup/dragon", tables.dragon_counters()),
                   "drawn": []},
        **({REVISION: revision} if revision > 1 else {}),
    }


# -- hidden piles --------------------------------------------------------------------

def draw_card(state: State, deck: str, rng: RngBase) -> str:
    pile = state["decks"][deck]
    if not pile["draw"]:
        pile["draw"] = rng.shuffle(f"deck/{deck}/reshuffle", sorted(pile["discard"]))
        pile["discard"] = []
    card = pile["draw"].pop(0)
    pile["discard"].append(card)
    return card


def draw_tile(state: State) -> str | None:
    return state["bag"].pop(0) if state["bag"] else None


def draw_dragon(state: State, rng: RngBase) -> str:
    dragon = state["dragon"]
    if not dragon["pool"]:
        dragon["pool"] = rng.shuffle("dragon/reshuffle", sorted(dragon["drawn"]))
        dragon["drawn"] = []
    counter = dragon["pool"].pop(0)
    dragon["drawn"].append(counter)
    return counter


def return_dragon(state: State, rng: RngBase) -> None:
    """The chamber is empty: every drawn counter goes back and the pool is shuffled."""
    dragon = state["dragon"]
    if dragon["drawn"]:
        dragon["pool"] = rng.shuffle("dragon/return", sorted(dragon["pool"] + dragon["drawn"]))
        dragon["drawn"] = []


def hidden_piles(state: State) -> list[str]:
    return ["bag", "ring_pool", "hoard", "dragon"] + [f"deck:{d}" for d in sorted(state["decks"])]


def hidden_pile(state: State, name: str) -> list[Any]:
    if name == "dragon":
        return state["dragon"]["pool"]
    if name.startswith("deck:"):
        return state["decks"][name[5:]]["draw"]
    return state[name]


# -- queries -------------------------------------------------------------------------

def active(state: State) -> list[str]:
    return [s for s in state["seats"] if state["chars"][s]["status"] == "in"]


def occupant(state: State, sq: str, but: str | None = None) -> str | None:
    for seat in active(state):
        if seat != but and state["chars"][seat]["pos"] == sq:
            return seat
    return None


def in_chamber(state: State) -> list[str]:
    return [s for s in active(state) if state["chars"][s]["pos"] in CHAMBER]


def treasure_total(ch: Char) -> int:
    return sum(t["value"] for t in ch["treasure"])


# -- views -----------------------------------------------------------------------------

def public_char(ch: Char, over: bool) -> dict[str, Any]:
    data = {"name": ch["name"], "title": ch["title"], "hero": ch["hero"],
            "status": ch["status"], "pos": ch["pos"], "fate": ch["fate"]}
    if over:
        data["treasure"] = treasure_total(ch) if ch["status"] == "escaped" else 0
    return data


def private_char(ch: Char, tables: Content) -> dict[str, Any]:
    data = clone(ch)
    data["treasure_total"] = treasure_total(ch)
    from .orders import GRAMMAR
    data["standing_text"] = [GRAMMAR.render(item) for item in ch["standing"]]
    hero = tables.heroes[ch["hero"]]
    data["ring_names"] = [tables.rings[r]["name"] for r in ch["rings"]]
    data["ability"] = hero["ability_text"]
    data["stats"] = {k: hero[k] for k in ("strength", "agility", "armour", "luck")}
    return data


def view(state: State, seat: str | None) -> dict[str, Any]:
    if state.get("picking"):
        return picking_view(state, seat)
    over = state["over"]
    out: dict[str, Any] = {
        "turn": min(state["turn"], state["turns"]), "turns": state["turns"],
        "sunset_in": max(0, state["turns"] - state["turn"] + 1), "over": over,
        "board": clone(state["board"]),
        "characters": {s: public_char(c, over) for s, c in state["chars"].items()},
        "dragon": {"counters_left": len(state["dragon"]["pool"]),
                   "drawn": sorted(state["dragon"]["drawn"])},
        "chamber": sorted(in_chamber(state)),
        "picking": bool(state.get("picking")),
    }
    if seat == "*":
        out["private"] = {s: private_char(c, content.of(state)) for s, c in state["chars"].items()}
        out["hidden"] = {"bag": list(state["bag"]), "decks": clone(state["decks"]),
                         "ring_pool": list(state["ring_pool"]), "hoard": list(state["hoard"]),
                         "dragon_pool": list(state["dragon"]["pool"])}
    elif seat in state["chars"]:
        out["me"] = private_char(state["chars"][seat], content.of(state))
    return out


def picking_view(state: State, seat: str | None) -> dict[str, Any]:
    """Before the heroes are chosen: the towers only. The provisional heroes held in the
    state are the defaults, not anyone's choice, so no view shows them."""
    tables = content.of(state)
    chars = {s: {"name": s, "title": "", "hero": None, "status": "in", "pos": c["pos"],
                 "fate": None} for s, c in state["chars"].items()}
    out: dict[str, Any] = {
        "turn": 1, "turns": state["turns"], "sunset_in": state["turns"], "over": False,
        "board": clone(state["board"]), "characters": chars,
        "dragon": {"counters_left": len(state["dragon"]["pool"]), "drawn": []},
        "chamber": [], "picking": True,
        "heroes": {k: {"name": h["name"], "title": h["title"],
                       "ring": tables.rings[h["ring"]]["name"],
                       **{x: h[x] for x in ("strength", "agility", "armour", "luck", "life",
                                            "ability_text")}} for k, h in tables.heroes.items()},
    }
    if seat == "*":
        out["hidden"] = {"bag": list(state["bag"]), "decks": clone(state["decks"]),
                         "ring_pool": list(state["ring_pool"]), "hoard": list(state["hoard"]),
                         "dragon_pool": list(state["dragon"]["pool"])}
    return out


# -- invariants ------------------------------------------------------------------------

def invariants(state: State) -> list[str]:
    problems: list[str] = []
    tables = content.of(state)
    seen: dict[str, str] = {}
    for seat, ch in state["chars"].items():
        if ch["status"] not in STATUSES:
            problems.append(f"{seat}: bad status {ch['status']}")
        if ch["status"] == "in":
            if ch["pos"] not in state["board"]:
                problems.append(f"{seat} stands on an unexplored square {ch['pos']}")
            if ch["life"] <= 0:
                problems.append(f"{seat} is in the dungeon with {ch['life']} Life Points")
            if ch["pos"] not in CHAMBER:
                if ch["pos"] in seen:
                    problems.append(f"{seat} and {seen[ch['pos']]} share {ch['pos']}")
                seen[ch["pos"]] = seat
        if ch["life"] > ch["max_life"]:
            problems.append(f"{seat} has more than full life")
        if ch["status"] != "in" and ch["pending"]:
            problems.append(f"{seat} is out of the dungeon but owes a decision")
        for r in ch["rings"]:
            if r not in tables.rings:
                problems.append(f"{seat}: unknown ring {r}")
    heroes = [c["hero"] for c in state["chars"].values()]
    if len(set(heroes)) != len(heroes):
        problems.append(f"two seats play the same hero: {sorted(heroes)}")
    if state.get("picking") and state["turn"] != 1:
        problems.append("heroes are still being chosen after turn 1 began")
    if sorted(state["decks"]) != sorted(tables.decks):
        problems.append(f"the decks are {sorted(state['decks'])}, not {sorted(tables.decks)}")
    for name in tables.decks:
        pile = state["decks"].get(name, {"draw": [], "discard": []})
        if sorted(pile["draw"] + pile["discard"]) != tables.deck_cards(name):
            problems.append(f"deck {name} lost or gained cards")
    tiles = state["bag"] + state["spent_tiles"] + [c["tile"] for sq, c in state["board"].items()
                                                   if c["kind"] not in ("tower", "chamber")]
    if sorted(tiles) != tables.tile_bag():
        problems.append("the tile bag lost or gained tiles")
    dragon = state["dragon"]
    if sorted(dragon["pool"] + dragon["drawn"]) != tables.dragon_counters():
        problems.append("dragon counters lost or gained")
    if not 1 <= state["turn"] <= state["turns"] + 1:
        problems.append(f"turn {state['turn']} out of range")
    if state["over"] != (not active(state) or state["turn"] > state["turns"]):
        problems.append("the game's over flag disagrees with the heroes")
    return problems
