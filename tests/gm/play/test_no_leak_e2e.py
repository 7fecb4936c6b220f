"""End to end, every ruleset with hidden information: no other seat, outsider or
anonymous reader ever receives a seat's secrets, in any response, page, feed or mail,
including after a GM amendment, while a turn is held, after a rollback and a rerun
(issue 11).

Two checks, at each of those moments, for each reader:

* state-derived (pages, API, feed, live JSON): the engine's `perturb_hidden` changes
  exactly what the reader may not see in the stored state (and in a held turn's state);
  every response the reader gets must stay byte-for-byte the same (tokens and nonces
  aside). A response that depends on hidden state, through any door, fails here;
* stored text (reports, thread, mail): lines of another seat's private reports and
  order prompts that the reader does not also have themselves never appear in anything
  the reader received.
"""

from __future__ import annotations

import json
import random
import re
from html import unescape
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games.core import registry
from gm.mail.notices import render_prompt
from gm.play import actions
from gm.play.errors import ActionError
from gm.play.models import Game, Report, Turn, TurnRecord
from gm.referee import actions as referee
from gm.referee import patching

pytestmark = pytest.mark.django_db

HIDDEN = sorted(name for name, engine in registry.engines().items()
                if engine.hidden_information and name not in ("tally", "toy_race"))
VOLATILE = [re.compile(p) for p in (
    r'name="csrfmiddlewaretoken" value="[^"]*"', r'nonce="[^"]*"', r'nonce-[A-Za-z0-9+/=_-]+',
    r'"csrfToken":\s*"[^"]*"')]


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

    # -- what a reader receives ------------------------------------------------------
    def urls(self) -> list[str]:
        gid = self.game.pk
        urls = [f"/games/{gid}/", f"/games/{gid}/feed/", f"/games/{gid}/log/",
                f"/games/{gid}/live.json", f"/api/games/{gid}/",
                f"/api/games/{gid}/reports/", f"/api/games/{gid}/thread/"]
        last = (self.game.records.filter(superseded=False, published=True)
                .order_by("-number").first())
        if last is not None:
            urls.append(f"/games/{gid}/turns/{last.number}/")
        return urls

    def fetch(self, reader: str) -> dict[str, str]:
        out = {}
        for url in self.urls():
            resp = self.clients[reader].get(url)
            assert resp.status_code < 500, (url, reader, resp.status_code)
            out[url] = _normal(resp.content.decode())
        return out

    # -- the state-derived check -------------------------------------------------------
    def check(self, moment: str) -> None:
        game = Game.objects.get(pk=self.game.pk)
        held = TurnRecord.objects.filter(game=game, superseded=False, published=False,
                                         turn__status=Turn.Status.HELD).first()
        for seat in self.legit:
            state = self.engine.from_json(actions.published_state(game, seat))
            self.legit[seat].append(json.dumps(self.engine.view(state, seat),
                                               ensure_ascii=False))
        with time_machine.travel(game.created, tick=False):
            for reader, (seat, _user) in self.readers.items():
                self.received[reader] += list(self.fetch(reader).values())
                # Reading marks reports as read: the second reading is the one that the
                # reading after the perturbation must equal.
                seen = self.fetch(reader)
                pick_rnd = random.Random(f"{moment}/{reader}")

                def pick(seq, rnd=pick_rnd):
                    seq = list(seq)
                    return seq[rnd.randrange(len(seq))]

                changed = self._perturb(game, held, seat, pick)
                if not changed:
                    continue
                try:
                    again = self.fetch(reader)
                finally:
                    Game.objects.filter(pk=game.pk).update(state=game.state)
                    if held is not None:
                        TurnRecord.objects.filter(pk=held.pk).update(
                            state_before=held.state_before)
                for url, body in seen.items():
                    assert again[url] == body, (
                        f"{moment}: {url} for {reader} changed when only what that reader "
                        f"may not see changed ({self.game.ruleset})")
                self.checks += 1

    def _perturb(self, game: Game, held: TurnRecord | None, seat: str | None, pick) -> bool:
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
                    state_before=engine.to_json(before))
                changed = True
        if state is not None:
            Game.objects.filter(pk=game.pk).update(state=engine.to_json(state))
            changed = True
        return changed

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
        known: list[str] = [*self.legit[reader_seat], *self.legit[None]]
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
        actions.submit_orders(game, game.seats.get(name=name), text, turn_number=turn.number)


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
    world.check("after three turns")
    if _running(world):
        with on_commit():
            assert _amend(world), "no amendment the engine accepts"
        world.check("after a GM amendment")
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
    world.check("after a rollback")
    play(1)
    with on_commit():
        referee.rerun_from(Game.objects.get(pk=game.pk), gm_user, "rerun", 1)
    world.check("after a rerun")
    play(2)
    world.check("at the end")
    world.check_stored_text()
    assert world.checks >= 5 * (len(world.readers) - 1), world.checks
    assert mail.outbox, "the seats got notices by mail"
