"""GM-style markdown reports, built only from the events the reader may see.

A report reads like a good GM's: a header with the sunset countdown, a section per hero
(decisions from last turn, this turn's movement, and for the hero's own player the dice,
finds, Life Points and treasure), what happened in the dungeon at large, and the map.
"""

from __future__ import annotations

from typing import Any

from games.core.types import Event, filter_events

from .board import LEGEND
from .content import HERO_ORDER

PHASE_TITLES = {"decision": "Decisions from round {prev}", "turn": "Round {turn}",
                "end": "Nightfall"}


# Events come back from storage with their objects' keys in the store's order, so a
# report orders what it lists itself: seats in sorted order (P1, P2, ...), heroes in the
# rulebook's order.
def _hero_rank(key: str) -> tuple[int, str]:
    return (HERO_ORDER.index(key) if key in HERO_ORDER else len(HERO_ORDER), key)


def render(events: list[Event], viewer: str | None) -> str:
    events = filter_events(events, viewer)
    setup = next((e for e in events if e.kind == "setup"), None)
    if setup is not None:
        return _setup_report(setup, events)
    head = next((e for e in events if e.kind == "turn"), None)
    if head is None:
        return ""
    turn = head.data["turn"]
    heroes: dict[str, str] = dict(sorted(head.data["heroes"].items()))  # seat order
    out = [f"# Round {turn} of {head.data['turns']}", ""]
    if turn == 1:
        out.append("Round 1's movement only.")
    elif any(e.data.get("phase") == "decision" for e in events if e.kind != "turn"):
        out.append(f"First the decisions arising from round {turn - 1}, then round {turn}'s "
                   f"movement.")
    else:  # nothing this reader may see was left over from last turn
        out.append(f"Round {turn}'s movement.")
    left = head.data["sunset_in"]
    out.append("")
    out.append(f"**Sunset in {left} round{'s' if left != 1 else ''}.**" if left else
               "**This was the last round: the sun has set.**")
    for seat, title in heroes.items():
        mine = [e for e in events if e.data.get("seat") == seat and e.kind != "turn"]
        if not mine:
            continue
        out += ["", f"## {title} ({seat})"]
        for phase in ("decision", "turn", "end"):
            lines = [e for e in mine if e.data.get("phase") == phase and e.kind != "status"]
            if not lines:
                continue
            out += ["", f"**{PHASE_TITLES[phase].format(prev=turn - 1, turn=turn)}**", ""]
            out += [f"- {e.data['text']}" for e in lines]
        for e in mine:
            if e.kind == "status":
                out += ["", *_status(e.data)]
    general = [e for e in events if e.data.get("seat") is None
               and e.kind not in ("turn", "map", "result")]
    if general:
        out += ["", "## In the dungeon", ""]
        out += [f"- {e.data['text']}" for e in general]
    for e in events:
        if e.kind == "map":
            out += ["", *_map(e.data, heroes)]
        if e.kind == "result":
            out += ["", *_result(e.data, heroes)]
    return "\n".join(out).rstrip() + "\n"


def _status(d: dict[str, Any]) -> list[str]:
    where = {"in": f"in {d['pos']}", "escaped": "escaped", "dead": "dead"}[d["status"]]
    rings = ", ".join(d["rings"]) or "none left"
    arrows = f" · Arrows {d['arrows']}" if d["arrows"] else ""
    lines = [f"**End of turn:** {where} · Life {d['life']}/{d['max_life']} · Treasure "
             f"{d['treasure']} gold ({d['items']} find{'s' if d['items'] != 1 else ''}) · "
             f"Potion: {'carried' if d['potion'] else 'none'} · Rope: "
             f"{'yes' if d['rope'] else 'no'} · Rings: {rings}{arrows} · Destination: "
             f"{d['destination'] or 'none'}"]
    if d.get("room"):  # events stored before this line was written have none
        lines += ["", f"**Your room:** {d['room']}."]
    if d["troubles"]:
        lines += ["", f"**Troubles:** {', '.join(d['troubles'])}."]
    if d["pending"]:
        lines += ["", f"**Your decision next turn:** {d['pending']}."]
    return lines


