"""Server-rendered referee pages: the GM desk, turn inspector, amend form, disputes, log,
second opinions and the verify page. Thin: every rule is in actions/disputes/reading.

GM pages send anonymous readers to the login page and refuse other users (403); every
form posts, the action runs, and the outcome (or its specific error) comes back as a
message on the page the GM came from.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.core.types import OrdersInvalid
from gm.accounts.timezones import format_deadline, zone_of
from gm.play.actions import engine_for
from gm.play.errors import ActionError
from gm.play.models import Game

from . import actions, disputes, patching, reading
from .models import Dispute


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("gm"), pk=pk)


def _gm_game(request: HttpRequest, pk: int) -> Game:
    game = _game(pk)
    if not game.is_gm(request.user):
        raise PermissionDenied("only this game's GM, a co-GM or a site admin can use the GM desk")
    return game


def _back(request: HttpRequest, game: Game) -> HttpResponseRedirect:
    """Return to the page the form came from, if it is one of this game's pages."""
    target = request.POST.get("next", "")
    if not target.startswith(f"/games/{game.pk}/") or "//" in target:
        target = f"/games/{game.pk}/gm/"
    return redirect(target)


def _int(data, name: str, default: int | None = None) -> int | None:
    raw = (data.get(name) or "").strip()
    if not raw:
        if default is None:
            raise ActionError(f"{name} is required")
        return default
    try:
        return int(raw)
    except ValueError:
        raise ActionError(f"{name} must be a whole number, not {raw!r}") from None


def _json_value(raw: str) -> Any:
    raw = raw.strip()
    if raw == "":
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        raise ActionError(f"{raw!r} is not a number or a list of numbers") from None


def _user(username: str):
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise ActionError(f"there is no user {username!r}")
    return user


def _lines(text: str, sep: str) -> list[tuple[str, str]]:
    out = []
    for number, line in enumerate((text or "").splitlines(), 1):
        if not line.strip():
            continue
        if sep not in line:
            raise ActionError(f"line {number}: write it as <what> {sep} <value>")
        key, value = line.split(sep, 1)
        out.append((key.strip(), value.strip()))
    return out


# --- the GM desk -----------------------------------------------------------------------
@login_required
def desk(request: HttpRequest, pk: int) -> HttpResponse:
    game = _gm_game(request, pk)
    data = reading.overview(game, request.user)
    turn = game.current_turn()
    engine = engine_for(game)
    return render(request, "referee/desk.html", {
        "game": game, "o": data, "turn": turn,
        # said before the GM tries: who may not be given a seat (play.seat_barred)
        "hidden_title": engine.title if engine.hidden_information else "",
        # in the reader's zone with UTC beside, as the player pages and mails show it
        "deadline": format_deadline(turn.deadline, zone_of(request.user))
        if turn is not None and turn.deadline else "",
        "state_json": json.dumps(data["state"], indent=2, sort_keys=True),
        "disputes": disputes.visible_disputes(game), "modes": game.seats.model.Mode.choices})


def _rerun_message(result: actions.RerunResult) -> str:
    text = f"Rerun from turn {result.start}"
    if result.resolved:
        word = "turn" if len(result.resolved) == 1 else "turns"
        text += f": {word} {', '.join(map(str, result.resolved))} resolved again"
    if result.reorder:
        text += f"; turn {result.open_turn} waits for new orders from {', '.join(result.reorder)}"
    if result.held:
        text += f"; turn {result.held} is held for your review"
    return " ".join([text + ".", *result.notes])


def _pause(g, u, r, p) -> str:
    actions.pause(g, u, r)
    return "The game is paused."


def _resume(g, u, r, p) -> str:
    actions.resume(g, u, r)
    return "The game is running again."


def _extend(g, u, r, p) -> str:
    turn = actions.extend_deadline(g, u, r, hours=_int(p, "hours", 0),
                                   minutes=_int(p, "minutes", 0))
    return (f"Turn {turn.number}'s deadline was moved to "
            f"{format_deadline(turn.deadline, zone_of(u))}.")


def _force(g, u, r, p) -> str:
    turn = actions.force_resolution(g, u, r)
    return f"Turn {turn.number} is being resolved."


def _hold(g, u, r, p) -> str:
    game = actions.set_hold(g, u, r, p.get("hold") == "1")
    return "Each turn is held for review." if game.hold_for_review else "Turns publish at once."


def _release(g, u, r, p) -> str:
    record = actions.release(g, u, r)
    return f"Turn {record.number}'s report is out."


def _rerun(g, u, r, p) -> str:
    return _rerun_message(actions.rerun_from(g, u, r, _int(p, "turn")))


def _rollback(g, u, r, p) -> str:
    turn = actions.rollback_to(g, u, r, _int(p, "turn"))
    return f"Rolled back: turn {turn.number} is open for orders."


def _seat_mode(g, u, r, p) -> str:
    seat = actions.set_seat_mode(g, u, r, p.get("seat", ""), p.get("mode", ""))
    return f"Seat {seat.name} is now {seat.get_mode_display()}."


