"""Head-to-head and partner records, worked by hand on small sets of games (no database)."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

import games.standings.records as records_module
from games.standings.records import Record, best_and_worst, player_records
from games.standings.results import GameResult

from .conftest import START, cutthroat, game

ANN, BEN, CAT, DAN, EVE = 1, 2, 3, 4, 5


def by_other(lines) -> dict[int, tuple[int, int, int, int, int]]:
    """other player -> (played, won, lost, points for, points against)"""
    return {line.other_id: (line.played, line.won, line.lost, line.points_for, line.points_against) for line in lines}


def only(player: int, games: list[GameResult], **kwargs):
    [records] = player_records(player, games, **kwargs)
    return records


def test_a_partner_shares_the_side_and_its_result_the_others_are_opponents():
    # Ann sits with Cat against Ben and Dan, and wins 21 to 15.
    records = only(ANN, [game(1, "smudge", (ANN, CAT), (BEN, DAN), (21, 15), "NS")])
    assert by_other(records.partners) == {CAT: (1, 1, 0, 21, 15)}
    assert by_other(records.opponents) == {BEN: (1, 1, 0, 21, 15), DAN: (1, 1, 0, 21, 15)}
    assert (records.played, records.won, records.lost) == (1, 1, 0)


def test_partners_count_whatever_seats_they_sat_in():
    games = [
        game(1, "spades", (ANN, CAT), (BEN, DAN), (500, 300), "NS"),
        game(2, "spades", (BEN, DAN), (CAT, ANN), (510, 200), "NS"),  # Ann and Cat now sit East-West, and lose
        game(3, "spades", (ANN, BEN), (CAT, DAN), (100, 505), "EW"),
    ]
    records = only(ANN, games)
    assert by_other(records.partners) == {CAT: (2, 1, 1, 700, 810), BEN: (1, 0, 1, 100, 505)}
    # Against Dan every time: won one, lost two.
    assert by_other(records.opponents)[DAN] == (3, 1, 2, 800, 1315)
    # Ben: an opponent twice (won one), a partner once.
    assert by_other(records.opponents)[BEN] == (2, 1, 1, 700, 810)
    assert by_other(records.opponents)[CAT] == (1, 0, 1, 100, 505)


def test_cutthroat_spades_has_no_partners_and_three_opponents_each_with_their_own_total():
    # Four alone: Ben wins with 250; Ann has 180, Cat 120, Dan 90.
    records = only(ANN, [cutthroat(1, (ANN, BEN, CAT, DAN), (180, 250, 120, 90), "E")])
    assert records.partners == () and records.best_partnership is None
    # A game won by a third player is lost against every opponent; the points are each opponent's own.
    assert by_other(records.opponents) == {BEN: (1, 0, 1, 180, 250), CAT: (1, 0, 1, 180, 120),
                                           DAN: (1, 0, 1, 180, 90)}


def test_cutthroat_and_partnership_spades_add_up_in_one_spades_line():
    games = [cutthroat(1, (ANN, BEN, CAT, DAN), (260, 100, 120, 90), "N"),
             game(2, "spades", (ANN, CAT), (BEN, DAN), (300, 510), "EW")]
    records = only(ANN, games)
    assert (records.played, records.won) == (2, 1)
    assert by_other(records.partners) == {CAT: (1, 0, 1, 300, 510)}
    assert by_other(records.opponents)[BEN] == (2, 1, 1, 560, 610)
    assert by_other(records.opponents)[CAT] == (1, 1, 0, 260, 120)


def test_each_game_type_is_counted_apart_in_the_order_given():
    games = [game(1, "smudge", (ANN, CAT), (BEN, DAN), (21, 15), "NS"),
             game(2, "spades", (ANN, CAT), (BEN, DAN), (300, 510), "EW")]
    lines = player_records(ANN, games, order={"spades": 0, "smudge": 1})
    assert [(line.game_type, line.won, line.lost) for line in lines] == [("spades", 0, 1), ("smudge", 1, 0)]
    # Without an order: by name.
    assert [line.game_type for line in player_records(ANN, games)] == ["smudge", "spades"]


def test_games_the_player_did_not_sit_in_and_games_with_no_winning_side_do_not_count():
    games = [game(1, "smudge", (BEN, CAT), (DAN, EVE), (21, 15), "NS"),
             game(2, "smudge", (ANN, CAT), (BEN, DAN), (21, 15), ""),
             game(3, "smudge", (ANN, CAT), (BEN, DAN), (21, 15), "XX")]
    assert player_records(ANN, games) == []


def test_partners_and_opponents_are_listed_most_played_first_then_most_won_then_by_id():
    games = [
        game(1, "smudge", (ANN, EVE), (BEN, DAN), (21, 15), "NS"),
        game(2, "smudge", (ANN, CAT), (BEN, DAN), (10, 21), "EW"),
        game(3, "smudge", (ANN, BEN), (CAT, DAN), (21, 11), "NS"),
        game(4, "smudge", (ANN, BEN), (CAT, EVE), (13, 21), "EW"),
    ]
    records = only(ANN, games)
    # Ben: 2 played, 1 won; Eve and Cat 1 played: Eve won hers, Cat did not.
    assert [line.other_id for line in records.partners] == [BEN, EVE, CAT]
    # Dan 3 played (2 won), Ben 2 (1 won), Cat 2 (1 won), Eve 1.
    assert [line.other_id for line in records.opponents] == [DAN, BEN, CAT, EVE]


def test_best_and_worst_partnership_need_three_games_together():
    games = [game(n, "smudge", (ANN, CAT), (BEN, DAN), (21, 10), "NS") for n in (1, 2)]
    games += [game(n, "smudge", (ANN, BEN), (CAT, DAN), (10, 21), "EW") for n in (3, 4, 5)]
    records = only(ANN, games)
    # Cat: two wins from two, not yet enough; Ben: three losses from three, the only one that qualifies.
    assert records.best_partnership is not None and records.best_partnership.other_id == BEN
    assert records.worst_partnership is None  # one partnership cannot be both the best and the worst
    games.append(game(6, "smudge", (CAT, ANN), (BEN, DAN), (21, 3), "NS"))
    records = only(ANN, games)
    assert records.best_partnership.other_id == CAT and records.worst_partnership.other_id == BEN


def test_the_minimum_can_be_changed():
    games = [game(1, "smudge", (ANN, CAT), (BEN, DAN), (21, 10), "NS"),
             game(2, "smudge", (ANN, BEN), (CAT, DAN), (10, 21), "EW")]
    records = only(ANN, games, minimum=1)
    assert (records.best_partnership.other_id, records.worst_partnership.other_id) == (CAT, BEN)


def _record(other: int, played: int, won: int, margin_total: int = 0) -> Record:
    """A partnership's record whose points for, less nothing against, are ``margin_total``."""
    return Record(other_id=other, played=played, won=won, points_for=margin_total, points_against=0,
                  margin=margin_total)


