"""The Combat Dice order language, built on the shared grammar (games.core.orders).

Arming turn:   EQUIP <item>, <item>, <item>      SPECIALTY <die> <die> ...
               (several EQUIP or SPECIALTY lines add up)
               (a charm names its spell: EQUIP SWORD, SPELL CHARM HEAL, LIGHT ARMOR)
Every turn:    REROLL | KEEP | WIELD <weapon> | YIELD | CAST [<spell>]
Shared:        IF <test> [AND <test>] THEN <order> [ELSE <order>],
               STANDING <order>, CANCEL STANDING [n|ALL]

Which orders fit which phase, and which names a condition may test, is checked here so
that a player learns of a mistake when submitting, not when the turn resolves.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from games.core.orders import Grammar, OrderSyntax, compare, order_lines, suggest
from games.core.types import OrderError, Orders, OrdersInvalid

from . import catalog
from .state import charm_ready, foe, usable_weapons

MAX_ITEMS = 3

# -- condition names -------------------------------------------------------------
PRE_ROLL_NAMES = ("HP", "FOE_HP", "TURN")
"""Known before the dice fall: the only names WIELD, YIELD and CAST conditions may test."""
SCORE_NAMES = tuple(s.upper() for s in catalog.SCORES)
POST_ROLL_NAMES = SCORE_NAMES + tuple(f"FOE_{s}" for s in SCORE_NAMES)
CONDITION_NAMES = PRE_ROLL_NAMES + POST_ROLL_NAMES
_NAME_ALIASES = {"INIT": "INITIATIVE", "DMG": "DAMAGE", "ARMOUR": "ARMOR",
                 "MANOEUVRE": "MANEUVER", "ATK": "ATTACK", "HITPOINTS": "HP"}
_TERM = re.compile(r"\s*([A-Za-z_][\w-]*|-?\d+)\s*(<=|>=|==|!=|<>|<|>|=)\s*"
                   r"([A-Za-z_][\w-]*|-?\d+)\s*")

PRE_ROLL_OPS = ("wield", "yield", "cast")
ROLL_OPS = ("reroll", "keep")
FIGHT_OPS = PRE_ROLL_OPS + ROLL_OPS
ARM_OPS = ("equip", "specialty")


def _name(token: str) -> str:
    word = token.upper().replace("-", "_")
    for prefix in ("FOE_", "ENEMY_", "OPPONENT_", "OPP_"):
        if word.startswith(prefix):
            rest = word[len(prefix):]
            return "FOE_" + _NAME_ALIASES.get(rest, rest)
    return _NAME_ALIASES.get(word, word)


def _operand(token: str) -> int | str:
    if re.fullmatch(r"-?\d+", token):
        return int(token)
    name = _name(token)
    if name not in CONDITION_NAMES:
        raise OrderSyntax(f"unknown condition name {token!r}", suggest(token, CONDITION_NAMES))
    return name


def parse_condition(tokens: list[str], ctx: Any) -> dict[str, Any]:
    """`ATTACK < 2`, `DAMAGE <= FOE_ARMOR`, `HP < 4 AND TURN > 1`: all must hold."""
    text = " ".join(tokens)
    terms = []
    for part in re.split(r"\s+AND\s+", text, flags=re.IGNORECASE):
        match = _TERM.fullmatch(part)
        if not match:
            raise OrderSyntax(f"cannot read condition {part!r}",
                              "write a comparison such as ATTACK < 2 or DAMAGE <= FOE_ARMOR")
        op = {"==": "=", "<>": "!="}.get(match.group(2), match.group(2))
        terms.append({"left": _operand(match.group(1)), "op": op,
                      "right": _operand(match.group(3))})
    canon = " AND ".join(f"{t['left']} {t['op']} {t['right']}" for t in terms)
    return {"test": "all", "terms": terms, "text": canon}


def condition_names(cond: dict[str, Any]) -> set[str]:
    return {v for t in cond["terms"] for v in (t["left"], t["right"]) if isinstance(v, str)}


# -- keyword handlers ------------------------------------------------------------
def _split_items(tokens: list[str]) -> list[str]:
    """Items separated by commas, or by spaces when each word run names an item."""
    chunks = [c.strip() for c in " ".join(tokens).split(",")]
    names: list[str] = []
    for chunk in chunks:
        if not chunk:
            continue
        if catalog.find_item(chunk) or "," in " ".join(tokens):
            names.append(chunk)
            continue
        names.extend(_greedy(chunk.split()))
    return names


def _starts_item(words: list[str]) -> bool:
    return any(catalog.find_item(" ".join(words[:j])) for j in range(1, len(words) + 1))


def _greedy(words: list[str]) -> list[str]:
    """Longest-match reading of `SWORD MEDIUM SHIELD LIGHT ARMOR` without commas; a
    charm takes the words after it, up to the next item, as its spell."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            found = catalog.find_item(" ".join(words[i:j]))
            if found:
                if found.id == catalog.CHARM:
                    while j < len(words) and not _starts_item(words[j:]):
                        j += 1
                out.append(" ".join(words[i:j]))
                i = j
                break
        else:
            return out + [" ".join(words[i:])] if out else [" ".join(words)]
    return out


