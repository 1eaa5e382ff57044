"""Running a club night through the services: check-in, rounds seated by the movement, the round's end, substitutes,
moving a table, ending the night; and what each refuses."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import GameClosed, InvalidInput, NotAllowed, StateConflict
from games.models import Game, Night, NightPlayer
from games.nights import night_view
from games.services import (
    hand_correct,
    hand_record,
    night_check_in,
    night_check_out,
    night_code_renew,
    night_end,
    night_pair,
    night_round_start,
    night_substitute,
    night_table_end,
    night_table_move,
)

from .conftest import EW_HAND, NS_HAND

pytestmark = pytest.mark.django_db

NINE = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


def seated(round_):
    """Each table's players by name, N E S W, and who sits out."""
    view = night_view(round_.night).rounds[round_.number - 1]
    return ([" ".join(player.name for player in table.game.seats.values()) for table in view.tables],
            [player.name for player in view.sitting_out])


def play_out(round_, owner, record=NS_HAND):
    """Record hands at every table of the round until its games end."""
    for table in round_.tables.select_related("game"):
        game = table.game
        while game.status == Game.Status.IN_PROGRESS:
            game = hand_record(game=game, record=record, by=owner).game


def test_round_one_seats_the_players_in_check_in_order_and_the_last_sits_out(start_night, check_in, owner):
    night = start_night()
    check_in(night, *NINE)
    first = night_round_start(night=night, by=owner)
    assert seated(first) == (["Ann Ben Cid Dee", "Eve Fay Gus Hal"], ["Ida"])
    night.refresh_from_db()
    assert (night.status, first.number) == ("playing", 1)
    # Ordinary games of the league, each ending after the round's hands.
    games = [table.game for table in first.tables.all()]
    assert {(game.league_id, game.game_type, game.options["last_hand"]) for game in games} == {
        (night.league_id, "spades", 2)}


def test_a_round_of_two_hands_ends_each_game_with_the_side_ahead_winning(start_night, check_in, owner):
    night = start_night(hands=2)
    check_in(night, *NINE[:8])
    first = night_round_start(night=night, by=owner)
    table = first.tables.get(number=1)
    hand_record(game=table.game, record=NS_HAND, by=owner)
    game = hand_record(game=table.game, record=EW_HAND, by=owner).game
    # 61 - 70 for NS, -70 + 61 for EW: level after the last hand, a draw.
    assert (game.status, game.winner, game.totals) == ("finished", "", {"NS": -9, "EW": -9})
    other = first.tables.get(number=2).game
    hand_record(game=other, record=NS_HAND, by=owner)
    other = hand_record(game=other, record=NS_HAND, by=owner).game
    assert (other.status, other.winner) == ("finished", "NS")


def test_the_next_round_waits_for_every_table_unless_the_director_moves_on(start_night, check_in, owner):
    night = start_night()
    check_in(night, *NINE[:8])
    first = night_round_start(night=night, by=owner)
    late = first.tables.get(number=2).game
    hand_record(game=first.tables.get(number=1).game, record=NS_HAND, by=owner)
    hand_record(game=first.tables.get(number=1).game, record=NS_HAND, by=owner)
    hand_record(game=late, record=NS_HAND, by=owner)
    with pytest.raises(StateConflict) as refused:
        night_round_start(night=night, by=owner)
    assert refused.value.message == ("round 1 is still being played at table 2 (hand 2): wait for it to finish, "
                                     "end its game, or move on and leave it to finish")
    assert night.night_rounds.count() == 1
    second = night_round_start(night=night, by=owner, move_on=True)
    assert second.number == 2
    # The late table plays on, and its last hand still ends its game.
    late = hand_record(game=late, record=NS_HAND, by=owner).game
    assert late.status == "finished"


