"""Structured state edits: a game's JSON state as a list of typed fields, and patches.

The GM never edits raw JSON: the amend form shows one field per scalar leaf of the
state (addressed by an RFC 6901 JSON pointer such as ``/pos/P1``), and a change becomes a
patch ``[{"path", "from", "to"}]``. A patch may only change existing leaves and keep each
leaf's type, so an amendment cannot smuggle in a shape the engine does not know; the
engine's invariants check the meaning.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

from games.core.rng import Rng
from gm.play.errors import ActionError

SCALARS = (bool, int, float, str, type(None))


class PatchError(ActionError):
    """A patch entry that cannot be applied; the message names the path."""


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return "null"


def fields(state: Any, prefix: str = "") -> list[dict[str, Any]]:
    """Every scalar leaf of `state`: [{"path", "kind", "value"}] in document order."""
    out: list[dict[str, Any]] = []
    if isinstance(state, dict):
        for key, value in state.items():
            out.extend(fields(value, f"{prefix}/{_escape(str(key))}"))
    elif isinstance(state, list):
        for index, value in enumerate(state):
            out.extend(fields(value, f"{prefix}/{index}"))
    else:
        out.append({"path": prefix or "/", "kind": kind_of(state), "value": state})
    return out


def _parts(path: str) -> list[str]:
    if not isinstance(path, str) or not path.startswith("/"):
        raise PatchError(f"{path!r} is not a state path (paths look like /pos/P1)")
    return [_unescape(p) for p in path[1:].split("/")]


def get(state: Any, path: str) -> Any:
    node = state
    for token in _parts(path):
        node = _step(node, token, path)
    return node


def _step(node: Any, token: str, path: str) -> Any:
    if isinstance(node, dict):
        if token not in node:
            raise PatchError(f"{path}: the state has no {token!r} there")
        return node[token]
    if isinstance(node, list):
        if not token.isdigit() or int(token) >= len(node):
            raise PatchError(f"{path}: {token!r} is not an index of that list "
                             f"(0..{len(node) - 1})")
        return node[int(token)]
    raise PatchError(f"{path}: cannot go inside a {kind_of(node)} value")


def coerce(kind: str, raw: Any, path: str) -> Any:
    """A form string (or JSON value) turned into a leaf of `kind`; PatchError if it cannot."""
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off", ""):
            return False
        raise PatchError(f"{path}: {raw!r} is not true or false")
    if kind == "int":
        if isinstance(raw, bool):
            raise PatchError(f"{path}: expected a whole number, got {raw!r}")
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise PatchError(f"{path}: expected a whole number, got {raw!r}") from None
        return value
    if kind == "float":
        try:
            return float(str(raw).strip())
        except ValueError:
            raise PatchError(f"{path}: expected a number, got {raw!r}") from None
    if kind == "str":
        return "" if raw is None else str(raw)
    if raw in (None, "", "null"):
        return None
    raise PatchError(f"{path}: this field is always empty (null) and cannot be set")


def apply(state: Any, changes: list[dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """A new state with `changes` ([{"path", "value"}]) applied, and the patch it made.

    Unchanged values are dropped from the patch; an empty patch is an error because an
    amendment must change something.
    """
    if not isinstance(changes, list) or not changes:
        raise PatchError("an amendment needs at least one change")
    new = copy.deepcopy(state)
    patch: list[dict[str, Any]] = []
    for change in changes:
        if not isinstance(change, dict) or "path" not in change or "value" not in change:
            raise PatchError('each change needs a "path" and a "value"')
        path = change["path"]
        old = get(new, path)
        if not isinstance(old, SCALARS):
            raise PatchError(f"{path}: only single values can be changed, not a whole "
                             f"{'list' if isinstance(old, list) else 'object'}")
        value = coerce(kind_of(old), change["value"], path)
        if value == old and kind_of(value) == kind_of(old):
            continue
        parts = _parts(path)
        parent = get(new, "/" + "/".join(_escape(p) for p in parts[:-1])) if len(parts) > 1 \
            else new
        key: Any = int(parts[-1]) if isinstance(parent, list) else parts[-1]
        parent[key] = value
        patch.append({"path": path, "from": old, "to": value})
    if not patch:
        raise PatchError("nothing changed: every value is the same as in the current state")
    return new, patch


def check_readable(engine: Any, state_json: Any, seats: list[str]) -> None:
    """Refuse (PatchError) a state that some page, API answer or turn would fail on.

    The engine's invariants check the rules; this checks, for any engine and any field,
    that everything the service builds from a stored state still works: the decision and
    its prompts, the default orders of every owing seat, each seat's view, the public and
    the GM's view, their board pictures, that every view is plain JSON, and that the turn
    resolves on default orders (with throwaway dice: nothing of the game's own stream is
    drawn or shown). So an accepted amendment can never break the game page, the API or
    the next resolution.
    """
    try:
        state = engine.from_json(copy.deepcopy(state_json))  # resolve below must not touch it
        if engine.invariants(state):
            return  # make_amendment refuses it, naming the broken rules
        decision = engine.decision(state)
        for viewer in (None, "*", *seats):
            view = engine.view(state, viewer)
            json.dumps(view, allow_nan=False)
            engine.board(view)
        if decision is not None:
            json.dumps(decision.to_json())
            defaults = {seat: engine.default_orders(state, seat) for seat in decision.seats}
            engine.resolve(state, defaults, Rng(os.urandom(32), "amendment-check"))
    except PatchError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever the engine raises, refuse the edit
        raise PatchError(f"the amended state cannot be shown or played "
                         f"({type(exc).__name__}: {exc}); nothing was changed") from None
