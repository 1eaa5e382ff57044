"""Write a league, its players, games and hands as one JSON document."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.models import League
from games.services.transfer import league_export


class Command(BaseCommand):
    help = "Export a league (players, games with options and rules version, hands) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="write to this file instead of standard output")

    def handle(self, *args, slug, output=None, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"there is no league {slug!r}")
        text = json.dumps(league_export(league=league), indent=2, sort_keys=True)
        if output:
            with open(output, "w", encoding="utf-8") as out:
                out.write(text + "\n")
        else:
            self.stdout.write(text)
