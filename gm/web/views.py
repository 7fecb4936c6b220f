"""Server-rendered pages: lobby, sign-up, new game, the game page and its feed.

Views only translate HTTP to gm.play.actions calls and back; every rule lives there.
Every POST ends in a redirect (post/redirect/get) except a refused order, which is shown
again with its errors first and the text kept in the box.
"""

from __future__ import annotations

import json
import re
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.safestring import mark_safe
from django.utils.timesince import timeuntil
from django.views.decorators.http import require_POST

from games.core import registry
from games.core.orders import order_lines
from games.core.types import OrderError, OrdersInvalid
from gm.accounts.nextpage import same_site_path
from gm.accounts.timezones import format_deadline, set_zone, zone_name_of, zone_of
from gm.mail import greetings
from gm.play import actions, limits
from gm.play.errors import ActionError
from gm.play.models import Game, Post, Submission, Turn, fill_html
from gm.talk import actions as talk

from . import lobby_order, not_read, prompts, set_aside
from .forms import NewGameForm, OrdersForm, PostForm, PressForm, TimeZoneForm
from .templatetags.when import remember_zone

TURN_NOTE = ("Turns here count every decision the game asks for, one after another "
             "(choices at setup and decisions arising included), so a game's own rounds "
             "(its \"combat round\" or \"round 5 of 26\") can carry a smaller number.")


def name_seats(text: str, players: dict[str, str]) -> str:
    """'P1 wins' -> 'P1 (alice) wins': results and notices name the people, not only seats."""
    for seat, player in players.items():
        if player and player != "(vacant)":
            text = re.sub(rf"\b{re.escape(seat)}\b(?! \()", f"{seat} ({player})", text)
    return text


def _players(game: Game) -> dict[str, str]:
    return {s.name: s.player_name() for s in game.seats.select_related("user")}


def deadline_context(request: HttpRequest, when, zone_name: str | None = None) -> dict:
    """The deadline in the reader's zone, and what the browser needs for its countdown.

    zone_name: the reader's zone when the caller has read it already (one query, not two).
    """
    if when is None:
        return {}
    zone = zone_of(request.user) if zone_name is None else ZoneInfo(zone_name or "UTC")
    return {"iso": when.isoformat(), "text": format_deadline(when, zone),
            "left": timeuntil(when)}


# --- lobby, settings ----------------------------------------------------------
def lobby(request: HttpRequest) -> HttpResponse:
    mine = []
    if request.user.is_authenticated:
        games = list(Game.objects.filter(Q(seats__user=request.user) | Q(gm=request.user)
                                         ).distinct().select_related("gm"))
        unread = talk.unread(games, request.user)
        for game in games:
            # newcomer (issue 26/28): the turn read once gives the owing list and the deadline
            turn = game.current_turn() if game.status == "running" else None
            owing = actions.owing_summary(game, turn)["owing"] if turn is not None else []
            seat = game.seat_of(request.user)
            counts = unread.get(game.pk, {})
            words = [f"{n} {label}{'s' if n > 1 and label != 'private' else ''}"
                     for label, n in (("report", counts.get("reports", 0)),
                                      ("post", counts.get("posts", 0)),
                                      ("private", counts.get("press", 0))) if n]
            mine.append({"game": game, "seat": seat, "unread": counts,
                         "unread_total": sum(counts.values()), "unread_words": ", ".join(words),
                         "i_owe": bool(seat and seat.name in owing),
                         "deadline": turn.deadline if turn is not None
                         and turn.status == Turn.Status.OPEN else None})
        mine.sort(key=lobby_order.urgency)  # newcomer: what needs you first
    open_games = Game.objects.filter(status=Game.Status.OPEN).select_related("gm")[:50]
    running = Game.objects.filter(status__in=[Game.Status.RUNNING, Game.Status.PAUSED]
                                  ).select_related("gm")[:50]
    return render(request, "web/lobby.html", {
        "mine": mine, "open_games": open_games, "running": running,
        "owed": sum(1 for g in mine if g["i_owe"]),  # newcomer (issue 26): the tab title
        "rulesets": registry.engines().values()})


