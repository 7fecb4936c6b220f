"""Mail URLs (mounted at /mail/): unsubscribe links, settings, provider webhooks."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="mail-unsubscribe"),
    path("preferences/", views.preferences, name="mail-preferences"),
    # Provider inbound webhooks, e.g. /mail/anymail/mailgun/inbound_mime/
    path("anymail/", include("anymail.urls")),
]