def test_a_late_arrival_plays_from_the_next_round_and_sit_outs_go_round(start_night, check_in, owner):
    night = start_night()
    check_in(night, *NINE[:8])
    first = night_round_start(night=night, by=owner)
    check_in(night, "Ida")
    play_out(first, owner)
    second = night_round_start(night=night, by=owner)
    tables, out = seated(second)
    # Nobody has sat out yet: the one who has played least (Ida, who just came) plays, someone else sits out.
    assert "Ida" in " ".join(tables) and len(out) == 1 and out != ["Ida"]
    play_out(second, owner)
    third = night_round_start(night=night, by=owner)
    assert seated(third)[1] != out  # nobody sits out twice before everyone has once


def test_a_player_checked_in_twice_is_refused_and_nothing_changes(start_night, check_in, owner, room):
    night = start_night()
    check_in(night, "Ann")
    with pytest.raises(StateConflict) as refused:
        night_check_in(night=night, by=owner, player=room["Ann"])
    assert refused.value.message.startswith("Ann is already checked in (since ")
    assert NightPlayer.objects.filter(night=night).count() == 1


def test_fewer_than_four_players_cannot_start_a_round(start_night, check_in, owner):
    night = start_night()
    check_in(night, "Ann", "Ben", "Cid")
    with pytest.raises(StateConflict) as refused:
        night_round_start(night=night, by=owner)
    assert (refused.value.message, refused.value.field) == (
        "a round needs at least four players; 3 checked in", "players")


def test_a_player_leaving_mid_round_is_told_to_find_a_substitute(start_night, check_in, owner, room):
    night = start_night()
    check_in(night, *NINE)
    night_round_start(night=night, by=owner)
    with pytest.raises(StateConflict) as refused:
        night_check_out(night=night, by=owner, player=room["Fay"])
    assert refused.value.message == ("Fay is playing at table 2 (hand 1): substitute someone for them, or end the "
                                     "table's game first")
    # Ida sits this round out: she may go.
    assert night_check_out(night=night, by=owner, player=room["Ida"]).left_at is not None


def test_a_substitute_takes_the_seat_and_the_leaver_plays_no_more(start_night, check_in, owner, room):
    night = start_night(hands=3)
    check_in(night, *NINE)
    first = night_round_start(night=night, by=owner)
    game = first.tables.get(number=1).game
    hand_record(game=game, record=NS_HAND, by=owner)
    change = night_substitute(night=night, by=owner, leaving=room["Ben"], arriving=room["Ida"])
    assert (change.seat, change.after_hands, change.arriving.name) == ("E", 1, "Ida")
    game.refresh_from_db()
    assert game.east == room["Ida"]
    first.refresh_from_db()
    assert first.sitting_out == []  # Ida was sitting out; now she plays
    assert night_view(night).card(room["Ben"]).text == "Ben has left the night"
    play_out(first, owner)
    second = night_round_start(night=night, by=owner)
    assert "Ben" not in " ".join(seated(second)[0] + seated(second)[1])


def test_a_substitute_already_playing_elsewhere_is_refused(start_night, check_in, owner, room):
    night = start_night()
    check_in(night, *NINE[:8])
    night_round_start(night=night, by=owner)
    with pytest.raises(StateConflict) as refused:
        night_substitute(night=night, by=owner, leaving=room["Ann"], arriving=room["Eve"])
    assert refused.value.message == "Eve is playing at table 2"


def test_when_the_time_is_up_the_hand_in_play_is_the_last(start_night, check_in, owner, monkeypatch):
    night = start_night(round_end="time", minutes=20)
    check_in(night, *NINE[:4])
    first = night_round_start(night=night, by=owner)
    game = first.tables.get().game
    assert game.time_up_at == first.time_up_at == first.started_at + timedelta(minutes=20)
    game = hand_record(game=game, record=NS_HAND, by=owner).game
    assert game.status == "in_progress" and game.options["last_hand"] is None
    later = timezone.now() + timedelta(minutes=21)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert night_view(night).current.tables[0].progress() == "hand 2, the last: time is up"
    game = hand_record(game=game, record=EW_HAND, by=owner).game
    assert (game.status, game.options["last_hand"], game.winner) == ("finished", 2, "")


