"""Corrections and undo: re-scored from the changed hand on, refused if a later hand breaks,
and kept in the history."""

from __future__ import annotations

import pytest
from django.core import serializers

from games.errors import InvalidInput, NotAllowed
from games.models import Game, Hand, HandRevision
from games.rules import InvalidHand
from games.services import hand_correct, hand_record, hand_undo


def stink(ns: int, ew: int, holder: str = "N", size: int = 4) -> dict:
    return {"face_cards": {"NS": ns, "EW": ew}, "trump_stack": {"holder": holder, "size": size}}


def spades(bids, tricks) -> dict:
    return {"bids": dict(zip("NESW", bids, strict=True)), "tricks": dict(zip("NESW", tricks, strict=True))}


def snapshot(game) -> str:
    """Every row a correction could touch, to show that a refused one changed nothing."""
    rows = [*Game.objects.filter(pk=game.pk), *Hand.objects.filter(game=game), *HandRevision.objects.all()]
    return serializers.serialize("json", rows)


def test_a_correction_rescores_that_hand_and_every_later_one(start_game, owner):
    game = start_game("thieving_stink")
    for record in (stink(10, 6), stink(8, 8), stink(6, 10)):
        hand_record(game=game, record=record, by=owner)
    game = hand_correct(game=game, number=2, record=stink(12, 4), by=owner, reason="miscounted")
    assert [h.totals for h in Hand.objects.filter(game=game)] == [
        {"NS": 120, "EW": 60}, {"NS": 260, "EW": 100}, {"NS": 340, "EW": 200},
    ]
    assert game.totals == {"NS": 340, "EW": 200}
    revision = HandRevision.objects.get(game=game)
    assert (revision.number, revision.action, revision.previous_record, revision.new_record,
            revision.changed_by, revision.reason) == (2, "correct", stink(8, 8), stink(12, 4), owner, "miscounted")


def test_a_correction_leaves_earlier_hands_alone(start_game, owner, django_assert_max_num_queries):
    game = start_game("thieving_stink", target=100000)
    for _ in range(30):
        hand_record(game=game, record=stink(8, 8), by=owner)
    stamps = dict(Hand.objects.filter(game=game).values_list("number", "updated_at"))
    with django_assert_max_num_queries(12):
        hand_correct(game=game, number=29, record=stink(9, 7), by=owner)
    after = dict(Hand.objects.filter(game=game).values_list("number", "updated_at"))
    assert [n for n in stamps if after[n] != stamps[n]] == [29, 30]
    # 28 hands of NS 100, EW 80; then NS 110, EW 70; then 100 and 80 again.
    assert Hand.objects.get(game=game, number=30).totals == {"NS": 30 * 100 + 10, "EW": 30 * 80 - 10}


def test_a_correction_can_finish_a_game(start_game, owner):
    game = start_game("thieving_stink", target=240)
    hand_record(game=game, record=stink(8, 8), by=owner)
    game = hand_correct(game=game, number=1, record=stink(16, 0, size=16), by=owner)
    assert (game.status, game.winner) == ("finished", "NS")


def test_a_correction_can_unfinish_a_game(start_game, owner):
    game = start_game("thieving_stink", target=200)
    hand_record(game=game, record=stink(16, 0, size=16), by=owner)
    game = hand_correct(game=game, number=1, record=stink(8, 8), by=owner)
    assert (game.status, game.winner, game.finished_at) == ("in_progress", "", None)


def test_a_correction_that_would_end_the_game_before_later_hands_is_refused(start_game, owner):
    game = start_game("thieving_stink", target=240)
    for record in (stink(8, 8), stink(8, 8)):
        hand_record(game=game, record=record, by=owner)
    before = snapshot(game)
    with pytest.raises(InvalidHand) as refused:
        hand_correct(game=game, number=1, record=stink(16, 0, size=16), by=owner)
    assert refused.value.number == 2
    assert "this correction would make hand 2 invalid: the game is already over" in refused.value.message
    assert snapshot(game) == before


