"""The adjudication desk's service logic: drafts, rolls, preview, publish, reopen.

Views and API are thin over these. Every function checks that the user is the game's
GM (or co-GM / site admin: Game.is_gm) and works on the turn that waits for the GM's
adjudication: the open turn whose decision the pseudo-seat GM owes.

Rolls: the draft's rolls are sent to the engine first, in the order they were made,
then the GM's text. The engine draws them from the turn's labelled stream, so a roll's
result is fixed the moment it is made (the text written after it cannot change it),
the preview shows exactly what publication will, and the rolls list only grows.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.core.replay import secret_rng
from games.core.types import Event, OrderError, Orders, OrdersInvalid
from games.gm_adjudicated import dice
from games.gm_adjudicated.adjudication import GM
from gm.play import actions as play
from gm.play import limits
from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, Turn, TurnRecord
from gm.play.rendering import render_markdown

from .models import Draft, DraftVersion

RULESET = "gm_adjudicated"
ROLL_LINE = re.compile(r"^@(roll|secret-roll|draw)\b", re.I | re.M)
MAX_ROLLS = 200


def require_gm(game: Game, user) -> None:
    if game.ruleset != RULESET:
        raise ActionError("this game is not GM-adjudicated: it has no adjudication desk")
    if not game.is_gm(user):
        raise NotAllowed("only this game's GM, a co-GM or a site admin can adjudicate it")


def waiting_turn(game: Game) -> Turn | None:
    """The live turn that waits for the GM's adjudication, or None."""
    turn = (Turn.objects.filter(game=game, superseded=False, status=Turn.Status.OPEN)
            .order_by("-number").first())
    return turn if turn is not None and GM in turn.owing else None


def _turn(game: Game, turn_number: int | None) -> Turn:
    turn = waiting_turn(game)
    if turn is None:
        raise Conflict("no turn waits for the adjudication now (the players' orders are "
                       "still open, or the game has not started or is over)")
    if turn_number is not None and turn_number != turn.number:
        raise Conflict(f"turn {turn_number} is not the turn waiting for adjudication "
                       f"(turn {turn.number} is)")
    return turn


def draft_of(turn: Turn) -> Draft:
    """The turn's draft; a new one starts from the text of the last draft of the same
    turn number (a reopened adjudication keeps its words, never its rolls)."""
    draft = Draft.objects.filter(turn=turn).first()
    if draft is not None:
        return draft
    earlier = Draft.objects.filter(game_id=turn.game_id).select_related("turn") \
        .order_by("-pk").first()
    keep = earlier is not None and (earlier.turn.number == turn.number  # reopened
                                    or earlier.published is None)  # the GM was late
    return Draft.objects.create(game_id=turn.game_id, turn=turn,
                                text=earlier.text if keep else "")


def void_rolls(turn: Turn, state: Any) -> list[str]:
    """The rolls of `turn`'s draft, never published (the GM was late): each with its
    result, a secret one with its label only, for the public log."""
    draft = Draft.objects.filter(turn=turn, published__isnull=True).first()
    if draft is None or not draft.rolls:
        return []
    game = turn.game
    engine = play.engine_for(game)
    state = engine.from_json(state)
    try:
        orders = engine.parse_orders(state, GM, "\n".join(roll_lines(draft.rolls)))
    except OrdersInvalid:
        return [r["label"] for r in draft.rolls]
    rng = secret_rng(game.secret, turn.number, turn.overrides, turn.attempt)
    _after, events = engine.resolve(state, {GM: orders}, rng)
    out = []
    for e in events:
        if e.kind in ("roll", "draw"):
            r = _roll_json(e)
            out.append(f"{r['label']} (secret)" if r.get("secret")
                       else f"{r['label']} = {r['result']}")
    return out


def roll_lines(rolls: list[dict[str, Any]]) -> list[str]:
    out = []
    for r in rolls:
        if r["op"] == "draw":
            out.append(f"@draw {r['label']}: {r['deck']} {r['count']}")
        else:
            out.append(f"@{'secret-roll' if r.get('secret') else 'roll'} {r['label']}: "
                       f"{r['expr']}")
    return out


def compose(draft: Draft) -> str:
    """The adjudication the engine reads: the rolls in the order made, then the text."""
    return "\n".join([*roll_lines(draft.rolls), "@public", draft.text])


