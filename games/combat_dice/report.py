"""Markdown turn reports, written from events alone (never from state).

A report shows only the events its reader may see; a seat's private events (its
advanced rolls before the reveal, its standing orders, the spell in its charm) read
as "you". A cast is public: that is when the spell is revealed.
"""

from __future__ import annotations

from typing import Any

from games.core.types import Event

from . import catalog

SCORE_LABELS = {"attack": "Attack", "dodge": "Dodge", "damage": "Damage", "armor": "Armour",
                "initiative": "Initiative", "maneuver": "Maneuver"}


def _in_score_order(mods: dict[str, int]) -> list[tuple[str, int]]:
    """A spell's modifiers in the scores' order (events come back from storage with their
    keys in the store's order; seats are listed in sorted order likewise)."""
    return [(k, mods[k]) for k in catalog.SCORES if k in mods] + \
        sorted((k, v) for k, v in mods.items() if k not in catalog.SCORES)


STATUS_WORDS = {"fighting": "still fighting", "unconscious": "unconscious",
                "dead": "dead", "yielded": "yielded"}


def _b(seat: str) -> str:
    return f"**{seat}**"


def _item(item_id: str) -> str:
    return catalog.ALL_ITEMS[item_id].name


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if abs(n) == 1 else "s")


def _dice_count(n: int, kind: str = "basic") -> str:
    return f"{n} {kind} {'die' if n == 1 else 'dice'}"


def _scores_line(scores: dict[str, int]) -> str:
    return ", ".join(f"{SCORE_LABELS[k].lower()} {scores[k]}" for k in catalog.SCORES)


def _dice(dice: dict[str, Any]) -> str:
    basic = " ".join(str(d) for d in dice["basic"]) or "no basic dice"
    return basic


def _specialty(dice: dict[str, Any]) -> str:
    if not dice["specialty"]:
        return "-"
    return " ".join(f"{kind} {face}" for kind, face in dice["specialty"])


def _roll_table(rolls: list[dict[str, Any]]) -> list[str]:
    seats = [r["seat"] for r in rolls]
    rows = [
        "| | " + " | ".join(seats) + " |",
        "|---|" + "---|" * len(seats),
        "| Weapon | " + " | ".join(_item(r["weapon"]) for r in rolls) + " |",
        "| Basic dice | " + " | ".join(_dice(r["dice"]) for r in rolls) + " |",
    ]
    if any(r["dice"]["specialty"] for r in rolls):
        rows.append("| Specialty dice | " + " | ".join(_specialty(r["dice"]) for r in rolls)
                    + " |")
    for key in catalog.SCORES:
        rows.append(f"| {SCORE_LABELS[key]} | " +
                    " | ".join(str(r["scores"][key]) for r in rolls) + " |")
    lines: list[str] = []
    for r in rolls:
        seat = r["seat"]
        if r["stunned"]:
            lines.append(f"- {_b(seat)} is stunned and throws {_dice_count(r['stunned'])} "
                         "fewer.")
        if r.get("boost"):
            mods = ", ".join(f"{SCORE_LABELS[k].lower()} {v:+d}" for k, v in _in_score_order(r["boost"]))
            lines.append(f"- {_b(seat)} fights under a spell: {mods} (already in the scores).")
        if r.get("dazzled"):
            lines.append(f"- {_b(seat)} is dazzled and throws {_dice_count(r['dazzled'])} "
                         "fewer.")
        if r["entangled"]:
            lines.append(f"- {_b(seat)} is tangled in a net: no blow can land and "
                         "dodge counts for nothing this turn.")
        for what in r["recovered"]:
            deed = "snatches up the dropped weapon" if what == "disarmed" \
                else "is back on their feet"
            rolled = r.get("rolled_maneuver", r["scores"]["maneuver"])
            lines.append(f"- {_b(seat)} {deed} (maneuver {rolled} rolled).")
        if r["slung"]:
            lines.append(f"- {_b(seat)} needs both hands, so the shield stays slung.")
    return ["", *rows, "", *lines, *([""] if lines else [])]


