"""Mail URLs (mounted at /mail/): unsubscribe links, settings, provider webhooks."""

from django.urls import path

from . import views, webhook_gate

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="mail-unsubscribe"),
    path("preferences/", views.preferences, name="mail-preferences"),
    # Provider inbound webhooks, e.g. /mail/anymail/mailgun/inbound_mime/: only those
    # enabled in GM_MAIL_WEBHOOKS, only with their secret (webhook_gate); others are 404.
    path("anymail/<path:rest>", webhook_gate.inbound, name="mail-webhook"),
]