def test_ties_for_best_go_to_more_games_then_the_higher_margin_then_the_lower_id():
    assert best_and_worst([_record(CAT, 3, 2, 0), _record(BEN, 6, 4, 0)], 3)[0].other_id == BEN
    assert best_and_worst([_record(BEN, 3, 2, 10), _record(CAT, 3, 2, 30)], 3)[0].other_id == CAT
    assert best_and_worst([_record(DAN, 3, 2, 30), _record(CAT, 3, 2, 30)], 3)[0].other_id == CAT


def test_ties_for_worst_go_to_more_games_then_the_lower_margin_then_the_lower_id_never_the_best():
    assert best_and_worst([_record(EVE, 9, 9), _record(CAT, 3, 1), _record(BEN, 6, 2)], 3)[1].other_id == BEN
    assert best_and_worst([_record(EVE, 9, 9), _record(BEN, 3, 1, 10), _record(CAT, 3, 1, -30)], 3)[1].other_id == CAT
    # All level: the best is the lowest id, the worst the next one.
    best, worst = best_and_worst([_record(DAN, 3, 1), _record(BEN, 3, 1), _record(CAT, 3, 1)], 3)
    assert (best.other_id, worst.other_id) == (BEN, CAT)


def test_rates_and_margins():
    games = [game(1, "smudge", (ANN, CAT), (BEN, DAN), (21, 15), "NS"),
             game(2, "smudge", (ANN, CAT), (BEN, DAN), (12, 21), "EW"),
             game(3, "smudge", (ANN, CAT), (BEN, DAN), (21, 0), "NS")]
    [cat] = only(ANN, games).partners
    assert cat.win_rate == 2 / 3 and cat.average_margin == (54 - 36) / 3
    assert START  # the games are placed in time, though the records do not depend on order


def test_the_arithmetic_imports_no_django_and_its_example_runs():
    tree = ast.parse(Path(records_module.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name.startswith("django") for name in imported)
    failures, tried = doctest.testmod(records_module)
    assert tried > 0 and failures == 0


def test_a_drawn_game_is_played_with_everyone_and_neither_won_nor_lost():
    from datetime import timedelta

    from games.rules import get_ruleset

    level = GameResult.of(get_ruleset("smudge", {"last_hand": 8}), game_id=2, finished_at=START + timedelta(minutes=2),
                          seating={"N": ANN, "S": CAT, "E": BEN, "W": DAN}, totals={"NS": 14, "EW": 14}, winner="")
    records = only(ANN, [game(1, "smudge", (ANN, CAT), (BEN, DAN), (21, 15), "NS"), level])
    assert (records.played, records.won, records.drawn, records.lost) == (2, 1, 1, 0)
    assert by_other(records.partners) == {CAT: (2, 1, 0, 35, 29)}
    assert by_other(records.opponents) == {BEN: (2, 1, 0, 35, 29), DAN: (2, 1, 0, 35, 29)}