def test_a_correction_that_takes_away_a_blind_nil_allowance_is_refused(start_game, owner):
    game = start_game("spades")
    # Hand 1: NS bid 7 and are set (-70)... and EW make 6: EW lead by 130, so NS may bid blind nil.
    hand_record(game=game, record=spades([4, 3, 3, 3], [2, 3, 3, 5]), by=owner)
    hand_record(game=game, record=spades(["blind_nil", 4, 5, 4], [0, 4, 5, 4]), by=owner)
    before = snapshot(game)
    with pytest.raises(InvalidHand) as refused:
        # Corrected, NS made their 7 in hand 1 and are no longer 100 behind.
        hand_correct(game=game, number=1, record=spades([4, 3, 3, 3], [4, 3, 3, 3]), by=owner)
    assert (refused.value.number, refused.value.field) == (2, "bids.N")
    assert snapshot(game) == before


def test_an_invalid_correction_is_refused_and_changes_nothing(start_game, owner):
    game = start_game("thieving_stink")
    hand_record(game=game, record=stink(8, 8), by=owner)
    before = snapshot(game)
    with pytest.raises(InvalidHand):
        hand_correct(game=game, number=1, record=stink(10, 10), by=owner)
    with pytest.raises(InvalidInput):
        hand_correct(game=game, number=2, record=stink(8, 8), by=owner)
    assert snapshot(game) == before


def test_members_cannot_correct(start_game, owner, member):
    game = start_game("thieving_stink")
    hand_record(game=game, record=stink(8, 8), by=owner)
    with pytest.raises(NotAllowed):
        hand_correct(game=game, number=1, record=stink(9, 7), by=member)


def test_undo_takes_back_the_last_hand_and_keeps_it_in_history(start_game, owner):
    game = start_game("thieving_stink", target=200)
    hand_record(game=game, record=stink(8, 8), by=owner)
    hand_record(game=game, record=stink(12, 4), by=owner)
    game.refresh_from_db()
    assert game.status == "finished"
    game = hand_undo(game=game, by=owner, reason="entered on the wrong game")
    assert (game.hand_count, game.totals, game.status) == (1, {"NS": 100, "EW": 80}, "in_progress")
    revision = HandRevision.objects.get(game=game)
    assert (revision.action, revision.number, revision.previous_record) == ("undo", 2, stink(12, 4))
    # The next hand takes the freed number.
    assert hand_record(game=game, record=stink(8, 8), by=owner).payload["number"] == 2


def test_undo_of_the_only_hand_returns_to_the_start(start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=spades([3, 3, 3, 3], [4, 3, 3, 3]), by=owner)
    game = hand_undo(game=game, by=owner)
    assert (game.hand_count, game.totals, game.extras) == (0, {"NS": 0, "EW": 0}, {"bags": {"NS": 0, "EW": 0}})


def test_undo_with_no_hands_is_refused(start_game, owner):
    with pytest.raises(InvalidInput, match="no hand to undo"):
        hand_undo(game=start_game("spades"), by=owner)


@pytest.mark.django_db
def test_a_partial_correction_is_merged_into_the_record_as_stored_when_it_is_made(owner, start_game):
    """Corrections of different fields, each giving only its own, keep one another (the merge is
    done under the game's lock, not from a copy read earlier)."""
    game = start_game("trumps")
    hand_record(game=game, record={"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False,
                                   "redoubled": False, "tricks": 8}, by=owner)
    hand_correct(game=game, number=1, record={"tricks": 9}, by=owner, reason="one more trick", merge=True)
    hand_correct(game=game, number=1, record={"trump": "spades"}, by=owner, reason="it was spades", merge=True)
    assert Hand.objects.get(game=game, number=1).record == {
        "declarer": "N", "bid": 7, "trump": "spades", "doubled": False, "redoubled": False, "tricks": 9}
    game.refresh_from_db()
    assert game.totals == {"NS": 7, "EW": 0}