def _seat_user(g, u, r, p) -> str:
    seat = actions.replace_player(g, u, r, p.get("seat", ""), _user(p.get("username", "")))
    return f"Seat {seat.name} is now played by {seat.player_name()}."


def _co_gm(g, u, r, p) -> str:
    names = actions.set_co_gm(g, u, r, p.get("username", "").strip(), p.get("add") == "1")
    return "Co-GMs: " + (", ".join(names) or "none") + "."


def _orders(g, u, r, p) -> str:
    done = actions.replace_orders(g, u, r, p.get("seat", ""), p.get("text", ""),
                                  turn_number=_int(p, "turn", 0) or None)
    if isinstance(done, actions.RerunResult):
        return _rerun_message(done)
    return f"Orders for seat {done.seat.name} set (version {done.version})."


def _dice(g, u, r, p) -> str:
    result = actions.fix_die(g, u, r, _int(p, "turn"), _int(p, "index"),
                             _json_value(p.get("value", "")))
    return "Die fixed. " + _rerun_message(result)


POWERS = {"pause": _pause, "resume": _resume, "extend": _extend, "force": _force,
          "hold": _hold, "release": _release, "rerun": _rerun, "rollback": _rollback,
          "seat-mode": _seat_mode, "seat-user": _seat_user, "co-gm": _co_gm,
          "orders": _orders, "dice": _dice}


