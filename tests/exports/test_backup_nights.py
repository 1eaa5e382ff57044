"""A league's club nights in its backup (docs/league-backup.md): who came, each round's tables with their games,
who sat out, the substitutions, a time limit's moment; a restore makes them again, and what it refuses."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from games.models import Game, League, Night, NightPlayer
from games.nights import night_view
from games.services import (
    hand_record,
    night_check_in,
    night_end,
    night_round_start,
    night_start,
    night_substitute,
    night_table_move,
    player_create,
)
from games.services.restore import ImportRefused, league_restore
from games.services.transfer import league_export

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "league-backup.schema.json").read_text())
NS_HAND = {"bids": {"N": 3, "E": 4, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


@pytest.fixture
def nights(league, owner):
    """Two nights: a finished one of two-hand rounds (a substitute, a table moved, a late table left to finish
    while round 2 began), and one with a time limit, its round 1 playing."""
    room = {name: player_create(name=name, by=owner, league=league) for name in NAMES}
    night = night_start(league=league, by=owner, game_type="spades", hands=2, rounds=2, name="Thursday night")
    for name in NAMES:
        night_check_in(night=night, by=owner, player=room[name])
    first = night_round_start(night=night, by=owner)
    game = first.tables.get(number=1).game
    hand_record(game=game, record=NS_HAND, by=owner)
    night_substitute(night=night, by=owner, leaving=room["Ben"], arriving=room["Ida"])
    hand_record(game=game, record=NS_HAND, by=owner)
    night_table_move(night=night, by=owner, number=2, to=5)
    night_round_start(night=night, by=owner, move_on=True)
    night_end(night=night, by=owner, end_tables=True)
    timed = night_start(league=league, by=owner, game_type="spades", round_end="time", minutes=30, name="Friday")
    for name in NAMES[:4]:
        night_check_in(night=timed, by=owner, player=room[name])
    night_round_start(night=timed, by=owner)
    return {"finished": night, "timed": timed}


def standings_by_name(night: Night) -> list[tuple]:
    view = night_view(night)
    return [(line.place, view.names(line.who), line.won, line.drawn, line.lost, line.points,
             [(entry.round, entry.result, entry.table) for entry in line.rounds]) for line in view.standings]


def test_the_backup_carries_the_nights_and_follows_its_schema(league, nights):
    document = league_export(league=league)
    jsonschema.validate(document, SCHEMA, format_checker=jsonschema.FormatChecker())
    thursday, friday = document["nights"]
    assert (thursday["key"], thursday["name"], thursday["status"], friday["status"]) == (
        "N1", "Thursday night", "finished", "playing")
    assert "code" not in thursday
    names = {player["key"]: player["name"] for player in document["players"]}
    assert [names[entrant["player"]] for entrant in thursday["entrants"]] == list(NAMES)
    assert [entrant["left_at"] is not None for entrant in thursday["entrants"]] == [
        name == "Ben" for name in NAMES]
    round_1 = thursday["rounds_played"][0]
    assert [table["number"] for table in round_1["tables"]] == [1, 5]
    assert [(names[change["leaving"]], names[change["arriving"]], change["seat"], change["after_hands"])
            for change in round_1["tables"][0]["substitutions"]] == [("Ben", "Ida", "E", 1)]
    # Each table names its game by key; the time limit is the game's as well as the round's.
    games = {game["key"]: game for game in document["games"]}
    timed_game = games[friday["rounds_played"][0]["tables"][0]["game"]]
    assert timed_game["time_up_at"] == friday["rounds_played"][0]["time_up_at"] is not None
    assert "time_up_at" not in games[round_1["tables"][0]["game"]]


def test_a_restore_makes_the_nights_again_and_their_standings_follow(league, owner, nights):
    document = league_export(league=league)
    report = league_restore(document=document, by=owner, slug="thursday-again")
    restored = League.objects.get(slug="thursday-again")
    assert report.nights == 2
    assert "2 club nights" in report.sentence()
    again = {night.name: night for night in Night.objects.filter(league=restored)}
    for original in nights.values():
        copy_of = again[original.name]
        assert standings_by_name(copy_of) == standings_by_name(original)
        assert copy_of.code and copy_of.code != original.code  # a new code: the old QR opens nothing
    # Exported again, the restored league's nights and games are the same document.
    restored_document = league_export(league=restored)
    assert restored_document["nights"] == document["nights"]
    assert restored_document["games"] == document["games"]
    # The timed night plays on after the restore: its table's game still ends on time.
    friday = again["Friday"]
    game = Game.objects.get(night_table__round__night=friday)
    assert game.time_up_at == nights["timed"].night_rounds.get().time_up_at
    assert NightPlayer.objects.filter(night=friday).count() == 4


def broken(document: dict, change) -> dict:
    document = copy.deepcopy(document)
    change(document)
    return document


@pytest.mark.parametrize(("change", "problem"), [
    (lambda doc: doc["nights"][0]["rounds_played"][0]["tables"][0].update(game="G99"),
     'night N1: round 1: table 1: its game "G99" is not listed'),
    (lambda doc: doc["nights"][1]["rounds_played"][0]["tables"][0].update(
        game=doc["nights"][0]["rounds_played"][0]["tables"][0]["game"]),
     "night N2: round 1: table 1: its game G1 is also night N1: round 1: table 1's; a game is played at one table"),
    (lambda doc: doc["nights"][0]["entrants"][1].update(player="P1"),
     'night N1: "P1" is checked in twice; a player is checked in to a night once'),
    (lambda doc: doc["nights"][0]["rounds_played"][0]["sitting_out"].append("P77"),
     'night N1: round 1: "P77" is not among the players'),
    (lambda doc: doc["nights"][0]["rounds_played"][1].update(number=3),
     "night N1: its rounds are numbered 1, 3; rounds are numbered 1 to 2 in the order played"),
    (lambda doc: doc["nights"][1].update(key="N1"),
     'night N1: the key "N1" is used twice in "nights"; each needs its own'),
    (lambda doc: doc["nights"][0].update(status="paused"),
     'night N1: "status" is "paused": \'paused\' is not one of [\'checking_in\', \'playing\', \'finished\']'),
    (lambda doc: doc["nights"][0].update(code="abc"),
     'night N1: "code" is not a field of a backup (version 1): a field this site does not know is refused, not '
     "restored without it"),
])
def test_a_backup_whose_nights_break_the_rules_imports_nothing(league, owner, nights, change, problem):
    document = broken(league_export(league=league), change)
    leagues = League.objects.count()
    with pytest.raises(ImportRefused) as refused:
        league_restore(document=document, by=owner, slug="thursday-again")
    assert problem in refused.value.problems
    assert League.objects.count() == leagues and Night.objects.count() == 2


def test_a_backup_written_before_nights_were_kept_restores_without_them(league, owner, nights):
    document = league_export(league=league)
    del document["nights"]
    for game in document["games"]:
        game.pop("time_up_at", None)
    report = league_restore(document=document, by=owner, slug="thursday-again")
    assert report.nights == 0
    assert not Night.objects.filter(league__slug="thursday-again").exists()