def _charm_words(chunk: str) -> str | None:
    """For `SPELL CHARM HEAL` (or `CHARM OF HEAL`, `SPELL CHARM (HEAL)`) the spell's
    words; "" for a bare charm; None when the chunk does not start with a charm."""
    words = chunk.split()
    for j in range(len(words), 0, -1):
        found = catalog.find_item(" ".join(words[:j]))
        if found is not None:
            if found.id != catalog.CHARM:
                return None
            rest = words[j:]
            if rest and rest[0].upper() in ("OF", "WITH", "="):
                rest = rest[1:]
            return " ".join(rest).strip("()")
    return None


def _spell_of(words: str) -> str:
    """The spell id for the words after SPELL CHARM; errors name the spells."""
    spells = ", ".join(s.label for s in catalog.SPELLS.values())
    if not words:
        raise OrderSyntax("a spell charm needs its spell, chosen now",
                          f"e.g. SPELL CHARM HEAL; the spells: {spells}")
    spell = catalog.find_spell(words)
    if spell is None:
        raise OrderSyntax(f"unknown spell {words!r}", catalog.spell_hint(words))
    return spell.id


def _equip(tokens: list[str], ctx: Any) -> dict[str, Any]:
    if not tokens:
        raise OrderSyntax("EQUIP needs the items you carry",
                          "e.g. EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR")
    chosen: list[catalog.Item] = []
    spells: list[str] = []
    for words in _split_items(tokens):
        spell_words = _charm_words(words)
        if spell_words is not None:
            spells.append(_spell_of(spell_words))
            chosen.append(catalog.ITEMS[catalog.CHARM])
            continue
        item = catalog.find_item(words)
        if item is None and catalog.find_spell(words):
            raise OrderSyntax(f"{words.upper()} is a spell, not an item",
                              f"carry it in a charm: SPELL CHARM {words.upper()}")
        if item is None:
            raise OrderSyntax(f"unknown item {words!r}", catalog.item_hint(words))
        chosen.append(item)
    _check_kit(chosen)
    real = [i for i in chosen if not i.absent]
    order: dict[str, Any] = {"op": "equip", "items": [i.id for i in real]}
    if spells:
        order["spell"] = spells[0]
    return order


def _check_kit(chosen: list[catalog.Item]) -> None:
    """Raise OrderSyntax when a kit breaks the carrying rules."""
    ids = [i.id for i in chosen]
    for item_id, n in Counter(ids).items():
        if n > 1 and item_id == catalog.CHARM:
            raise OrderSyntax("two spell charms: a combatant carries at most one",
                              "keep one SPELL CHARM and its spell")
        if n > 1:
            raise OrderSyntax(f"{catalog.ALL_ITEMS[item_id].label} is listed twice",
                              "each item can be carried once")
    for kind, stand_in in catalog.NONE.items():
        if stand_in in chosen and any(i.kind == kind and not i.absent for i in chosen):
            raise OrderSyntax(f"{stand_in.label} contradicts another item you listed",
                              f"drop {stand_in.label} or the {kind}")
    for kind in ("armor", "shield"):
        worn = [i for i in chosen if i.kind == kind and not i.absent]
        if len(worn) > 1:
            what = "armours" if kind == "armor" else "shields"
            raise OrderSyntax(f"two {what}: " + " and ".join(i.label for i in worn),
                              f"carry at most one {'armour' if kind == 'armor' else 'shield'}")
    real = [i for i in chosen if not i.absent]
    if len(real) > MAX_ITEMS:
        raise OrderSyntax(f"too many items: {len(real)} listed, a combatant carries "
                          f"at most {MAX_ITEMS}", "drop " + ", ".join(
                              i.label for i in real[MAX_ITEMS:]))


