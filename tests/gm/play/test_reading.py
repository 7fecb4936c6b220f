"""gm.play.actions.reading: what a reader gets: the export (private until the end), the
thread (sanitised).
"""

from __future__ import annotations

import pytest

from gm.play import actions
from gm.play.errors import ActionError, Conflict, NotAllowed

pytestmark = pytest.mark.django_db


def test_export_is_private_until_the_end(make_game):
    game = make_game("tally", 1)
    with pytest.raises(Conflict, match="published when the game is over"):
        actions.export_game(game)
    gm_export = actions.export_game(game, for_gm=True)
    assert "secret" not in gm_export


def test_thread_posts_are_sanitised(make_game, players, make_user):
    game = make_game("tally", 1)
    post = actions.post_message(game, players[0], "**hi** <script>alert(1)</script>")
    assert "<strong>hi</strong>" in post.html and "<script>" not in post.html
    stranger = make_user("stranger")
    with pytest.raises(NotAllowed):
        actions.post_message(game, stranger, "hello")
    with pytest.raises(ActionError, match="cannot be empty"):
        actions.post_message(game, players[0], "   ")
