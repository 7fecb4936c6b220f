"""Duel of Ages: Worldspanner: two teams, phased turns, opportunity fire, labyrinths.

One service turn is one team's turn. The moving team orders fire, movement, melee and
reinforcements; the waiting team, at the same time, orders its opportunity fire (plain,
conditional or standing) and its melee, which the engine applies after the movement.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.core.canonical import clone
from games.core.engine import Engine, Option, Pick, State, revision_of
from games.core.rng import RngBase
from games.core.types import Decision, Event, Orders, OrdersInvalid

from . import board as board_svg
from . import bot, bots, hexmap
from . import report as report_mod
from . import view as view_mod
from .invariants import invariants
from .orders import parse
from .rules import build, turn
from .rules.combat import ranged_block
from .rules.labyrinth import guardian_space
from .rules.movement import move_points
from .state import SEATS, chars, on_map, other, position

# What revision 4 added to the moving team's choices, told where they write their orders.
HOLD_HELP = (" HOLD <character> gives up his melee attack this turn (it does not keep him "
             "from moving).")
# Conceding is typed, never a quick pick: one tap on a phone beside HOLD put it in the box.
SURRENDER_HELP = " SURRENDER, typed on a line of its own, concedes the game for your team."
REVISION_4_HELP = (" A move may stop on the way to trade: MOVE <character> TO <space> TRADE "
                   "<space> carries out his TRADE lines with team-mates there (2 move points "
                   "each) and walks on. Towers are adventured in the order of your CHALLENGE, "
                   "MERCY, HAVOC and MANEUVER lines.")

class DuelOfAgesEngine(Engine):
    name: ClassVar[str] = "duel_of_ages"
    title: ClassVar[str] = "Duel of Ages: Worldspanner"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    hidden_information: ClassVar[bool] = True
    # Random full games per conformance run, over three maps and three limits: 60 take
    # about 85 s of CI's SQLite pass (revision 4 made each game longer); a developer's run
    # draws new seeds every time, and the key-order and revision tests play more.
    conformance_examples: ClassVar[int] = 60
    revision: ClassVar[int] = 4
    revisions: ClassVar[dict[int, str]] = {
        1: "the rules as they were before revisions (every game stored before 1 Dec 2026)",
        2: "opportunity fire: each FIRE line of the waiting team for one character is one "
           "shot's choice, in order (revision 1: the first line governed every shot and "
           "later lines were ignored); a K weapon is spent only on killing an enemy "
           "(revision 1: on any kill, an ally hit by a random target or an area shot "
           "too). Not gated, since old orders mean the same: a platter may be laid "
           "turned (PLATTER ... TURN n, a new order form)",
        3: "the map's outer edge is a cavern wall for sight and throws (before: a line "
           "could run along it); slippery and tunnel rat, special movement, are not used "
           "while riding a mount (before: only special move costs were lost); a built map "
           "lays its pieces out by name, so the map (the order of its pieces, tunnels and "
           "walls) is its placement's alone (revision 2 and before: in the order the "
           "build placed them). Not gated, since no state changes: the characters are "
           "revealed before the labyrinths are placed (before: after the map was built)",
        4: "a guardian turned face up stays face up in its deck, so the deck coming round "
           "to it shows it to both teams (before: a card put under the deck came back face "
           "down); the Adventure phase goes in the order the team writes its CHALLENGE, "
           "MERCY, HAVOC and MANEUVER lines, a chain reaction at once (before: every tower, "
           "then the labyrinths); a trade does not end movement: a TRADE waypoint in a MOVE "
           "trades there and walks on (before: every trade waited for the end of the Move "
           "phase); among the empty domes of the number rolled, the team placing the "
           "character picks by its CHOOSE DOME list (before: the first in the map's order)",
    }
    options: ClassVar[dict[str, Option]] = {
        "team_size": Option(4, min=3, max=10, help="characters per team (the rulebook: usually 4 to 10)"),
        "limit": Option("rounds", choices=("rounds", "clock", "battle"),
                        help="how the game ends: after a number of rounds (option "
                             "rounds); on the clock (option hours of table time at ten "
                             "minutes a team turn: the team on turn finishes, the other "
                             "has one more turn); or the battle variant (until surrender "
                             "or elimination)"),
        "rounds": Option(10, min=6, max=20, help="rounds before the points are counted"),
        "map": Option("skirmish", choices=("skirmish", "standard", "build"),
                      help="the designed skirmish field, the ready-made standard map of "
                           "four platters and ten keys, or building the map by orders"),
        "hours": Option(3, min=2, max=5, help="the clock's limit in hours (limit=clock)"),
        "starting_card": Option(True, choices=(True, False),
                                help="skirmish start: each character begins with one "
                                     "random card (the rulebook's start is empty-handed)"),
    }

    def seat_names(self, count: int) -> list[str]:
        """Neutral seat names: which seat is Team White is the setup's roll-off."""
        return list(SEAT_NAMES[:count])

    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]:
        colours, events = roll_off(seats, rng)
        state, more = turn.setup(seats, self.validate_options(options), rng)
        state["seats"] = colours
        return state, _to_seats(state, events + more)

    def decision(self, state: State) -> Decision | None:
        if state["over"]:
            return None
        if state.get("phase") == "build":
            team = build.builder(state)
            with _map(state):
                example = build.suggest(state["build"]["placement"], state["build"]["step"],
                                        None)
            return Decision(f"map build, step {state['build']['step'] + 1}: Team {team}",
                            {seat_of(state, team): {
                                "title": f"Team {team}: place {build.what(state)}",
                                "help": build.HELP,
                                "choices": example, "example": "\n".join(example)}})
        active = state["active"]
        with _map(state):
            prompts = {seat_of(state, active): self._prompt(state, active, True)}
            if on_map(state, other(active)):
                prompts[seat_of(state, other(active))] = self._prompt(state, other(active),
                                                                      False)
        return Decision(f"round {state['round']}: Team {active} moves", prompts)

    def _prompt(self, state: State, seat: str, moving: bool) -> dict[str, Any]:
        mine = on_map(state, seat)
        first = (mine or chars(state, seat))[0]
        if moving:
            guardians = {guardian_space(state, age, seat) for age in state["labyrinths"]}
            shots = [f"FIRE {k} AT {e}" for k in mine for e in on_map(state, other(seat))
                     if ranged_block(state, k, *position(state, e)) is None]
            choices = shots + [f"FIRE {k}" for k in mine] + [
                _move_form(state, seat, k) for k in mine] + [
                f"REINFORCE {k}" for k in chars(state, seat, "reserve")] + [
                f"CHALLENGE {k}" for k in mine if state["chars"][k]["space"] in guardians]
            return {"title": f"{_you(state, seat)}: fire, move, melee, adventure, reinforce",
                    "help": "Characters who fire do not move. A character on your guardian "
                            "position may CHALLENGE the guardian. Two reserve characters "
                            "enter each turn; REINFORCE picks which." + HOLD_HELP + (
                                REVISION_4_HELP if revision_of(state) >= 4 else "")
                            + SURRENDER_HELP,
                    "choices": choices + [f"HOLD {k}" for k in mine],
                    "example": "\n".join(
                        _move_example(state, seat, mine) +
                        [f"REINFORCE {k}" for k in chars(state, seat, "reserve")[:1]])}
        return {"title": f"{_you(state, seat)}: opportunity fire and melee",
                "help": "Your characters may shoot at enemies who move this turn: FIRE "
                        "<character> takes the shot, IF ENEMY ENTERS LOS THEN FIRE "
                        "<character> only if an enemy moves into his sight, and STANDING "
                        "keeps the order for every later enemy turn (OPFIRE is read as "
                        "FIRE)." + HOLD_HELP,
                "choices": [f"FIRE {k}" for k in mine] + [f"HOLD {k}" for k in mine],
                "example": f"IF ENEMY ENTERS LOS THEN FIRE {first}\nSTANDING OPFIRE {first}"}

    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        if state.get("phase") == "build":
            with _map(state):
                return build.parse(state, seat, text)
        with _map(state):
            got = parse(state, colour_of(state, seat), text)
        return Orders(seat, got.items, got.text, got.default)

    def default_orders(self, state: State, seat: str) -> Orders:
        colour = colour_of(state, seat)
        if state.get("phase") == "build":
            lines = build.suggest(state["build"]["placement"], state["build"]["step"], None)
            return build.parse(state, seat, "\n".join(lines), default=True)
        with _map(state):
            got = parse(state, colour, "\n".join(bots.default_lines(state, colour)),
                        default=True)
        return Orders(seat, got.items, got.text, True)

    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        s = clone(state)
        decision = self.decision(s)
        owed = decision.seats if decision else []
        got: dict[str, Orders] = {}
        events: list[Event] = []
        for seat in owed:
            given = orders.get(seat) or self.default_orders(s, seat)
            got[colour_of(s, seat)] = given
            if given.default:
                events.append(Event("defaulted", {"seat": seat}))
        if s.get("phase") == "build":
            build.apply(s, next(iter(got.values())), events)
        else:
            with _map(s):
                events += turn.play_turn(s, got, rng)
        return s, _to_seats(s, events)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        with _map(state):
            out = view_mod.view(state, colour_of(state, seat))
        out["seats"] = dict(state.get("seats", {c: c for c in SEATS}))
        return out

    def report(self, events: list[Event], viewer: str | None) -> str:
        return report_mod.report(events, viewer)

    def invariants(self, state: State) -> list[str]:
        with _map(state):
            return invariants(state)

    def board(self, view: dict[str, Any]) -> str | None:
        if not view.get("map", {"rows": [1]})["rows"]:
            return None  # nothing placed yet
        with hexmap.using(view.get("map")):
            return board_svg.board(view)

    def result(self, state: State) -> dict[str, Any]:
        winners = [seat_of(state, state["winner"])] if state["winner"] else []
        return {"winners": winners, "summary": state["summary"]}

    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        if state.get("phase") == "build":
            return "\n".join(build.suggest(state["build"]["placement"],
                                           state["build"]["step"], pick))
        with _map(state):
            return "\n".join(bots.random_lines(state, colour_of(state, seat), pick))

    def seat_bot(self, view: dict[str, Any], prompt: dict[str, Any], seat: str,
                 pick: Pick) -> str | None:
        """games/duel_of_ages/bot.py: an aggressive team from the seat's view and prompt."""
        return bot.seat_bot(view, prompt, seat, pick)

    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        with _map(state):
            return view_mod.perturb(state, colour_of(state, seat), pick)


