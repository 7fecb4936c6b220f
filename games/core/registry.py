"""Registry of rules engines.

Each package `games.<name>` that has an `engine.py` defining `ENGINE` is discovered
automatically, so a new game is picked up by the service and the conformance suite
without touching either.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import games

from .engine import Engine


class UnknownRuleset(KeyError):
    pass


@cache
def engines() -> dict[str, Engine]:
    found: dict[str, Engine] = {}
    for module in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        if not module.ispkg or module.name == "core":
            continue
        try:
            mod = importlib.import_module(f"games.{module.name}.engine")
        except ModuleNotFoundError as exc:
            if exc.name == f"games.{module.name}.engine":
                continue
            raise
        engine = getattr(mod, "ENGINE", None)
        if isinstance(engine, Engine):
            found[engine.name] = engine
    return found


def get(name: str) -> Engine:
    try:
        return engines()[name]
    except KeyError:
        known = ", ".join(sorted(engines())) or "none"
        raise UnknownRuleset(f"unknown ruleset {name!r}; known rulesets: {known}") from None