@login_required
def time_zone(request: HttpRequest) -> HttpResponse:
    """The reader's time zone: deadlines on pages and in mail are shown in it."""
    form = TimeZoneForm(request.POST or None,
                        initial={"time_zone": zone_name_of(request.user)})
    if request.method == "POST" and form.is_valid():
        set_zone(request.user, form.cleaned_data["time_zone"])
        chosen = form.cleaned_data["time_zone"] or "none (pages follow your browser)"
        messages.success(request, f"Time zone saved: {chosen}.")
        # Back to the page the form came from: a path of this site, nothing else.
        return redirect(same_site_path(request, request.POST.get("next"))
                        or reverse("time-zone"))
    return render(request, "web/time_zone.html", {"form": form})


# --- new games, joining ----------------------------------------------------------------
@login_required
def choose_ruleset(request: HttpRequest) -> HttpResponse:
    if request.GET.get("ruleset"):
        return redirect("new-game-of", ruleset=request.GET["ruleset"])
    return render(request, "web/choose_ruleset.html", {"engines": registry.engines().values()})


@login_required
def new_game(request: HttpRequest, ruleset: str) -> HttpResponse:
    try:
        engine = registry.get(ruleset)
    except registry.UnknownRuleset:
        raise Http404(f"no ruleset {ruleset!r}") from None
    form = NewGameForm(engine, request.POST or None)
    from gm.absence.forms import RulesForm  # gm.absence: the game's absence settings
    absence_posted = any(key.startswith("absence-") for key in request.POST)
    absence_form = RulesForm(request.POST if absence_posted else None, prefix="absence")
    if request.method == "POST" and form.is_valid() and (
            not absence_posted or absence_form.is_valid()):
        data = form.cleaned_data
        try:
            game = actions.create_game(
                request.user, ruleset=ruleset, title=data["title"], options=form.options(),
                turn_hours=data["turn_hours"], turn_minutes=data["turn_minutes"],
                process_early=data["process_early"], hold_for_review=data["hold_for_review"])
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            from gm.substitutes.policy import store  # issue 25: the game's seat policy

            store(game, form.seat_policy())
            if data["role"] == NewGameForm.ROLE_PLAY:
                try:
                    seat = actions.join_game(game, request.user)
                    messages.success(request, f"Game created. You are its GM and play seat "
                                              f"{seat.name}. Share the invite link below.")
                except ActionError as exc:
                    messages.error(request, f"Game created, but you could not take a seat: "
                                            f"{exc.message}")
            else:
                messages.success(request, "Game created: you referee it. Share the invite "
                                          "link below; start the game once enough joined.")
            # --- gm.absence: vacations, grace, civil disorder, bot seats
            from gm.absence.actions import configure
            try:
                if absence_posted:  # a form without the box (older clients): none
                    configure(game, request.user, absence_form.settings(), creating=True)
            except ActionError as exc:
                messages.error(request, f"Absence settings not saved: {exc.message}")
            # --- end gm.absence
            return redirect("game", pk=game.pk)
    return render(request, "web/new_game.html", {"form": form, "engine": engine,
                                                 "absence_form": absence_form})


def invite(request: HttpRequest, pk: int) -> HttpResponse:
    """The link a GM shares: what the game is, who is in, and one button to join."""
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    engine = actions.engine_for(game)
    seat = game.seat_of(request.user)
    seats = list(game.seats.select_related("user").order_by("id"))
    capacity = actions.seat_capacity(game)
    barred = _gm_barred(game, engine, request.user)
    return render(request, "web/invite.html", {
        "game": game, "engine": engine, "seat": seat, "seats": seats, "capacity": capacity,
        "gm_barred": barred,
        "can_join": (game.status == Game.Status.OPEN and seat is None and not barred
                     and len(seats) < capacity)})


