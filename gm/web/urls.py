from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.generic import RedirectView

from . import history, rulebook, set_aside, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("favicon.ico", RedirectView.as_view(url="/static/web/favicon.svg", permanent=True)),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("settings/time-zone/", views.time_zone, name="time-zone"),
    path("rules/", rulebook.rules_index, name="rules-index"),
    path("rules/<str:ruleset>/", rulebook.rules_page, name="rules"),
    path("rules/<str:ruleset>/readme/", rulebook.rules_readme, name="rules-readme"),
    path("help/", rulebook.help_page, {"which": "players"}, name="help"),
    path("help/gm/", rulebook.help_page, {"which": "gm"}, name="help-gm"),
    path("help/absence/", rulebook.help_page, {"which": "absence"}, name="help-absence"),
    path("help/substitutes/", rulebook.help_page, {"which": "substitutes"},
         name="help-substitutes"),
    path("help/notifications/", rulebook.help_page, {"which": "notifications"},
         name="help-notifications"),
    path("help/gm-adjudicated/", rulebook.help_page, {"which": "gm-adjudicated"},
         name="help-gm-adjudicated"),
    path("games/new/", views.choose_ruleset, name="new-game"),
    path("games/new/<str:ruleset>/", views.new_game, name="new-game-of"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/invite/", views.invite, name="game-invite"),
    path("games/<int:pk>/join/", views.join, name="game-join"),
    path("games/<int:pk>/start/", views.start, name="game-start"),
    path("games/<int:pk>/orders/", views.submit_orders, name="game-orders"),
    path("games/<int:pk>/orders/preview.json", views.preview_json, name="game-preview"),
    path("games/<int:pk>/thread/", views.post_message, name="game-post"),
    path("games/<int:pk>/press/", views.send_press, name="game-press"),
    path("games/<int:pk>/live.json", views.live, name="game-live"),
    path("games/<int:pk>/export.json", views.export_json, name="game-export"),
    path("games/<int:pk>/turns/<int:number>/", history.turn_page, name="game-turn"),
    # newcomer (issue 28): turns set aside by a rerun or rollback, kept in the history
    path("games/<int:pk>/turns/<int:number>/set-aside/<int:version>/", set_aside.set_aside_page,
         name="game-turn-set-aside"),
    path("games/<int:pk>/feed/", views.ReportsFeed(), name="game-feed"),
]
