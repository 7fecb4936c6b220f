"""The engine core: contract, RNG, canonical JSON, order language, replay, registry."""

from .canonical import canonical_json, clone, state_hash
from .engine import Engine, Option
from .orders import Grammar, OrderSyntax
from .rng import Draw, Rng, RngBase, ScriptedRng
from .types import Decision, Event, OptionError, OrderError, Orders, OrdersInvalid

__all__ = [
    "Decision", "Draw", "Engine", "Event", "Grammar", "Option", "OptionError", "OrderError",
    "OrderSyntax", "Orders", "OrdersInvalid", "Rng", "RngBase", "ScriptedRng",
    "canonical_json", "clone", "state_hash",
]