def _join(first: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """Two arming lines of one kind as one order: the kit grows, or the dice do."""
    if first["op"] == "specialty":
        return {"op": "specialty", "dice": sorted(first["dice"] + more["dice"],
                                                  key=catalog.SPECIALTY_ORDER.index)}
    ids = first["items"] + more["items"]
    _check_kit([catalog.ALL_ITEMS[i] for i in ids])
    joined: dict[str, Any] = {"op": "equip", "items": ids}
    spell = first.get("spell") or more.get("spell")
    if spell:
        joined["spell"] = spell
    return joined


def _merge_arming(items: list[tuple[int, dict[str, Any]]], errors: list[OrderError]
                  ) -> list[tuple[int, dict[str, Any]]]:
    """Several EQUIP lines add up to one kit and several SPECIALTY lines to one set of
    dice (the order form's one-item buttons each add a line); the kit rules apply to
    the whole, and a line that breaks them is refused."""
    out: list[tuple[int, dict[str, Any]]] = []
    at: dict[str, int] = {}
    for number, item in items:
        op = item["order"]["op"] if "order" in item else None
        if op in ARM_OPS and op in at:
            first_number, first = out[at[op]]
            try:
                out[at[op]] = (first_number, {**first, "order": _join(first["order"],
                                                                      item["order"])})
            except OrderSyntax as exc:
                errors.append(OrderError(number, exc.message, exc.hint))
            continue
        if op in ARM_OPS:
            at[op] = len(out)
        out.append((number, item))
    return out


def _specialty(tokens: list[str], ctx: Any) -> dict[str, Any]:
    """`SPECIALTY STRENGTH STRENGTH PROWESS` or `SPECIALTY 2 STRENGTH, PROWESS`."""
    dice: list[str] = []
    count = 1
    for token in " ".join(tokens).replace(",", " ").split():
        multiple = re.fullmatch(r"(\d+)[xX]?|[xX](\d+)", token)
        if multiple:
            count = int(multiple.group(1) or multiple.group(2))
            if not 1 <= count <= 6:
                raise OrderSyntax(f"{count} dice of one kind is more than anyone has",
                                  "an advanced combatant has 1 to 6 specialty dice")
            continue
        word = token.upper()
        if word == "ARMOUR":
            word = "ARMOR"
        if word.lower() not in catalog.SPECIALTY:
            raise OrderSyntax(f"unknown specialty die {token!r}",
                              suggest(token, [d.upper() for d in catalog.SPECIALTY]))
        dice.extend([word.lower()] * count)
        count = 1
    if not dice:
        raise OrderSyntax("SPECIALTY needs the dice you take",
                          "e.g. SPECIALTY STRENGTH PROWESS EVASION")
    return {"op": "specialty", "dice": sorted(dice, key=catalog.SPECIALTY_ORDER.index)}


def _wield(tokens: list[str], ctx: Any) -> dict[str, Any]:
    if not tokens:
        raise OrderSyntax("WIELD needs a weapon", "e.g. WIELD SWORD or WIELD NET")
    words = " ".join(tokens)
    item = catalog.find_item(words)
    if item is None or item.kind != "weapon":
        weapons = [i for i in catalog.ALL_ITEMS.values() if i.kind == "weapon"]
        raise OrderSyntax(f"{words!r} is not a weapon",
                          suggest(words, [w.label for w in weapons]))
    return {"op": "wield", "weapon": item.id}


def _cast(tokens: list[str], ctx: Any) -> dict[str, Any]:
    """`CAST`, or `CAST HEAL` to say which spell you expect (checked against the charm)."""
    if not tokens:
        return {"op": "cast"}
    words = " ".join(tokens)
    spell = catalog.find_spell(words)
    if spell is None:
        raise OrderSyntax(f"unknown spell {words!r}", catalog.spell_hint(words))
    return {"op": "cast", "spell": spell.id}


def _bare(op: str):
    def handler(tokens: list[str], ctx: Any) -> dict[str, Any]:
        if tokens:
            raise OrderSyntax(f"{op.upper()} takes nothing after it",
                              f"write just {op.upper()}")
        return {"op": op}
    return handler


def render_order(order: dict[str, Any]) -> str:
    op = order["op"]
    if op == "equip":
        names = [catalog.ITEMS[i].label + (f" {catalog.SPELLS[order['spell']].label}"
                                           if i == catalog.CHARM else "")
                 for i in order["items"]]
        return "EQUIP " + (", ".join(names) or catalog.NONE["weapon"].label)
    if op == "cast" and order.get("spell"):
        return "CAST " + catalog.SPELLS[order["spell"]].label
    if op == "specialty":
        return "SPECIALTY " + " ".join(d.upper() for d in order["dice"])
    if op == "wield":
        return "WIELD " + catalog.ALL_ITEMS[order["weapon"]].label
    return op.upper()


GRAMMAR = Grammar({"EQUIP": _equip, "SPECIALTY": _specialty, "WIELD": _wield,
                   "REROLL": _bare("reroll"), "KEEP": _bare("keep"), "YIELD": _bare("yield"),
                   "CAST": _cast},
                  condition=parse_condition, render=render_order)


# -- whole-submission checks -------------------------------------------------------
def _ops(item: dict[str, Any]) -> list[str]:
    if "order" in item:
        return [item["order"]["op"]]
    if "if" in item:
        return [o["op"] for o in (item["then"], item.get("else")) if o]
    return []


def _check_line(item: dict[str, Any], phase: str) -> None:
    """Raise OrderSyntax when a well-formed line does not fit the phase."""
    if "cancel" in item:
        if phase == "reroll":
            raise OrderSyntax("standing orders cannot be changed in a reroll choice",
                              "answer REROLL or KEEP")
        return
    ops = _ops(item)
    if "if" in item:
        if any(op in ARM_OPS for op in ops):
            raise OrderSyntax("equipment and specialty dice cannot be conditional")
        if any(op in PRE_ROLL_OPS for op in ops):
            late = sorted(condition_names(item["if"]) - set(PRE_ROLL_NAMES))
            if late:
                raise OrderSyntax(f"WIELD, YIELD and CAST are settled before the dice fall, "
                                  f"so they cannot test {', '.join(late)}",
                                  "test only HP, FOE_HP or TURN")
    if phase == "arm":
        if any(op in ARM_OPS for op in ops) and item.get("standing"):
            raise OrderSyntax("equipment and specialty dice are chosen once; STANDING "
                              "makes no sense here")
        if any(op in FIGHT_OPS for op in ops) and not item.get("standing"):
            raise OrderSyntax("this is the arming turn: orders for the fight can only be "
                              "given now as STANDING orders",
                              "e.g. STANDING IF ATTACK < 2 THEN REROLL")
    elif phase == "fight":
        if any(op in ARM_OPS for op in ops):
            raise OrderSyntax("equipment and specialty dice were chosen before the fight")
    elif phase == "reroll" and ("if" in item or item.get("standing")
                                or ops[0] not in ROLL_OPS):
        raise OrderSyntax("the paused turn needs one answer: REROLL or KEEP",
                          "the roll is on the table, so no condition is needed")


def _whole(state: dict[str, Any], seat: str, items: list[tuple[int, dict[str, Any]]]
           ) -> list[OrderError]:
    """Checks across lines: duplicates, missing arming orders, weapon availability."""
    errors: list[OrderError] = []
    phase = state["phase"]
    fighter = state["fighters"][seat]
    seen: dict[tuple[str, bool], tuple[int, dict[str, Any]]] = {}
    for number, item in items:
        if "order" not in item:
            continue
        op = item["order"]["op"]
        group = "roll" if op in ROLL_OPS else op
        key = (group, bool(item.get("standing")))
        if key in seen and op != "yield":
            errors.append(_second_unconditional(number, item, *seen[key]))
        seen.setdefault(key, (number, item))
    if phase == "arm":
        equip = [it["order"] for _, it in items if "order" in it
                 and it["order"]["op"] == "equip"]
        special = [it["order"] for _, it in items if "order" in it
                   and it["order"]["op"] == "specialty"]
        if not equip:
            errors.append(OrderError(0, "say what you carry with an EQUIP order",
                                     "e.g. EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR"))
        count = fighter["specialty_count"]
        if count and not special:
            errors.append(OrderError(0, f"choose your {count} specialty "
                                     f"{'die' if count == 1 else 'dice'} with SPECIALTY",
                                     "e.g. SPECIALTY " + " ".join(
                                         d.upper() for d in _spread(count))))
        for number, it in items:
            if "order" in it and it["order"]["op"] == "specialty":
                got = len(it["order"]["dice"])
                if not count:
                    errors.append(OrderError(number, "a basic combatant has no specialty "
                                             "dice", "leave out the SPECIALTY line"))
                elif got != count:
                    errors.append(OrderError(number, f"{got} specialty dice chosen but you "
                                             f"rolled {count}",
                                             f"name exactly {count}"))
        carried_ids = set(equip[0]["items"]) if equip else set()
        charm = {"spell": equip[0]["spell"], "spent": False} \
            if equip and equip[0].get("spell") else None
        next_turn = 1
    else:
        carried_ids = set(fighter["items"])
        charm = fighter.get("charm")
        next_turn = state["turn"] + (0 if phase == "reroll" else 1)
    for number, it in items:
        for order in ([it["order"]] if "order" in it else
                      [o for o in (it.get("then"), it.get("else")) if o]):
            if order["op"] == "cast":
                problem = _cast_problem(order, charm, phase)
                if problem:
                    errors.append(OrderError(number, *problem))
                    break
                continue
            if order["op"] != "wield" or order["weapon"] == "unarmed":
                continue
            weapon = catalog.ITEMS[order["weapon"]]
            if weapon.id not in carried_ids:
                errors.append(OrderError(number, f"you do not carry a {weapon.label}",
                                         "wield something you listed in EQUIP, or UNARMED"))
            elif weapon.ranged and next_turn > 1 and not it.get("standing"):
                errors.append(OrderError(number, f"the {weapon.label} serves only in the "
                                         "opening exchange", "wield a melee weapon"))
    if phase == "reroll" and len(items) != 1:
        errors.append(OrderError(0, "the paused turn needs exactly one answer: REROLL or KEEP",
                                 "send one line: each button adds one, so click only one"))
    return errors


# What the first unconditional order of each kind settles, for the refusal of a second.
_SETTLES = {"roll": "the reroll choice", "wield": "the weapon of the turn",
            "cast": "the spell charm"}


def _second_unconditional(number: int, item: dict[str, Any], first_number: int,
                          first: dict[str, Any]) -> OrderError:
    """A line that can never count: an earlier unconditional line settles the same choice
    (the first line that settles a choice decides). Said with both lines, since the order
    form's buttons each add a line and two clicks make such a pair."""
    text, before = GRAMMAR.render(item), GRAMMAR.render(first)
    op = item["order"]["op"]
    group = "roll" if op in ROLL_OPS else op
    if text == before:
        return OrderError(number, f"{text} repeats line {first_number}",
                          "one is enough: delete the repeat (each button adds a line)")
    when = "every turn" if item.get("standing") else "this turn"
    example = {"roll": "IF ATTACK < 2 THEN REROLL",
               "wield": "IF HP < 5 THEN WIELD UNARMED"}.get(group, "IF HP < 5 THEN CAST")
    return OrderError(number, f"{text} would never count: {before} on line {first_number} "
                      f"already settles {_SETTLES.get(group, group)} {when}",
                      f"keep one of them, or make the first conditional, e.g. {example}")


def _cast_problem(order: dict[str, Any], charm: dict[str, Any] | None, phase: str
                  ) -> tuple[str, str] | None:
    """Why a CAST cannot stand (message, hint), or None when it can."""
    if charm is None:
        if phase == "arm":
            return ("CAST needs a spell charm in your EQUIP line",
                    "e.g. EQUIP SWORD, SPELL CHARM HEAL, LIGHT ARMOR")
        return ("you carry no spell charm, so there is nothing to cast",
                "a charm is chosen when arming; drop the CAST line")
    if charm["spent"]:
        return (f"your spell charm is spent (cast in combat round {charm['turn']})",
                "a charm serves once: drop the CAST line")
    if order.get("spell") and order["spell"] != charm["spell"]:
        held = catalog.SPELLS[charm["spell"]].label
        return (f"your charm holds {held}, not {catalog.SPELLS[order['spell']].label}",
                f"write CAST or CAST {held}")
    return None


def _spread(count: int) -> list[str]:
    """A balanced pick of `count` specialty dice: the default for a missed deadline."""
    order = ("prowess", "evasion", "strength", "armor", "initiative", "maneuver")
    return sorted((order[i % len(order)] for i in range(count)),
                  key=catalog.SPECIALTY_ORDER.index)


def parse(state: dict[str, Any], seat: str, text: str) -> Orders:
    """Every line parsed and checked; OrdersInvalid lists every problem at once."""
    items: list[tuple[int, dict[str, Any]]] = []
    errors: list[OrderError] = []
    for line in order_lines(text):
        try:
            item = GRAMMAR.parse_line(line.text, (state, seat))
            _check_line(item, state["phase"])
            items.append((line.number, item))
        except OrderSyntax as exc:
            errors.append(OrderError(line.number, exc.message, exc.hint))
    if state["phase"] == "arm":
        items = _merge_arming(items, errors)
    errors.extend(_whole(state, seat, items))
    refused = {e.line for e in errors}
    accepted = [GRAMMAR.render(i) for n, i in items if n not in refused]
    if errors:
        raise OrdersInvalid(sorted(errors, key=lambda e: e.line), accepted)
    return Orders(seat, [i for _, i in items], "\n".join(accepted))


def default(state: dict[str, Any], seat: str) -> Orders:
    """A missed deadline: the standard kit when arming, otherwise just standing orders."""
    fighter = state["fighters"][seat]
    if state["phase"] == "arm":
        items: list[dict[str, Any]] = [
            {"order": {"op": "equip", "items": list(catalog.STANDARD_KIT)}}]
        if fighter["specialty_count"]:
            items.append({"order": {"op": "specialty",
                                    "dice": _spread(fighter["specialty_count"])}})
    elif state["phase"] == "reroll":
        items = [{"order": {"op": "keep"}}]
    else:
        items = []
    return Orders(seat, items, "\n".join(GRAMMAR.render(i) for i in items), default=True)


# -- evaluation inside resolve --------------------------------------------------
def condition_values(state: dict[str, Any], seat: str,
                     scores: dict[str, dict[str, int]] | None) -> dict[str, int]:
    """The numbers a condition may test, from `seat`'s side of the table."""
    other = foe(state, seat)
    values = {"HP": state["fighters"][seat]["hp"], "FOE_HP": state["fighters"][other]["hp"],
              "TURN": state["turn"]}
    if scores is not None:
        for score in catalog.SCORES:
            values[score.upper()] = scores[seat][score]
            values["FOE_" + score.upper()] = scores[other][score]
    return values


def holds(cond: dict[str, Any], values: dict[str, int]) -> bool:
    def value(v: int | str) -> int:
        return v if isinstance(v, int) else values[v]

    return all(compare(t["op"], value(t["left"]), value(t["right"])) for t in cond["terms"])


def first_order(items: list[dict[str, Any]], ops: tuple[str, ...], values: dict[str, int],
                accept: Any = None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The first item (turn orders before standing ones) that yields one of `ops`.

    Returns (order, item). `accept` may veto an order (e.g. a standing WIELD BOW after
    the opening exchange), letting a later item decide.
    """
    for item in items:
        if "order" in item:
            order = item["order"]
        elif "if" in item:
            if not any(op in ops for op in _ops(item)):
                continue  # not about this decision (and may test names not known yet)
            order = item["then"] if holds(item["if"], values) else item.get("else")
        else:
            continue
        if order and order["op"] in ops and (accept is None or accept(order)):
            return order, item
    return None, None


def weapon_ok(fighter: dict[str, Any], turn: int):
    usable = {w.id for w in usable_weapons(fighter, turn)} | {"unarmed"}
    return lambda order: order["weapon"] in usable


def prompt(state: dict[str, Any], seat: str) -> dict[str, Any]:
    """What the order form shows this seat now (never another seat's secrets)."""
    phase = state["phase"]
    fighter = state["fighters"][seat]
    if phase == "arm":
        items = [i.describe() for i in catalog.ITEMS.values()]
        charm = catalog.ITEMS[catalog.CHARM].label
        count = fighter["specialty_count"]
        # A basic combatant has no specialty dice: no SPECIALTY buttons, which could only
        # ever be refused ("a basic combatant has no specialty dice").
        special = (f" Name your {count} specialty {'die' if count == 1 else 'dice'} with "
                   "SPECIALTY, on one line or several (a die may repeat)." if count else "")
        return {
            "title": "Arm your combatant",
            "help": ("List up to three items (at most one armour, one shield and one spell "
                     "charm) with EQUIP, on one line or several; a spell charm names its spell, "
                     f"which stays secret until cast.{special} STANDING orders for the fight "
                     "may follow."),
            "choices": ["EQUIP " + i.label for i in catalog.ITEMS.values()
                        if i.id != catalog.CHARM] +
                       [f"EQUIP {charm} {sp.label}" for sp in catalog.SPELLS.values()] +
                       (["SPECIALTY " + d.upper() for d in catalog.SPECIALTY] if count else [])
                       + ["STANDING IF ATTACK < 2 THEN REROLL", "STANDING IF HP < 5 THEN CAST"],
            "items": items,
            "spells": [sp.describe() for sp in catalog.SPELLS.values()],
            "example": "EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR" + "".join(  # + its dice
                f"\nSPECIALTY {' '.join(d.upper() for d in _spread(n))}"
                for n in [fighter["specialty_count"]] if n),
        }
    if phase == "reroll":
        return {"title": "Reroll or keep?",
                "help": "You won the initiative with the better maneuver: you may throw your "
                        "dice again. Only attack, dodge, damage and armour change.",
                "choices": ["REROLL", "KEEP"], "example": "REROLL"}
    turn = state["turn"] + 1
    weapons = [w.label for w in usable_weapons(fighter, turn)] + ["UNARMED"]
    # Whether a charm is still unspent is public; which spell it holds is not, so the
    # prompt offers CAST without naming it.
    cast = ["CAST", "IF HP < 5 THEN CAST"] if charm_ready(fighter) else []
    return {
        "title": f"Orders for combat round {turn}",
        "help": ("If you win the initiative with a higher maneuver score you may reroll: say "
                 "when with REROLL, KEEP or a condition on the first throw. WIELD picks the "
                 "weapon; YIELD concedes; CAST breaks your spell charm before the dice fall "
                 "(once per fight). This turn's lines come first, then standing ones; the "
                 "first line that settles a choice decides."),
        "choices": ["REROLL", "KEEP", "IF ATTACK < 2 THEN REROLL",
                    "IF DAMAGE <= FOE_ARMOR THEN REROLL", "YIELD",
                    *(f"WIELD {w}" for w in weapons), *cast,
                    "IF <condition> THEN REROLL [ELSE KEEP] — a condition compares ATTACK, "
                    "DODGE, DAMAGE, ARMOR, INITIATIVE, MANEUVER, the foe's FOE_ATTACK ... "
                    "FOE_MANEUVER (first throw), HP, FOE_HP or TURN with < <= > >= = != "
                    "and joins tests with AND (e.g. IF ATTACK <= FOE_DODGE AND MANEUVER > 1 "
                    "THEN REROLL ELSE KEEP)",
                    "IF HP < <n> THEN WIELD <weapon> [ELSE WIELD <weapon>] — WIELD, YIELD and "
                    "CAST come before the dice, so they test only HP, FOE_HP and TURN "
                    f"(e.g. IF HP < 4 THEN WIELD {weapons[0]} ELSE WIELD UNARMED)",
                    "IF HP < <n> THEN YIELD — concede the fight before the dice fall "
                    "(e.g. IF HP < 3 AND FOE_HP > 6 THEN YIELD)",
                    "STANDING <order> — kept every turn until cancelled (e.g. STANDING IF "
                    "ATTACK < 2 THEN REROLL)",
                    "CANCEL STANDING <n>|ALL — drop one standing order (numbered as in your "
                    "view) or all (e.g. CANCEL STANDING ALL)"],
        "example": "IF ATTACK <= FOE_DODGE THEN REROLL ELSE KEEP",
    }
