from django.apps import AppConfig


class AbsenceConfig(AppConfig):
    name = "gm.absence"
    label = "absence"
    verbose_name = "Absence: vacations, grace, if-I-miss orders, bots"

    def ready(self) -> None:
        from django.apps import apps

        from . import receivers  # noqa: F401 (connects the signal receivers)

        if apps.is_installed("gm.substitutes"):
            from . import links

            links.connect()
