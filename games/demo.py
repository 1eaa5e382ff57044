"""A small demo league, built through the same services the site uses.

It holds finished and in-progress games of all four types and a Trumps match, so a fresh
``make run`` has something to show. The hands are random but seeded: every run builds the same league.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Game, League
from games.rules import get_ruleset
from games.rules.sample import random_hand
from games.services import (
    game_start,
    hand_record,
    league_create,
    league_set_member,
    match_start,
    player_create,
)

DEMO_PASSWORD = "cards-on-the-table"
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal"]
# (game type, options, hands to play: None for the whole game)
GAMES = [
    ("spades", {"target": 300}, None),
    ("spades", {}, 4),
    ("smudge", {}, None),
    ("smudge", {}, 5),
    ("trumps", {}, None),
    ("trumps", {}, 3),
    ("thieving_stink", {}, None),
    ("thieving_stink", {}, 2),
]


def play(game: Game, by, rng: random.Random, hands: int | None) -> None:
    """Feed random valid hands into the game until it ends (or for ``hands`` hands)."""
    ruleset = get_ruleset(game.game_type, game.options)
    state = ruleset.initial_state()
    played = 0
    while not state.finished and (hands is None or played < hands) and played < 300:
        record = random_hand(game.game_type, rng)
        state = ruleset.play(state, record)
        game = hand_record(game=game, record=record, by=by).game
        played += 1


@transaction.atomic
def load_demo() -> League:
    User = get_user_model()
    organiser = User.objects.create_user("organiser", password=DEMO_PASSWORD)
    scorer = User.objects.create_user("scorer", password=DEMO_PASSWORD)
    league = league_create(name="Riverside Card Club", by=organiser)
    league_set_member(league=league, user=scorer, role="scorekeeper", by=organiser)
    players = [player_create(name=name, by=organiser) for name in PLAYERS]
    rng = random.Random(2026)
    for game_type, options, hands in GAMES:
        four = rng.sample(players, 4)
        game = game_start(game_type=game_type, league=league, by=scorer, options=options,
                          seats={seat: player.pk for seat, player in zip("NESW", four, strict=True)})
        play(game, scorer, rng, hands)
    match = match_start(league=league, by=organiser,
                        seats={seat: player.pk for seat, player in zip("NESW", players[:4], strict=True)})
    for number in (1, 2):
        game = match.games.get(match_game_number=number)
        play(game, organiser, rng, None)
    return league
