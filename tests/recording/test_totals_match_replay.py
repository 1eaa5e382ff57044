"""Cached totals always equal a fresh replay of the stored hands, through any mix of
appends, corrections (accepted or refused) and undos."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.errors import InvalidInput
from games.integrity import game_mismatches
from games.models import Game
from games.rules import InvalidHand, game_types, random_hand
from games.services import hand_correct, hand_record, hand_undo

SHORT_GAMES = {"spades": {"target": 250}, "smudge": {"target": 11}, "trumps": {"target": 30},
               "thieving_stink": {"target": 700}}

actions = st.lists(st.sampled_from(["append", "append", "append", "correct", "undo"]), min_size=1, max_size=30)


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game_type=st.sampled_from(game_types()), steps=actions, seed=st.integers(0, 2**32))
def test_cached_totals_equal_a_replay(start_game, owner, game_type, steps, seed):
    rng = random.Random(seed)
    game = start_game(game_type, **SHORT_GAMES[game_type])
    for step in steps:
        game.refresh_from_db()
        try:
            if step == "append":
                hand_record(game=game, record=random_hand(game_type, rng), by=owner)
            elif step == "correct" and game.hand_count:
                hand_correct(game=game, number=rng.randint(1, game.hand_count),
                             record=random_hand(game_type, rng), by=owner, reason="property test")
            elif step == "undo":
                hand_undo(game=game, by=owner)
        except (InvalidHand, InvalidInput):
            pass  # refused: nothing may have changed, which the check below also covers
        game = Game.objects.prefetch_related("hands").get(pk=game.pk)
        assert game_mismatches(game) == []


def test_the_check_sees_a_tampered_total(start_game, owner):
    game = start_game("thieving_stink")
    hand_record(game=game, record=random_hand("thieving_stink", random.Random(1)), by=owner)
    Game.objects.filter(pk=game.pk).update(totals={"NS": 1, "EW": 2})
    game.refresh_from_db()
    assert any("totals" in problem for problem in game_mismatches(game))