def test_a_table_ended_by_the_director_keeps_its_hands_and_the_side_ahead_wins(start_night, check_in, owner):
    night = start_night(round_end="target")
    check_in(night, *NINE[:8])
    first = night_round_start(night=night, by=owner)
    hand_record(game=first.tables.get(number=1).game, record=NS_HAND, by=owner)
    ended = night_table_end(night=night, by=owner, number=1)
    assert (ended.status, ended.winner, ended.hand_count, ended.options["last_hand"]) == ("finished", "NS", 1, 1)
    # A table that never played a hand has no result: its game is abandoned.
    assert night_table_end(night=night, by=owner, number=2).status == "abandoned"
    with pytest.raises(GameClosed):
        night_table_end(night=night, by=owner, number=2)


def test_ending_the_night_early_ends_the_tables_still_playing(start_night, check_in, owner):
    night = start_night(rounds=5)
    check_in(night, *NINE[:8])
    first = night_round_start(night=night, by=owner)
    hand_record(game=first.tables.get(number=1).game, record=EW_HAND, by=owner)
    night = night_end(night=night, by=owner, end_tables=True)
    games = {table.number: table.game for table in first.tables.select_related("game")}
    assert (games[1].status, games[1].winner) == ("finished", "EW")
    assert games[2].status == "abandoned"
    assert night.status == "finished"
    with pytest.raises(StateConflict):
        night_round_start(night=night, by=owner)


def test_moving_a_table_gives_it_another_number_and_swaps_with_one_there(start_night, check_in, owner):
    night = start_night()
    check_in(night, *NINE[:8])
    first = night_round_start(night=night, by=owner)
    one, two = first.tables.get(number=1).game_id, first.tables.get(number=2).game_id
    night_table_move(night=night, by=owner, number=1, to=2)
    assert dict(first.tables.values_list("number", "game_id")) == {2: one, 1: two}
    night_table_move(night=night, by=owner, number=2, to=7)
    assert dict(first.tables.values_list("number", "game_id")) == {7: one, 1: two}
    with pytest.raises(InvalidInput) as refused:
        night_table_move(night=night, by=owner, number=3, to=4)
    assert refused.value.message == "round 1 has no table 3"


def test_a_pairs_night_meets_every_pair_and_a_player_without_a_partner_is_named(start_night, owner, room):
    night = start_night(movement="pairs")
    for first, second in (("Ann", "Ben"), ("Cid", "Dee"), ("Eve", "Fay")):
        night_check_in(night=night, by=owner, player=room[first], partner=room[second])
    night_check_in(night=night, by=owner, player=room["Gus"])
    with pytest.raises(StateConflict) as refused:
        night_round_start(night=night, by=owner)
    assert refused.value.message == "Gus has no partner: pair them with someone, or check them out"
    night_check_in(night=night, by=owner, player=room["Hal"])
    night_pair(night=night, by=owner, player=room["Gus"], partner=room["Hal"])
    first = night_round_start(night=night, by=owner)
    assert seated(first)[0] == ["Ann Cid Ben Dee", "Gus Eve Hal Fay"]


def test_the_nights_standings_follow_a_correction_made_after_the_night(start_night, check_in, owner, room):
    night = start_night(hands=1)
    check_in(night, *NINE[:4])
    first = night_round_start(night=night, by=owner)
    game = first.tables.get().game
    hand_record(game=game, record=NS_HAND, by=owner)
    night_end(night=night, by=owner)
    lines = {night_view(night).players[line.who[0]].name: line for line in night_view(night).standings}
    assert (lines["Ann"].won, lines["Ann"].points, lines["Ann"].place) == (1, 61, 1)
    hand_correct(game=game, number=1, record=EW_HAND, by=owner)
    lines = {night_view(night).players[line.who[0]].name: line for line in night_view(night).standings}
    assert (lines["Ann"].won, lines["Ann"].points, lines["Ann"].place) == (0, -70, 3)
    assert (lines["Ben"].won, lines["Ben"].points, lines["Ben"].place) == (1, 61, 1)


