from django.apps import AppConfig


class AbsenceConfig(AppConfig):
    name = "gm.absence"
    label = "absence"
    verbose_name = "Absence: vacations, grace, if-I-miss orders, bots"

    def ready(self) -> None:
        from . import receivers  # noqa: F401 (connects the signal receivers)
