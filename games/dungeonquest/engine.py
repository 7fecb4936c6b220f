"""Dungeonquest, PBEM edition: the engine the service drives (see games.core.engine)."""

from __future__ import annotations

from typing import Any, ClassVar

from games.core.canonical import clone
from games.core.engine import Engine, Option, Pick, revision_of
from games.core.rng import RngBase
from games.core.types import Decision, Event, Orders

from . import bot, prompts
from . import orders as orderbook
from . import report as reporting
from .board import ALL_SQUARES, SIDE_WORDS, START_TOWERS, svg
from .content import HERO_ORDER
from .rules import heroes
from .rules.heroes import setup_events
from .rules.turn import resolve_turn, winners
from .state import (
    State,
    active,
    hidden_pile,
    hidden_piles,
    invariants,
    new_state,
    treasure_total,
    view,
)


class DungeonquestEngine(Engine):
    name = "dungeonquest"
    title = "Dungeonquest (PBEM edition)"
    min_seats = 1
    max_seats = 4
    hidden_information = True
    conformance_examples = 50
    # Rules revisions (README "Rules revisions" at the top). Revisions 1 and 2 differ in
    # content only (each plays with its own tables, `content.for_revision(n)`); revision 3
    # changes two rules, gated in the rules on `ctx.revision >= 3` (README).
    revision = 3
    revisions = {
        1: "the content before the tuning of 1 Dec 2026 (every game stored before it): "
           "decks, tiles and hero sheets of 7a87cfa^, in data/rev1/",
        2: "content tuning (7a87cfa: corridors, dead ends, room and search decks) and "
           "heroes evened out (e770dcd: knight Armour 3, barbarian Luck 4 and Life 22)",
        3: "the rules audit of 1 Dec 2026: a portcullis room drops its portcullis behind "
           "every hero who comes in, by whichever side; a skeleton risen in a room with no "
           "escape (a portcullis room, or one reached by a secret door) leaves no escape",
    }
    options: ClassVar[dict[str, Option]] = {
        "hero_choice": Option("players", choices=("players", "assigned"),
                              help="players: each seat chooses its hero (HERO <name>) before "
                                   "the first move; assigned: seats take heroes in order "
                                   "from first_hero"),
        "first_hero": Option("knight", choices=tuple(HERO_ORDER),
                             help="where the hero order starts: the default for seats that "
                                  "choose none, or seat P1's hero when assigned"),
    }

    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]:
        options = self.validate_options(options)
        state = new_state(seats, options["first_hero"], rng, revision=revision_of(options))
        state["picking"] = options["hero_choice"] == "players"
        return state, setup_events(state, chosen=not state["picking"])

    def decision(self, state: State) -> Decision | None:
        if state["over"]:
            return None
        if state.get("picking"):
            return Decision("heroes", {seat: heroes.prompt(state, seat)
                                       for seat in state["seats"]})
        return Decision(f"round {state['turn']} of {state['turns']}",
                        {seat: prompts.prompt(state, seat) for seat in active(state)})

    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        if state.get("picking"):
            items, lines = heroes.GRAMMAR.parse(orderbook.normalize(text), (state, seat))
            return Orders(seat, items, "\n".join(lines))
        items, lines = orderbook.parse(text, (state, seat))
        return Orders(seat, items, "\n".join(lines))

    def default_orders(self, state: State, seat: str) -> Orders:
        """A missed deadline: head on toward the standing destination, or stand still.
        `resolve` marks them `auto`: a default never loots the treasure chamber. While
        heroes are chosen: no choice (the documented default hero)."""
        if state.get("picking"):
            return Orders(seat, [], "", default=True)
        dest = state["chars"][seat]["destination"]
        order = {"op": "move", "to": dest} if dest else {"op": "stay"}
        items = [{"order": order}]
        return Orders(seat, items, orderbook.render(order), default=True)

    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        if state.get("picking"):
            return heroes.resolve_choice(state, orders, rng)
        return resolve_turn(state, orders, rng)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view(state, seat)

    def report(self, events: list[Event], viewer: str | None) -> str:
        return reporting.render(events, viewer)

    def board(self, view: dict[str, Any]) -> str | None:
        """The explored map as SVG (games/dungeonquest/board.py), from the view only."""
        return svg(view)

    def invariants(self, state: State) -> list[str]:
        return invariants(state)

    def result(self, state: State) -> dict[str, Any]:
        wins = winners(state)
        scores = ", ".join(f"{c['name']} {treasure_total(c)} gold"
                           for c in state["chars"].values() if c["status"] == "escaped")
        return {"winners": wins,
                "summary": f"Escaped: {scores}." if scores else "Nobody escaped."}

    # -- conformance and bots ------------------------------------------------------
    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        """Swap two different entries of one hidden pile (tile bag, a deck, the ring
        pool, the hoard, the dragon counters): nobody's view may change."""
        piles = [name for name in hidden_piles(state) if len(set(map(str, hidden_pile(state, name)))) > 1]
        if not piles:
            return None
        out = clone(state)
        pile = hidden_pile(out, pick(piles))
        i = pick(range(len(pile)))
        j = pick([k for k in range(len(pile)) if pile[k] != pile[i]])
        pile[i], pile[j] = pile[j], pile[i]
        return out

    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        if state.get("picking"):
            return pick(["", "HERO KNIGHT", "hero ranger barbarian", "Play the Adventurer",
                         "HERO SIR ROHAN", "HERO EL-MORAN", f"HERO {pick(HERO_ORDER)}"])
        ch = state["chars"][seat]
        lines: list[str] = []
        pend = prompts.pending_choices(state, seat)
        if pend and pick([True, True, False]):
            lines.append(pick(pend))
        extras = ["IF MONSTER THEN ATTACK", "IF MONSTER TROLL THEN ESCAPE ELSE ATTACK",
                  "IF LIFE < 6 THEN DRINK POTION", "IF CRYPT THEN SEARCH CRYPT",
                  "IF CORPSE THEN SEARCH BODY", "IF SPIDER THEN FIGHT", "IF AMBUSH THEN ESCAPE",
                  "IF POTION THEN DRINK POTION", "STANDING IF MONSTER THEN WAIT",
                  "CANCEL STANDING", "DESTINATION E7", f"DESTINATION {pick(ALL_SQUARES)}",
                  "IF TURN > 18 THEN MOVE TO A1", "IF MONSTER AND LIFE < 8 THEN ESCAPE",
                  "If a Mountain troll then Wait & See", "IF VAMPIRE BATS THEN DRINK POTION",
                  "IF POTION THEN DISCARD POTION", "IF POTION THEN PICK UP POTION",
                  "IF TURN > 20 AND TREASURE > 0 THEN DESTINATION A13"]
        ring_lines = {"healing": "IF LIFE < 8 THEN USE RING OF HEALING",
                      "warning": "IF TRAP THEN USE RING OF WARNING",
                      "opening": "IF DOOR THEN USE RING OF OPENING",
                      "luck": pick(["IF FAIL THEN USE RING OF LUCK", "USE RING OF LUCK",
                                    "USE RING OF LUCK ON COMBAT",
                                    "IF LIFE < 8 THEN USE RING OF LUCK ON DAMAGE"]),
                      "blinding": "IF MONSTER CHAMPION THEN USE RING OF BLINDING",
                      "vision": "USE RING OF VISION",
                      "transformation": "IF TILE PIT THEN USE RING OF TRANSFORMATION"}
        extras += [ring_lines[r] for r in ch["rings"]]
        if ch["arrows"]:
            extras.append("IF MONSTER ORC THEN SHOOT")
        for _ in range(pick([0, 1, 2])):
            lines.append(pick(extras))
        dirs = prompts.exits(state, seat)
        moves = [f"MOVE {SIDE_WORDS[d].upper()}" for d in dirs]
        actions = moves * 2 + ["MOVE TO E7", "MOVE TO E7", f"MOVE TO {pick(ALL_SQUARES)}",
                               "SEARCH", "SEARCH THEN NORTH", "STAY", "RETREAT",
                               "MOVE NORTH EAST", f"MOVE TO {pick(START_TOWERS)}", "LEAVE"]
        lines.append(pick(actions))
        return "\n".join(lines)

    def bot_orders(self, state: State, seat: str, pick: Pick) -> str:
        return bot.bot_orders(bot.table_from_state(state, seat), seat)

    def seat_bot(self, view: dict[str, Any], prompt: dict[str, Any], seat: str,
                 pick: Pick) -> str | None:
        """games/dungeonquest/bot.py: the balance runs' player, from the seat's view."""
        return bot.seat_bot(view, prompt, seat, pick)


ENGINE = DungeonquestEngine()
