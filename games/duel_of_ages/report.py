"""Turn reports in the project's own words, built only from the events a reader may see."""

from __future__ import annotations

from typing import Any

from games.core.types import Event

from . import catalog


def _card(key: str | None) -> str:
    return "bare hands" if key is None else catalog.card(key)["title"]


def _roll(r: dict[str, Any]) -> str:
    return f"{r['number']} to squeak, rolled {r['roll']} ({r['dice'][0]}+{r['dice'][1]}): {r['level']}"


def line(event: Event) -> str | None:
    d = event.data
    kind = event.kind
    if kind == "turn":
        return f"\n### Round {d['round']}: Team {d['team']} moves\n"
    if kind == "roll_off":
        rolls = ", ".join(f"{s} {r}" for s, r in sorted(d["rolls"].items()))
        return (f"- Roll-off for Team White ({rolls}): {d['white']} is Team White, "
                f"{d['black']} is Team Black.")
    if kind == "placed_piece":
        what = {"platters": "platter", "dome_keys": "dome key", "labyrinths": "labyrinth"}
        where = "at site" if d["kind"] == "platters" else "in slot"
        facing = f", its entrance facing the platter at {d['from']}" if d.get("from") else ""
        if d.get("turn"):
            facing = f", turned {d['turn']} sixth{'s' if d['turn'] > 1 else ''} clockwise"
        return (f"- Team {d['team']} places the {what[d['kind']]} {d['name']} {where} "
                f"{d['site']}{facing}.")
    if kind == "map_built":
        return "- The map is built: the labyrinths are in place, play begins."
    if kind == "revealed":
        return f"- Team {d['team']} reveals its characters: {', '.join(d['chars'])}."
    if kind == "team":
        return f"- (secret) Team {d['team']} is dealt: {', '.join(d['chars'])}."
    if kind == "dealt_card":
        return f"- (secret) {d['char']} carries the {_card(d['card'])}."
    if kind == "reveal":
        return f"- {d['char']} shows the {_card(d['card'])}."
    if kind == "no_weapon":
        return (f"- {d['char']} does not carry a usable {_card(d['card'])} and fights "
                f"with what he has.")
    if kind == "no_shot":
        return f"- {d['char']} holds fire: {d['why']}."
    if kind == "random_target":
        rolls = ", ".join(f"{k} {v}" for k, v in sorted(d["rolls"].items()))
        return f"- The crowd in {d['space']} rolls to see who is hit ({rolls}): {d['target']}."
    if kind == "move":
        path = " ".join(d["path"])
        stop = f" (stopped: {d['stop']})" if d["stop"] else ""
        return f"- {d['char']} moves from {d['from']} via {path}{stop}."
    if kind == "no_move":
        return f"- {d['char']} stays put: {d['why']}."
    if kind == "attack":
        what = {"fire": "shoots", "opfire": "snaps off a shot", "melee": "strikes"}[d["phase"]]
        where = d["space"] + (" (in the tunnel)" if d.get("down") else "")
        text = (f"- {d['char']} {what} at {d['target']} in {where} with the "
                f"{_card(d['weapon'])}: hit roll {_roll(d['hit'])}")
        if "wound" in d:
            text += (f"; damage roll {_roll(d['wound'])}, {d['damage']} damage, "
                     f"{d['target']} has {d['health']} health left")
        else:
            text += ", a miss"
        return text + "."
    if kind == "eliminated":
        text = f"- **{d['char']} is eliminated** in {d['space']}"
        if d.get("dropped"):
            text += f", leaving {_cards(d['dropped'])} on the ground"
        if d.get("discarded"):
            text += ", the cards are discarded: " + ", ".join(_card(c) for c in d["discarded"])
        return text + "."
    if kind == "pickup":
        shown = ", ".join(_card(c) for c in d["shown"])
        text = f"- {d['char']} picks up {_cards(d['count'])} in {d['space']}"
        text += f" (face up: {shown})" if shown else ""
        return text + "."
    if kind == "pickup_cards":
        return f"- (secret) {d['char']} picked up: " + ", ".join(_card(c) for c in d["cards"]) + "."
    if kind == "card_lost":
        return f"- {d['char']} loses the {_card(d['card'])} ({d['why']})."
    if kind == "cards_lost_all":
        return f"- {d['char']} loses every card carried."
    if kind == "placed":
        how = {"reinforcement": "enters the field", "dismissed": "is dismissed",
               "banished": "is banished", "outmaneuvered": "is outmaneuvered"}[d["how"]]
        if d["space"] is None:
            return (f"- {d['char']} {how}: Team {d['roller']} rolls {d['die']}, but every "
                    f"dome is taken: he waits off the map.")
        if d["how"] == "outmaneuvered":
            return f"- {d['char']} {how}: Team {d['roller']} puts him in dome {d['space']}."
        return f"- {d['char']} {how}: Team {d['roller']} rolls {d['die']}, dome {d['space']}."
    if kind == "tower":
        return (f"- {d['char']} challenges the {d['tower']} tower with {d['rating']}: "
                f"{_roll(d)}{_tower_effect(d)}, then {d['then']}.")
    if kind == "guardian":
        g = catalog.guardians()[d["guardian"]]
        bonus = " (+1 for his own age)" if d["bonus"] else ""
        face = {True: ", turned face up,", False: ", face up already,"}.get(
            d.get("revealed"), "")
        return (f"- {d['char']} faces {g['title']}{face} in the {d['age']} labyrinth, "
                f"{g['rating']} against {g['against']}{bonus}: {_roll(d)}; "
                f"results: {', '.join(d['results'])}.")
    if kind == "guardian_defeated":
        return (f"- Team {d['team']}'s guardian position in the {d['age']} labyrinth "
                f"moves to {d['space']}.{_next_guardian(d)}")
    if kind == "mercy":
        return (f"- {d['char']} begs for mercy in the {d['age']} labyrinth."
                f"{_next_guardian(d)}")
    if kind == "draw":
        text = f"- {d['char']} draws {_cards(d['count'])}"
        return text + "."
    if kind == "draw_cards":
        return f"- (secret) {d['char']} drew: " + (", ".join(_card(c) for c in d["cards"])
                                                   or "nothing, the deck is empty") + "."
    if kind == "trade":
        shown = ", ".join(_card(c) for c in d["shown"])
        text = (f"- {d['char']} and {d['with']} trade: {_cards(d['gave'])} one way, "
                f"{d['took']} the other")
        text += f" (face up: {shown})" if shown else ""
        return text + "."
    if kind == "trade_cards":
        gave = ", ".join(_card(c) for c in d["gave"]) or "nothing"
        took = ", ".join(_card(c) for c in d["took"]) or "nothing"
        return f"- (secret) {d['char']} gave {gave} and took {took}."
    if kind == "no_trade":
        return f"- {d['char']} and {d['with']} cannot trade: {d['why']}."
    if kind == "havoc":
        return f"- Havoc: {d['giver']} hands {_cards(d['count'])} to {d['receiver']}."
    if kind == "healed":
        source = "the guardian's bonus" if d["card"] is None else f"the {_card(d['card'])}"
        if d.get("source") == "ability":
            source = "a healing ability"
        return f"- {d['char']} gains {d['health']} health from {source}."
    if kind == "mount":
        if d["card"] is None:
            return f"- {d['char']} leaves his mount."
        return f"- {d['char']} rides the {_card(d['card'])}."
    if kind == "defaulted":
        return f"- {d['seat']} sent no orders; standard orders were used."
    if kind == "sudden_death":
        return (f"\n**Time: the teams are tied** ({d['detail']}); sudden death: the first "
                f"team to break the tie wins at once.")
    if kind == "trade_undone":
        return (f"- The trade between {d['char']} and {d['with']} never happened: the cards "
                f"go back the way they were.")
    if kind == "pickup_undone":
        return (f"- {d['char']} never reached {d['space']}: the cards he picked up there "
                f"lie on the ground again.")
    if kind == "game_over":
        who = f"Team {d['winner']} wins" if d["winner"] else "The game is drawn"
        return f"\n**{who}** ({d['summary']})."
    return None


def report(events: list[Event], viewer: str | None) -> str:
    lines = [text for e in events if e.visible_to(viewer) and (text := line(e))]
    return "\n".join(lines).strip() + "\n" if lines else "Nothing happened.\n"


def _next_guardian(d: dict[str, Any]) -> str:
    """Rules revision 4: the guardian the deck comes round to, when it lies face up."""
    if d.get("next"):
        return f" Next in that labyrinth, face up: {catalog.guardians()[d['next']]['title']}."
    return ""


def _cards(count: int) -> str:
    """'1 card', '3 cards' (never 'card(s)')."""
    return f"{count} card" if count == 1 else f"{count} cards"


def _tower_effect(d: dict) -> str:
    """What a tower challenge did, said only when it did something (not 'damage 0,
    healed 0' on every line)."""
    parts = [f"{d['damage']} damage" if d.get("damage") else "",
             f"healed {d['heal']}" if d.get("heal") else ""]
    said = ", ".join(p for p in parts if p)
    return f"; {said}" if said else ""
