"""A league with results, and reading CSV answers as a spreadsheet would."""

from __future__ import annotations

import csv
import io

import pytest

from tests.api.conftest import anonymous, as_owner, client_for, private_league  # noqa: F401  (the API's actors)

# NS bid 7 and take 9 (+72); to 100, two such hands win.
HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}


def rows_of(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8")
    assert text.startswith("\ufeff"), "a CSV starts with a byte-order mark, so Excel reads it as UTF-8"
    return list(csv.reader(io.StringIO(text[1:])))


@pytest.fixture
def played(league, owner, start_game):
    """A finished Spades game (NS: Ann & Cat win 144 to -100) and one in progress, standings computed."""
    from games.services import hand_record
    from games.standings.services import league_standings_recompute

    won = start_game("spades", target=100)
    hand_record(game=won, record=HAND, by=owner)
    hand_record(game=won, record=HAND, by=owner)
    live = start_game("spades", target=500)
    hand_record(game=live, record=HAND, by=owner)
    league_standings_recompute(league_id=league.pk)
    return {"won": won, "live": live}
