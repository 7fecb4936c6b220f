from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("games/new/", views.new_game, name="new-game"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/join/", views.join, name="game-join"),
    path("games/<int:pk>/start/", views.start, name="game-start"),
    path("games/<int:pk>/orders/", views.submit_orders, name="game-orders"),
    path("games/<int:pk>/thread/", views.post_message, name="game-post"),
    path("games/<int:pk>/feed/", views.ReportsFeed(), name="game-feed"),
]