def _sentence(message: str) -> str:
    """An action's message as the end of a sentence: one full stop, never two."""
    return message if message.endswith((".", "!", "?")) else message + "."


def _gm_barred(game: Game, engine: Any, user: Any) -> str:
    """Why a reader who sees everything in a game that hides anything is not offered a
    seat (gm.play.actions.join_game refuses it; the button would only lead there), or ""."""
    return actions.seat_barred(game, user) if engine.hidden_information else ""


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    try:
        seat = actions.join_game(game, request.user)
        messages.success(request, f"You have seat {seat.name}. The GM starts the game once "
                                  "enough players have joined; you will get a mail when "
                                  "turn 1 opens.")
    except ActionError as exc:
        messages.error(request, f"You could not join: {_sentence(exc.message)}")
    return _back(pk)


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        actions.start_game(get_object_or_404(Game, pk=pk), request.user)
        messages.success(request, "The game has started: turn 1 is open for orders.")
    except ActionError as exc:
        messages.error(request, f"The game did not start: {_sentence(exc.message)}")
    return _back(pk)


# --- the game page ---------------------------------------------------------------------
def _next_step(game: Game, summary: dict, seat, engine) -> str:
    """One sentence: what happens next for this reader."""
    if game.status == Game.Status.OPEN:
        joined, need = len(summary["seats"]), engine.min_seats
        if summary["is_gm"]:
            return (f"{joined} of {summary['capacity']} seats taken. Share the invite link; "
                    f"you can start the game once at least {need} "
                    f"player{'s' if need != 1 else ''} joined.")
        if seat is not None:
            return (f"You have seat {seat.name}. Waiting for the GM ({summary['gm']}) to start "
                    f"the game ({joined} joined, at least {need} needed); you will get a mail "
                    "when turn 1 opens.")
        return "This game is waiting for players: join it to take a seat."
    if game.status == Game.Status.PAUSED:
        return "The GM has paused this game; orders open again when it resumes."
    if game.status == Game.Status.FINISHED:
        return "The game is over. The dice secret is public: anyone can verify every die."
    turn = summary["turn"]
    if not turn:
        return ""
    if turn["status"] != "open":
        return f"Turn {turn['number']} is being resolved; its report comes next."
    if seat is not None and seat.name in turn["owing"]:
        return f"Your orders for turn {turn['number']} are due."
    if seat is not None and seat.name in turn.get("waiting_for", []):
        return (f"Your orders for turn {turn['number']} are in; you may change them until "
                "the deadline.")
    waiting = ", ".join(turn["owing"]) or "nobody"
    return f"Turn {turn['number']}: waiting for {waiting}."


PROMPT_KEYS = {"title", "help", "choices", "example"}


def prompt_lists(prompt: dict[str, Any] | None) -> list[tuple[str, list[str]]]:
    """An engine's further lists in its prompt (Combat Dice's "items" and "spells": what
    each piece of kit does), labelled as mail labels them (gm.mail.notices.render_prompt).
    The mail listed them and the page did not, so on a phone the arming turn offered
    27 EQUIP buttons and no word of what a Flail or a Ward does."""
    out = []
    for key, value in (prompt or {}).items():
        if key in PROMPT_KEYS or not isinstance(value, list):
            continue
        lines = [v for v in value if isinstance(v, str) and v.strip()]
        if lines:
            out.append((key.replace("_", " ").capitalize(), lines))
    return out


