"""A small demo league, built through the same services the site uses.

It holds a finished and an in-progress game of every type, and a match of each type played in
matches (Trumps), so a fresh ``make run`` has something to show. The hands are random but seeded: every run builds the same league.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Game, League
from games.rules import random_hand, rulesets
from games.services import (
    game_start,
    hand_record,
    invitation_accept,
    invitation_create,
    league_create,
    match_start,
    player_create,
)

DEMO_PASSWORD = "cards-on-the-table"
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Finn", "Gus", "Hal"]
# Hands played in each game left in progress.
IN_PROGRESS_HANDS = 3


def play(game: Game, by, rng: random.Random, hands: int | None) -> None:
    """Feed random valid hands into the game until it ends (or for ``hands`` hands)."""
    ruleset = game.ruleset
    state = ruleset.initial_state()
    played = 0
    while not state.finished and (hands is None or played < hands) and played < 300:
        record = random_hand(game.game_type, rng)
        state = ruleset.play(state, record)
        recorded = hand_record(game=game, record=record, by=by).game
        assert recorded is not None  # recorded now, not a replay of an earlier request
        game = recorded
        played += 1


@transaction.atomic
def load_demo() -> League:
    User = get_user_model()
    organiser = User.objects.create_user("organiser", password=DEMO_PASSWORD, first_name="Olive")
    scorer = User.objects.create_user("scorer", password=DEMO_PASSWORD, first_name="Ann")
    league = league_create(name="Riverside Card Club", by=organiser)
    players = [player_create(name=name, by=organiser, league=league) for name in PLAYERS]
    # The scorekeeper joins the way everyone does, by accepting an invitation; she is the player Ann.
    invitation = invitation_create(league=league, role="scorekeeper", by=organiser, invitee=scorer,
                                   player=players[0])
    invitation_accept(token=invitation.token, by=scorer)
    rng = random.Random(2026)
    for ruleset in rulesets():
        for hands in (None, IN_PROGRESS_HANDS):
            four = rng.sample(players, 4)
            game = game_start(game_type=ruleset.game_type, league=league, by=scorer,
                              seats={seat: player.pk for seat, player in zip("NESW", four, strict=True)})
            play(game, scorer, rng, hands)
    for ruleset in rulesets():
        if not ruleset.match_games:
            continue
        match = match_start(game_type=ruleset.game_type, league=league, by=organiser,
                            seats={seat: player.pk for seat, player in zip("NESW", players[:4], strict=True)})
        # Every game but the last, so the match is under way.
        for number in range(1, ruleset.match_games):
            play(match.games.get(match_game_number=number), organiser, rng, None)
    return league
