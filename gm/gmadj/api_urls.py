"""The desk's API, included at /api/."""

from django.urls import path

from . import api

urlpatterns = [
    path("games/<int:pk>/gm/adjudication/", api.adjudication, name="api-gmadj"),
]
