"""Seed demo users and a demo game so a newcomer sees a running game at once, plus one
open table (Dungeonquest, carol seated) that a newcomer who signs up can join: without it
the lobby's "Open games" said "No game is waiting for players" to everyone new.

The demo games' notices (turn opened, one per seat) would print hundreds of lines on a
console mail backend before `make run` shows its URL, so while seeding, console mail goes
to files under var/mail/ instead, and the per-task log lines are quietened.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test.utils import override_settings

from games.core import registry
from gm.play import actions
from gm.play.models import Game

DEMO_PASSWORD = "demo-pass-123"
DEMO_USERS = ["gm", "alice", "bob", "carol"]
OPEN_TABLE = ("dungeonquest", "Demo: open table (join me)")


class Command(BaseCommand):
    help = "Create demo users (password demo-pass-123) and a started demo game per ruleset."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force", action="store_true",
            help="seed even without DEBUG=1 (the demo users have a published password, "
                 "and gm is a site admin)")

    def handle(self, *args, **opts):
        if not (getattr(settings, "LOCAL_DEV", False) or settings.DEBUG or opts["force"]):
            # A superuser "gm" with the password printed in the README, on a real site.
            raise CommandError(
                "refusing to seed demo users without DEBUG=1: they include the site admin "
                f"'gm' with the published password {DEMO_PASSWORD!r}. This looks like a "
                "production configuration; run `DEBUG=1 manage.py demo` on a development "
                "copy, or add --force if you really mean it.")
        quiet = contextlib.ExitStack()
        mail_dir = Path(settings.VAR_DIR) / "mail" if hasattr(settings, "VAR_DIR") else None
        if settings.EMAIL_BACKEND.endswith("console.EmailBackend") and mail_dir is not None:
            mail_dir.mkdir(parents=True, exist_ok=True)
            quiet.enter_context(override_settings(
                EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
                EMAIL_FILE_PATH=str(mail_dir)))
        trace = logging.getLogger("celery.app.trace")
        level = trace.level
        trace.setLevel(logging.WARNING)
        try:
            with quiet:
                self._seed()
        finally:
            trace.setLevel(level)
        if mail_dir is not None and settings.EMAIL_BACKEND.endswith("console.EmailBackend"):
            self.stdout.write(f"Demo notices were written to {mail_dir}/ instead of the "
                              "console.")

    def _seed(self) -> None:
        User = get_user_model()
        users = {}
        for name in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=name, defaults={"email": f"{name}@example.org",
                                         "is_staff": name == "gm", "is_superuser": name == "gm"})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[name] = user
        for engine in registry.engines().values():
            title = f"Demo: {engine.title}"
            if Game.objects.filter(title=title).exists():
                continue
            with transaction.atomic():
                game = actions.create_game(users["gm"], ruleset=engine.name, title=title,
                                           turn_hours=24)
                for name in ["alice", "bob", "carol"][:max(engine.min_seats,
                                                           min(2, engine.max_seats))]:
                    actions.join_game(game, users[name])
                actions.start_game(game, users["gm"])
            self.stdout.write(f"created {title} (game {game.pk})")
        ruleset, title = OPEN_TABLE
        if ruleset in registry.engines() and not Game.objects.filter(title=title).exists():
            with transaction.atomic():
                game = actions.create_game(users["gm"], ruleset=ruleset, title=title,
                                           turn_hours=24)
                actions.join_game(game, users["carol"])
            self.stdout.write(f"created {title}: open, waiting for players (game {game.pk})")
        self.stdout.write(self.style.SUCCESS(
            f"Demo logins: {', '.join(DEMO_USERS)} (password {DEMO_PASSWORD}); "
            "gm is the GM and a site admin."))
