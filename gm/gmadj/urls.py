"""The desk page, included at the site root."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:pk>/adjudicate/", views.desk, name="gmadj-desk"),
]
