from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "gm.play"
    label = "play"
    verbose_name = "Games and turns"

    def ready(self) -> None:
        from . import tasks  # noqa: F401 (registers its tasks with gm.wakeups)
