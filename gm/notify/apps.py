from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """The notification layer: one budget per person that every channel goes through."""

    name = "gm.notify"
    label = "gm_notify"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from . import receivers

        receivers.connect()
