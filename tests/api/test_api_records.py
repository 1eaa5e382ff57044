"""``GET /api/v1/players/{id}/records/``: a player's partners and opponents, what the viewer may see, bad
filters as problem details, and a fixed number of queries."""

from __future__ import annotations

import pytest

from games.services import game_start, hand_record, league_create, player_create
from tests.standings.conftest import LOW_TARGETS, ONE_HAND

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(owner, league, seats):
    """Finish a game through the services: ``play("smudge", winner="EW", seats=..., league=...)``."""

    def finish(game_type: str, *, winner: str = "NS", seats=seats, league=league):
        game = game_start(game_type=game_type, seats=seats, by=owner, league=league,
                          options={"target": LOW_TARGETS[game_type]})
        for _ in range(2 if game_type == "spades" else 1):
            game = hand_record(game=game, record=ONE_HAND[game_type][winner], by=owner).game
        assert game.status == "finished"
        return game

    return finish


def url(player, query: str = "") -> str:
    return f"/api/v1/players/{player.pk}/records/" + (f"?{query}" if query else "")


def names(entries) -> dict[str, tuple[int, int, int]]:
    return {entry["player"]["name"]: (entry["played"], entry["won"], entry["lost"]) for entry in entries}


def test_partners_opponents_and_the_best_partnership(anonymous, play, players):
    ann, ben, cat, dan = players
    for _ in range(3):
        play("smudge")  # Ann and Cat beat Ben and Dan
    play("smudge", winner="EW", seats={"N": ann.pk, "E": cat.pk, "S": ben.pk, "W": dan.pk})
    play("trumps", winner="EW")
    response = anonymous.get(url(ann))
    assert response.status_code == 200
    body = response.json()
    assert body["player"] == {"id": ann.pk, "name": "Ann"}
    assert body["minimum_games"] == 3
    assert body["filters"] == {"league": None, "game_type": None, "finished_from": None, "finished_until": None}
    smudge, trumps = body["game_types"]
    assert (smudge["game_type"], smudge["name"], smudge["played"], smudge["won"], smudge["lost"]) == (
        "smudge", "Smudge", 4, 3, 1)
    assert names(smudge["partners"]) == {"Cat": (3, 3, 0), "Ben": (1, 0, 1)}
    assert names(smudge["opponents"]) == {"Dan": (4, 3, 1), "Ben": (3, 3, 0), "Cat": (1, 0, 1)}
    assert smudge["best_partnership"]["player"] == {"id": cat.pk, "name": "Cat"}
    assert smudge["best_partnership"]["win_rate"] == 1.0
    assert smudge["worst_partnership"] is None  # Ben: one game together, not enough
    assert (trumps["game_type"], trumps["won"], trumps["lost"]) == ("trumps", 0, 1)


def test_a_private_leagues_games_count_only_for_its_members(client_for, anonymous, owner, stranger, member, play,
                                                            players):
    # Ann plays in the public league and in a private one: a player in each (a player belongs to one league).
    secret = league_create(name="Secret", by=owner, is_public=False)
    in_secret = [player_create(name=player.name, by=owner, league=secret) for player in players]
    play("smudge")
    play("smudge", league=secret, seats=dict(zip("NESW", (player.pk for player in in_secret), strict=True)))
    play("smudge", league=secret, seats=dict(zip("NESW", (player.pk for player in in_secret), strict=True)))
    for outsider in (anonymous, client_for(stranger), client_for(member)):
        [smudge] = outsider.get(url(players[0])).json()["game_types"]
        assert smudge["played"] == 1
        assert outsider.get(url(in_secret[0])).status_code == 404
        # Naming the private league is refused exactly as a league that does not exist.
        refused = outsider.get(url(players[0], f"league={secret.pk}"))
        assert refused.status_code == 400 and refused.json()["league"] == [f"there is no league {secret.pk}"]
    [smudge] = client_for(owner).get(url(in_secret[0])).json()["game_types"]
    assert smudge["played"] == 2
    body = client_for(owner).get(url(in_secret[0], f"league={secret.pk}")).json()
    assert body["filters"]["league"] == secret.pk and body["game_types"][0]["played"] == 2


def test_a_player_of_private_leagues_only_is_a_404_to_outsiders(client_for, anonymous, owner, stranger):
    secret = league_create(name="Secret", by=owner, is_public=False)
    hidden = player_create(name="Hidden", by=owner, league=secret)
    assert anonymous.get(url(hidden)).status_code == 404
    assert client_for(stranger).get(url(hidden)).status_code == 404
    assert client_for(owner).get(url(hidden)).json()["game_types"] == []


def test_casual_games_count_for_their_people_until_shared(client_for, anonymous, owner, seats, players, play):
    play("smudge", league=None)
    assert client_for(owner).get(url(players[0])).json()["game_types"][0]["played"] == 1
    assert anonymous.get(url(players[0])).json()["game_types"] == []


