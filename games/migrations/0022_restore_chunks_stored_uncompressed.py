"""An uploaded backup's chunks are stored as they are, not compressed by PostgreSQL: they are kept only until
the restore is done, and compressing a megabyte at every insert costs the request that stores the upload."""

from django.db import migrations


def uncompressed(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_restorechunk ALTER COLUMN data SET STORAGE EXTERNAL")


def compressed(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_restorechunk ALTER COLUMN data SET STORAGE EXTENDED")


class Migration(migrations.Migration):
    dependencies = [("games", "0021_league_restores_in_the_background")]

    operations = [migrations.RunPython(uncompressed, compressed, elidable=False)]
