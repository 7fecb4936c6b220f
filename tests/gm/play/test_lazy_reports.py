"""Turn reports are rendered on first read, once per distinct text, and kept.

Publishing stores markdown only (gm.play.models.RenderedMarkdown); the mail notice, the
pages, the API and the feed render through `.html` / `fill_html`, which store what they
render, so a later read renders nothing, even in a process whose cache is empty.
"""

from __future__ import annotations

from pathlib import Path

import markdown as md
import nh3
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.core import registry
from gm.mail.models import Outbox
from gm.play import actions, rendering
from gm.play.models import Post, Report, Turn, TurnRecord, fill_html

pytestmark = pytest.mark.django_db

GOLDEN = sorted((Path(__file__).resolve().parents[2] / "games").glob("*/golden/*.md"))


@pytest.fixture
def conversions(monkeypatch):
    """Texts converted by python-markdown from now on (the per-process cache emptied)."""
    seen: list[str] = []
    real = rendering._convert

    def counted(text: str) -> str:
        seen.append(text)
        return real(text)

    rendering._render.cache_clear()
    monkeypatch.setattr(rendering, "_convert", counted)
    yield seen
    rendering._render.cache_clear()


def _resolve_quietly(game, django_capture_on_commit_callbacks) -> tuple[TurnRecord, list]:
    """Every owing seat orders, the turn is resolved; nothing queued on commit runs yet
    (the mail notices and the next turn's wake-ups are returned instead)."""
    engine = registry.get(game.ruleset)
    game.refresh_from_db()
    turn = game.current_turn()
    state = engine.from_json(game.state)
    with django_capture_on_commit_callbacks() as queued:
        for seat in game.seats.filter(name__in=turn.owing):
            actions.submit_orders(game, seat, engine.default_orders(state, seat.name).text)
        assert Turn.objects.get(pk=turn.pk).status == Turn.Status.DUE
        assert actions.resolve_turn(turn.pk)
    return TurnRecord.objects.get(turn=turn), queued


def _stored(record: TurnRecord) -> dict[str, str | None]:
    return dict(Report.objects.filter(record=record).values_list("audience", "rendered"))


def _old_eager(text: str) -> str:
    """What publish stored before: a conversion by a fresh Markdown, then nh3."""
    html = md.Markdown(extensions=["tables", "fenced_code", "sane_lists"]).convert(text)
    return nh3.clean(html, tags=rendering._TAGS, attributes=rendering._ATTRIBUTES,
                     url_schemes={"http", "https", "mailto"})


def test_publish_stores_markdown_only(make_game, django_capture_on_commit_callbacks,
                                      conversions):
    game = make_game("combat_dice", 2, process_early=True)
    record, _queued = _resolve_quietly(game, django_capture_on_commit_callbacks)
    stored = _stored(record)
    assert set(stored) == {"", "*", "P1", "P2"}
    assert all(html is None for html in stored.values())
    assert all(Report.objects.filter(record=record).values_list("markdown", flat=True))
    post = Post.objects.get(game=game, kind=Post.Kind.REPORT, turn_number=record.number)
    assert post.rendered is None and post.markdown
    assert conversions == []


