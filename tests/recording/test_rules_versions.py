"""A game keeps the rules version it was started under: a check added later never refuses its stored hands.

From version 3 on, Thieving Stink refuses a stack of four held by anyone but the lead (docs/rules.md,
"Versions"). A game started before takes such a hand, replays it, is corrected around it and is restored
from a backup with it, as it always did; a game started now refuses it.
"""

from __future__ import annotations

import pytest

from games.integrity import game_mismatches
from games.models import Game
from games.rules import RULES_VERSION, InvalidHand
from games.services import hand_correct, hand_record
from games.services.restore import ImportRefused, league_restore
from games.services.transfer import league_export

pytestmark = pytest.mark.django_db

# East led, but North holds a stack nobody added to.
HELD_BY_NORTH = {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N", "size": 4}, "lead": "E"}
PLAIN = {"face_cards": {"NS": 6, "EW": 8}, "trump_stack": {"holder": "W", "size": 5}}


def started_under(start_game, version: int) -> Game:
    game = start_game("thieving_stink")
    Game.objects.filter(pk=game.pk).update(rules_version=version)
    return Game.objects.get(pk=game.pk)


def test_a_game_started_now_records_todays_rules_and_refuses_the_hand(start_game, owner):
    game = start_game("thieving_stink")
    assert game.rules_version == RULES_VERSION == 3
    with pytest.raises(InvalidHand) as refused:
        hand_record(game=game, record=HELD_BY_NORTH, by=owner)
    assert (refused.value.number, refused.value.field) == (1, "trump_stack.holder")
    assert not game.hands.exists()


def test_a_game_started_under_version_2_takes_it_replays_it_and_is_corrected_around_it(start_game, owner):
    game = started_under(start_game, 2)
    hand_record(game=game, record=PLAIN, by=owner)
    hand_record(game=game, record=HELD_BY_NORTH, by=owner)
    game = hand_correct(game=game, number=1, record={**PLAIN, "face_cards": {"NS": 7, "EW": 8}}, by=owner)
    assert game.totals == {"NS": 70 + 100, "EW": 105 + 80}
    assert game_mismatches(game) == []


def test_a_backup_restores_each_game_under_its_own_version(start_game, owner, league):
    game = started_under(start_game, 2)
    hand_record(game=game, record=HELD_BY_NORTH, by=owner)
    document = league_export(league=league)
    restored = league_restore(document=document, by=owner, name="Restored").league
    assert Game.objects.get(league=restored).totals == {"NS": 100, "EW": 80}

    document["games"][0]["rules_version"] = 3
    with pytest.raises(ImportRefused) as refused:
        league_restore(document=document, by=owner, name="Restored again")
    assert refused.value.problems == ["game G1: hand 1: a stack of 4 means nobody changed trump, so it is still in "
                                      "front of E, who won the bid and led first; it can't be held by N"]
