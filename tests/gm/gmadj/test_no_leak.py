"""Nothing a seat may not see reaches it on any path: another seat's orders before the
reveal (and never, with reveal gm_only), another seat's private report and sheet, the
GM-only notes and secret rolls. Paths: the game page, the live refresh, the API (game,
reports, each report), the turn history pages, the feed, the log, the export before the
end, and the mail each player receives."""

from __future__ import annotations

import pytest

from gm.gmadj import actions as adj
from gm.play import actions
from gm.play.models import Turn

pytestmark = pytest.mark.django_db

SECRETS = {
    "france_orders": "FRANCE-ORDERS-7731",
    "france_private": "FRANCE-PRIVATE-4410",
    "france_sheet": "FRANCE-SHEET-9902",
    "notes": "GM-NOTES-5521",
    "secret_roll": "SECRET-ROLL-LABEL",
}


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.GM_MAIL_DOMAIN = "gm.example"
    settings.GM_MAIL_LOCALPART = "play"
    settings.DEFAULT_FROM_EMAIL = "gm@gm.example"
    settings.SITE_URL = "http://gm.example"


def _paths(game, numbers):
    gid = game.pk
    paths = [f"/games/{gid}/", f"/games/{gid}/live.json", f"/api/games/{gid}/",
             f"/api/games/{gid}/reports/", f"/games/{gid}/feed/", f"/games/{gid}/log/",
             f"/games/{gid}/export.json", f"/api/games/{gid}/export/",
             f"/api/games/{gid}/gm/adjudication/", f"/games/{gid}/adjudicate/"]
    for n in numbers:
        paths += [f"/api/games/{gid}/reports/{n}/", f"/games/{gid}/turns/{n}/"]
    return paths


def _read(client, user, game, numbers) -> str:
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    return "\n".join(client.get(p).content.decode("utf-8", "replace")
                     for p in _paths(game, numbers))


def _mail_to(mailoutbox, address) -> str:
    out = []
    for m in mailoutbox:
        if address in m.to:
            out.append(m.subject + "\n" + m.body)
            out += [alt[0] for alt in getattr(m, "alternatives", [])]
    return "\n".join(out)


def test_no_path_leaks_orders_sheets_private_reports_or_notes(
        adj_game, send_all, client, gm_user, on_commit, mailoutbox):
    game = adj_game(reveal="gm_only")
    send_all(game, {"France": f"Army Paris to Burgundy {SECRETS['france_orders']}",
                    "England": "Fleet London holds"})
    england = game.seats.get(name="England").user
    france = game.seats.get(name="France").user
    # before the turn closes: England and the public see nothing of France's orders
    for reader in (england, None):
        assert SECRETS["france_orders"] not in _read(client, reader, game, [1])
    with on_commit():
        actions.mark_due(Turn.objects.get(game=game, status=Turn.Status.OPEN))
    game.refresh_from_db()
    adj.roll(game, gm_user, SECRETS["secret_roll"], "d20", secret=True)
    adj.save(game, gm_user, "A storm.\n"
             f"@private France\n{SECRETS['france_private']}\n"
             f"@sheet France\n{SECRETS['france_sheet']}\n"
             f"@notes\n{SECRETS['notes']}")
    # while the GM drafts, nothing of the draft is out
    for reader in (england, france, None):
        seen = _read(client, reader, game, [1, 2])
        assert SECRETS["france_private"] not in seen and SECRETS["notes"] not in seen
    with on_commit():
        adj.publish(game, gm_user)
    game.refresh_from_db()
    numbers = [1, 2]
    for reader in (england, None):
        seen = _read(client, reader, game, numbers)
        for name, marker in SECRETS.items():
            assert marker not in seen, (reader, name)
    seen = _read(client, france, game, numbers)
    assert SECRETS["france_sheet"] in seen and SECRETS["france_private"] in seen
    assert SECRETS["notes"] not in seen and SECRETS["secret_roll"] not in seen
    # mail: England's mail carries none; France's its own report and sheet only
    england_mail = _mail_to(mailoutbox, england.email)
    assert england_mail, "England got no mail at all"
    for name, marker in SECRETS.items():
        assert marker not in england_mail, name
    france_mail = _mail_to(mailoutbox, france.email)
    assert SECRETS["france_private"] in france_mail
    assert SECRETS["notes"] not in france_mail and SECRETS["secret_roll"] not in france_mail
    # the GM sees everything at the desk and in its report
    client.force_login(gm_user)
    gm_seen = client.get(f"/api/games/{game.pk}/gm/adjudication/").content.decode()
    assert SECRETS["notes"] in gm_seen and SECRETS["france_sheet"] in gm_seen


def test_after_turn_reveal_shows_orders_only_once_the_turn_is_published(
        adj_game, send_all, client, gm_user, on_commit):
    game = adj_game(reveal="after_turn")
    send_all(game, {"France": SECRETS["france_orders"], "England": "hold"})
    england = game.seats.get(name="England").user
    with on_commit():
        actions.mark_due(Turn.objects.get(game=game, status=Turn.Status.OPEN))
    game.refresh_from_db()
    assert SECRETS["france_orders"] not in _read(client, england, game, [1, 2])
    with on_commit():
        adj.publish(game, gm_user, text="Done.")
    game.refresh_from_db()
    assert SECRETS["france_orders"] in _read(client, england, game, [1, 2])
