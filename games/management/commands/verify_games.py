"""Re-check every game: its cached totals, status and hands against a fresh replay of its hands."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.integrity import verify_all
from games.models import Game


class Command(BaseCommand):
    help = "Replay every game's stored hands through the rules engine and report any mismatch."

    def add_arguments(self, parser):
        parser.add_argument("--game", type=int, help="check only this game id")

    def handle(self, *args, game=None, **options):
        games = Game.objects.filter(pk=game) if game else Game.objects.all()
        checked = bad = 0
        for each, problems in verify_all(games):
            checked += 1
            if problems:
                bad += 1
                for problem in problems:
                    self.stdout.write(f"game {each.pk}: {problem}")
        if bad:
            raise CommandError(f"{bad} of {checked} games do not match their hands")
        self.stdout.write(f"{checked} games checked; all match their hands")
