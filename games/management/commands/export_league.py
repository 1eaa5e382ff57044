"""Write a league, its players, games and hands as one JSON document."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.models import League
from games.services.transfer import league_backup


class Command(BaseCommand):
    help = "Export a league (players, games with options and rules version, hands) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="write to this file instead of standard output")

    def handle(self, *args, slug, output=None, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"there is no league {slug!r}")
        # Written as it is read, the games a batch at a time (one line each).
        if output:
            with open(output, "wb") as out:
                out.writelines(league_backup(league=league))
        else:
            for chunk in league_backup(league=league):
                self.stdout.write(chunk.decode(), ending="")
