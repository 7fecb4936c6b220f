from django.apps import AppConfig
from django.db.models.signals import post_migrate


def ensure_unique_email_index(sender, using: str = "default", **kwargs) -> None:
    """Re-make the case-insensitive unique index on the user's address if it is gone.

    Migration 0003 makes it; a later migration of the user table can drop it on SQLite,
    which rebuilds a table from its model and knows nothing of this index.
    """
    from django.contrib.auth import get_user_model
    from django.db import connections

    from . import emailindex

    emailindex.ensure(connections[using], get_user_model())


class AccountsConfig(AppConfig):
    name = "gm.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(ensure_unique_email_index, sender=self)
