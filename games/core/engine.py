"""The engine contract every game implements (see ARCHITECTURE.md, "The engine contract").

An engine is a pure object: no Django, no I/O, no clock, no global random. State is a
JSON-compatible value owned by the engine; the service stores `to_json(state)` and
hands back `from_json(...)`. All randomness comes through the `rng` argument.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .canonical import CanonicalError, canonical_json, clone
from .rng import RngBase
from .types import Decision, Event, OptionError, Orders

State = Any
Pick = Callable[[Sequence[Any]], Any]

# -- rules revisions --------------------------------------------------------------------
# A rules fix that changes how a recorded game plays on must not change how a game
# recorded before it replays (rollback, rerun and `games.core.verify` replay records).
# So each engine numbers its rules (`Engine.revision`, with a changelog in
# `Engine.revisions` and the game's README); a new game records the revision it starts
# with under this key, in its options (public: they are in the export) and, copied there
# by every engine's setup (`Engine.__init_subclass__`), at the top level of its state,
# where the rules read it with `revision_of`. A state or options without the key is revision 1, the rules as they were
# before revisions existed, so every game stored before keeps its exact bytes and hashes.
REVISION = "rules_revision"


def revision_of(data: Any) -> int:
    """The rules revision a game plays by, from its state or its options (absent = 1)."""
    return data.get(REVISION, 1) if isinstance(data, dict) else 1


def _stamping(setup: Callable[..., Any]) -> Callable[..., Any]:
    """An engine's setup that also copies the options' rules revision (when they carry
    one) into the new state; options without it (a game recorded before revisions) leave
    the state as it always was."""
    @functools.wraps(setup)
    def stamped(self: Engine, seats: list[str], options: dict[str, Any], rng: RngBase
                ) -> tuple[State, list[Event]]:
        state, events = setup(self, seats, options, rng)
        if options and REVISION in options:
            state[REVISION] = options[REVISION]
        return state, events

    stamped.stamps_revision = True  # type: ignore[attr-defined]
    return stamped


@dataclass(frozen=True)
class Option:
    """A game option: its default and either a list of allowed values or an int range."""

    default: Any
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""
    since: int = 1
    """The rules revision that added the option. A game of an earlier revision is set up
    without it (its options and state keep the bytes they were recorded with) and the
    engine reads its absence as the behaviour from before, which the default must be."""

    def check(self, name: str, value: Any) -> Any:
        if self.choices:
            if value in self.choices:
                return value
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {name!r}: {value!r} is not allowed; choose one of: {allowed}")
        if self.min is not None or self.max is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {name!r} must be a whole number "
                                  f"from {self.min} to {self.max}")
            if (self.min is not None and value < self.min) or \
                    (self.max is not None and value > self.max):
                raise OptionError(f"option {name!r}: {value} is outside {self.min}..{self.max}")
            return value
        if isinstance(self.default, bool) and not isinstance(value, bool):
            raise OptionError(f"option {name!r} must be true or false")
        return value

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"default": self.default, "help": self.help}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        return data


class Engine(ABC):
    """Base class for rules engines. Subclasses set the class attributes and the methods."""

    name: ClassVar[str] = ""  # registry key, e.g. "combat_dice"
    title: ClassVar[str] = ""
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 1
    options: ClassVar[dict[str, Option]] = {}

    # Whether the game hides anything from some seat (hands, decks, plans, standing
    # orders). The service refuses a GM a seat in such a game, because the GM sees
    # everything. Engines set False only where nothing at all is hidden.
    hidden_information: ClassVar[bool] = True

    # The current rules revision (see REVISION above) and what each one changed. Bump it
    # when a rules fix changes how a game already recorded would go on, gate the fix on
    # `revision_of(state) >= N`, and say what changed here and in the game's README.
    revision: ClassVar[int] = 1
    revisions: ClassVar[dict[int, str]] = {1: "the rules as they were before revisions"}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        setup = cls.__dict__.get("setup")
        if setup is not None and not getattr(setup, "stamps_revision", False):
            cls.setup = _stamping(setup)  # type: ignore[method-assign]

    # -- seats and options ----------------------------------------------------
    def seat_names(self, count: int) -> list[str]:
        """Seat identifiers for a game of `count` players (override for themed names)."""
        return [f"P{i + 1}" for i in range(count)]

    # Seats that owe orders but are never a player's: played by the game's GM (e.g.
    # gm_adjudicated's "GM", whose orders are the adjudication). The service never shows
    # them vacant or offers them to players; the conformance suite allows them in a
    # decision.
    pseudo_seats: ClassVar[tuple[str, ...]] = ()
    # Orders in the player's own words (no order language): mail takes them whole (to
    # END, a signature or a quote) and the order card offers no buttons.
    free_text_orders: ClassVar[bool] = False

    def seat_names_for(self, count: int, options: dict[str, Any] | None) -> list[str]:
        """Seat names for `count` players of a game with `options` (an engine whose GM
        names the seats reads them here); by default `seat_names(count)`."""
        return self.seat_names(count)

    def named_seat_count(self, options: dict[str, Any] | None) -> int:
        """How many seats `options` name (0: the engine names them)."""
        return 0

    def seats_in_play(self, state: Any, seats: list[str]) -> list[str]:
        """The seats of a game set up with `seats` that may owe orders or read a view
        now (an engine whose seats join later lists them here); pseudo seats apart."""
        return list(seats)

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults; raise OptionError naming the option and allowed values.

        The rules revision, when given, is kept and checked; without it the game is of
        revision 1 and options added by later revisions are neither filled nor allowed.
        """
        options = dict(options or {})
        given = REVISION in options
        revision = options.pop(REVISION, 1)
        if isinstance(revision, bool) or not isinstance(revision, int) or \
                not 1 <= revision <= self.revision:
            raise OptionError(f"option {REVISION!r}: {revision!r} is not a rules revision of "
                              f"{self.title or self.name} (1 to {self.revision})")
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise OptionError(f"unknown option {unknown[0]!r}; this game's options are: {known}")
        later = sorted(n for n in options if self.options[n].since > revision)
        if later:
            raise OptionError(f"option {later[0]!r} came with rules revision "
                              f"{self.options[later[0]].since}; this game plays revision "
                              f"{revision}")
        valid = {name: opt.check(name, options.get(name, opt.default))
                 for name, opt in self.options.items() if opt.since <= revision}
        if given:
            valid[REVISION] = revision
        return valid

    def new_game_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """The options of a game starting now: validated, at the current rules revision."""
        return self.validate_options({**(options or {}), REVISION: self.revision})

    # -- the contract ---------------------------------------------------------
    @abstractmethod
    def setup(self, seats: list[str], options: dict[str, Any], rng: RngBase
              ) -> tuple[State, list[Event]]: ...

    @abstractmethod
    def decision(self, state: State) -> Decision | None: ...

    @abstractmethod
    def parse_orders(self, state: State, seat: str, text: str) -> Orders:
        """Parse the order language; raise OrdersInvalid with every error. Never mutates."""

    @abstractmethod
    def default_orders(self, state: State, seat: str) -> Orders: ...

    @abstractmethod
    def resolve(self, state: State, orders: dict[str, Orders], rng: RngBase
                ) -> tuple[State, list[Event]]:
        """Deterministic given its inputs; must not mutate `state` (return a new one)."""

    @abstractmethod
    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """What `seat` (None = the public, "*" = the GM) may see. The only door out."""

    @abstractmethod
    def report(self, events: list[Event], viewer: str | None) -> str:
        """Markdown narration of the events `viewer` may see."""

    @abstractmethod
    def invariants(self, state: State) -> list[str]:
        """Problems with the state (empty list when sound)."""

    def to_json(self, state: State) -> Any:
        return clone(state)

    def from_json(self, data: Any) -> State:
        """The state, every object's keys in sorted order whatever order `data` has.

        A stored state comes back in its store's key order (PostgreSQL's jsonb: shorter
        keys first; a GM's amendment: its author's), while run_setup/run_turn hand out
        states with sorted keys. Read back in that one order, a state gives the same
        prompts, views, boards and resolution wherever it was kept. Engines that keep
        their own state type override this and must read it in one order likewise.
        """
        return json.loads(canonical_json(data))

    def canonical(self, state: State) -> tuple[State, str]:
        """`state` in the one key order states are handed out in, and its canonical text:
        `from_json(json.loads(text))` with `text = canonical_json(to_json(state))`, the
        text every state hash is the SHA-256 of (games.core.replay).

        The base class's to_json only copies, which canonical_json does not need (it
        reads the state without changing it), and its from_json only sorts and checks,
        which a text written by canonical_json already is: so for an engine that keeps
        them the state is encoded once and read back once (games.core.replay.run_turn
        used to encode each state five times and read it four: issue 14). A state that
        canonical_json refuses as it is (an int key, which the copy's JSON round trip
        turns into a string) goes through to_json, as before; an engine that overrides
        to_json or from_json gets them called, as before.
        """
        own = type(self)
        if own.to_json is not Engine.to_json:
            text = canonical_json(self.to_json(state))
        else:
            try:
                text = canonical_json(state)
            except CanonicalError:
                text = canonical_json(self.to_json(state))
        data = json.loads(text)
        return (data if own.from_json is Engine.from_json else self.from_json(data)), text

    def read(self, data: Any) -> tuple[State, str]:
        """A stored state: `from_json(data)`, and its canonical text, exactly what
        `canonical(from_json(data))` gives (the service hands both to run_turn, so a
        resolution reads its game's state in one pass).

        For an engine keeping the base to_json and from_json that is `canonical(data)`:
        from_json only sorts the keys and checks the values, which the canonical text
        already does, so the stored JSON is encoded once and read back once instead of
        twice each. An engine overriding either gets them called, as before.
        """
        own = type(self)
        if own.to_json is Engine.to_json and own.from_json is Engine.from_json:
            return self.canonical(data)
        return self.canonical(self.from_json(data))

    def is_over(self, state: State) -> bool:
        return self.decision(state) is None

    def board(self, view: dict[str, Any]) -> str | None:
        """A picture of a view (the game page shows it), or None for no picture: an SVG
        element, or an HTML fragment (one `div`, `section` or `figure`) where text that
        wraps reads better on a phone than a scaled drawing. Either is well-formed XML
        with no script, style element or event attribute, since the page inserts it as is.

        Built from the view only, so it can never show more than the reader may see.
        """
        return None

    def result(self, state: State) -> dict[str, Any]:
        """When over: {"winners": [...], "summary": "..."} for the lobby and the log."""
        return {"winners": [], "summary": ""}

    # -- hooks for the conformance suite ------------------------------------------
    @abstractmethod
    def random_orders(self, state: State, seat: str, pick: Pick) -> str:
        """A legal order text for `seat`, choosing with `pick` (a Hypothesis draw in tests)."""

    def perturb_hidden(self, state: State, seat: str | None, pick: Pick) -> State | None:
        """A state differing from `state` only in what `seat` may not see, or None.

        The conformance suite asserts `view(perturbed, seat) == view(state, seat)`.
        Engines with hidden information must override this.
        """
        return None

    def bot_orders(self, state: State, seat: str, pick: Pick) -> str:
        """Orders for demo/bench bots; defaults to random legal orders."""
        return self.random_orders(state, seat, pick)

    def seat_bot(self, view: dict[str, Any], prompt: dict[str, Any], seat: str,
                 pick: Pick) -> str | None:
        """Orders a bot sends for `seat`, decided from the seat's view and prompt only.

        The service calls it through `games.core.bots.bot_text` for seats played by a
        bot (civil disorder, a bot chosen at creation, a vacation left to the bot). It
        must not reach hidden state: it is given none. None means this engine has no
        bot; the service then plays `default_orders`.
        """
        return None