def _strike(d: dict[str, Any]) -> str:
    att, dfn = _b(d["attacker"]), d["defender"]
    if d.get("skipped") == "down":
        return f"- {att} is down and strikes no blow."
    if d.get("skipped") == "netted":
        return f"- {att} is caught in the net and cannot strike."
    weapon = _item(d["weapon"])
    duel = f"attack {d['attack']} against dodge {d['dodge']}"
    if not d["hit"]:
        return f"- {att} ({weapon}) misses {dfn}: {duel}."
    if d.get("netted"):
        return (f"- {att} throws the net over {dfn} ({duel}): no damage, but {dfn} "
                "can neither hit nor dodge until the end of next turn.")
    if not d["lost"]:
        return (f"- {att} ({weapon}) hits {dfn} ({duel}), but damage {d['damage']} "
                f"does not beat armour {d['armor']}.")
    return (f"- {att} ({weapon}) hits {dfn} ({duel}); damage {d['damage']} against "
            f"armour {d['armor']}: {dfn} loses {_plural(d['lost'], 'hit point')} "
            f"({d['hp']} left).")


def _critical(d: dict[str, Any]) -> str:
    a, b = d["dice"]
    effect = d["effect"]
    name = catalog.CRITICAL_NAMES[effect]
    lasting = catalog.CRITICAL_LASTING[effect]
    if effect == "bleeding":
        span = "next turn" if d["turns"] == 1 else f"next {d['turns']} turns"
        lasting = f"1 hit point lost in each of the {span}"
    if effect == "none":
        return f"  - Damage dice {a} + {b} = {a + b}: no lasting effect."
    return f"  - Damage dice {a} + {b} = {a + b}: **{name}** on {d['defender']} ({lasting})."


_EFFECT_WORDS = {"stunned": "the stun", "netted": "the net", "disarmed": "the disarm",
                 "knocked_down": "the knockdown", "bleeding": "the bleeding",
                 "hurt_arm": "the hurt arm", "hurt_leg": "the hurt leg",
                 "broken_armor": "the broken armour", "blinded": "the blindness"}


def _cast(d: dict[str, Any]) -> str:
    spell = catalog.SPELLS[d["spell"]]
    lead = f"- {_b(d['seat'])} breaks a spell charm: **{spell.name}**"
    if d["kind"] == "heal":
        total = sum(d["dice"]) + spell.bonus
        sums = " + ".join(str(x) for x in [*d["dice"], *([spell.bonus] if spell.bonus else [])])
        capped = ", capped at the maximum" if d["healed"] < total else ""
        return (f"{lead}, {_plural(d['healed'], 'hit point')} back ({sums} = {total}"
                f"{capped}; now {d['hp']}/{d['max_hp']}).")
    span = "this turn" if d.get("turns", 1) == 1 else \
        f"this turn and the next {_plural(d['turns'] - 1, 'turn')}".replace("next 1 turn",
                                                                          "next")
    if d["kind"] == "boost":
        mods = ", ".join(f"{SCORE_LABELS[k].lower()} {v:+d}" for k, v in _in_score_order(d["modifiers"]))
        return f"{lead}, {mods} {span}."
    if d["kind"] == "dazzle":
        return f"{lead}: {d['target']} throws {_dice_count(d['dice'])} fewer {span}."
    ended = [_EFFECT_WORDS[e] for e in d["ended"]]
    return f"{lead}, ending " + (", ".join(ended[:-1]) + " and " + ended[-1]
                                  if len(ended) > 1 else ended[0]) + "."


def _maneuver(d: dict[str, Any]) -> str | None:
    seat = d["seat"]
    if seat is None:
        return None
    mv = d["maneuvers"]
    other = next(s for s in mv if s != seat)
    lead = f"- {_b(seat)} out-maneuvers {other} ({mv[seat]} to {mv[other]}) and "
    if d["choice"] == "asked":
        return lead + "may throw again: the turn waits for that choice."
    if d["choice"] == "reroll":
        return lead + f"throws again ({d['because']})."
    return lead + f"keeps the roll ({d['because']})."


