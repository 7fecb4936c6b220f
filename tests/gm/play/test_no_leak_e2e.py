"""End to end, every ruleset with hidden information: no other seat, outsider or
anonymous reader ever receives a seat's secrets, in any response, page, feed or mail,
including after a GM amendment, while a turn is held, after a rollback and a rerun
(issue 11).

Two checks, at each of those moments, for each reader:

* state-derived: the engine's `perturb_hidden` changes exactly what the reader may not
  see in the stored state, a held turn's state and every turn record's states, and the
  service's own secrets of other people change too (the dice secret while the game
  runs, other seats' orders, prompts, private reports, press, disputes, reply and mail
  addresses, the GM's log details). Every answer the reader gets must stay the same,
  status, telling headers (length, ETag, Last-Modified...) and body, tokens and nonces
  aside: over every route of the URLconf with every method it answers (GET, HEAD,
  OPTIONS, ?format=, filters, refused POSTs and previews; tests/gm/routes.py, where a
  new route must be listed or excused) after three turns, while a turn is held and at
  the end, and over the main pages at the other moments. A response that depends on
  hidden state, through any door, fails here;
* stored text (reports, thread, mail): lines of another seat's private reports and
  order prompts that the reader does not also have themselves never appear in anything
  the reader received.
"""

from __future__ import annotations

import functools
import json
import random
import re
from html import unescape
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client

from games.core import registry
from gm.mail.notices import render_prompt
from gm.play import actions
from gm.play.errors import ActionError
from gm.play.models import Game, LogEntry, Report, Seat, Submission, Turn, TurnRecord
from gm.referee import actions as referee
from gm.referee import disputes, patching
from gm.referee.models import Dispute
from gm.talk import actions as talk
from gm.talk.models import Message
from tests.gm import pseudo, routes

pytestmark = pytest.mark.django_db

HIDDEN = sorted(name for name, engine in registry.engines().items()
                if engine.hidden_information and name not in ("tally", "toy_race"))
VOLATILE = [re.compile(p) for p in (
    r'name="csrfmiddlewaretoken" value="[^"]*"', r'nonce="[^"]*"', r'nonce-[A-Za-z0-9+/=_-]+',
    r'"csrfToken":\s*"[^"]*"')]
# The headers that could tell two answers apart beside their bodies.
HEADERS = ("Content-Type", "Content-Length", "ETag", "Last-Modified", "Location", "Link",
           "Content-Disposition", "Allow", "Retry-After")


def _normal(body: str) -> str:
    for pattern in VOLATILE:
        body = pattern.sub("", body)
    return body


def _text(body: str) -> str:
    """Readable text of a response or mail: tags dropped, entities and JSON decoded."""
    body = re.sub(r"<[^>]+>", " ", body)
    body = unescape(body).replace("\\n", "\n")
    return re.sub(r"[ \t]+", " ", body)


def _md_lines(markdown: str) -> set[str]:
    lines = set()
    for line in markdown.splitlines():
        line = re.sub(r"[*_`#>]|^\s*[-+]\s+", "", line).strip()
        line = re.sub(r"\s+", " ", line)
        if len(line) >= 12:
            lines.add(line)
    return lines


class _Undo(Exception):
    """Raised to roll a savepoint back: the probes and the changes leave nothing behind."""