def _game_context(request: HttpRequest, game: Game, **extra) -> dict:
    game.remember_people()  # read-only from here: seats and co-GMs are read once
    summary = actions.game_summary(game, request.user)
    engine = actions.engine_for(game)
    seat = game.seat_of(request.user)
    players = {s["name"]: s["player"] for s in summary["seats"]}
    board = engine.board(summary["view"]) if summary["view"] is not None else None
    turn = summary["turn"]
    prompt = (turn or {}).get("my_prompt")
    my_orders = (turn or {}).get("my_orders")
    offers = None
    if prompt and seat is not None:
        offers = prompts.offers(engine, engine.from_json(game.state), seat.name, prompt)
    initial = "\n".join(my_orders["orders"]) if my_orders and not my_orders["withdrawn"] else ""
    reports = actions.reports_for(game, request.user)
    zone_name = zone_name_of(request.user)
    remember_zone(request, zone_name)  # newcomer: {% when %} reuses it, no second read
    latest = reports[-1] if reports else None
    result = dict(summary["result"] or {})
    if result.get("summary"):
        result["summary"] = name_seats(result["summary"], players)
    gm_seats = [s for s in game.seated() if game.is_gm(s.user)]
    recipients = talk.recipients_for(game, request.user)
    context = {
        "game": game, "s": summary, "engine": engine, "result": result,
        "board": mark_safe(board) if board else None,  # SVG or HTML, from the view only
        "view_json": json.dumps(summary["view"], indent=2, sort_keys=True, default=str),
        "latest": latest, "turns_published": [r["turn"] for r in reports],
        "setup_report": actions.setup_report(game, actions.viewer_for(game, request.user)),
        "orders_form": OrdersForm(initial={"text": initial,
                                           "turn": turn["number"] if turn else None}),
        "offers": offers, "post_form": PostForm(),
        "posts": _with_live_reports(list(game.posts.select_related("author")),
                                    {r["turn"] for r in reports}),
        "press": list(talk.visible(game, request.user)),
        "press_form": PressForm(recipients) if recipients else None,
        "can_join": (request.user.is_authenticated and game.status == Game.Status.OPEN
                     and seat is None and len(summary["seats"]) < summary["capacity"]
                     and not _gm_barred(game, engine, request.user)),
        "my_reply_address": seat.reply_address if seat else None,
        "deadline": deadline_context(request, turn["deadline"], zone_name) if turn else {},
        "zone_chosen": bool(zone_name),
        "next_step": _next_step(game, summary, seat, engine),
        "gm_seats": gm_seats, "turn_note": TURN_NOTE,
        "prompt": prompt, "prompt_lists": prompt_lists(prompt),
        # A prompt's help: its first line a sentence, any further lines a list to scan.
        "help_lines": [line for line in str((prompt or {}).get("help") or "").split("\n")
                       if line.strip()],
        "live_json": json.dumps(_live(game, request.user, summary), sort_keys=True),
        "invite_url": request.build_absolute_uri(reverse("game-invite", args=[game.pk])),
        "can_export": game.status == Game.Status.FINISHED or summary["is_gm"],
        "seen_at": None,
        "not_read": _not_read_after_send(request, game, my_orders),
        # newcomer (issue 26): the tab title says what this reader owes here
        "i_owe": bool(seat is not None and turn and turn.get("status") == "open"
                      and seat.name in turn.get("owing", [])),
        "players": players,  # newcomer: press names the player beside the seat
    }
    context.update(extra)
    return context


def _latest_reports(posts: list[Post], live: set[int]) -> set[int]:
    """Of the report posts, the latest one of each live, published turn (`live`).

    A rollback or rerun sets turns aside; their reports stay in the thread as what was
    published, but their turn pages are gone or show the new outcome.
    """
    latest: dict[int, int] = {}
    for post in sorted(posts, key=lambda p: (p.created, p.pk)):
        if post.kind == Post.Kind.REPORT and post.turn_number in live:
            latest[post.turn_number] = post.pk
    return set(latest.values())


def _with_live_reports(posts: list[Post], live: set[int]) -> list[Post]:
    """Mark each report post `live` (linked to its turn page) or set aside (not linked)."""
    keep = _latest_reports(posts, live)
    versions = set_aside.version_of_posts(posts)  # newcomer: set-aside reports link too
    for post in posts:
        post.live = post.pk in keep
        post.version = versions.get(post.pk)
    return posts


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    seen = talk.last_seen(game, request.user)  # what arrived since is marked "new"
    context = _game_context(request, game, seen_at=seen)
    if seen is None:  # newcomer (issue 28): a first visit marks new what the lobby counted
        context["seen_at"] = lobby_order.first_visit(game, request.user)  # people in memory
    response = render(request, "web/game.html", context)
    talk.mark_seen(game, request.user)
    return response


