from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "gm.referee"
    label = "gm_referee"
