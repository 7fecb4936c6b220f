from django.apps import AppConfig


class GmadjConfig(AppConfig):
    name = "gm.gmadj"
    label = "gmadj"
    verbose_name = "GM-adjudicated games"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the play signals)