def _live(game: Game, user, summary: dict | None = None) -> dict:
    """The marks the page polls for; from the page's own summary when it has one
    (the same turn and owing list, without reading them again)."""
    marks = talk.latest_marks(game, user)
    if summary is not None:
        turn = summary["turn"] or {}
        deadline = turn.get("deadline")
        return {"status": game.status, "turn": turn.get("number"),
                "turn_status": turn.get("status"),
                "deadline": deadline.isoformat() if deadline else None,
                "owing": turn.get("owing", []), "in": turn.get("in", []), **marks}
    owing = actions.owing_summary(game)
    current = game.current_turn()
    return {"status": game.status, "turn": current.number if current else None,
            "turn_status": current.status if current else None,
            "deadline": current.deadline.isoformat() if current and current.deadline else None,
            "owing": owing["owing"], "in": owing["in"], **marks}


def live(request: HttpRequest, pk: int) -> JsonResponse:
    """What changed, for the page's polling refresh: status, who owes, newest items.

    Never game state: only what the page header already shows every reader.
    """
    game = get_object_or_404(Game, pk=pk)
    return JsonResponse(_live(game, request.user))


def _back(pk: int, anchor: str = "") -> HttpResponse:
    return redirect(reverse("game", kwargs={"pk": pk}) + anchor)