def _sequences() -> list[tuple[str, str, int | None, int]]:
    """PostgreSQL's sequences and where they stand (a rollback does not take back the
    ids a savepoint drew, SQLite's do come back); [] elsewhere."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT schemaname, sequencename, last_value, start_value "
                       "FROM pg_sequences")
        return list(cursor.fetchall())


def _rewind(sequences: list[tuple[str, str, int | None, int]]) -> None:
    """Set each sequence back where `_sequences` saw it: a row a probe writes in the
    second reading gets the id it got in the first (the log API shows ids)."""
    with connection.cursor() as cursor:
        for schema, name, last, start in sequences:
            qualified = connection.ops.quote_name(schema) + "." + connection.ops.quote_name(name)
            if last is None:
                cursor.execute("SELECT setval(%s::regclass, %s, false)", [qualified, start])
            else:
                cursor.execute("SELECT setval(%s::regclass, %s, true)", [qualified, last])


class World:
    def __init__(self, game: Game, gm_user, users: dict[str, Any], outsider) -> None:
        self.game = game
        self.gm_user = gm_user
        self.engine = registry.get(game.ruleset)
        self.seat_users = users  # seat name -> user
        self.readers: dict[str, tuple[str | None, Any]] = {"anonymous": (None, None),
                                                           "outsider": (None, outsider)}
        for seat, user in users.items():
            self.readers[f"seat {seat}"] = (seat, user)
        self.clients = {}
        for name, (_seat, user) in self.readers.items():
            client = Client()
            if user is not None:
                client.force_login(user)
            self.clients[name] = client
        self.received: dict[str, list[str]] = {name: [] for name in self.readers}
        # What each reader may legitimately know, as text: the engine's views for them.
        self.legit: dict[str | None, list[str]] = {seat: [] for seat, _u in
                                                   self.readers.values()}
        self.checks = 0
        self.asked: set[str] = set()  # the routes asked, for the coverage check
        self.sent: dict[str | None, list[str]] = {seat: [] for seat in self.legit}

    # -- what a reader receives ------------------------------------------------------
    def _values(self, game: Game, seat: str | None) -> dict[str, Any]:
        """The route parameters for this reader: another seat's dispute and name."""
        others = [s for s in self.seat_users if s != seat]
        dispute = (Dispute.objects.filter(game=game, seat__name__in=others)
                   .order_by("pk").first())
        last = (game.records.filter(superseded=False, published=True)
                .order_by("-number").first())
        current = game.current_turn()
        return {"pk": game.pk, "number": last.number if last else 0,
                "open": current.number if current else 0,
                "dispute_id": dispute.pk if dispute else 0, "name": others[0],
                "ruleset": game.ruleset}

    def _order_text(self, game: Game, seat: str | None) -> str:
        """Legal-looking orders of `seat` now, or a line no engine reads."""
        if seat is None:
            return "MOVE north"
        rnd = random.Random(f"{game.pk}/{seat}/{game.state_hash}")
        try:
            return self.engine.random_orders(self.engine.from_json(game.state), seat,
                                             lambda seq: list(seq)[rnd.randrange(len(list(seq)))])
        except Exception:  # noqa: BLE001 - a seat that owes nothing has no random orders
            return "MOVE north"

    def requests(self, game: Game, seat: str | None) -> list[tuple[str, str, str, Any]]:
        """(key, method, url, body) of every probe of every route (tests/gm/routes.py)."""
        values = self._values(game, seat)
        other = next(s for s in self.seat_users if s != seat)
        out = []
        for route, probes in routes.PROBES.items():
            for probe in probes:
                method, _, query = probe.partition("?")
                method, _, variant = method.partition(":")
                vals = dict(values)
                if variant == "setup":
                    vals["number"] = 0
                elif variant == "open":
                    vals["number"] = values["open"]
                url = routes.fill(route, vals) + (f"?{query}" if query else "")
                body = routes.BODIES.get(route)
                if route.endswith(("preview.json", "api/games/<int:pk>/orders/")) and \
                        method == "POST":
                    text = self._order_text(game, other if variant == "other" else seat)
                    self.sent[seat].append(text)  # echoed back: the reader's own text
                    body = {"text": text}
                out.append((f"{probe} /{route}", method, url, body))
        return out

    def _ask(self, client: Client, method: str, url: str, body: Any):
        if method == "GET":
            return client.get(url)
        if method == "HEAD":
            return client.head(url)
        if method == "OPTIONS":
            return client.options(url)
        if method == "DELETE":
            return client.delete(url)
        if url.startswith("/api/"):
            return client.post(url, json.dumps(body or {}), content_type="application/json")
        return client.post(url, body or {})

    def fetch(self, reader: str, game: Game | None = None, *, everything: bool = False
              ) -> dict[str, str]:
        """Every answer the reader gets: status, the headers that tell content apart,
        and the body (tokens and nonces aside). With `everything`, every route's probes
        (tests/gm/routes.py), else the main pages only."""
        game = game or Game.objects.get(pk=self.game.pk)
        seat = self.readers[reader][0]
        cache.clear()  # rate limits: the probes are many, and a 429 is not a leak
        out = {}
        if everything:
            asked = self.requests(game, seat)
        else:
            asked = [(url, "GET", url, None) for url in self.urls()]
        for key, method, url, body in asked:
            resp = self._ask(self.clients[reader], method, url, body)
            assert resp.status_code < 500, (method, url, reader, resp.status_code)
            heads = " ".join(f"{h}={resp.get(h)}" for h in HEADERS if resp.has_header(h))
            out[key] = f"{resp.status_code} {heads}\n" + _normal(
                b"".join(resp.streaming_content).decode() if resp.streaming
                else resp.content.decode())
            self.asked.add(key.partition(" /")[2])
        return out

    def urls(self) -> list[str]:
        gid = self.game.pk
        urls = [f"/games/{gid}/", f"/games/{gid}/live.json", f"/api/games/{gid}/",
                f"/api/games/{gid}/reports/", f"/games/{gid}/feed/"]
        last = (self.game.records.filter(superseded=False, published=True)
                .order_by("-number").first())
        if last is not None:
            urls.append(f"/games/{gid}/turns/{last.number}/")
        return urls

    # -- the state-derived check -------------------------------------------------------
    def check(self, moment: str, *, everything: bool = True) -> None:
        """Every reader's answers, before and after a change of what they may not see:
        every route's probes with `everything`, else the main pages (`urls`)."""
        game = Game.objects.get(pk=self.game.pk)
        held = TurnRecord.objects.filter(game=game, superseded=False, published=False,
                                         turn__status=Turn.Status.HELD).first()
        for seat in self.legit:
            state = self.engine.from_json(actions.published_state(game, seat))
            self.legit[seat].append(json.dumps(self.engine.view(state, seat),
                                               ensure_ascii=False))
        with time_machine.travel(game.created, tick=False):
            for reader, (seat, _user) in self.readers.items():
                # Reading the game page marks what is new as read: the readings compared
                # come after it.
                self.clients[reader].get(f"/games/{game.pk}/")
                pick_rnd = random.Random(f"{moment}/{reader}")

                def pick(seq, rnd=pick_rnd):
                    seq = list(seq)
                    return seq[rnd.randrange(len(seq))]

                # Both readings in a savepoint rolled back: a probe that writes (a
                # receipt, a read mark) writes the same both times, and the changes of
                # what the reader may not see are undone.
                seen = self._reading(reader, game, everything=everything)
                self.received[reader] += list(seen.values())
                again = self._reading(reader, game, functools.partial(
                    self._perturb, game, held, seat, pick), everything=everything)
                if again is None:
                    continue
                for key, body in seen.items():
                    assert again[key] == body, (
                        f"{moment}: {key} for {reader} changed when only what that reader "
                        f"may not see changed ({self.game.ruleset})\n"
                        f"before: {body[:3000]}\nafter: {again[key][:3000]}")
                self.checks += 1

    def _reading(self, reader: str, game: Game, change=None, *, everything: bool
                 ) -> dict[str, str] | None:
        got: dict[str, str] | None = None
        sequences = _sequences()
        try:
            with transaction.atomic():
                if change is None or change():
                    got = self.fetch(reader, game, everything=everything)
                raise _Undo
        except _Undo:
            pass
        _rewind(sequences)
        return got

    def _perturb(self, game: Game, held: TurnRecord | None, seat: str | None, pick) -> bool:
        """Change what `seat` may not see: the engine's hidden state (the game's, the
        held turn's, every record's) and the service's secrets of other people (the dice
        secret while the game runs, other seats' orders, private reports, press, reply
        addresses and mail addresses, dispute texts, the GM's log details)."""
        engine = self.engine
        changed = False
        state = engine.perturb_hidden(engine.from_json(game.state), seat, pick)
        if held is not None:
            # While a turn is held, nothing of its outcome is the players' to see: any
            # state at all may stand in for it.
            state = engine.from_json(held.state_before)
            before = engine.perturb_hidden(engine.from_json(held.state_before), seat, pick)
            if before is not None:
                TurnRecord.objects.filter(pk=held.pk).update(
                    state_before=engine.to_json(before), draws=[], events=[])
                changed = True
        if state is not None:
            Game.objects.filter(pk=game.pk).update(state=engine.to_json(state))
            changed = True
        for record in game.records.filter(published=True, superseded=False):
            fields = {}
            for name in ("state_before", "state_after"):
                other = engine.perturb_hidden(engine.from_json(getattr(record, name)), seat,
                                              pick)
                if other is not None:
                    fields[name] = engine.to_json(other)
            if game.status != Game.Status.FINISHED:
                fields["draws"] = [{**d, "result": "perturbed"} for d in record.draws]
            TurnRecord.objects.filter(pk=record.pk).update(**fields)
        changed |= self._perturb_service(game, seat)
        return changed

    def _perturb_service(self, game: Game, seat: str | None) -> bool:
        others = [s for s in self.seat_users if s != seat]
        if game.status != Game.Status.FINISHED:
            Game.objects.filter(pk=game.pk).update(secret="perturbed-secret")
        for other in game.seats.filter(name__in=others).select_related("user"):
            Seat.objects.filter(pk=other.pk).update(mail_token=f"perturbed{other.pk}",
                                                    emails=["elsewhere@example.net"])
            type(other.user).objects.filter(pk=other.user_id).update(
                email=f"perturbed{other.user_id}@example.net")
        type(self.gm_user).objects.filter(pk=self.gm_user.pk).update(
            email="perturbed-gm@example.net")
        Submission.objects.filter(turn__game=game, seat__name__in=others).exclude(
            orders=None).update(text="PERTURBED", receipt="0" * 64, orders={
                "seat": "x", "items": ["perturbed"], "text": "PERTURBED", "default": False})
        Report.objects.filter(record__game=game).exclude(audience__in=["", seat or ""]).update(
            markdown="perturbed private report", rendered="<p>perturbed private report</p>")
        Report.objects.filter(record__game=game, record__published=False).update(
            markdown="perturbed held report", rendered="<p>perturbed held report</p>")
        talk = Message.objects.filter(game=game)
        if seat is not None:
            talk = talk.exclude(sender=seat).exclude(recipient=seat)
        talk.update(markdown="perturbed press", html="<p>perturbed press</p>")
        Dispute.objects.filter(game=game, seat__name__in=others).update(
            text="perturbed dispute", correction={"perturbed": True})
        LogEntry.objects.filter(game=game).update(private={"perturbed": True})
        for turn in Turn.objects.filter(game=game, superseded=False):
            prompts = turn.decision.get("prompts", {})
            if any(name in prompts for name in others):
                Turn.objects.filter(pk=turn.pk).update(decision={**turn.decision, "prompts": {
                    **prompts, **{name: {"title": "perturbed", "choices": ["perturbed"]}
                                  for name in others if name in prompts}}})
        return True

    # -- the stored-text check -----------------------------------------------------------
    def check_stored_text(self) -> None:
        users = {seat: user for seat, user in self.seat_users.items()}
        for reader, (seat, user) in self.readers.items():
            got = "\n".join(_text(body) for body in self.received[reader])
            if user is not None:
                got += "\n".join(_text(m.body) + "\n" + _text(
                    "".join(str(c) for c, _t in getattr(m, "alternatives", [])))
                    for m in mail.outbox if user.email in m.to)
            got = re.sub(r"\s+", " ", got)
            for secret in self._secret_lines(seat, users):
                assert secret not in got, (
                    f"{reader} received another seat's private line {secret!r} "
                    f"({self.game.ruleset})")

    def _secret_lines(self, reader_seat: str | None, users: dict[str, Any]) -> set[str]:
        """Lines of other seats' private reports and prompts that nothing the reader may
        know contains (their own reports and prompts, the public ones, their views)."""
        secret: set[str] = set()
        known: list[str] = [*self.legit[reader_seat], *self.legit[None],
                            *self.sent[reader_seat]]
        game = Game.objects.get(pk=self.game.pk)
        for viewer in {reader_seat, None}:  # the setup report (the turn 0 page)
            known += _md_lines(actions.setup_report(game, viewer))
        for report in Report.objects.filter(record__game=self.game):
            if report.audience in ("", reader_seat):
                known += _md_lines(report.markdown)
            elif report.audience != "*":
                secret |= _md_lines(report.markdown)
        for turn in Turn.objects.filter(game=self.game):
            for seat, prompt in turn.decision.get("prompts", {}).items():
                if seat == reader_seat:
                    known += render_prompt(prompt)
                else:  # the seat's own choices (a hand, a plan); titles and help are rules
                    own = {k: v for k, v in prompt.items() if k not in ("title", "help",
                                                                      "example")}
                    secret |= {line.strip() for item in render_prompt(own)
                               for line in item.splitlines() if len(line.strip()) >= 12}
        known_text = re.sub(r"\s+", " ", "\n".join(known))
        return {line for line in secret if line not in known_text}


