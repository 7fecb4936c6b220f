from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "gm.mail"
    label = "gm_mail"
    verbose_name = "Play by email"

    def ready(self) -> None:
        from anymail.signals import inbound as anymail_inbound

        from gm.play import signals
        from gm.talk import signals as talk_signals

        from . import checks, notices, press_out, tasks, webhooks  # noqa: F401 (register)

        signals.turn_opened.connect(notices.on_turn_opened, dispatch_uid="gm_mail_turn_opened")
        signals.turn_published.connect(notices.on_turn_published,
                                       dispatch_uid="gm_mail_turn_published")
        signals.game_finished.connect(notices.on_game_finished,
                                      dispatch_uid="gm_mail_game_finished")
        anymail_inbound.connect(webhooks.on_inbound, dispatch_uid="gm_mail_inbound")
        talk_signals.press_posted.connect(press_out.on_press_posted,
                                          dispatch_uid="gm_mail_press_posted")