def _check_text(text: str) -> None:
    limits.check_order_text(text)
    found = ROLL_LINE.search(text)
    if found:
        line = text[:found.start()].count("\n") + 1
        raise OrdersInvalid([OrderError(line, f"@{found.group(1)} is made with the desk's "
                                              "Roll/Draw, not typed",
                                        "every roll is kept on the record; put {label} "
                                        "where its result goes")])


def save(game: Game, user, text: str, *, turn_number: int | None = None) -> Draft:
    """Save the draft's text (a new version each time; nothing is published)."""
    require_gm(game, user)
    _check_text(text)
    with transaction.atomic():
        turn = _turn(game, turn_number)
        draft = Draft.objects.select_for_update().get(pk=draft_of(turn).pk)
        draft.text = text
        draft.save(update_fields=["text", "updated"])
        DraftVersion.objects.create(draft=draft, number=draft.versions.count() + 1,
                                    text=text, author=user)
    return draft


def roll(game: Game, user, label: str, what: str, *, secret: bool = False,
         draw: bool = False, count: int = 1, turn_number: int | None = None
         ) -> dict[str, Any]:
    """Add a roll (or a deck draw) to the draft; its result, fixed from now on."""
    require_gm(game, user)
    label = " ".join((label or "").split())
    if not label or "{" in label or "}" in label or ":" in label or len(label) > 60:
        raise ActionError("a roll needs a label of up to 60 characters (no { } or :): "
                          "what it is for, e.g. 'attack on Paris'")
    with transaction.atomic():
        turn = _turn(game, turn_number)
        draft = Draft.objects.select_for_update().get(pk=draft_of(turn).pk)
        if len(draft.rolls) >= MAX_ROLLS:
            raise Conflict(f"at most {MAX_ROLLS} rolls in one adjudication")
        if draw:
            if not 1 <= count <= 20:
                raise ActionError("draw 1 to 20 cards at once")
            entry: dict[str, Any] = {"op": "draw", "label": label, "deck": " ".join(
                what.split()), "count": count}
        else:
            try:
                dice.parse(what)
            except dice.DiceError as exc:
                raise ActionError(str(exc)) from None
            entry = {"op": "roll", "label": label, "expr": " ".join(what.split()),
                     "secret": bool(secret)}
        trial = [*draft.rolls, entry]
        engine = play.engine_for(game)
        try:
            engine.parse_orders(engine.from_json(game.state), GM,
                                "\n".join(roll_lines(trial)))
        except OrdersInvalid as exc:
            raise ActionError(str(exc.errors[-1].message)) from None
        draft.rolls = trial
        draft.save(update_fields=["rolls", "updated"])
        play.record_log(game, "gm_roll", f"The GM {'drew' if draw else 'rolled'} "
                        f"{'a secret roll' if secret else repr(label)} into the draft of "
                        f"turn {turn.number}.", actor=user, turn_number=turn.number)
    got = preview(game, user, turn_number=turn.number)
    return {"roll": entry, "rolls": got.get("rolls", []), "preview": got}


def preview(game: Game, user, *, text: str | None = None, turn_number: int | None = None
            ) -> dict[str, Any]:
    """What publishing the draft (with `text` instead of its saved text, when given)
    would post: each reader's report as markdown and HTML, the rolls with results; or
    the errors. Exactly what publication gives: the same state, stream and order."""
    require_gm(game, user)
    turn = _turn(game, turn_number)
    draft = draft_of(turn)
    if text is not None:
        _check_text(text)
        draft.text = text
    engine = play.engine_for(game)
    state = engine.from_json(game.state)
    try:
        orders = engine.parse_orders(state, GM, compose(draft))
    except OrdersInvalid as exc:
        shift = len(draft.rolls) + 1  # the text's own line numbers
        return {"ok": False, "errors": [
            {"line": max(0, e.line - shift), "message": e.message, "hint": e.hint}
            for e in exc.errors]}
    rng = secret_rng(game.secret, turn.number, turn.overrides, turn.attempt)
    _after, events = engine.resolve(state, {GM: orders}, rng)
    readers: list[tuple[str, str | None]] = [("public", None), ("GM", "*")]
    readers += [(s, s) for s in state["seats"]]
    reports = {}
    for name, viewer in readers:
        markdown = engine.report(events, viewer)
        reports[name] = {"markdown": markdown, "html": render_markdown(markdown)}
    return {"ok": True, "turn": turn.number, "reports": reports,
            "rolls": [_roll_json(e) for e in events if e.kind in ("roll", "draw")],
            "receipt": orders.receipt}


