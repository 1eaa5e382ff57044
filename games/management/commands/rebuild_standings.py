"""Recompute stored standings, ratings and figures from the hands: ``manage.py rebuild_standings [--league SLUG]``.

Runs here, in this process (no worker needed), one league at a time, each in its own
transaction; a league's old rows stay readable until its new ones are committed.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.models import League
from games.standings.services import RecomputeSummary, standings_rebuild


class Command(BaseCommand):
    help = "Recompute league standings, ratings and player figures from the stored games and hands."

    def add_arguments(self, parser):
        parser.add_argument("--league", metavar="SLUG", help="only this league (by slug)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, league: str | None = None, no_progress: bool = False, **options):
        leagues = League.objects.all() if league is None else League.objects.filter(slug=league)
        total = leagues.count()
        if league is not None and total == 0:
            raise CommandError(f"there is no league with the slug {league!r}")
        games = hands = seasons = 0
        with tqdm(total=total, unit="league", disable=no_progress, file=self.stderr._out) as bar:
            def done(one: League, summary: RecomputeSummary) -> None:
                nonlocal games, hands, seasons
                games += summary.games
                hands += summary.hands
                seasons += len(summary.seasons)
                bar.set_postfix_str(f"{one.slug}: {summary.games} games")
                bar.update(1)

            try:
                standings_rebuild(league_slug=league, on_league=done)
            except League.DoesNotExist:
                raise CommandError(f"there is no league with the slug {league!r}") from None
        self.stdout.write(f"rebuilt standings of {total} league(s) from {games} games and {hands} hands"
                          + (f", and of their {seasons} season(s)" if seasons else ""))