def test_game_type_and_days_filter(as_owner, play, players):
    play("smudge")
    play("spades")
    only = as_owner.get(url(players[0], "game_type=spades")).json()
    assert [entry["game_type"] for entry in only["game_types"]] == ["spades"]
    assert only["filters"]["game_type"] == "spades"
    empty = as_owner.get(url(players[0], "game_type=thieving_stink")).json()["game_types"]
    assert [(entry["game_type"], entry["played"], entry["partners"]) for entry in empty] == [("thieving_stink", 0, [])]
    future = as_owner.get(url(players[0], "finished_from=2999-01-01")).json()
    assert future["game_types"] == [] and future["filters"]["finished_from"] == "2999-01-01"
    past = as_owner.get(url(players[0], "finished_until=2000-01-01")).json()
    assert past["game_types"] == []
    both = as_owner.get(url(players[0], "finished_from=2000-01-01&finished_until=2999-12-31")).json()
    assert len(both["game_types"]) == 2


@pytest.mark.parametrize(("query", "field"), [
    ("game_type=poker", "game_type"),
    ("game_type=", "game_type"),
    ("league=abc", "league"),
    ("league=0", "league"),
    ("league=99999", "league"),
    ("finished_from=yesterday", "finished_from"),
    ("finished_from=2025-05-02&finished_until=2025-05-01", "finished_until"),
])
def test_bad_filters_are_400_problems_naming_the_field(as_owner, players, query, field):
    response = as_owner.get(url(players[0], query))
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == 400 and field in body


def test_unknown_player_is_a_404(as_owner):
    response = as_owner.get("/api/v1/players/999999/records/")
    assert response.status_code == 404 and response.json()["status"] == 404


# Token lookup, the player (visibility in the same query), the league named, what the records are counted from,
# the games (names joined in).
RECORDS_QUERIES = 5


@pytest.mark.parametrize("tables", [1, 6])
def test_queries_do_not_grow_with_games_partners_or_opponents(client_for, member, league, owner, players, play,
                                                              tables, django_assert_num_queries):
    ann = players[0]
    others = [player_create(name=f"Player {n}", by=owner, league=league) for n in range(3 * tables)]
    for n in range(tables):
        partner, left, right = others[3 * n: 3 * n + 3]
        for _ in range(2):
            play("smudge", seats={"N": ann.pk, "E": left.pk, "S": partner.pk, "W": right.pk})
    client = client_for(member)
    client.get(url(ann))  # warm up the token for a fair count
    with django_assert_num_queries(RECORDS_QUERIES):
        body = client.get(url(ann, f"league={league.pk}")).json()
    [smudge] = body["game_types"]
    assert smudge["played"] == 2 * tables and len(smudge["partners"]) == tables
    assert len(smudge["opponents"]) == 2 * tables


def test_a_season_counts_the_games_finished_within_its_days(as_owner, owner, league, play, players):
    from datetime import UTC, date, datetime

    from games.models import Game
    from games.services import season_create

    ann = players[0]
    autumn = season_create(league=league, name="Autumn 2026", starts_on=date(2026, 9, 1), ends_on=date(2026, 11, 30),
                           by=owner)
    summer = season_create(league=league, name="Summer 2026", starts_on=date(2026, 6, 1), ends_on=date(2026, 8, 31),
                           by=owner)
    in_autumn = [play("smudge"), play("smudge")]
    in_summer = play("smudge", winner="EW")
    Game.objects.filter(pk__in=[game.pk for game in in_autumn]).update(
        finished_at=datetime(2026, 10, 1, 20, tzinfo=UTC))
    Game.objects.filter(pk=in_summer.pk).update(finished_at=datetime(2026, 7, 1, 20, tzinfo=UTC))

    def smudge(query: str) -> tuple[int, int, int]:
        body = as_owner.get(url(ann, query)).json()
        entry = next(entry for entry in body["game_types"] if entry["game_type"] == "smudge")
        return entry["played"], entry["won"], entry["lost"]

    assert smudge(f"season={autumn.pk}") == (2, 2, 0)
    assert smudge(f"season={summer.pk}") == (1, 0, 1)
    assert smudge("season=all") == (3, 2, 1)
    filters = as_owner.get(url(ann, f"season={autumn.pk}")).json()["filters"]
    assert filters == {"league": league.pk, "game_type": None, "finished_from": "2026-09-01",
                       "finished_until": "2026-11-30"}


@pytest.mark.parametrize("query, status, field", [
    ("season=current", 400, "season"),  # a league's: without one, whose?
    ("season=1&finished_from=2026-01-01", 400, "season"),
    ("season=99", 404, None),
    ("season=soon", 400, "season"),
])
def test_bad_seasons_are_refused(as_owner, owner, league, players, query, status, field):
    from datetime import date

    from games.services import season_create

    season = season_create(league=league, name="Autumn 2026", starts_on=date(2026, 9, 1), by=owner)
    response = as_owner.get(url(players[0], query.replace("season=1", f"season={season.pk}")))
    assert response.status_code == status
    if field:
        assert field in response.json()
