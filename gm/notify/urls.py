from django.urls import path

from . import api, views

urlpatterns = [
    path("account/notifications/", views.account_page, name="notify-account"),
    path("games/<int:pk>/notifications/", views.game_page, name="notify-game"),
    path("api/notify/settings/", api.my_settings, name="api-notify-settings"),
    path("api/notify/feed/", api.my_feed, name="api-notify-feed"),
    path("api/notify/webhooks/", api.my_webhooks, name="api-notify-webhooks"),
    path("api/notify/webhooks/<int:hook_id>/", api.webhook_detail, name="api-notify-webhook"),
    path("api/notify/proposal/", api.proposal, name="api-notify-proposal"),
    path("api/games/<int:pk>/webhooks/", api.game_webhooks, name="api-game-webhooks"),
    path("api/games/<int:pk>/schedule/", api.game_schedule, name="api-game-schedule"),
]