def test_only_the_leagues_owners_and_scorekeepers_run_a_night(start_night, check_in, owner, member, room):
    night = start_night()
    with pytest.raises(NotAllowed):
        night_check_in(night=night, by=member, player=room["Ann"])
    check_in(night, *NINE[:4])
    with pytest.raises(NotAllowed):
        night_round_start(night=night, by=member)


def test_a_player_checks_themselves_in_with_the_nights_code_until_it_is_renewed(start_night, owner, room):
    from django.contrib.auth.models import AnonymousUser

    night = start_night()
    entrant = night_check_in(night=night, by=AnonymousUser(), player=room["Ann"], code=night.code)
    assert (entrant.player, entrant.checked_in_by) == (room["Ann"], None)
    with pytest.raises(NotAllowed):
        night_check_in(night=night, by=AnonymousUser(), name="Zed", code=night.code)
    old = night.code
    night_code_renew(night=night, by=owner)
    with pytest.raises(NotAllowed) as refused:
        night_check_in(night=night, by=AnonymousUser(), player=room["Ben"], code=old)
    assert refused.value.message == "this night's code has been renewed: scan the new one"


def test_the_guide_card_says_where_to_sit(start_night, check_in, owner, room):
    night = start_night()
    check_in(night, *NINE)
    night_round_start(night=night, by=owner)
    view = night_view(night)
    assert view.card(room["Fay"]).text == "Round 1 · table 2 · you sit E · partner Hal · against Eve & Gus"
    assert view.card(room["Ida"]).text == "Round 1 · you sit this round out"


def test_a_nights_options_may_not_set_the_last_hand(league, owner):
    from games.services import night_start

    with pytest.raises(InvalidInput) as refused:
        night_start(league=league, by=owner, game_type="spades", options={"last_hand": 4}, hands=8)
    assert refused.value.field == "options.last_hand"
    assert not Night.objects.exists()


def test_merging_two_players_carries_their_nights_without_a_second_check_in(start_night, check_in, owner, room,
                                                                            league):
    from games.services import player_merge

    night = start_night()
    check_in(night, *NINE)
    first = night_round_start(night=night, by=owner)
    # Ida sits round 1 out; typed in again as "Ida B", she takes Ben's seat.
    twin = night_check_in(night=night, by=owner, name="Ida B").player
    change = night_substitute(night=night, by=owner, leaving=room["Ben"], arriving=twin)
    kept = player_merge(league=league, keep=room["Ida"], merge=twin, by=owner)
    # One check-in, at her first place in the order; the substitute was her; she played round 1, not sat it out.
    assert list(NightPlayer.objects.filter(night=night, player=kept).values_list("order", "left_at")) == [(9, None)]
    assert not NightPlayer.objects.filter(player_id=twin.pk).exists()
    change.refresh_from_db()
    assert change.arriving_id == kept.pk
    first.refresh_from_db()
    assert first.sitting_out == []
    assert night_view(night).card(kept).text == "Round 1 · table 1 · you sit E · partner Dee · against Ann & Cid"
    # The night plays on: its next round is seated from the rounds as merged.
    play_out(first, owner)
    assert len(seated(night_round_start(night=night, by=owner))[0]) == 2


def test_two_players_at_two_tables_of_one_round_are_not_merged(start_night, check_in, owner, room, league):
    from games.services import player_merge

    night = start_night()
    check_in(night, "Ann", "Ben", "Cid", "Ida", "Eve", "Fay", "Gus", "Hal")
    night_round_start(night=night, by=owner)
    with pytest.raises(InvalidInput) as refused:
        player_merge(league=league, keep=room["Ida"], merge=room["Hal"], by=owner)
    assert refused.value.message == (f"Ida and Hal played in round 1 of {night.name}, at tables 1 and 2: they "
                                     "are two people")
    assert NightPlayer.objects.filter(night=night).count() == 8
