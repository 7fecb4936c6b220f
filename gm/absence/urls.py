from django.urls import path

from . import api, views

urlpatterns = [
    path("account/vacations/", views.vacations, name="absence-vacations"),
    path("account/vacations/<int:pk>/cancel/", views.cancel_vacation,
         name="absence-vacation-cancel"),
    path("games/<int:pk>/absence/", views.game_absence, name="absence-game"),
    path("games/<int:pk>/absence/mine/", views.save_seat, name="absence-seat"),
    path("games/<int:pk>/absence/settings/", views.save_rules, name="absence-rules"),
    path("api/games/<int:pk>/absence/", api.game_absence, name="api-absence"),
    path("api/games/<int:pk>/absence/mine/", api.my_absence, name="api-absence-mine"),
    path("api/me/vacations/", api.vacations, name="api-vacations"),
    path("api/me/vacations/<int:vid>/", api.vacation, name="api-vacation"),
]
