"""Turns set aside by a rerun or rollback, kept in the history (issue 28).

The public log says set-aside turns are "kept in the history", and the thread keeps the
report posts they published; their pages are here. A turn number can have been published
more than once (published, set aside by a rerun, published again): `version` k is the
k-th published record of that number, oldest first, the order in which the thread's
report posts of that turn were written. Only published records are shown, each through
the reader's audience as it was published (the public report, plus the reader's own or
the GM's), never a held turn's outcome.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from gm.play import actions
from gm.play.models import Game, Post, fill_html


def published_versions(game: Game, number: int) -> list:
    """The published records of turn `number`, oldest first (set aside or live)."""
    return list(game.records.filter(number=number, published=True).order_by("id")
                .prefetch_related("reports"))


def version_of_posts(posts: list[Post]) -> dict[int, int]:
    """Post pk -> version of its turn (1-based), for the thread's report posts: the k-th
    report post of a turn is the k-th published record of that turn."""
    seen: dict[int, int] = {}
    out: dict[int, int] = {}
    for post in sorted(posts, key=lambda p: (p.created, p.pk)):
        if post.kind == Post.Kind.REPORT and post.turn_number is not None:
            seen[post.turn_number] = seen.get(post.turn_number, 0) + 1
            out[post.pk] = seen[post.turn_number]
    return out


def set_aside_page(request: HttpRequest, pk: int, number: int, version: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    versions = published_versions(game, number)
    if not 1 <= version <= len(versions):
        raise Http404(f"turn {number} has no published version {version}")
    record = versions[version - 1]
    if not record.superseded:  # the live one: its page is the turn page
        return redirect("game-turn", pk=game.pk, number=number)
    viewer = actions.viewer_for(game, request.user)
    by_audience = {r.audience: r for r in record.reports.all()}
    public = by_audience.get("")
    mine = by_audience.get(viewer) if viewer is not None else None
    fill_html(r for r in (public, mine) if r is not None)
    return render(request, "web/set_aside.html", {
        "game": game, "number": number, "version": version, "record": record,
        "report": mine or public, "count": len(versions),
        "live": any(not r.superseded for r in versions)})