def render(events: list[Event], viewer: str | None) -> str:
    events = [e for e in events if e.visible_to(viewer)]
    out: list[str] = []
    i = 0
    while i < len(events):
        e = events[i]
        d = e.data
        k = e.kind
        if k == "setup":
            kind = "advanced" if d["combatants"] == "advanced" else "basic"
            out += ["# Warpspawn Combat Dice", "",
                    f"Two {kind} combatants face each other. The fight ends when one "
                    f"falls, yields, or after {d['max_turns']} turns."
                    + (" The damage dice are not used: a blow costs hit points and "
                       "nothing more." if d.get("damage_dice") == "off" else ""),
                    ""]
            if kind == "advanced":
                out += ["Each combatant has rolled extra hit points and a number of "
                        "specialty dice; both stay secret until the equipment is chosen.", ""]
        elif k == "advanced-roll":
            who = "You" if viewer == d["seat"] else _b(d["seat"])
            out += [f"{who} rolled {d['bonus_hp']} extra hit points ({d['hp']} in all) and "
                    f"{_dice_count(d['specialty_count'], 'specialty')} to choose.", ""]
        elif k == "armed":
            out += ["## The combatants", "", "| | Equipment | Specialty dice | Hit points |",
                    "|---|---|---|---|"]
            for seat, f in sorted(d["fighters"].items()):
                gear = ", ".join(_item(x) for x in f["items"]) or "nothing"
                special = ", ".join(f["specialty"]) or "-"
                out.append(f"| {seat} | {gear} | {special} | {f['hp']} |")
            out.append("")
        elif k == "charm":
            spell = catalog.SPELLS[d["spell"]]
            who = "Your" if viewer == d["seat"] else f"{d['seat']}'s"
            out += [f"_{who} spell charm holds **{spell.name}** ({spell.help}); it stays "
                    "secret until cast._", ""]
        elif k == "cast":
            out.append(_cast(d))
            if i + 1 == len(events) or events[i + 1].kind != "cast":
                out.append("")
        elif k == "standing":
            who = "Your" if viewer == d["seat"] else f"{d['seat']}'s"
            if d["orders"]:
                out += [f"_{who} standing orders:_", ""] + \
                    [f"{n}. `{text}`" for n, text in enumerate(d["orders"], 1)] + [""]
            else:
                out += [f"_{who} standing orders: none._", ""]
        elif k == "turn":
            out += [f"## Combat round {d['turn']}" + (" (continued)" if d.get("resumed") else ""), ""]
        elif k == "yield":
            out += [f"{_b(d['seat'])} yields.", ""]
        elif k == "roll":
            rolls = []
            while i < len(events) and events[i].kind == "roll":
                rolls.append(events[i].data)
                i += 1
            out += ["### Combat roll", *_roll_table(rolls)]
            continue
        elif k == "initiative":
            sc = d["scores"]
            a, b = list(sc)
            if d["first"] is None:
                out.append(f"- Initiative {sc[a]} to {sc[b]}: a tie, so the blows "
                           "fall together.")
            else:
                other = b if d["first"] == a else a
                out.append(f"- {_b(d['first'])} strikes first (initiative "
                           f"{sc[d['first']]} to {sc[other]}).")
        elif k == "maneuver":
            line = _maneuver(d)
            if line:
                out.append(line)
        elif k == "reroll":
            out.append(f"- {_b(d['seat'])} throws again: {_dice(d['dice'])}"
                       + (f" ({_specialty(d['dice'])})" if d["dice"]["specialty"] else "")
                       + f"; now {_scores_line(d['scores'])}"
                       " (initiative and maneuver keep their first values).")
        elif k == "strike":
            out.append(_strike(d))
        elif k == "critical":
            out.append(_critical(d))
        elif k == "bleed":
            out.append(f"- {_b(d['seat'])} bleeds: {_plural(d['lost'], 'hit point')} lost "
                       f"({d['hp']} left).")
        elif k == "end-turn":
            out += ["", "**After the turn:**", ""]
            for seat, f in sorted(d["fighters"].items()):
                state = STATUS_WORDS[f["status"]]
                line = f"- {_b(seat)}: {f['hp']}/{f['max_hp']} hit points, {state}"
                if f["conditions"]:
                    line += "; " + "; ".join(f["conditions"])
                out.append(line + ".")
            out.append("")
        elif k == "over":
            out += ["## The fight is over", ""]
            for seat, st in sorted(d["status"].items()):
                out.append(f"- {_b(seat)}: {STATUS_WORDS[st]}")
            out += ["", f"**Result:** {d['summary']}.", ""]
        i += 1
    return "\n".join(out).strip() + "\n"
