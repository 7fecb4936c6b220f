from django.apps import AppConfig


class TalkConfig(AppConfig):
    name = "gm.talk"
    label = "talk"
    verbose_name = "Press and unread markers"
    default_auto_field = "django.db.models.BigAutoField"