@login_required
@require_POST
def power(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    game = _gm_game(request, pk)
    run = POWERS.get(name)
    if run is None:
        raise PermissionDenied(f"unknown GM power {name!r}")
    try:
        messages.success(request, run(game, request.user, request.POST.get("reason", ""),
                                      request.POST))
    except OrdersInvalid as exc:
        messages.error(request, "Orders not accepted: " + "; ".join(str(e) for e in exc.errors))
    except ActionError as exc:
        messages.error(request, exc.message)
    return _back(request, game)


@login_required
def turn_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = _gm_game(request, pk)
    try:
        versions = reading.turn_detail(game, request.user, number)
    except ActionError as exc:
        raise PermissionDenied(exc.message) from None
    zone = zone_of(request.user)
    for v in versions:
        v["deadline_text"] = format_deadline(v["deadline"], zone) if v["deadline"] else ""
        if v["record"]:
            for key in ("state_before", "state_after"):
                v["record"][key + "_json"] = json.dumps(v["record"][key], indent=2,
                                                        sort_keys=True)
    return render(request, "referee/turn.html", {
        "game": game, "number": number, "versions": versions,
        "seats": list(game.seats.order_by("id").values_list("name", flat=True))})


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


@login_required
def amend(request: HttpRequest, pk: int) -> HttpResponse:
    """One typed field per state value; the changed ones become the amendment's patch.

    With ?turn=N for a resolved turn N, the form shows the state N started from and the
    change is applied by rerunning from N.
    """
    game = _gm_game(request, pk)
    source = request.POST if request.method == "POST" else request.GET
    current = game.current_turn()
    try:
        number = _int(source, "turn", current.number if current else 0)
    except ActionError:
        number = current.number if current else 0
    record = game.records.filter(superseded=False, number=number).first()
    state = record.state_before if record else game.state
    fields = patching.fields(state) if state is not None else []
    for f in fields:
        f["shown"] = _shown(f["value"])
    if request.method == "POST":
        changes = [{"path": f["path"], "value": request.POST.get("f" + f["path"])}
                   for f in fields
                   if request.POST.get("f" + f["path"]) not in (None, f["shown"])]
        reason = request.POST.get("reason", "")
        try:
            if not changes:
                raise ActionError("nothing changed: edit at least one value")
            if record is not None:
                result = actions.rerun_from(game, request.user, reason, number, changes=changes)
                messages.success(request, f"Amended before turn {number}. "
                                          + _rerun_message(result))
            else:
                result = actions.amend_state(game, request.user, reason, changes)
                n = len(result["patch"])
                messages.success(request, f"Amendment {result['version']} applied "
                                          f"({n} value{'s' if n != 1 else ''}).")
            return redirect(f"/games/{game.pk}/gm/")
        except ActionError as exc:
            messages.error(request, exc.message)
            posted = {f["path"]: request.POST.get("f" + f["path"], f["shown"]) for f in fields}
            for f in fields:
                f["shown"] = posted[f["path"]]
    turns = [t for t in game.turns.filter(superseded=False).order_by("number")]
    return render(request, "referee/amend.html", {
        "game": game, "fields": fields, "number": number, "rerun": record is not None,
        "turns": turns, "reason": request.POST.get("reason", "")})


# --- public log ---------------------------------------------------------------------------
def log_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    entries = reading.log_entries(game, request.user)
    for e in entries:
        if "private" in e:
            e["private_json"] = json.dumps(e["private"], indent=1, sort_keys=True, default=str)
    return render(request, "referee/log.html", {"game": game, "entries": entries,
                                                "is_gm": game.is_gm(request.user)})


# --- disputes -------------------------------------------------------------------------------
def disputes_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/login/?next=/games/{game.pk}/disputes/")
        try:
            d = disputes.file_dispute(game, request.user, _int(request.POST, "turn"),
                                      request.POST.get("text", ""))
            messages.success(request, f"Dispute #{d.pk} filed; the GM has been told.")
            return redirect(f"/games/{game.pk}/disputes/{d.pk}/")
        except ActionError as exc:
            messages.error(request, exc.message)
    rows = [disputes.dispute_json(d, request.user) for d in disputes.visible_disputes(game)]
    turns = list(game.records.filter(superseded=False, published=True).order_by("number")
                 .values_list("number", flat=True))
    return render(request, "referee/disputes.html", {
        "game": game, "rows": rows, "turns": turns, "seat": game.seat_of(request.user),
        "text": request.POST.get("text", "")})


def dispute_page(request: HttpRequest, pk: int, dispute_id: int) -> HttpResponse:
    game = _game(pk)
    dispute = get_object_or_404(Dispute.objects.select_related("record", "seat"), game=game,
                                pk=dispute_id)
    is_gm = game.is_gm(request.user)
    posted: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        try:
            done = _dispute_post(request, dispute)
            messages.success(request, done)
            return redirect(f"/games/{game.pk}/disputes/{dispute.pk}/")
        except OrdersInvalid as exc:
            messages.error(request, "Orders not accepted: " + "; ".join(map(str, exc.errors)))
        except ActionError as exc:
            messages.error(request, exc.message)
        # Refused: the page again with the error and every field as it was typed.
        posted, status = request.POST.dict(), 400
        dispute.refresh_from_db()
    rec = dispute.record
    seats = list(game.seats.order_by("id").values_list("name", flat=True))
    return render(request, "referee/dispute.html", {
        "game": game, "d": dispute, "data": disputes.dispute_json(dispute, request.user),
        "is_gm": is_gm, "record": rec if is_gm else None,
        "before_json": json.dumps(rec.state_before, indent=2, sort_keys=True) if is_gm else "",
        "after_json": json.dumps(rec.state_after, indent=2, sort_keys=True) if is_gm else "",
        "seat": game.seat_of(request.user),
        "can_opine": disputes.can_give_opinion(dispute, request.user),
        "seats": [(s, posted.get("orders-" + s, "")) for s in seats], "posted": posted},
        status=status)


def _dispute_post(request: HttpRequest, dispute: Dispute) -> str:
    if not request.user.is_authenticated:
        raise ActionError("log in first")
    what = request.POST.get("do")
    p = request.POST
    if what == "rule":
        if p.get("upheld") not in ("0", "1"):
            raise ActionError("choose to uphold or reject the dispute")
        correction: dict[str, Any] = {}
        if p.get("upheld") == "1":
            correction = {
                "turn": _int(p, "turn", dispute.turn_number),
                "changes": [{"path": k, "value": v} for k, v in _lines(p.get("changes"), "=")],
                "overrides": {k: _json_value(v) for k, v in _lines(p.get("dice"), "=")} or None,
                "orders": {s: p.get("orders-" + s) for s in
                           dispute.game.seats.values_list("name", flat=True)
                           if (p.get("orders-" + s) or "").strip()}}
        disputes.rule(dispute, request.user, upheld=p.get("upheld") == "1",
                      reasons=p.get("reasons", ""), correction=correction or None)
        return "Ruling recorded; every seat is notified."
    if what == "ask":
        disputes.request_second_opinion(dispute, request.user, p.get("text", ""))
        return "A second opinion was requested from the site's GMs."
    if what == "opine":
        disputes.give_second_opinion(dispute, request.user, p.get("text", ""))
        return "Thank you: your opinion is posted."
    raise ActionError("unknown request")


@login_required
def opinions_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied("second opinions are given by the site's GMs (staff)")
    return render(request, "referee/opinions.html",
                  {"rows": disputes.pending_opinions(request.user)})


# --- verify ------------------------------------------------------------------------------
def verify_page(request: HttpRequest) -> HttpResponse:
    """Upload an export; the server replays it with games.core.verify and shows the verdict."""
    verdict = None
    if request.method == "POST":
        upload = request.FILES.get("export")
        if upload is None:
            messages.error(request, "choose an export file (GET /api/games/<id>/export/)")
        else:
            verdict = reading.verify_upload(upload.read(reading.VERIFY_MAX_BYTES + 1))
    # newcomer (issue 28): a file that is no export is not called a "Mismatch"
    unreadable = bool(verdict and not verdict.ok and verdict.error and verdict.error.startswith(
        ("not a JSON file", "not a game export", "not a tabletop-gm", "malformed export",
         "the file is larger")))
    return render(request, "referee/verify.html", {"verdict": verdict, "unreadable": unreadable})
