from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "gm.mail"
    label = "gm_mail"
