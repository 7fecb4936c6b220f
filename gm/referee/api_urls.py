"""Referee API, included at /api/: GM powers under games/<id>/gm/, disputes, log, verify."""

from django.urls import path

from . import api_views as v

gm = "games/<int:pk>/gm/"
urlpatterns = [
    path(gm, v.overview, name="api-gm"),
    path(gm + "fields/", v.fields, name="api-gm-fields"),
    path(gm + "turns/<int:number>/", v.turn, name="api-gm-turn"),
    path(gm + "pause/", v.pause, name="api-gm-pause"),
    path(gm + "resume/", v.resume, name="api-gm-resume"),
    path(gm + "extend/", v.extend, name="api-gm-extend"),
    path(gm + "force/", v.force, name="api-gm-force"),
    path(gm + "hold/", v.hold, name="api-gm-hold"),
    path(gm + "release/", v.release, name="api-gm-release"),
    path(gm + "amend/", v.amend, name="api-gm-amend"),
    path(gm + "orders/", v.orders, name="api-gm-orders"),
    path(gm + "dice/", v.dice, name="api-gm-dice"),
    path(gm + "rerun/", v.rerun, name="api-gm-rerun"),
    path(gm + "rollback/", v.rollback, name="api-gm-rollback"),
    path(gm + "seats/<str:name>/", v.seat, name="api-gm-seat"),
    path(gm + "co-gms/", v.co_gms, name="api-gm-co-gms"),
    path(gm + "disputes/<int:dispute_id>/rule/", v.rule, name="api-gm-rule"),
    path("games/<int:pk>/disputes/", v.dispute_list, name="api-disputes"),
    path("games/<int:pk>/disputes/<int:dispute_id>/", v.dispute_detail, name="api-dispute"),
    path("games/<int:pk>/disputes/<int:dispute_id>/second-opinion/",
         v.second_opinion_request, name="api-dispute-opinion-request"),
    path("games/<int:pk>/disputes/<int:dispute_id>/opinion/", v.second_opinion_give,
         name="api-dispute-opinion"),
    path("games/<int:pk>/log/", v.log, name="api-log"),
    path("referee/opinions/", v.opinions, name="api-opinions"),
    path("verify/", v.verify, name="api-verify"),
]
