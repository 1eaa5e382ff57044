"""Load the demo league (``make run`` does this when the database is empty)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games.demo import DEMO_PASSWORD, load_demo
from games.models import Game, League


class Command(BaseCommand):
    help = "Load a small demo league with games of all four types."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="do nothing if there is any league, game or user")

    def handle(self, *args, if_empty=False, **options):
        if if_empty and (League.objects.exists() or Game.objects.exists() or get_user_model().objects.exists()):
            self.stdout.write("The database already has data; no demo loaded.")
            return
        league = load_demo()
        self.stdout.write(
            f"Loaded the demo league {league.name!r} ({league.games.count()} games).\n"
            f"Sign in as 'organiser' (league owner) or 'scorer' (scorekeeper), password {DEMO_PASSWORD!r}."
        )
