"""One account per e-mail address, whatever its case: a unique index on LOWER(email).

Sign-up no longer says whether an address has an account (gm.accounts.signup), so the
database, not a form check, is what keeps two accounts off one address (two sign-ups
racing included). Empty addresses (users made without one) are left out of the index.

Existing duplicates are resolved before the index is made, without deleting anyone: in
each group of accounts sharing an address, the account that logged in last (then the
oldest) keeps it; the others have their address cleared, so no mail goes to them and no
mail is read as theirs until they set one. Each cleared account is printed for the
operator, who can tell its owner.
"""

from django.conf import settings
from django.db import migrations

from gm.accounts import emailindex


def _table(apps):
    return apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table


def resolve_duplicates(apps, schema_editor):
    User = apps.get_model(settings.AUTH_USER_MODEL)
    groups: dict[str, list] = {}
    for user in User.objects.exclude(email="").order_by("pk"):
        groups.setdefault(user.email.strip().lower(), []).append(user)
    for address, users in groups.items():
        if len(users) < 2:
            continue
        users.sort(key=lambda u: (u.last_login is None, -(u.last_login.timestamp()
                                                          if u.last_login else 0), u.pk))
        keeper, others = users[0], users[1:]
        for user in others:
            User.objects.filter(pk=user.pk).update(email="")
            print(f"\n  accounts 0003: {address} is kept by {keeper.username!r}; cleared from "
                  f"{user.username!r} (pk {user.pk}), which must set an address again")


def make_index(apps, schema_editor):
    schema_editor.execute(emailindex.create_sql(schema_editor.quote_name(_table(apps))))


def drop_index(apps, schema_editor):
    schema_editor.execute(emailindex.drop_sql())


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_email_confirmed_api_tokens"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        # After auth's last table change: SQLite rebuilds a table on such changes and
        # forgets indexes its models do not declare (gm.accounts.apps re-checks it too).
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(resolve_duplicates, migrations.RunPython.noop),
        migrations.RunPython(make_index, drop_index),
    ]
