from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "gm.api"
    label = "gm_api"