def _map(d: dict[str, Any], heroes: dict[str, str]) -> list[str]:
    numbers = ", ".join(f"{i + 1} = {title} ({seat})" if title != seat else f"{i + 1} = {seat}"
                        for i, (seat, title) in enumerate(heroes.items()))
    lines = ["## Map", "", "```text", *d["rows"], "```", "", f"{numbers}.", "",
             f"Key: {LEGEND}."]
    if d["chamber"]:
        names = ", ".join(heroes[s] for s in d["chamber"])
        lines += ["", f"In the treasure chamber: {names}."]
    return lines


def _result(d: dict[str, Any], heroes: dict[str, str]) -> list[str]:
    lines = ["## The end of the quest", "", "| Hero | Fate | Treasure |", "|---|---|---|"]
    for seat, title in heroes.items():
        score = d["scores"].get(seat)
        lines.append(f"| {title} ({seat}) | {d['fates'].get(seat) or 'unknown'} | "
                     f"{'-' if score is None else f'{score} gold'} |")
    if d["winners"]:
        names = " and ".join(heroes[s] for s in d["winners"])
        lines += ["", f"**{names} win{'s' if len(d['winners']) == 1 else ''} the quest.**"]
    else:
        lines += ["", "**Nobody came back: Dragonfire Castle keeps its treasure.**"]
    return lines


def _setup_report(setup: Event, events: list[Event]) -> str:
    d = setup.data
    towers: dict[str, str] = dict(sorted(d["towers"].items()))  # seat order
    n = len(towers)
    if not d["chosen"]:
        out = ["# Report 0: at the gates of Dragonfire Castle", "",
               f"{n} player{'s' if n != 1 else ''} stand{'' if n != 1 else 's'} before the "
               f"castle. The quest lasts {d['turns']} turns; after sunset no one gets out. "
               f"First each player chooses a hero (HERO <name>; more names are preferences, "
               f"best first). Two players wanting one hero roll a d6 each; a player who "
               f"chooses none plays the first hero nobody chose, in the order "
               f"{', '.join(d['default_order'])}.", ""]
        for key, h in sorted(d["choices"].items(), key=lambda kv: _hero_rank(kv[0])):
            out.append(f"- **{h['name']} {h['title']}** (HERO {key.upper()}): Strength "
                       f"{h['strength']}, Agility {h['agility']}, Armour {h['armour']}, Luck "
                       f"{h['luck']}, Life {h['life']}, the {h['ring']}. {h['ability_text']}")
        out += ["", "Towers: " + ", ".join(f"{s} {t}" for s, t in towers.items()) + "."]
        names = {s: s for s in towers}
    else:
        first = "# Report 0: the heroes are chosen" if d.get("after_choice") else \
            "# Report 0: at the gates of Dragonfire Castle"
        out = [first, "",
               f"{n} hero{'es stand' if n != 1 else ' stands'} in the corner "
               f"tower{'s' if n != 1 else ''}. The quest lasts {d['turns']} turns; after "
               f"sunset no one gets out.", ""]
        for seat, h in sorted(d["heroes"].items()):
            out.append(f"- **{h['name']} {h['title']}** ({seat}) in the tower at {h['tower']}: "
                       f"Strength {h['strength']}, Agility {h['agility']}, Armour "
                       f"{h['armour']}, Luck {h['luck']}, Life {h['life']}. {h['ability_text']}")
        names = {s: f"{h['name']} {h['title']}" for s, h in sorted(d["heroes"].items())}
    choice = [e for e in events if e.kind == "line" and e.data.get("seat") is None]
    if choice:
        out += ["", *[f"- {e.data['text']}" for e in choice]]
    for e in events:
        if e.kind == "line" and e.data.get("seat"):
            out += ["", f"- ({e.data['seat']}) {e.data['text']}"]
        if e.kind == "map":
            out += ["", *_map(e.data, names)]
    return "\n".join(out).rstrip() + "\n"
