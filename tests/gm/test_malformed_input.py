"""Malformed input at every route that takes a body: never a server error, always a
clear refusal, nothing stored.

Every POST route the no-leak test knows (tests/gm/routes.py, read against the URLconf)
is sent JSON of the wrong shape or types, NUL characters, lone surrogates, invalid
UTF-8, control and bidirectional characters, a huge text, absurd numbers and deep
nesting, as JSON and as form data, by the GM and by a seated player, and every GM power
of the desk by name. A 5xx is a fault; an API refusal must say what was wrong; and a
player's malformed bodies store nothing.
"""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client

from gm.play.models import Game, LogEntry, Post, Submission, TurnRecord
from gm.talk.models import Message
from tests.gm import routes

pytestmark = pytest.mark.django_db

BAD_JSON = [
    b"", b"null", b"[]", b'"x"', b"5", b"{", b"\xff\xfe", b"NaN", b'{"a": Infinity}',
    b"[" * 5000 + b"]" * 5000,
    b'{"text": "\\u0000"}', b'{"text": "\\ud800"}', b'{"text": 5}', b'{"text": []}',
    b'{"text": {}}', b'{"text": null}', b'{"text": true}',
    b'{"text": "ADD 1", "turn": "x"}', b'{"text": "ADD 1", "turn": -1}',
    b'{"text": "ADD 1", "turn": 99999999999999999999}', b'{"text": "ADD 1", "turn": 1.5}',
    b'{"text": "ADD 1", "turn": [1]}', b'{"text": "ADD 1\\u202e\\u0007\\r\\u001b"}',
    b'{"text": "' + b"A" * 200_000 + b'"}',
    b'{"reason": 5, "turn": {}, "seat": [], "changes": 5}',
    b'{"reason": "x", "turn": 99, "changes": [{"path": 5, "value": {}}]}',
    b'{"reason": "x", "turn": 99, "index": -1, "value": {"a": [1]}}',
    b'{"reason": "x", "hold": "maybe"}', b'{"reason": "x", "until": "yesterday"}',
    b'{"reason": "x", "hours": 1e309}', b'{"markdown": "\\u0000"}', b'{"markdown": []}',
    b'{"user": [], "mode": {}}', b'{"reason": "x", "orders": {"P1": 5}, "overrides": []}',
    b'{"reason": "x", "upheld": "yes", "reasons": []}',
]
BAD_FORMS = [
    {"text": "ADD 1\x00"}, {"text": "A" * 200_000}, {"turn": "x", "text": "ADD 1"},
    {"turn": "-5", "text": "ADD 1"}, {"turn": "99999999999999999999", "text": "ADD 1"},
    {"markdown": "\x00"}, {"recipient": "P2", "text": "\x00"}, {"recipient": "\x00", "text": "hi"},
    {"reason": "\x00", "seat": "\x00", "text": "\x00"},
    {"reason": "r", "turn": "99999999999999999999", "index": "x", "value": "{"},
    {"reason": "r", "path": "\x00", "value": "\x00"},
    {"reason": "r", "hours": "99999999999999", "minutes": "-1"}, {"reason": "r", "until": "0-0"},
    {"seat": "P1", "user": "\x00"},
]
RAW_FORMS = [b"text=%ff%fe&turn=1", b"text=%ED%A0%80", b"markdown=%00", b"reason=%ff&seat=%00"]
POWERS = ["pause", "resume", "extend", "force", "hold", "release", "rerun", "rollback",
          "seat-mode", "seat-user", "co-gm", "orders", "dice", "no-such-power"]


def _urls(game: Game) -> list[str]:
    values = {"pk": game.pk, "number": 1, "dispute_id": 1, "name": "P1"}
    urls = []
    for route, probes in routes.PROBES.items():
        if not any(p.startswith("POST") for p in probes):
            continue
        if "<slug:name>" in route:
            urls += [routes.fill(route, {**values, "name": n}) for n in POWERS]
        else:
            urls.append(routes.fill(route, values))
    return urls


def _stored(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.state_hash, game.status, Submission.objects.count(), Post.objects.count(),
            Message.objects.count(), TurnRecord.objects.count(),
            LogEntry.objects.count())


@pytest.mark.parametrize("who", ["gm", "seat"])
def test_malformed_bodies_are_refused_clearly_and_store_nothing(who, make_game, gm_user,
                                                                players):
    game = make_game("tally", 2)
    client = Client()
    client.force_login(gm_user if who == "gm" else players[0])
    before = _stored(game)
    faults = []
    for url in _urls(game):
        asked = [(body, "application/json") for body in BAD_JSON]
        asked += [(raw, "application/x-www-form-urlencoded") for raw in RAW_FORMS]
        asked += [(form, None) for form in BAD_FORMS]
        for body, content_type in asked:
            cache.clear()  # rate limits: a 429 would hide what the body gets
            resp = (client.post(url, body) if content_type is None
                    else client.post(url, body, content_type=content_type))
            shown = repr(body)[:80]
            if resp.status_code >= 500:
                faults.append(f"{url} {shown}: {resp.status_code}")
            elif url.startswith("/api/") and resp.status_code == 400:
                answer = json.loads(resp.content)
                said = answer.get("detail") or answer.get("errors") or answer
                if not said:
                    faults.append(f"{url} {shown}: a 400 that says nothing")
    assert not faults, "\n".join(faults)
    if who == "seat":  # the GM's bodies with a reason are acts (extra fields ignored)
        assert _stored(game) == before
