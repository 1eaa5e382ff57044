"""Write the league backup's JSON Schema, its list of games taken from the rules registry."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.backup.schema import schema_text


class Command(BaseCommand):
    help = ("Write the JSON Schema of a league backup (its game types from the rules registry), e.g. "
            "`manage.py backup_schema -o docs/league-backup.schema.json` after registering a game.")

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", help="write to this file instead of standard output")

    def handle(self, *args, output=None, **options):
        if output:
            with open(output, "w", encoding="utf-8") as out:
                out.write(schema_text())
        else:
            self.stdout.write(schema_text(), ending="")
