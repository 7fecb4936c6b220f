"""The working context of one turn's resolution: state, dice, orders and the event log.

Every rule module takes a `Ctx`. It is the one place that rolls dice (with labels that
name the hero and the reason), records events with the right audience, deals damage
(and the potion a hero ordered to drink when hurt), and finds the order that answers a
situation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core.engine import revision_of
from games.core.rng import RngBase
from games.core.types import Event

from .. import content
from .. import orders as orderbook
from ..content import parse_spec
from ..state import Char, State


class Ctx:
    def __init__(self, state: State, items: dict[str, list[dict[str, Any]]],
                 rng: RngBase) -> None:
        self.state = state
        self.items = items
        self.rng = rng
        # The tables of the game's rules revision: every rule reads content through here.
        self.content = content.of(state)
        # The rules revision: a rule changed by a later revision asks `revision >= N`.
        self.revision = revision_of(state)
        self.events: list[Event] = []
        self.phase = "turn"
        self.stopped: set[str] = set()   # heroes whose turn has ended
        self.looters: set[str] = set()   # heroes who take treasure in the chamber this turn
        self.missed: set[str] = set()    # seats that sent no orders (default orders)
        self.cards: dict[str, str] = {}  # the card each hero just drew (IF <card> THEN ...)

    # -- basics ------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.state["turn"]

    def ch(self, seat: str) -> Char:
        return self.state["chars"][seat]

    def stat(self, seat: str, name: str) -> int:
        return self.content.heroes[self.ch(seat)["hero"]][name]

    def ability(self, seat: str) -> str:
        return self.content.heroes[self.ch(seat)["hero"]]["ability"]

    def say(self, seat: str | None, text: str, *, public: bool = False, kind: str = "line",
            **data: Any) -> None:
        payload = {"seat": seat, "phase": self.phase, "text": text, **data}
        audience = None if public or seat is None else (seat,)
        self.events.append(Event(kind, payload, audience))

    def die(self, seat: str, label: str, sides: int) -> int:
        return self.rng.die(f"{label}/{seat}", sides)

    # -- orders ------------------------------------------------------------------
    def answer(self, seat: str, situation: str, facts: dict[str, Any] | None = None,
               **kw: Any) -> dict[str, Any] | None:
        ch = self.ch(seat)
        facts = {"card": self.cards.get(seat), **(facts or {})}
        order = orderbook.answer(self.items.get(seat, []), situation, facts, ch,
                                 self.turn, **kw)
        if order is not None and order["op"] == "use" and order["ring"] not in ch["rings"]:
            return None
        if order is not None and order["op"] == "drink" and not ch["potion"]:
            return None
        return order

    def use_ring(self, seat: str, ring: str, why: str) -> None:
        self.ch(seat)["rings"].remove(ring)
        self.say(seat, f"Uses the {self.content.rings[ring]['name']} {why}.")

    # -- tests and harm ----------------------------------------------------------
    def lucky(self, seat: str, kind: str, label: str, sides: int, roll: int,
              bad: Callable[[int], bool], what: str) -> int:
        """The Ring of Luck replaces one die roll: if `roll` is bad for the hero and an
        order names this kind of roll (or any roll), the ring is spent and the die is
        rolled again; the new result stands."""
        ch = self.ch(seat)
        if "luck" not in ch["rings"] or not bad(roll):
            return roll
        order = self.answer(seat, "luck", {"fail": kind == "check", "what": kind},
                            allowed={"use:luck:any", f"use:luck:{kind}"})
        if order is None:
            return roll
        self.use_ring(seat, "luck", f"to replace the {what} roll of {roll}")
        new = self.die(seat, label + "/luck", sides)
        self.say(seat, f"{what[0].upper()}{what[1:]} again: d{sides} rolls {new}.", roll=new)
        return new

    def check(self, seat: str, label: str, sides: int, target: int, what: str) -> bool:
        """Roll `sides` needing `target` or less (the Ring of Luck may replace a failure)."""
        roll = self.die(seat, label, sides)
        self.say(seat, f"{what}: d{sides} rolls {roll} against {target} - "
                       f"{'success' if roll <= target else 'failure'}.", roll=roll)
        rings = len(self.ch(seat)["rings"])
        roll = self.lucky(seat, "check", label, sides, roll, lambda r: r > target,
                          what.split(" (")[0].lower())
        if len(self.ch(seat)["rings"]) < rings:  # the Ring of Luck replaced the roll
            self.say(seat, f"{what}: {'success' if roll <= target else 'failure'}.")
        return roll <= target

    def roll_spec(self, seat: str, spec: str, label: str, *, luck: str | None = None
                  ) -> tuple[int, str]:
        """Roll a dice spec. `luck="damage"`: a single die rolled high (Life Points lost)
        may be replaced with the Ring of Luck."""
        count, sides, mod = parse_spec(spec)
        rolls = [self.die(seat, f"{label}#{i + 1}" if count > 1 else label, sides)
                 for i in range(count)]
        if luck and count == 1:
            rolls = [self.lucky(seat, luck, label, sides, rolls[0],
                                lambda r: r > sides // 2, "damage")]
        if isinstance(mod, str):
            sign = -1 if mod[0] == "-" else 1
            mod_value = sign * self.stat(seat, mod[1:])
        else:
            mod_value = mod
        total = max(0, sum(rolls) + mod_value)
        shown = "+".join(str(r) for r in rolls)
        if rolls and mod_value:
            shown = f"{shown}{mod_value:+d}"
        elif not rolls:
            shown = str(mod_value)
        return total, shown

    def harm(self, seat: str, source: str, label: str | None = None) -> bool:
        """Damage from a named source in the harm table; True if the hero still lives."""
        entry = self.content.harm[source]
        amount, shown = self.roll_spec(seat, entry["damage"], label or f"harm/{source}",
                                       luck="damage")
        return self.hurt(seat, amount, f"{entry['name']} ({entry['damage']}: {shown})")

    def hurt(self, seat: str, amount: int, cause: str) -> bool:
        ch = self.ch(seat)
        if ch["status"] != "in":
            return False
        if amount <= 0:
            self.say(seat, f"{cause[0].upper()}{cause[1:]}: no harm done.")
            return True
        ch["life"] = max(0, ch["life"] - amount)
        self.say(seat, f"{cause[0].upper()}{cause[1:]}: loses {amount} Life "
                       f"Point{'s' if amount != 1 else ''} ({ch['life']} left).",
                 damage=amount)
        if ch["life"] <= 0:
            # the public line names the cause, never the dice (they are the hero's own)
            self.kill(seat, cause.split(" (")[0])
            return False
        if ch["potion"] and self.answer(seat, "hurt", {}, plain=False) is not None:
            self.drink(seat)
        return True

    def drink(self, seat: str) -> None:
        """Drink the carried potion: a d12 on the potion table decides what it was.

            A method here rather than a rule module's function because `hurt` drinks when
            an order says so, and every rule module hurts heroes."""
        ch = self.ch(seat)
        ch["potion"] = False
        roll = self.die(seat, "potion", 12)
        roll = self.lucky(seat, "potion", "potion", 12, roll,
                         lambda r: not ({"heal", "full"} & set(self.content.potion_row(r))), "potion")
        row = self.content.potion_row(roll)
        self.say(seat, f"Drinks the potion (d12 rolls {roll}): {row['name']}.", roll=roll)
        if row.get("full"):
            gained = self.heal(seat, ch["max_life"])
            self.say(seat, f"Regains {gained} Life Points ({ch['life']}/{ch['max_life']}).")
        if "heal" in row:
            amount, shown = self.roll_spec(seat, row["heal"], "potion/heal")
            gained = self.heal(seat, amount)
            self.say(seat, f"Heals {row['heal']} ({shown}): regains {gained} Life Points "
                          f"({ch['life']}/{ch['max_life']}).")
        if "damage" in row:
            amount, shown = self.roll_spec(seat, row["damage"], "potion/harm")
            self.hurt(seat, amount, f"the poison ({row['damage']}: {shown})")
        if row.get("skip"):
            ch["skip"] += row["skip"]
            self.say(seat, f"Falls asleep: will miss {row['skip']} turn.")

    def heal(self, seat: str, amount: int) -> int:
        ch = self.ch(seat)
        gained = max(0, min(amount, ch["max_life"] - ch["life"]))
        ch["life"] += gained
        return gained

    def kill(self, seat: str, cause: str) -> None:
        ch = self.ch(seat)
        ch["status"] = "dead"
        ch["life"] = 0
        ch["pending"] = None
        ch["spider"] = ch["torch"] = ch["trapdoor"] = False
        ch["skip"] = 0
        ch["fate"] = f"perished in {ch['pos']} on turn {self.turn}"
        self.stopped.add(seat)
        self.looters.discard(seat)
        self.say(seat, f"**{ch['name']} has perished in {ch['pos']}** ({cause}).",
                 public=True, kind="death")

    def escape_dungeon(self, seat: str, tower: str, *, sunset: bool = False) -> None:
        ch = self.ch(seat)
        ch["status"] = "escaped"
        ch["pos"] = tower
        ch["pending"] = None
        ch["spider"] = ch["torch"] = ch["trapdoor"] = False
        ch["skip"] = 0
        self.stopped.add(seat)
        if sunset:
            ch["fate"] = f"was safe in the corner room {tower} at sunset"
            self.say(seat, f"**{ch['name']} is safe in the corner room at {tower} when night "
                           f"falls, and is out of the dungeon!**", public=True, kind="escape")
            return
        ch["fate"] = f"escaped through the tower {tower} on turn {self.turn}"
        self.say(seat, f"**{ch['name']} climbs out through the tower at {tower} and has "
                       f"escaped the dungeon!**", public=True, kind="escape")
