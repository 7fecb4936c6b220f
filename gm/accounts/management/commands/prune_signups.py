"""`manage.py prune_signups`: forget pending sign-ups long expired (gm.accounts.pending).

Every new sign-up prunes them too; this is for cron on a site that sees no sign-ups for
weeks (rows hold the address and username someone typed).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from gm.accounts import pending


class Command(BaseCommand):
    help = ("Delete pending sign-ups whose link expired more than "
            f"{pending.KEEP_AFTER_EXPIRY.days} days ago.")

    def handle(self, *args, **options) -> None:
        done = pending.prune()
        self.stdout.write(f"{done} expired pending sign-up{'' if done == 1 else 's'} "
                          "deleted")