def _orders(world: World, rnd: random.Random) -> None:
    game = Game.objects.get(pk=world.game.pk)
    turn = game.current_turn()
    state = world.engine.from_json(game.state)
    for name in turn.owing:
        text = world.engine.random_orders(state, name,
                                          lambda seq: list(seq)[rnd.randrange(len(list(seq)))])
        pseudo.submit(game, name, text, turn_number=turn.number)  # GM desk for a pseudo seat


def _running(world: World) -> bool:
    game = Game.objects.get(pk=world.game.pk)
    turn = game.current_turn()
    return game.status == Game.Status.RUNNING and turn is not None and \
        turn.status == Turn.Status.OPEN


def _amend(world: World) -> bool:
    """Any one-value amendment the engine accepts (the GM's desk offers every leaf)."""
    game = Game.objects.get(pk=world.game.pk)
    for field in patching.fields(game.state):
        if field["kind"] != "int" or isinstance(field["value"], bool):
            continue
        for value in (field["value"] + 1, field["value"] - 1):
            try:
                referee.amend_state(game, world.gm_user, "table correction",
                                    [{"path": field["path"], "value": value}])
                return True
            except ActionError:
                continue
    return False


@pytest.mark.parametrize("ruleset", HIDDEN)
def test_no_reader_ever_receives_another_seats_secrets(ruleset, make_game, make_user, gm_user,
                                                       on_commit, settings):
    settings.GM_MAIL_DOMAIN = "gm.example"
    engine = registry.get(ruleset)
    n = max(2, engine.min_seats)
    game = make_game(ruleset, n, options=None)
    users = {s.name: s.user for s in game.seats.select_related("user")}
    world = World(game, gm_user, users, make_user("outsider"))
    rnd = random.Random(f"no-leak/{ruleset}")

    def play(turns: int) -> int:
        done = 0
        for _ in range(turns):
            if not _running(world):
                break
            with on_commit():
                _orders(world, rnd)
            done += 1
        return done

    assert play(3) >= 2, "the game should last a few turns"
    _talk(world)
    world.check("after three turns")
    if _running(world):
        with on_commit():
            assert _amend(world), "no amendment the engine accepts"
        world.check("after a GM amendment", everything=False)
    with on_commit():
        referee.set_hold(game, gm_user, "review", True)
    if play(1):
        world.check("while a turn is held")
        with on_commit():
            referee.release(game, gm_user, "ok")
    with on_commit():
        referee.set_hold(game, gm_user, "review off", False)
    last = game.records.filter(superseded=False).order_by("-number").first()
    with on_commit():
        referee.rollback_to(Game.objects.get(pk=game.pk), gm_user, "redo", last.number)
    world.check("after a rollback", everything=False)
    play(1)
    with on_commit():
        referee.rerun_from(Game.objects.get(pk=game.pk), gm_user, "rerun", 1)
    world.check("after a rerun", everything=False)
    play(2)
    world.check("at the end")
    world.check_stored_text()
    assert world.checks >= 5 * (len(world.readers) - 1), world.checks
    assert mail.outbox, "the seats got notices by mail"
    missed = [r for r in routes.PROBES if r not in world.asked]
    assert not missed, f"routes never asked: {missed}"


def _talk(world: World) -> None:
    """What players keep from each other beside the game: press between two seats and
    to the GM, and a dispute (its text is the filer's and the GM's) from every seat."""
    game = Game.objects.get(pk=world.game.pk)
    seats = list(world.seat_users)
    for name, user in world.seat_users.items():
        other = next(s for s in seats if s != name)
        talk.send(game, user, other, f"press from {name} to {other}: meet at the well")
        talk.send(game, user, "GM", f"press from {name} to the GM: I hold the key")
        disputes.file_dispute(game, user, 1, f"dispute of {name}: my hidden plan was wrong")


def test_every_route_is_probed_or_excused():
    """A new route of the URLconf must be asked by the no-leak test (routes.PROBES) or
    say why not (routes.EXCUSED)."""
    assert routes.unclassified() == [], (
        "routes the no-leak test does not know: add their probes to tests/gm/routes.py "
        "PROBES, or the reason they need none to EXCUSED")
    assert routes.stale() == [], "PROBES names routes the URLconf no longer has"
    assert all(why.strip() for why in routes.EXCUSED.values())
