"""Players add extra sender addresses for their seat; mail from them is then accepted."""

from __future__ import annotations

import pytest

from gm.mail import actions
from gm.mail.models import Outcome
from gm.play.errors import ActionError, NotAllowed

from . import mimeshapes as shapes
from .conftest import seat


def test_page_lists_reply_address_and_saves_extra_addresses(tally_game, client, players,
                                                             feed):
    p1 = seat(tally_game, "P1")
    client.force_login(players[0])
    page = client.get("/mail/preferences/")
    assert p1.reply_address.encode() in page.content
    saved = client.post("/mail/preferences/", {"seat": p1.pk,
                                               "emails": "Alice@Phone.example  a2@x.example"})
    assert saved.status_code == 302
    p1.refresh_from_db()
    assert p1.emails == ["alice@phone.example", "a2@x.example"]
    raw = shapes.plain("ADD 2", sender="alice@phone.example", to=p1.reply_address)
    assert feed(raw).outcome == Outcome.ACCEPTED


def test_bad_address_is_refused_and_nothing_changes(tally_game, client, players):
    p1 = seat(tally_game, "P1")
    client.force_login(players[0])
    page = client.post("/mail/preferences/", {"seat": p1.pk, "emails": "ok@x.example nope"})
    assert page.status_code == 400 and b"&#x27;nope&#x27; is not an email address" in \
        page.content
    p1.refresh_from_db()
    assert p1.emails == []


def test_only_the_seats_player_may_change_it(tally_game, client, players):
    p1 = seat(tally_game, "P1")
    client.force_login(players[1])
    assert client.post("/mail/preferences/", {"seat": p1.pk, "emails": "b@x.example"}
                       ).status_code == 404
    with pytest.raises(NotAllowed):
        actions.set_sender_addresses(p1, players[1], ["b@x.example"])
    with pytest.raises(ActionError, match="at most 5"):
        actions.set_sender_addresses(p1, players[0], [f"a{i}@x.example" for i in range(6)])
    p1.refresh_from_db()
    assert p1.emails == []