def _roll_json(event: Event) -> dict[str, Any]:
    d = event.data
    if event.kind == "draw":
        return {"n": d["n"], "label": d["label"], "kind": "draw", "deck": d["deck"],
                "result": ", ".join(d["cards"]) or "(empty deck)"}
    return {"n": d["n"], "label": d["label"], "kind": "roll", "secret": d["secret"],
            "result": d["total"], "text": d["text"]}


def publish(game: Game, user, *, text: str | None = None, turn_number: int | None = None
            ) -> Turn:
    """Publish the draft: it becomes the GM seat's orders and the turn resolves now
    (reports on the pages, by mail and in the thread; the next turn opens).

    `text`: the whole adjudication at once (an API client, a mail, a script), saved as
    the draft's last version and published; it may type its @roll and @draw lines,
    which are rolled at publication, after the desk's rolls, unseen before (the
    preview refuses typed rolls, so none can be looked at and changed)."""
    require_gm(game, user)
    if text is not None:
        limits.check_order_text(text)
    with transaction.atomic():
        turn = _turn(game, turn_number)
        turn = Turn.objects.select_for_update().get(pk=turn.pk)
        if turn.status != Turn.Status.OPEN or turn.superseded:
            raise Conflict("this adjudication is already being published")
        draft = Draft.objects.select_for_update().get(pk=draft_of(turn).pk)
        if text is not None:
            draft.text = text
            DraftVersion.objects.create(draft=draft, number=draft.versions.count() + 1,
                                        text=text, author=user)
        engine = play.engine_for(game)
        orders: Orders = engine.parse_orders(engine.from_json(game.state), GM, compose(draft))
        draft.orders = orders.to_json()
        draft.published = timezone.now()
        draft.published_by = user
        draft.save(update_fields=["orders", "published", "published_by", "updated"])
        play.record_log(game, "adjudicated", f"{user.username} published the adjudication "
                        f"of turn {turn.number} ({len(draft.rolls)} roll"
                        f"{'s' if len(draft.rolls) != 1 else ''}; receipt "
                        f"{orders.receipt[:12]}).", actor=user, turn_number=turn.number)
        play.mark_due(turn, reason="the GM published the adjudication")
    return turn


def reopen(game: Game, user, reason: str) -> Turn:
    """Reopen the last published adjudication (a rollback to its turn, on the record):
    the players' orders stand, the text comes back as a draft, the dice are new."""
    require_gm(game, user)
    from gm.referee import actions as referee

    last = next((r for r in TurnRecord.objects.filter(game=game, superseded=False)
                 .order_by("-number").only("number", "orders") if GM in (r.orders or {})),
                None)
    if last is None:
        raise Conflict("no adjudication has been published yet")
    return referee.rollback_to(
        game, user, reason, last.number,
        announce=f"the GM reopened the adjudication of turn {last.number}: its report is "
                 "withdrawn and will be published again. Your orders stand; nothing to send.")


def gm_orders(turn: Turn) -> Orders | None:
    """The published adjudication of `turn` (the pseudo seat GM's orders), or None."""
    draft = Draft.objects.filter(turn=turn, published__isnull=False).first()
    return Orders.from_json(draft.orders) if draft and draft.orders else None


def desk(game: Game, user) -> dict[str, Any]:
    """Everything the desk shows: the turn waiting, each seat's orders side by side
    (missing ones marked), the draft, its rolls and its preview."""
    require_gm(game, user)
    engine = play.engine_for(game)
    view = engine.view(engine.from_json(game.state), "*") if game.state else {}
    turn = waiting_turn(game)
    out: dict[str, Any] = {"game": game.pk, "status": game.status, "waiting": turn is not None,
                           "view": view}
    seats = view.get("seats", [])
    out["orders"] = [{"seat": s, "text": view.get("orders", {}).get(s),
                      "missing": s not in view.get("orders", {})} for s in seats]
    out["sheets"] = view.get("sheets", {})
    out["notes"] = view.get("notes", {})
    if turn is None:
        return out
    draft = draft_of(turn)
    out.update({"turn": turn.number, "deadline": turn.deadline, "text": draft.text,
                "rolls_made": draft.rolls, "versions": draft.versions.count(),
                "preview": preview(game, user, turn_number=turn.number)})
    return out
