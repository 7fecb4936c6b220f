"""Referee pages, included at the site root (before gm.web's)."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:pk>/gm/", views.desk, name="gm-desk"),
    path("games/<int:pk>/gm/amend/", views.amend, name="gm-amend"),
    path("games/<int:pk>/gm/turns/<int:number>/", views.turn_page, name="gm-turn"),
    path("games/<int:pk>/gm/do/<slug:name>/", views.power, name="gm-power"),
    path("games/<int:pk>/log/", views.log_page, name="game-log"),
    path("games/<int:pk>/disputes/", views.disputes_page, name="game-disputes"),
    path("games/<int:pk>/disputes/<int:dispute_id>/", views.dispute_page, name="game-dispute"),
    path("referee/opinions/", views.opinions_page, name="referee-opinions"),
    path("verify/", views.verify_page, name="verify"),
]