@login_required
@require_POST
def submit_orders(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    form = OrdersForm(request.POST)
    if seat is None:
        messages.error(request, "Only a seated player of this game can send orders.")
        return _back(pk)
    if not form.is_valid():  # only the hidden turn field can be malformed
        messages.error(request, "Your orders were not stored: the form's turn number was "
                                "unreadable. Reload the page and send them again.")
        return _back(pk, "#orders")
    text = form.cleaned_data["text"].strip() or form.cleaned_data["choice"].strip()
    turn_number = form.cleaned_data.get("turn")  # a closed turn is refused as late
    if request.POST.get("withdraw"):
        try:
            actions.withdraw_orders(game, seat, author=request.user, turn_number=turn_number)
            messages.success(request, "Your orders are withdrawn: default orders will be "
                                      "used unless you send new ones.")
        except ActionError as exc:
            messages.error(request, f"Nothing was withdrawn: {_sentence(exc.message)}")
        return _back(pk, "#orders")
    if not text:
        messages.error(request, "Write your orders (or pick one) before sending.")
        return _back(pk, "#orders")
    refill = OrdersForm(initial={"text": text, "turn": turn_number})
    saving = bool(request.POST.get("save"))  # issue 28: saved, not ready
    skipped: list[str] = []
    try:
        limits.check_order_text(text)  # the size first: never echo a huge text as "not read"
        read = greetings.for_seat(game, seat, text)  # "Hi GM," / "Cheers": as on mail
        skipped = read.skipped
        if not read.has_orders or not order_lines(read.text):
            return render(request, "web/game.html", _game_context(
                request, game, order_errors=[_no_orders(game)], not_read=read.skipped,
                no_orders=True, orders_form=refill), status=400)
        if request.POST.get("preview"):
            orders = actions.check_orders(game, seat, read.text)
            return render(request, "web/game.html", _game_context(
                request, game, preview=orders.text.splitlines(), orders_form=refill,
                not_read=read.skipped,
                preview_has_if=bool(re.search(r"\bIF\b", orders.text))))
        # --- newcomer (issue 28): a skipped line needs the player's confirmation -------
        if not not_read.confirmed(request.POST, read.skipped):
            orders = actions.check_orders(game, seat, read.text)  # errors before the ask
            return render(request, "web/game.html", _game_context(
                request, game, preview=orders.text.splitlines(), orders_form=refill,
                not_read=read.skipped, confirm_not_read=not_read.token(read.skipped),
                saving=saving, preview_has_if=bool(re.search(r"\bIF\b", orders.text))))
        # --- end newcomer ---------------------------------------------------------------
        sub = actions.submit_orders(game, seat, read.text, source=Submission.Source.WEB,
                                    author=request.user, turn_number=turn_number,
                                    ready=not saving)  # issue 28: "Save" or "Send and ready"
    except OrdersInvalid as exc:
        return render(request, "web/game.html", _game_context(
            request, game, order_errors=exc.errors, accepted=exc.accepted,
            not_read=skipped, orders_form=refill), status=400)
    except ActionError as exc:
        messages.error(request, f"Your orders were not stored: {_sentence(exc.message)}")
        return _back(pk, "#orders")
    status = Turn.objects.filter(pk=sub.turn_id).values_list("status", flat=True).first()
    messages.success(request, _accepted(sub, status))
    if read.skipped:  # shown with the receipt on the next page, once
        request.session[NOT_READ] = {"game": game.pk, "version": sub.version,
                                     "lines": read.skipped}
    # --- newcomer (issue 28): the last owed orders closed the turn: land on the receipt
    # and the "turn resolved" note (the messages), not on the next turn's empty order card
    # 800 px below them on a phone.
    if status not in (None, Turn.Status.OPEN):
        return _back(pk, "#messages")
    # --- end newcomer
    return _back(pk, "#orders")


NOT_READ = "gm-not-read"


def _accepted(sub: Submission, status: str | None = "") -> str:
    """The receipt line after a send. While the turn is open the order card shows the
    orders as understood; when these were the last owed and the turn closed at once,
    the next page is already the next turn's, so the line itself says what was read and
    where the outcome is."""
    line = (f"Orders accepted for turn {sub.turn.number} (version {sub.version}, receipt "
            f"{sub.receipt[:16]}…): sent and ready.")
    if not sub.ready:  # issue 28
        line = (f"Orders saved for turn {sub.turn.number} (version {sub.version}, receipt "
                f"{sub.receipt[:16]}…), not ready: they count at the deadline, but the turn "
                f"does not close early until you press “Send and ready”.")
    if status == "":  # not read by the caller
        status = Turn.objects.filter(pk=sub.turn_id).values_list("status", flat=True).first()
    if status in (None, Turn.Status.OPEN):
        return line
    read = " / ".join(actions.receipt_json(sub)["orders"]) or "(none)"
    after = {
        Turn.Status.RESOLVED: "the turn has been resolved: its report is below",
        Turn.Status.HELD: "the turn has been resolved and waits for the GM's review before "
                          "its report is published",
    }.get(status, "the turn is being resolved now: its report appears here when it is done")
    return f"{line} Read as: {read}. Every owed order was in, so {after}."


def _no_orders(game: Game) -> OrderError:
    vocab = greetings.vocabulary(actions.engine_for(game))
    words = ", ".join(sorted(vocab.keywords)) if vocab is not None else ""
    return OrderError(0, "no orders found: none of these lines is an order of this game",
                      f"orders start with one of: {words}" if words else "")


def _not_read_after_send(request: HttpRequest, game: Game, my_orders: dict | None) -> list:
    """The greeting lines skipped from the orders just sent, for the receipt (once)."""
    if NOT_READ not in request.session:
        return []
    kept = request.session.pop(NOT_READ)
    if my_orders and kept.get("game") == game.pk and kept.get("version") == my_orders["version"]:
        return kept.get("lines", [])
    return []


@login_required
@require_POST
def preview_json(request: HttpRequest, pk: int) -> JsonResponse:
    """Orders as understood for what is typed, without storing (the page's live preview)."""
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    if seat is None:
        return JsonResponse({"detail": "only a seated player previews orders"}, status=403)
    text = request.POST.get("text", "")
    if not text.strip():
        return JsonResponse({"ok": False, "orders": [], "errors": [], "not_read": []})
    try:
        limits.check_order_text(text)
    except ActionError as exc:  # over the size limit: said in the live preview, not echoed
        return JsonResponse({"ok": False, "orders": [], "not_read": [],
                             "errors": [OrderError(0, exc.message, "").to_json()]})
    skipped: list[str] = []
    try:
        read = greetings.for_seat(game, seat, text)  # the rule the send button follows
        skipped = read.skipped
        if not read.has_orders or not order_lines(read.text):
            return JsonResponse({"ok": False, "orders": [], "not_read": read.skipped,
                                 "no_orders": True, "errors": [_no_orders(game).to_json()]})
        orders = actions.check_orders(game, seat, read.text)
    except OrdersInvalid as exc:
        return JsonResponse({"ok": False, "orders": exc.accepted, "not_read": skipped,
                             "errors": [e.to_json() for e in exc.errors]})
    except ActionError as exc:  # an order text over the limit, a state that cannot be read
        return JsonResponse({"detail": exc.message}, status=exc.status)
    return JsonResponse({"ok": True, "orders": orders.text.splitlines(), "errors": [],
                         "not_read": read.skipped,
                         "conditional": bool(re.search(r"\bIF\b", orders.text))})


@login_required
@require_POST
def post_message(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    form = PostForm(request.POST)
    if form.is_valid():
        try:
            actions.post_message(game, request.user, form.cleaned_data["markdown"])
            messages.success(request, "Posted to the thread.")
        except ActionError as exc:
            messages.error(request, f"Not posted: {_sentence(exc.message)}")
    else:
        messages.error(request, "A message needs some text (at most 20000 characters).")
    return _back(pk, "#thread")


@login_required
@require_POST
def send_press(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    form = PressForm(talk.recipients_for(game, request.user), request.POST)
    if not form.is_valid():
        messages.error(request, "Choose whom to write to and write something "
                                "(at most 20000 characters).")
        return _back(pk, "#press")
    try:
        talk.send(game, request.user, form.cleaned_data["recipient"], form.cleaned_data["text"])
        messages.success(request, f"Private message sent to {form.cleaned_data['recipient']} "
                                  "(the GM can read it too).")
    except ActionError as exc:
        messages.error(request, f"Not sent: {_sentence(exc.message)}")
    return _back(pk, "#press")


def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's public record as a file, exactly what /verify/ and the CLI verifier read.

    Same rules as GET /api/games/<id>/export/: everyone once the game is over (with the
    secret), the GM any time (without the secret until the end).
    """
    game = get_object_or_404(Game, pk=pk)
    try:
        record = actions.export_game(game, for_gm=game.is_gm(request.user))
    except ActionError as exc:
        return HttpResponse(f"No export: {exc.message}.\n", status=exc.status,
                            content_type="text/plain; charset=utf-8")
    body = json.dumps(record, indent=2, sort_keys=True, default=str) + "\n"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (f'attachment; filename="game-{game.pk}-'
                                       f'{game.ruleset}.json"')
    return response


class ReportsFeed(Feed):
    """Atom feed of a game's public turn reports."""

    feed_type = Atom1Feed

    def get_object(self, request, pk):
        return get_object_or_404(Game, pk=pk)

    def title(self, game):
        return f"{game.title}: turn reports"

    def link(self, game):
        return reverse("game", kwargs={"pk": game.pk})

    def subtitle(self, game):
        return f"Public turn reports of {game.title} ({game.ruleset})."

    def items(self, game):
        live = set(game.records.filter(superseded=False, published=True)
                   .values_list("number", flat=True))
        posts = list(game.posts.filter(kind=Post.Kind.REPORT, turn_number__in=live))
        keep = _latest_reports(posts, live)
        return fill_html(sorted((p for p in posts if p.pk in keep),
                                key=lambda p: (p.created, p.pk), reverse=True)[:50])

    def item_title(self, post):
        return f"Turn {post.turn_number}"

    def item_description(self, post):
        return post.html

    def item_link(self, post):
        return reverse("game-turn", kwargs={"pk": post.game_id, "number": post.turn_number})

    def item_pubdate(self, post):
        return post.created
