"""`python -m games.core.verify FILE.json`: check an exported game and print a verdict.

Exit status 0 when every draw, order and state hash checks out, 1 on a mismatch,
2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .registry import UnknownRuleset, get
from .replay import FORMAT, Mismatch, Verdict, replay


def verify_record(record: dict[str, Any]) -> Verdict:
    if record.get("format") != FORMAT:
        return Verdict(False, 0, None, error=f"not a {FORMAT} export")
    try:
        engine = get(record["ruleset"])
    except UnknownRuleset as exc:
        return Verdict(False, 0, None, error=str(exc))
    try:
        _, verdict = replay(engine, record)
    except Mismatch as exc:
        return Verdict(False, 0, None, error=str(exc))
    except (KeyError, TypeError, ValueError) as exc:
        return Verdict(False, 0, None, error=f"malformed export: {exc!r}")
    return verdict


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
        with open(args.file, encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    verdict = verify_record(record)
    print(format_verdict(verdict))
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
