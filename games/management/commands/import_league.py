"""Create a league from a document written by export_league, re-scoring every game."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.errors import InvalidInput
from games.services.restore import league_restore


class Command(BaseCommand):
    help = "Import a league exported by export_league. Every hand is re-scored; nothing is stored on error."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as source:
                document = json.load(source)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not valid JSON: {error}") from None
        try:
            report = league_restore(document=document, by=None, keep_slug=True)
        except InvalidInput as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"{report.sentence()} League {report.league.slug!r} is ready.")
