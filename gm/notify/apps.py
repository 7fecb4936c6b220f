from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """The notification layer: one budget per person that every channel goes through."""

    name = "gm.notify"
    label = "gm_notify"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from gm.mail import notices
        from gm.play import hooks

        from . import budget, receivers, schedule, tasks  # noqa: F401 (tasks register)

        receivers.connect()
        hooks.deadline_for = schedule.deadline_for
        notices.GATE = budget.MailGate