SEAT_NAMES = ("North", "South")


def roll_off(seats: list[str], rng: RngBase) -> tuple[dict[str, str], list[Event]]:
    """Decide Team White: one roll of two dice per team, the higher is White; a tie is
    rolled again. Returns colour -> seat."""
    for attempt in range(1, 100):
        rolls = {seat: sum(rng.dice(f"roll-off/{attempt}/{seat}", 2, 6)) for seat in seats}
        if rolls[seats[0]] != rolls[seats[1]]:
            break
    white = max(seats, key=lambda s: rolls[s])
    black = seats[1] if white == seats[0] else seats[0]
    return {SEATS[0]: white, SEATS[1]: black}, [
        Event("roll_off", {"rolls": rolls, "white": white, "black": black})]


def _map(state: State) -> Any:
    """hexmap.using for the state's map by the state's rules: before revision 3 a line
    of sight could run along the map's outer edge."""
    return hexmap.using(state.get("map"), open_edge=revision_of(state) < 3)


def seat_of(state: State, colour: str) -> str:
    return state.get("seats", {}).get(colour, colour)


def colour_of(state: State, seat: str | None) -> str | None:
    """The team colour a seat plays (the GM "*" and the public None pass through)."""
    for colour, name in state.get("seats", {}).items():
        if name == seat:
            return colour
    return seat


