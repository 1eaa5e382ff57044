"""Recording a hand: checked by the engine, stored once, totals kept on the game."""

from __future__ import annotations

import pytest

from games.errors import GameClosed, HandConflict, NotAllowed
from games.models import Game, Hand
from games.rules import InvalidHand
from games.services import game_abandon, hand_record

STINK_NS_WINS = {"face_cards": {"NS": 10, "EW": 6}, "trump_stack": {"holder": "N", "size": 4}}  # NS +120, EW +60


def test_a_hand_is_stored_with_its_number_dealer_and_score(start_game, scorekeeper):
    game = start_game("thieving_stink", first_dealer="W")
    result = hand_record(game=game, record=STINK_NS_WINS, by=scorekeeper)
    hand = Hand.objects.get(game=game, number=1)
    assert (hand.dealer, hand.delta, hand.totals, hand.entered_by) == ("W", {"NS": 120, "EW": 60},
                                                                       {"NS": 120, "EW": 60}, scorekeeper)
    assert result.payload == {
        "number": 1, "dealer": "W", "delta": {"NS": 120, "EW": 60}, "game": game.pk,
        "status": "in_progress", "totals": {"NS": 120, "EW": 60}, "winner": None, "next_dealer": "N",
    }
    game.refresh_from_db()
    assert (game.totals, game.hand_count) == ({"NS": 120, "EW": 60}, 1)


def test_the_hand_that_reaches_the_target_finishes_the_game(start_game, owner):
    game = start_game("thieving_stink", target=200)
    hand_record(game=game, record=STINK_NS_WINS, by=owner)
    result = hand_record(game=game, record=STINK_NS_WINS, by=owner)
    assert result.payload["status"] == "finished" and result.payload["winner"] == "NS"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None


def test_a_hand_after_the_game_is_won_is_refused(start_game, owner):
    game = start_game("thieving_stink", target=100)
    hand_record(game=game, record=STINK_NS_WINS, by=owner)
    with pytest.raises(InvalidHand, match="the game is already over: NS won"):
        hand_record(game=game, record=STINK_NS_WINS, by=owner)
    assert Hand.objects.filter(game=game).count() == 1


def test_an_invalid_hand_is_refused_naming_hand_and_field_and_stores_nothing(start_game, owner):
    game = start_game("spades")
    bad = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 3, "S": 3, "W": 3}}
    with pytest.raises(InvalidHand) as refused:
        hand_record(game=game, record=bad, by=owner)
    assert (refused.value.number, refused.value.field) == (1, "tricks")
    assert "tricks add up to 12; they must add up to 13" in refused.value.message
    game.refresh_from_db()
    assert game.hand_count == 0 and not Hand.objects.filter(game=game).exists()


def test_a_stale_expected_number_is_a_conflict_carrying_the_current_game(start_game, owner):
    game = start_game("thieving_stink")
    hand_record(game=game, record=STINK_NS_WINS, by=owner, expected_number=1)
    with pytest.raises(HandConflict) as conflict:
        hand_record(game=game, record=STINK_NS_WINS, by=owner, expected_number=1)
    assert conflict.value.state["hand_count"] == 1
    assert conflict.value.state["totals"] == {"NS": 120, "EW": 60}
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("who", ["member", "stranger"])
def test_only_owners_and_scorekeepers_record_league_hands(start_game, who, request):
    game = start_game("thieving_stink")
    with pytest.raises(NotAllowed):
        hand_record(game=game, record=STINK_NS_WINS, by=request.getfixturevalue(who))
    assert not Hand.objects.filter(game=game).exists()


def test_a_casual_game_is_scored_by_its_creator_and_those_they_add(start_game, stranger, member):
    game = start_game("thieving_stink", by=stranger, in_league=False)
    hand_record(game=game, record=STINK_NS_WINS, by=stranger)
    with pytest.raises(NotAllowed):
        hand_record(game=game, record=STINK_NS_WINS, by=member)
    game.scorekeepers.add(member)
    hand_record(game=game, record=STINK_NS_WINS, by=member)
    assert Hand.objects.filter(game=game).count() == 2


def test_an_abandoned_game_takes_no_more_hands(start_game, owner):
    game = start_game("thieving_stink")
    game_abandon(game=game, by=owner)
    with pytest.raises(GameClosed):
        hand_record(game=game, record=STINK_NS_WINS, by=owner)


def test_appending_takes_the_same_queries_however_long_the_game(start_game, owner, django_assert_max_num_queries):
    short, long = start_game("thieving_stink", target=100000), start_game("thieving_stink", target=100000)
    for _ in range(40):
        hand_record(game=long, record=STINK_NS_WINS, by=owner)
    hand_record(game=short, record=STINK_NS_WINS, by=owner)

    with django_assert_max_num_queries(8) as on_short:
        hand_record(game=short, record=STINK_NS_WINS, by=owner)
    with django_assert_max_num_queries(8) as on_long:
        hand_record(game=long, record=STINK_NS_WINS, by=owner)
    assert len(on_long.captured_queries) == len(on_short.captured_queries)
    # Earlier hands are neither read nor re-scored: no query touches the hand table but the insert.
    hand_queries = [q["sql"] for q in on_long.captured_queries if "games_hand" in q["sql"]]
    assert len(hand_queries) == 1 and hand_queries[0].startswith("INSERT")
