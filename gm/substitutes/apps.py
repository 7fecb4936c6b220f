from django.apps import AppConfig


class SubstitutesConfig(AppConfig):
    name = "gm.substitutes"
    label = "gm_substitutes"
    verbose_name = "Substitutes and reliability"

    def ready(self) -> None:
        from gm.play import actions as play
        from gm.play import hooks, signals

        from . import offers, policy, reliability

        signals.seat_needs_player.connect(offers.on_seat_needs_player,
                                          dispatch_uid="gm_substitutes_seat_needs_player")
        if reliability.join_check not in play.JOIN_CHECKS:
            play.JOIN_CHECKS.append(reliability.join_check)
        hooks.add_create_setting(hooks.CreateSetting(
            "seat_policy", policy.clean,
            lambda game, user, cleaned: policy.store(game, cleaned)))
