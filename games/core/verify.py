"""`python -m games.core.verify FILE.json`: check an exported game and print a verdict.

Exit status 0 when every draw, order and state hash checks out, 1 on a mismatch or a
malformed export, 2 when the file cannot be read.

Anyone may upload an export (the `/verify/` page, `POST /api/verify/`), so whatever the
input, `verify_record` and `verify_bytes` return a Verdict: a malformed export is a
failed verdict that says what is wrong, never an exception.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .registry import UnknownRuleset, get
from .replay import FORMAT, Mismatch, Verdict, replay

MAX_DEPTH = 100  # states are a few levels deep; deeper input is refused before replay
MAX_TURNS = 100_000


class Malformed(ValueError):
    """The export is not shaped like one; the message names the part."""


class NotAnExport(Malformed):
    """Not even trying to be an export (another JSON document)."""


def _fail(message: str) -> Verdict:
    return Verdict(False, 0, None, error=message)


def _depth_ok(data: Any, limit: int = MAX_DEPTH) -> bool:
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > limit:
                return False
            stack.extend((v, depth + 1) for v in (node.values() if isinstance(node, dict)
                                                   else node))
    return True


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise Malformed(message)


def _check_draws(draws: Any, where: str) -> None:
    _need(isinstance(draws, list), f"{where}: \"draws\" must be a list")
    for i, draw in enumerate(draws):
        _need(isinstance(draw, dict) and {"i", "label", "kind", "args", "result"} <= set(draw)
              and isinstance(draw["args"], list),
              f"{where}: draw {i} needs i, label, kind, args (a list) and result")


def check_shape(record: Any) -> None:
    """Raise Malformed for the first part of `record` that is not shaped like an export."""
    if not isinstance(record, dict):
        raise NotAnExport("not a game export (expected a JSON object)")
    if record.get("format") != FORMAT:
        raise NotAnExport(f"not a {FORMAT} export")
    _need(_depth_ok(record), f"the export is nested more than {MAX_DEPTH} levels deep")
    _need(isinstance(record.get("ruleset"), str), "\"ruleset\" must be a ruleset name")
    seats = record.get("seats")
    _need(isinstance(seats, list) and all(isinstance(s, str) for s in seats),
          "\"seats\" must be a list of seat names")
    _need(isinstance(record.get("options", {}), dict), "\"options\" must be an object")
    sha = record.get("secret_sha256")
    _need(isinstance(sha, str), "\"secret_sha256\" must be a string")
    _need(record.get("secret") is None or isinstance(record["secret"], str),
          "\"secret\" must be a string when present")
    setup = record.get("setup")
    _need(isinstance(setup, dict), "\"setup\" must be an object with draws and state_hash")
    _check_draws(setup.get("draws"), "setup")
    _need(isinstance(setup.get("state_hash"), str), "setup: \"state_hash\" must be a string")
    turns = record.get("turns")
    _need(isinstance(turns, list), "\"turns\" must be a list")
    _need(len(turns) <= MAX_TURNS, f"more than {MAX_TURNS} turns")
    for k, turn in enumerate(turns):
        where = f"turn entry {k + 1}"
        _need(isinstance(turn, dict), f"{where} must be an object")
        number = turn.get("number")
        _need(isinstance(number, int) and not isinstance(number, bool),
              f"{where}: \"number\" must be a whole number")
        where = f"turn {number}"
        orders = turn.get("orders")
        _need(isinstance(orders, dict), f"{where}: \"orders\" must be an object by seat")
        for seat, o in orders.items():
            _need(isinstance(o, dict) and {"seat", "items", "text"} <= set(o),
                  f"{where}: the orders of {seat} need seat, items and text")
        _need(isinstance(turn.get("overrides") or {}, dict),
              f"{where}: \"overrides\" must be an object")
        amendments = turn.get("amendments", [])
        _need(isinstance(amendments, list), f"{where}: \"amendments\" must be a list")
        for a in amendments:
            _need(isinstance(a, dict) and {"from_hash", "state", "to_hash"} <= set(a),
                  f"{where}: each amendment needs from_hash, state and to_hash")
        _check_draws(turn.get("draws"), where)
        _need(isinstance(turn.get("before_hash"), str) and isinstance(turn.get("after_hash"),
                                                                       str),
              f"{where}: \"before_hash\" and \"after_hash\" must be strings")
    _need(record.get("final_hash") is None or isinstance(record["final_hash"], str),
          "\"final_hash\" must be a string when present")


def verify_record(record: Any) -> Verdict:
    try:
        check_shape(record)
    except NotAnExport as exc:
        return _fail(str(exc))
    except Malformed as exc:
        return _fail(f"malformed export: {exc}")
    try:
        engine = get(record["ruleset"])
    except UnknownRuleset as exc:
        return _fail(str(exc))
    seats = record["seats"]
    if not engine.min_seats <= len(seats) <= engine.max_seats:
        return _fail(f"malformed export: {engine.title} is played by {engine.min_seats} to "
                     f"{engine.max_seats} seats, the export has {len(seats)}")
    try:
        engine.validate_options(record.get("options", {}))
    except Exception as exc:  # noqa: BLE001 - OptionError or an engine's own complaint
        return _fail(f"malformed export: options: {exc}")
    try:
        _, verdict = replay(engine, record)
    except Mismatch as exc:
        return _fail(str(exc))
    except RecursionError:
        return _fail("malformed export: nested too deeply to replay")
    except Exception as exc:  # noqa: BLE001 - the engine met data no real game produces
        return _fail(f"malformed export: replay stopped on {type(exc).__name__}: {exc}"[:500])
    return verdict


def verify_bytes(data: bytes) -> Verdict:
    """Verify an export given as the bytes of its JSON file."""
    try:
        record = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        return _fail("not a JSON file: it is not UTF-8 text")
    except json.JSONDecodeError as exc:
        return _fail(f"not a JSON file: {exc}")
    except RecursionError:
        return _fail(f"malformed export: nested more than {MAX_DEPTH} levels deep")
    return verify_record(record)


def format_verdict(verdict: Verdict) -> str:
    if not verdict.ok:
        return f"MISMATCH: {verdict.error}"
    lines = [f"OK: {verdict.checked_turns} turns replayed, final state {verdict.final_hash}"]
    lines.append("every draw recomputed from the revealed secret" if verdict.secret_checked
                 else "secret not revealed yet: draws checked for consistency only")
    lines.extend(f"note: {n}" for n in verdict.notes)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.core.verify", description=__doc__)
    parser.add_argument("file", help="a game export (GET /api/games/<id>/export/)")
    args = parser.parse_args(argv)
    try:
        with open(args.file, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    verdict = verify_bytes(data)
    if verdict.error and verdict.error.startswith("not a JSON file"):
        print(f"cannot read {args.file}: {verdict.error}", file=sys.stderr)
        return 2
    print(format_verdict(verdict))
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
