"""Report and Post HTML is rendered on first read (RenderedMarkdown): the column stays
`html`, now NULL until then; the model field is `rendered`, read through `.html`."""

from django.db import migrations, models


def _field() -> models.TextField:
    return models.TextField(blank=True, db_column="html", editable=False, null=True,
                            help_text="Safe HTML of markdown; NULL until first read.")


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0003_turn_queued_for"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # the database: the html columns become nullable (no rename, no copy)
            database_operations=[
                migrations.AlterField("report", "html", models.TextField(null=True)),
                migrations.AlterField("post", "html", models.TextField(null=True)),
            ],
            state_operations=[
                migrations.RenameField("report", "html", "rendered"),
                migrations.AlterField("report", "rendered", _field()),
                migrations.RenameField("post", "html", "rendered"),
                migrations.AlterField("post", "rendered", _field()),
            ],
        ),
    ]
