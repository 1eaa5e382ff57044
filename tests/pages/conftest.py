"""Fixtures for the page tests: signed-in clients for the named actors, and a hand form poster."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse


@pytest.fixture
def signed_in(client):
    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in


@pytest.fixture
def owner_client(signed_in, owner):
    return signed_in(owner)


@pytest.fixture
def post_hand(owner_client):
    """Post a hand form to a game: ``post_hand(game, bid_N="3", ...)``, with a fresh key and the next number."""

    def post(game, /, client=None, key=None, expected=None, **fields):
        game.refresh_from_db()
        data = {"idempotency_key": key or uuid.uuid4().hex,
                "expected_number": expected if expected is not None else game.hand_count + 1, **fields}
        return (client or owner_client).post(reverse("hand-record", args=[game.pk]), data)

    return post


def spades_fields(bids, tricks) -> dict[str, str]:
    """Form fields for a Spades hand: bids and tricks in seat order N, E, S, W."""
    fields = {}
    for seat, bid, took in zip("NESW", bids, tricks, strict=True):
        fields[f"bid_{seat}"] = str(bid)
        fields[f"tricks_{seat}"] = str(took)
    return fields


SMUDGE_MADE = {"bidder": "N", "bid": "2", "high": "NS", "low": "NS", "jack": "NS", "game": "NS", "all_tricks": "no"}
TRUMPS_MADE = {"declarer": "N", "bid": "7", "trump": "hearts", "double": "no", "tricks": "8"}
STINK_HAND = {"face_NS": "6", "face_EW": "7", "stack_size": "7", "stack_holder": "E"}


# One hand that ends a game of each type at the target in ``FINISH_TARGETS``, won by NS.
FINISHING_HANDS = {
    # N bids nil and takes none (+50), S bids 4 and takes 5 (+41); EW bid 6 and take 8: two hands reach 150.
    "spades": {"bids": {"N": "nil", "E": 4, "S": 4, "W": 2}, "tricks": {"N": 0, "E": 4, "S": 5, "W": 4}},
    "smudge": {"bidder": "N", "bid": "smudge", "high": "NS", "low": "NS", "jack": "NS", "game": "NS",
               "all_tricks": True},
    "trumps": {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8},
    "thieving_stink": {"face_cards": {"NS": 10, "EW": 6}, "trump_stack": {"holder": "N", "size": 4}},
}
FINISH_TARGETS = {"spades": 150, "smudge": 3, "trumps": 5, "thieving_stink": 100}


@pytest.fixture
def finish(owner, seats, league):
    """Play a league game to its end, NS winning: ``finish("trumps")``; ``seats=``/``league=`` override.

    The standings are not recomputed (in these tests ``on_commit`` callbacks do not run): see ``recompute``.
    """
    from games.services import game_start, hand_record

    def play(game_type: str, *, seats=seats, league=league):
        game = game_start(game_type=game_type, seats=seats, by=owner, league=league,
                          options={"target": FINISH_TARGETS[game_type]})
        for _ in range(2 if game_type == "spades" else 1):
            result = hand_record(game=game, record=FINISHING_HANDS[game_type], by=owner)
        assert result.game.status == "finished" and result.game.winner == "NS"
        return result.game

    return play


@pytest.fixture
def recompute(league):
    """What the standings task does after a finished game: ``recompute()`` (or ``recompute(other_league)``)."""
    from games.standings.services import league_standings_recompute

    def run(for_league=None):
        league_standings_recompute(league_id=(for_league or league).pk)

    return run