def test_each_reader_renders_what_it_reads_once(make_game, players, gm_user, client,
                                                django_capture_on_commit_callbacks,
                                                conversions):
    game = make_game("dungeonquest", 2, process_early=True)  # four distinct texts a turn
    record, queued = _resolve_quietly(game, django_capture_on_commit_callbacks)
    texts = dict(Report.objects.filter(record=record).values_list("audience", "markdown"))
    assert len(set(texts.values())) == 4

    # the mail notice needs the seats' reports: those are rendered, the GM's is not
    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()
    stored = _stored(record)
    assert stored["P1"] and stored["P2"] and stored["*"] is None and stored[""] is None
    for seat in ("P1", "P2"):
        mail = Outbox.objects.get(key=f"report:{record.pk}:{game.seats.get(name=seat).pk}")
        assert stored[seat] in mail.body_html

    # a player's API read renders the public text if nobody had; the page renders nothing
    client.force_login(players[0])
    body = client.get(f"/api/games/{game.pk}/reports/{record.number}/").json()
    assert body["public"]["html"] == _stored(record)[""]
    assert body["mine"]["html"] == stored["P1"]
    assert client.get(f"/games/{game.pk}/").status_code == 200
    # the GM's report is rendered when the GM reads it
    client.force_login(gm_user)
    gm_body = client.get(f"/api/games/{game.pk}/reports/{record.number}/").json()
    assert gm_body["mine"]["html"] == _stored(record)["*"] is not None
    # the thread's copy of the public report, read through the API and the feed
    thread = client.get(f"/api/games/{game.pk}/thread/").json()
    report_post = next(p for p in thread if p["kind"] == "report")
    assert report_post["html"] == _stored(record)[""]
    assert client.get(f"/games/{game.pk}/feed/").status_code == 200

    # every distinct text converted exactly once, by the reader that needed it first
    assert sorted(conversions) == sorted(set(texts.values()))
    stored = _stored(record)
    assert all(stored.values())
    assert {a: h for a, h in stored.items()} == {a: _old_eager(t) for a, t in texts.items()}

    # what is stored serves later reads: nothing is converted again in a fresh process
    conversions.clear()
    rendering._render.cache_clear()
    for user in (players[0], players[1], gm_user):
        client.force_login(user)
        assert client.get(f"/api/games/{game.pk}/reports/").status_code == 200
        assert client.get(f"/games/{game.pk}/").status_code == 200
        assert client.get(f"/api/games/{game.pk}/thread/").status_code == 200
    assert client.get(f"/games/{game.pk}/feed/").status_code == 200
    assert conversions == []


def test_a_list_of_unread_reports_is_stored_in_one_update(
        make_game, players, client, django_capture_on_commit_callbacks, conversions):
    game = make_game("dungeonquest", 2, process_early=True)
    records = [_resolve_quietly(game, django_capture_on_commit_callbacks)[0]
               for _ in range(3)]
    assert all(h is None for r in records for h in _stored(r).values())
    client.force_login(players[0])
    with CaptureQueriesContext(connection) as first:
        page = client.get(f"/api/games/{game.pk}/reports/").json()
    updates = [q["sql"] for q in first.captured_queries
               if q["sql"].startswith('UPDATE "play_report"')]
    assert len(updates) == 1
    assert [e["turn"] for e in page] == [r.number for r in records]
    for entry, record in zip(page, records):
        stored = _stored(record)
        assert entry["public"]["html"] == stored[""] and entry["mine"]["html"] == stored["P1"]
        assert stored["*"] is None and stored["P2"] is None  # nobody read those
    converted = len(conversions)
    assert converted == 2 * len(records)
    with CaptureQueriesContext(connection) as again:
        client.get(f"/api/games/{game.pk}/reports/")
    assert not [q for q in again.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(conversions) == converted


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_golden_reports_render_as_the_eager_path_did(path, make_game,
                                                     django_capture_on_commit_callbacks):
    text = path.read_text(encoding="utf-8")
    game = make_game("combat_dice", 2, process_early=True)
    record, _queued = _resolve_quietly(game, django_capture_on_commit_callbacks)
    report = Report.objects.create(record=record, audience="golden", markdown=text)
    assert report.rendered is None
    rendering._render.cache_clear()  # the reused converter, not a cached string
    assert report.html == _old_eager(text)
    assert Report.objects.get(pk=report.pk).rendered == _old_eager(text)


SAMPLE = """# Duel: turn 3

*P2 sent no orders in time; default orders were used.*

| seat | roll |
|:-----|-----:|
| P1 | **6** |

- [rules](https://example.org/r "r") and [bad](javascript:alert(1))
- <script>alert(1)</script><img src=x onerror=alert(1)>

```
SQUARE 3
```
"""

# produced by the eager path before this change (commit 9de7899): sanitising is unchanged
SAMPLE_HTML = (
    '<h1>Duel: turn 3</h1>\n<p><em>P2 sent no orders in time; default orders were used.'
    '</em></p>\n<table>\n<thead>\n<tr>\n<th>seat</th>\n<th>roll</th>\n</tr>\n</thead>\n'
    '<tbody>\n<tr>\n<td>P1</td>\n<td><strong>6</strong></td>\n</tr>\n</tbody>\n</table>\n'
    '<ul>\n<li><a href="https://example.org/r" title="r" rel="noopener noreferrer">rules'
    '</a> and <a rel="noopener noreferrer">bad</a></li>\n<li></li>\n</ul>\n<pre><code>'
    'SQUARE 3\n</code></pre>')


def test_sanitising_is_as_before():
    assert fill_html([Report(audience="x", markdown=SAMPLE)])[0].html == SAMPLE_HTML
