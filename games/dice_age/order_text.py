"""How a parsed Dice Age order reads as text: the one spelling the parser, the reports and
the rules (a standing order that fires is reported as its text) all use.

It sits below both the order language and the rules, so the rules never import the
order language that itself asks the rules what is legal.
"""

from __future__ import annotations

from typing import Any

from .dice import face_text

WINDOW_OP = {"gear": "gear", "smile": "smile", "pair": "pair", "double": "double",
             "nut": "nut", "instead": "instead"}
"""Reaction words and the suspended effect each one spends."""


def render(order: dict[str, Any]) -> str:
    op = order["op"]
    if op == "pick":
        return "PICK " + " ".join(order["dice"])
    if op in ("roll", "recall", "pit", "capture", "attack", "defend", "keep", "instead"):
        return f"{op.upper()} {order['die']}"
    if op == "read":
        return f"READ {face_text(order['face'])}"
    if op == "skip":
        return "SKIP" + (f" {order['seat']}" if order.get("seat") else "")
    if op == "cannon":
        return f"CANNON {order['seat']}"
    if op == "radiation":
        return f"RADIATION {order['colour'].upper()}"
    if op == "triangle":
        return f"TRIANGLE {order['die'] or 'ALL'}"
    if op == "apply":
        return f"APPLY {order['icon'].upper()}"
    if op == "square":
        return f"SQUARE {order['seat']} {order['die']}"
    if op == "pass":
        return "PASS" + (f" {order['kind'].upper()}" if order.get("kind") else "")
    if op in ("legion", "reserve"):
        return f"{op.upper()} " + " ".join(order["dice"])
    if op == "general":
        return f"GENERAL {order['die']}"
    if op in WINDOW_OP.values():
        text = op.upper()
        if op == "smile":
            text += f" {order['sign']}" + (f" {order['value']}" if order.get("value") else "")
        elif order.get("die"):
            text += f" {order['die']}"
        if order.get("cond"):
            cond = order["cond"]
            text += f" IF {cond['name']} {cond['op']} {cond['value']}"
        when = order.get("when")
        if when:
            text += " WHEN " + (("TARGETED" + (f" BY {when['by'].upper()}" if when["by"]
                                               else "")) if when.get("targeted")
                                else when["icon"].upper())
        return text
    return op.upper()
