"""Markdown narration of a duel, built only from the events the reader may see."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core.types import Event

TOKEN_NAMES = {"power": "a +3 token", "disarmed": "the Disarmed! token",
               "blinded": "the Blinded! token"}
ASKED = {"plan": "which card to plan", "set": "where to set the die",
         "defend": "which card defends and the guesses",
         "absorb": "which hand cards absorb {damage} damage"}
WHY_REVEAL = {"lead": "leads the attack", "defence": "is turned up to defend",
              "spirit twin": "is turned up for Spirit Twin",
              "second sight": "is turned up by Second Sight"}
POSITION = {0: "left-most", 1: "second", 2: "right-most"}


def _who(seat: str, viewer: str | None) -> str:
    return f"**{seat}** (you)" if seat == viewer else f"**{seat}**"


def _whose(seat: str, viewer: str | None, start: bool = False) -> str:
    if seat == viewer:
        return "Your" if start else "your"
    return f"**{seat}**'s"


def _list(items: list[Any]) -> str:
    return ", ".join(str(i) for i in items) if items else "nothing"


def render(events: list[Event], viewer: str | None) -> str:
    lines: list[str] = []
    for event in events:
        if not event.visible_to(viewer):
            continue
        text = _line(event, viewer)
        if text:
            lines.append(text)
    return "\n".join(lines).strip() + "\n" if lines else "Nothing you can see happened.\n"


def _line(event: Event, viewer: str | None) -> str:
    handler = _HANDLERS.get(event.kind)
    return handler(event.data, viewer) if handler else ""


def _start_roll(d: dict[str, Any], v: str | None) -> str:
    a, b = d["seats"]
    rolls = "; then ".join(f"{a} {r[0]}, {b} {r[1]}" for r in d["rolls"])
    return (f"## The duel is set\n\nRoll for the start: {rolls}. {_who(d['starter'], v)} "
            f"attacks first; the other duelist chooses a champion first.")


def _picked(d: dict[str, Any], v: str | None) -> str:
    return f"- {_who(d['seat'], v)} fights as **{d['champion']}**."


def _armor_removed(d: dict[str, Any], v: str | None) -> str:
    return (f"- {_who(d['seat'], v)} starts first and leaves {d['count']} armor cards "
            f"out of the deck.")


def _drew(d: dict[str, Any], v: str | None) -> str:
    if v in (d["seat"], "*"):
        return ""  # the owner reads the names in drew_cards
    return f"- {_who(d['seat'], v)} draws {_n(d['count'], 'card')} ({d['why']})."


def _drew_cards(d: dict[str, Any], v: str | None) -> str:
    return f"- {_who(d['seat'], v)} draws ({d['why']}): {_list(d['cards'])}."


def _queued(d: dict[str, Any], v: str | None) -> str:
    if v in (d["seat"], "*"):
        return ""
    return f"- {_who(d['seat'], v)} lays three cards face down in the queue."


def _queued_cards(d: dict[str, Any], v: str | None) -> str:
    return (f"- {_who(d['seat'], v)} queues, left to right: {_list(d['cards'])} "
            f"(face down).")


def _turn(d: dict[str, Any], v: str | None) -> str:
    return f"\n## Duel round {d['number']}: {_who(d['attacker'], v)} attacks\n"


def _discarded(d: dict[str, Any], v: str | None) -> str:
    token = " and its Defended! token returns to the reserve" if d["token"] else ""
    return f"- {_who(d['seat'], v)} discards the left-most card, {d['card']}{',' if token else ''}{token}."


def _reshuffle(d: dict[str, Any], v: str | None) -> str:
    return (f"- {_who(d['seat'], v)} shuffles the discard pile into a new draw deck "
            f"({_n(d['count'], 'card')}).")


def _revealed(d: dict[str, Any], v: str | None) -> str:
    why = WHY_REVEAL.get(d["why"], "is revealed")
    return f"- {_whose(d['seat'], v, True)} {POSITION.get(d['pos'], 'queued')} card, **{d['card']}**, {why}."


def _armor_revealed(d: dict[str, Any], v: str | None) -> str:
    return (f"- {_whose(d['seat'], v, True)} {POSITION.get(d['pos'], 'queued')} card is Armor: "
            f"exhausted and replaced from the top of the deck.")


def _attacks(d: dict[str, Any], v: str | None) -> str:
    if not d["attacks"]:
        return f"- {d['card']} carries no attack: no attack this turn."
    borrowed = f" (borrowing {d['borrowed']}'s attack)" if d.get("borrowed") else ""
    return f"- {d['card']}{borrowed} attacks with {' then '.join(d['attacks'])}."


def _planned(d: dict[str, Any], v: str | None) -> str:
    if v in (d["seat"], "*"):
        return ""
    return f"- {_who(d['seat'], v)} plans a card face down on the right."


def _planned_card(d: dict[str, Any], v: str | None) -> str:
    return f"- {_who(d['seat'], v)} plans **{d['card']}** face down on the right."


def _defence(d: dict[str, Any], v: str | None) -> str:
    forced = " (the left-most card already carries the Defended! token)" if d["forced"] else ""
    text = (f"- {_who(d['seat'], v)} defends with the {'left-most' if d['pos'] == 'LEFT' else 'second'} card, "
            f"**{d['card']}**{forced}: {d['type'].title()} defence {d['base']}")
    for reason, n in d["cuts"]:
        text += f", -{n} for {reason}"
    guesses = "guess" if d["allowed"] == 1 else "guesses"
    return text + f", so {d['allowed']} {guesses}."


def _strike(d: dict[str, Any], v: str | None) -> str:
    guesses = _list(d["guesses"]) if d["guesses"] else "no guesses"
    head = (f"- {d['card']} {d['attack']}: the die was set to **{d['die']}**; "
            f"{_who(d['defender'], v)} guessed {guesses}.")
    if d["blocked"]:
        return head + " **Blocked.**"
    parts = " ".join(f"{'+' if n >= 0 else '-'} {abs(n)} ({what})" for what, n in d["parts"][1:])
    return (head + f" **Hit** for **{d['damage']}** damage ({d['parts'][0][1]} on the die"
            f"{' ' + parts if parts else ''}, at least 1).")


def _absorbed(d: dict[str, Any], v: str | None) -> str:
    line = (f"- {_who(d['seat'], v)} exhausts {_n(d['damage'], 'card')}: from the hand "
            f"{_list(d['hand'])}; from the deck {_list(d['deck'])}.")
    if "short" in d:
        line += (f" Deck and discard pile are empty: the rest comes from the hand "
                 f"{_list(d['short'])}")
        line += (f", and {d['lost']} more {'finds' if d['lost'] == 1 else 'find'} no card "
                     "left.") if d["lost"] else "."
    return line


def _token(d: dict[str, Any], v: str | None) -> str:
    name = TOKEN_NAMES[d["token"]]
    verb = "gains" if d["change"] == "gained" else "uses up"
    return f"- {_who(d['seat'], v)} {verb} {name}."


def _flipped(d: dict[str, Any], v: str | None) -> str:
    return (f"- Second Sight: {_who(d['seat'], v)} must turn every face-down queue card "
            f"face up ({d['count']}).")


def _tripped(d: dict[str, Any], v: str | None) -> str:
    what = d["card"] or "a face-down card"
    if v in (d["seat"], "*"):
        return ""
    return (f"- Tripped! {_who(d['seat'], v)} discards the right-most card ({what}) and "
            f"plans a new one from the top of the deck, face down.")


def _tripped_cards(d: dict[str, Any], v: str | None) -> str:
    return (f"- Tripped! {_who(d['seat'], v)} discards the right-most card ({d['old']}) and "
            f"plans **{d['new']}** from the top of the deck, face down.")


def _armor_exhausted(d: dict[str, Any], v: str | None) -> str:
    when = " before absorbing the hit" if d.get("moment") == "absorb" else ""
    short = d.get("short", 0)
    if not d["count"]:
        return (f"- {_who(d['seat'], v)} keeps {_n(short, 'Armor card')}{when}: no card is left "
                f"to draw in exchange.")
    kept = f" ({short} more kept: no card left to draw for them)" if short else ""
    return (f"- {_who(d['seat'], v)} exhausts {_n(d['count'], 'Armor card')} from the hand{when} "
            f"to draw as many{kept}.")


def _asked(d: dict[str, Any], v: str | None) -> str:
    what = ASKED[d["kind"]].format(damage=d.get("damage", "the"))
    return (f"\n**Decision arising:** {_who(d['seat'], v)} gave no order covering "
            f"{what} (attack {d['attack']}); the next turn asks for it.")


def _turn_over(d: dict[str, Any], v: str | None) -> str:
    return ""


def _surrender(d: dict[str, Any], v: str | None) -> str:
    return (f"\n**{d['loser']} cannot draw a card ({d['why']}) and surrenders. "
            f"{d['winner']} wins the duel!**")


def _defaulted(d: dict[str, Any], v: str | None) -> str:
    return f"- {_who(d['seat'], v)} sent no orders in time; the default orders apply."


def _default_text(d: dict[str, Any], v: str | None) -> str:
    text = "; ".join(d["text"].splitlines()) or "(none)"
    return f"- Default orders for {_who(d['seat'], v)}: `{text}`."


_HANDLERS: dict[str, Callable[[dict[str, Any], str | None], str]] = {
    "start_roll": _start_roll, "picked": _picked, "armor_removed": _armor_removed,
    "drew": _drew, "drew_cards": _drew_cards, "queued": _queued, "queued_cards": _queued_cards,
    "turn": _turn, "discarded": _discarded, "reshuffle": _reshuffle, "revealed": _revealed,
    "armor_revealed": _armor_revealed, "attacks": _attacks, "planned": _planned,
    "planned_card": _planned_card, "defence": _defence, "strike": _strike,
    "absorbed": _absorbed, "token": _token, "flipped": _flipped, "tripped": _tripped,
    "tripped_cards": _tripped_cards, "armor_exhausted": _armor_exhausted, "asked": _asked,
    "turn_over": _turn_over, "surrender": _surrender, "defaulted": _defaulted,
    "default_text": _default_text,
}


def _n(count: int, noun: str) -> str:
    """'1 card', '3 cards': reports read as sentences, not forms."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
