"""fill_html's UPDATE, now one prebuilt statement: it stores exactly what the ORM's
Case/When UPDATE it replaced stored (the rows filled, the rows left alone), for reports
(scope: the record) and thread posts (scope: the game); on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import models
from django.db.models import Case, Value, When

from gm.play.models import Post, Report, TurnRecord, fill_html
from gm.play.rendering import render_markdown

from .publications import play_turn

TEXTS = {"a": "# Turn\n\n| x | y |\n|---|--:|\n| 1 | 2 |\n", "b": "# Turn\n\n| x | y |\n"
         "|---|--:|\n| 1 | 2 |\n", "c": "Only *this* seat's line, with 'quotes' and \\ too.",
         "d": "", "e": "Already rendered."}


def _orm_fill(rows: list) -> None:
    """fill_html as it was: the ORM's UPDATE."""
    html_of: dict[str, str] = {}
    scopes: dict = {}
    for row in rows:
        if row.rendered is not None:
            continue
        text = row.markdown or ""
        html_of.setdefault(text, render_markdown(text))
        row.rendered = html_of[text]
        if row.pk is not None:
            scopes.setdefault(type(row), set()).add(getattr(row, type(row).FILL_SCOPE))
    for model, ids in scopes.items():
        model.objects.filter(**{f"{model.FILL_SCOPE}__in": ids}, rendered__isnull=True,
                             markdown__in=list(html_of)).update(rendered=Case(
                                 *(When(markdown=t, then=Value(h)) for t, h in html_of.items()),
                                 output_field=models.TextField()))


def _setup(game, model) -> tuple[list, list]:
    """Rows holding TEXTS in two scopes of `game`: (the rows read, every row made)."""
    made = []
    if model is Report:
        scopes = list(TurnRecord.objects.filter(game=game).order_by("number"))[:2]
        for scope in scopes:
            for name, text in TEXTS.items():
                made.append(Report.objects.create(record=scope, audience=f"t-{name}",
                                                  markdown=text))
    else:
        for text in TEXTS.values():
            made.append(Post.objects.create(game=game, kind=Post.Kind.REPORT, markdown=text,
                                            turn_number=len(made)))
    for row in made:
        if row.markdown == TEXTS["e"]:
            type(row).objects.filter(pk=row.pk).update(rendered="<p>kept</p>")
            row.rendered = "<p>kept</p>"
    first = [r for r in made[:len(TEXTS)] if r.markdown in (TEXTS["a"], TEXTS["c"],
                                                              TEXTS["d"], TEXTS["e"])]
    return first, made


@pytest.mark.parametrize("model", [Report, Post])
def test_the_statement_stores_what_the_orm_stored(make_game, on_commit, model):
    results = []
    for fill in (fill_html, _orm_fill):
        game = make_game("tally", 2)
        play_turn(game, on_commit)
        play_turn(game, on_commit)
        read, made = _setup(game, model)
        fill([type(r).objects.get(pk=r.pk) for r in read])
        stored = {r.pk: r.rendered for r in type(made[0]).objects.filter(
            pk__in=[r.pk for r in made])}
        results.append([stored[r.pk] for r in made])
    ours, theirs = results
    assert ours == theirs
    assert ours[0] is not None and ours[0] == ours[1]  # the same text in the scope: filled
    if model is Report:  # the other record's rows were not read: left for their reader
        assert ours[len(TEXTS):] == [None] * 4 + ["<p>kept</p>"]


def test_rows_not_saved_are_only_rendered(db):
    row = Report(markdown="*new*")
    assert fill_html([row]) == [row] and row.rendered == render_markdown("*new*")
