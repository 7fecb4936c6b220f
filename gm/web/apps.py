from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "gm.web"
    label = "gm_web"