def _to_seats(state: State, events: list[Event]) -> list[Event]:
    """The rules address their secrets to team colours; readers are seats."""
    return [e if e.audience is None else
            Event(e.kind, e.data, tuple(seat_of(state, c) for c in e.audience))
            for e in events]


ENGINE = DuelOfAgesEngine()


def _move_form(state: State, colour: str, char: str) -> str:
    """'MOVE DEX TO <space> — from A2, 5 move points ... (e.g. MOVE DEX TO A3)': where he
    stands and how far he may go, which the bare form left to the board and the README
    (a phone player could not tell which spaces were worth typing)."""
    example = _move_example(state, colour, [char])
    eg = f" (e.g. {example[0]})" if example and example[0].startswith("MOVE ") else ""
    return (f"MOVE {char} TO <space> — from {state['chars'][char]['space']}, "
            f"{move_points(state, char)} move points, by the cheapest route as far as "
            f"they go{eg}")


def _move_example(state: State, colour: str, mine: list[str]) -> list[str]:
    """A MOVE the order form can show as it is: the first neighbouring space that the
    order parser accepts for the team's first character (a fixed space such as F5 may be
    out of reach or cut off by tunnels and walls); HOLD when no step parses."""
    if not mine:
        return []
    first = mine[0]
    for space in hexmap.neighbours(state["chars"][first]["space"]):
        line = f"MOVE {first} TO {space}"
        try:
            parse(state, colour, line)
        except OrdersInvalid:
            continue
        return [line]
    return [f"HOLD {first}"]


def _you(state: State, colour: str) -> str:
    """'You (North) play Team Black': seats are named for where players sit, teams for
    the roll-off's colours, and the prompt is the one place a player reads both."""
    return f"You ({seat_of(state, colour)}) play Team {colour}"
