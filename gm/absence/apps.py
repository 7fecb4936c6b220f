from django.apps import AppConfig


class AbsenceConfig(AppConfig):
    name = "gm.absence"
    label = "absence"
    verbose_name = "Absence: vacations, grace, if-I-miss orders, bots"

    def ready(self) -> None:
        from django.apps import apps

        from gm.play import hooks

        from . import actions, receivers  # noqa: F401 (receivers connect themselves)

        hooks.at_resolution = actions.at_resolution
        hooks.add_create_setting(hooks.CreateSetting(
            "absence", actions.clean_settings,
            lambda game, user, cleaned: actions.configure(game, user, cleaned, creating=True)))
        if apps.is_installed("gm.mail"):
            from gm.mail import inbound

            from .mail import answer

            if answer not in inbound.COMMANDS:
                inbound.COMMANDS.append(answer)

        if apps.is_installed("gm.substitutes"):
            from . import links

            links.connect()
