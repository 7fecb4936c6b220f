"""Server-rendered pages: lobby, sign-up, new game, the game page and its feed.

Views only translate HTTP to gm.play.actions calls and back; every rule lives there.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from games.core import registry
from games.core.types import OrdersInvalid
from gm.play import actions
from gm.play.errors import ActionError
from gm.play.models import Game, Post, Submission

from .forms import NewGameForm, OrdersForm, PostForm, SignupForm


def lobby(request: HttpRequest) -> HttpResponse:
    mine = []
    if request.user.is_authenticated:
        games = Game.objects.filter(Q(seats__user=request.user) | Q(gm=request.user)
                                    ).distinct().select_related("gm")
        for game in games:
            owing = actions.owing_summary(game)["owing"] if game.status == "running" else []
            seat = game.seat_of(request.user)
            mine.append({"game": game, "seat": seat,
                         "i_owe": bool(seat and seat.name in owing)})
    open_games = Game.objects.filter(status=Game.Status.OPEN).select_related("gm")[:50]
    running = Game.objects.filter(status__in=[Game.Status.RUNNING, Game.Status.PAUSED]
                                  ).select_related("gm")[:50]
    return render(request, "web/lobby.html", {
        "mine": mine, "open_games": open_games, "running": running,
        "rulesets": registry.engines().values()})


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}.")
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = actions.create_game(request.user, **form.cleaned_data)
        except ActionError as exc:
            form.add_error("options" if "option" in exc.message else None, exc.message)
        else:
            messages.success(request, "Game created: you are its GM. Players can join now.")
            return redirect("game", pk=game.pk)
    engines = [{"name": e.name, "title": e.title, "seats": f"{e.min_seats}-{e.max_seats}",
                "options": e.options} for e in registry.engines().values()]
    return render(request, "web/new_game.html", {"form": form, "engines": engines})


def _game_context(request: HttpRequest, game: Game, **extra) -> dict:
    summary = actions.game_summary(game, request.user)
    engine = actions.engine_for(game)
    viewer = actions.viewer_for(game, request.user)
    board = engine.board(summary["view"]) if summary["view"] is not None else None
    seat = game.seat_of(request.user)
    context = {
        "game": game, "s": summary,
        "board": mark_safe(board) if board else None,  # engines build SVG from the view only
        "view_json": json.dumps(summary["view"], indent=2, sort_keys=True, default=str),
        "reports": list(reversed(actions.reports_for(game, request.user))),
        "setup_report": actions.setup_report(game, viewer),
        "orders_form": OrdersForm(),
        "post_form": PostForm(),
        "posts": game.posts.select_related("author"),
        "can_join": (request.user.is_authenticated and game.status == Game.Status.OPEN
                     and seat is None and len(summary["seats"]) < summary["capacity"]),
        "my_reply_address": seat.reply_address if seat else None,
    }
    context.update(extra)
    return context


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    return render(request, "web/game.html", _game_context(request, game))


def _back(pk: int, anchor: str = "") -> HttpResponse:
    return redirect(reverse("game", kwargs={"pk": pk}) + anchor)


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        seat = actions.join_game(get_object_or_404(Game, pk=pk), request.user)
        messages.success(request, f"You have seat {seat.name}.")
    except ActionError as exc:
        messages.error(request, exc.message)
    return _back(pk)


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        actions.start_game(get_object_or_404(Game, pk=pk), request.user)
        messages.success(request, "The game has started.")
    except ActionError as exc:
        messages.error(request, exc.message)
    return _back(pk)


@login_required
@require_POST
def submit_orders(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    seat = game.seat_of(request.user)
    form = OrdersForm(request.POST)
    if seat is None or not form.is_valid():
        messages.error(request, "You have no seat in this game.")
        return _back(pk)
    text = form.cleaned_data["text"].strip() or form.cleaned_data["choice"].strip()
    if request.POST.get("withdraw"):
        try:
            actions.withdraw_orders(game, seat, author=request.user)
            messages.success(request, "Your orders are withdrawn.")
        except ActionError as exc:
            messages.error(request, exc.message)
        return _back(pk, "#orders")
    if not text:
        messages.error(request, "Write your orders (or pick one) before sending.")
        return _back(pk, "#orders")
    try:
        sub = actions.submit_orders(game, seat, text, source=Submission.Source.WEB,
                                    author=request.user)
    except OrdersInvalid as exc:
        return render(request, "web/game.html", _game_context(
            request, game, order_errors=exc.errors, accepted=exc.accepted,
            orders_form=OrdersForm(initial={"text": text})), status=400)
    except ActionError as exc:
        messages.error(request, exc.message)
        return _back(pk, "#orders")
    messages.success(request, f"Orders accepted (version {sub.version}, receipt "
                              f"{sub.receipt[:16]}…).")
    return _back(pk, "#orders")


@login_required
@require_POST
def post_message(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    form = PostForm(request.POST)
    if form.is_valid():
        try:
            actions.post_message(game, request.user, form.cleaned_data["markdown"])
        except ActionError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, "A message needs some text (at most 20000 characters).")
    return _back(pk, "#thread")


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
        return game.posts.filter(kind=Post.Kind.REPORT).order_by("-created")[:50]

    def item_title(self, post):
        return f"Turn {post.turn_number}"

    def item_description(self, post):
        return post.html

    def item_link(self, post):
        return reverse("game", kwargs={"pk": post.game_id}) + f"#report-{post.turn_number}"

    def item_pubdate(self, post):
        return post.created
