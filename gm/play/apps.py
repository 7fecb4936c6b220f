from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "gm.play"
    label = "play"
    verbose_name = "Games and turns"
