"""The seat bot: a careful roller, decided from the seat's view and prompt only.

Every choice it makes is one of the prompt's legal lines. The Number only ever falls
until someone overshoots, so the bot rolls the die most likely to come in at or under
the Number (counting the faces each die shows in the view), and with no Number set it
rolls the die with the lowest numbers, leaving the next roller a low Number to beat.
In the draft it takes low dice; reading a die that rests between sides it takes the
lowest number that does not overshoot; its own effects go to an opponent or an
opponent's die, never to itself; it recalls from its wasteland rather than skip,
protects itself with a Nut, saves its General, takes back a pair, and subtracts its
Smile. Of the Legions the prompt offers it takes the one with most dice. Other choices
(a triangle's die, a chaos's order, a duel's die) it makes with `pick`.
"""

from __future__ import annotations

from typing import Any

from games.core.engine import Pick


def _numbers(face: str) -> list[int]:
    """The numbers a face may read as ('10|DOUBLE-ARROW' rests between two sides)."""
    return [int(p) for p in face.split("|") if p.isdigit()]


def _faces(view: dict[str, Any], die: str) -> list[str]:
    return (view["dice"].get(die) or {}).get("faces") or []


def _mean(view: dict[str, Any], die: str) -> float:
    nums = [n for f in _faces(view, die) for n in _numbers(f)]
    return sum(nums) / len(nums) if nums else 99.0


def _safe(view: dict[str, Any], die: str, number: int | None) -> float:
    """The share of the die's faces that do not overshoot `number` (icons do not)."""
    faces = _faces(view, die)
    if not faces:
        return 0.0
    ok = sum(1 for f in faces if not _numbers(f) or min(_numbers(f)) <= (number or 99))
    return ok / len(faces)


def _owner(view: dict[str, Any]) -> dict[str, str]:
    return {d["die"]: who for who, p in view["players"].items()
            for place in ("garden", "field", "wasteland") for d in p.get(place, [])}


def seat_bot(view: dict[str, Any], prompt: dict[str, Any], seat: str, pick: Pick) -> str:
    choices: list[str] = list(prompt.get("choices") or [])
    pending = view.get("pending") or {}
    kind = pending.get("kind")
    number = view.get("number")
    if not choices:
        return ""
    arg = {c: c.split()[-1] for c in choices}
    if kind == "roll":
        def rank(c: str) -> tuple[float, float]:
            die = c.split()[1]
            if number is None:
                return (0.0, _mean(view, die))
            return (-_safe(view, die, number), -_mean(view, die))
        best = min(rank(c) for c in choices)
        return pick([c for c in choices if rank(c) == best])
    if kind == "draft":
        best_mean = min(_mean(view, arg[c]) for c in choices)
        return pick([c for c in choices if _mean(view, arg[c]) == best_mean])
    if kind == "read":
        def value(c: str) -> tuple[int, int]:
            nums = _numbers(arg[c])
            if not nums:
                return (1, 0)  # an icon: no overshoot
            n = nums[0]
            return (0 if number is None or n <= number else 2, n)
        return min(choices, key=value)
    if kind == "icon":
        recall = [c for c in choices if c.startswith("RECALL")]
        return pick(recall) if recall else "SKIP"
    if kind == "react":
        window = pending.get("window")
        takers = [c for c in choices if not c.startswith("PASS")]
        if window == "smile":
            minus = [c for c in takers if " - " in c]
            return minus[0] if minus else choices[0]
        if window in ("nut", "pair", "instead") and takers:
            return pick(takers)
        return next((c for c in choices if c.startswith("PASS")), choices[0])
    if kind == "target":
        owner = _owner(view)
        seats = set(view["seats"])

        def hostile(c: str) -> bool:
            target = arg[c]
            if target in seats:
                return target != seat
            return owner.get(target, "") != seat
        if pending.get("effect") in ("copy", "radiation"):
            return pick(choices)
        good = [c for c in choices if hostile(c)]
        return pick(good or choices)
    if kind == "legion":
        # the biggest Legion offered: more dice, more rolls before the last one is lost
        size = {c: len(c.split("\n")[0].split()) for c in choices}
        return pick([c for c in choices if size[c] == max(size.values())])
    return pick(choices)
