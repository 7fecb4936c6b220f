"""The guides in the site (gm.web.playerdocs): /help/, /help/gm/, /rules/<ruleset>/."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.core import registry
from gm.mail import greetings
from gm.web import playerdocs

RULESETS = ("combat_dice", "duelists", "dice_age", "duel_of_ages", "dungeonquest")
ALIASES = {"CHOOSE", "PLAY"}  # Dungeonquest's other spellings of HERO, read as phrases


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ruleset_has_a_players_help_with_order_anchors(ruleset):
    html = Client().get(f"/rules/{ruleset}/").content.decode()
    assert html.count("<h1>") == 1 and 'id="contents"' in html
    assert 'id="orders"' in html and 'class="language-orders"' in html
    assert re.search(r'id="order-index">.*?<a href="#order-', html)  # each order, linked
    anchors = playerdocs.order_anchors(ruleset)
    assert len(anchors) >= 5, anchors
    # each word of the order language has its section, and each section is for one
    vocabulary = greetings.vocabulary(registry.get(ruleset))
    assert set(anchors) - vocabulary.keywords - vocabulary.leading <= ALIASES
    assert vocabulary.keywords <= set(anchors), vocabulary.keywords - set(anchors)
    assert "<!-- table" not in html and "<table>" in html
    assert f"/rules/{ruleset}/readme/" in html  # the developers' README stays reachable
    assert f'<a href="/rules/{ruleset}/readme/">developer README</a>' in html
    assert registry.get(ruleset).title in html


@pytest.mark.django_db
def test_tables_are_generated_from_the_data_files():
    html = Client().get("/rules/dungeonquest/").content.decode()
    import tomllib
    heroes = tomllib.loads((playerdocs.GAMES / "dungeonquest/data/heroes.toml").read_text())
    for hero in heroes.values():
        assert f"<td>{hero['name']}</td>" in html
        assert f"<td>{hero['life']}</td>" in html


@pytest.mark.django_db
def test_the_order_card_links_into_the_help(make_game, players):
    game = make_game("dungeonquest", 2)
    c = Client()
    c.force_login(players[0])
    html = c.get(f"/games/{game.pk}/").content.decode()
    link = re.search(r'<a href="([^"]+)" id="rules-link"[^>]*data-orders="([^"]*)"', html)
    assert link and link[1] == f"/rules/dungeonquest/?game={game.pk}#orders"
    assert "HERO" in link[2].split() and "MOVE" in link[2].split()
    help_page = c.get(f"/rules/dungeonquest/?game={game.pk}").content.decode()
    assert f'data-game="{game.pk}"' in help_page and f"/games/{game.pk}/#orders" in help_page
    # a game number that is not one is ignored, not echoed
    assert "data-game" not in Client().get("/rules/dungeonquest/?game=1%22x").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("path,title", [
    ("/help/", "The player's guide"), ("/help/gm/", "The GM's guide"),
    ("/help/absence/", "Absence: vacations, grace, \"if I miss\" orders, civil disorder "
                       "and bot seats"),
    ("/help/substitutes/", "Substitutes, seat hand-overs and the reliability record"),
    ("/help/notifications/", "Notifications"),
    ("/help/gm-adjudicated/", "Running a GM-adjudicated game (GM guide)")])
def test_the_guides_render_with_links_into_the_site(path, title):
    html = Client().get(path).content.decode()
    escaped = title.replace("'", "&#x27;").replace('"', "&quot;")
    assert f"<h1>{escaped}</h1>" in html or f"<h1>{title}</h1>" in html
    assert 'id="contents"' in html
    if path in ("/help/", "/help/gm/"):  # guide links point at pages
        assert ".md" not in re.sub(r"<code>.*?</code>", "", html)
    if path == "/help/":
        assert 'href="/rules/dungeonquest/"' in html and 'href="/help/gm/"' in html
        assert 'href="/help/absence/"' in html and 'href="/help/substitutes/"' in html


def test_markup_is_sanitised():
    """The renderer keeps ids and code classes, and nothing a script could ride on."""
    from gm.web.playerdocs import _ATTRIBUTES, _TAGS

    assert "script" not in _TAGS and "img" not in _TAGS
    assert all(not a.startswith("on") for attrs in _ATTRIBUTES.values() for a in attrs)
