"""The database's half of "one account per e-mail address, whatever its case".

A unique index on LOWER(email) of the user table, leaving empty addresses out. Made by
migration accounts 0003 (which first resolves duplicates) and re-made after every
migrate if it went missing: SQLite rebuilds a table when a later migration alters it and
keeps only the indexes the model declares, and auth.User is not ours to declare it on.
"""

from __future__ import annotations

INDEX = "accounts_user_email_lower_uniq"
MIGRATION = ("accounts", "0003_unique_email_lowercase")


def create_sql(quoted_table: str) -> str:
    return (f"CREATE UNIQUE INDEX IF NOT EXISTS {INDEX} ON {quoted_table} (LOWER(email)) "
            "WHERE email <> ''")


def drop_sql() -> str:
    return f"DROP INDEX IF EXISTS {INDEX}"


def ensure(connection, user_model) -> None:
    """Make the index if migration 0003 is applied and the index is missing."""
    from django.db.migrations.recorder import MigrationRecorder

    recorder = MigrationRecorder(connection)
    if not recorder.has_table() or MIGRATION not in recorder.applied_migrations():
        return
    table = user_model._meta.db_table
    if table not in connection.introspection.table_names():
        return
    with connection.cursor() as cursor:
        cursor.execute(create_sql(connection.ops.quote_name(table)))
