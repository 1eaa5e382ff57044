"""Adding a game takes a ruleset, a hand form and its template, and nothing else.

A small made-up game, "Tens", is registered for these tests only: each hand, a caller names the
hand and the two partnerships share ten points; taking all ten is a sweep. It is then started,
played, shown, finished and counted through every door without any other change to the code.

A second, "Hearts", is the other kind of game: four players alone, each taking penalty points, and
the lowest total wins. How a finished game ranks is a fact of its ruleset (``lower_wins``,
``partnerships``, ``places``), so ratings, standings, the BG Stats link and a backup read it there.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from django import forms
from django.core.management import call_command
from django.urls import reverse

from games.bgstats import bgstats_play
from games.forms.base import HAND_FORMS, HandForm
from games.models import Game
from games.rules import (
    PARTNERSHIPS,
    RULESETS,
    SEATS,
    Extra,
    HandScore,
    InvalidHand,
    Option,
    Rate,
    Ruleset,
    register,
)
from games.rules.base import require_choice, require_int
from games.services import game_start, hand_record
from games.services.restore import league_restore
from games.services.transfer import league_export
from games.standings.selectors import league_standings
from games.standings.services import league_standings_recompute, league_standings_update
from tests.standings.test_incremental_update import same_as_a_recompute

pytestmark = pytest.mark.django_db

TEN = 10
HAND_TEMPLATE = """
{% include "forms/chips.html" with field=form.caller cls="seats" %}
{% include "forms/chips.html" with field=form.points_NS cls="numbers" %}
"""


class Tens(Ruleset):
    """Tens: the partnerships share ten points a hand; the first to the target wins."""

    game_type = "tens"
    name = "Tens"
    option_specs = (Option("target", "int", 30, "Points a side needs to win.", minimum=1),)
    record_fields = {"caller": True, "points": True}
    record_example = {"caller": "N", "points": {"NS": 6, "EW": 4}}
    extras_shown = (Extra("sweeps", "sweep", "sweeps"),)
    figure_counts = ("calls", "calls_made")
    figure_rates = (Rate("call_success", "Calls made", "calls_made", "calls"),)

    def initial_extras(self):
        return {"sweeps": {side: 0 for side in self.sides}}

    def check_record(self, number, record, state, dealer):
        require_choice(number, record["caller"], "caller", SEATS)
        points = record["points"]
        if not isinstance(points, Mapping) or set(points) != set(PARTNERSHIPS):
            raise InvalidHand(number, "points needs a number for NS and for EW", field="points")
        for side in PARTNERSHIPS:
            require_int(number, points[side], f"points.{side}", 0, TEN)
        if points["NS"] + points["EW"] != TEN:
            raise InvalidHand(
                number,
                f"points add up to {points['NS'] + points['EW']}, not {TEN}",
                field="points",
            )

    def score(self, record, state, dealer):
        points = record["points"]
        sweeps = {side: state.extras["sweeps"][side] + (points[side] == TEN) for side in self.sides}
        made = points[self.side_of(record["caller"])] > TEN // 2
        return HandScore(delta=dict(points), extras={"sweeps": sweeps}, details={"made": made})

    def winner(self, totals, record, state, scored):
        return self.highest_at_target(totals)

    def figures(self, record, details):
        return {record["caller"]: {"calls": 1, "calls_made": int(details["made"])}}

    @classmethod
    def sample_hand(cls, rng: random.Random) -> dict[str, Any]:
        ns = rng.randint(0, TEN)
        return {"caller": rng.choice(SEATS), "points": {"NS": ns, "EW": TEN - ns}}


def tens_form_class():
    class TensHandForm(HandForm):
        game_type = "tens"
        template_name_hand = "hands/tens.html"
        error_fields = {"caller": "caller", "points": "points_NS", "points.NS": "points_NS", "note": "note"}

        def setup(self):
            self.fields["caller"] = forms.ChoiceField(choices=self.seat_choices(), widget=forms.RadioSelect,
                                                      label="Who called?")
            self.fields["points_NS"] = forms.ChoiceField(
                choices=[(str(n), str(n)) for n in range(TEN + 1)], widget=forms.RadioSelect, label="NS took")

        def record_from(self, data):
            ns = int(data["points_NS"])
            return {"caller": data["caller"], "points": {"NS": ns, "EW": TEN - ns}}

        @classmethod
        def initial_fields(cls, record):
            return {"caller": record["caller"], "points_NS": str(record["points"]["NS"])}

        @classmethod
        def describe(cls, record, details, names):
            return f"{names[record['caller']]} called · NS {record['points']['NS']}, EW {record['points']['EW']}"

    return TensHandForm


@pytest.fixture
def tens(monkeypatch, settings, tmp_path):
    """Tens registered (ruleset, hand form and its template) for one test."""
    monkeypatch.setitem(RULESETS, "tens", None)  # restored (removed) after the test
    register(Tens)
    monkeypatch.setitem(HAND_FORMS, "tens", None)
    tens_form_class()  # registers itself by its game type
    (tmp_path / "hands").mkdir()
    (tmp_path / "hands" / "tens.html").write_text(HAND_TEMPLATE)
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], tmp_path]}]
    return Tens


def post_hand(client, game, caller, ns):
    game.refresh_from_db()
    return client.post(reverse("hand-record", args=[game.pk]), {
        "idempotency_key": f"tens-{game.pk}-{game.hand_count}", "expected_number": str(game.hand_count + 1),
        "caller": caller, "points_NS": str(ns)})


def test_a_new_game_is_offered_started_played_and_shown_on_the_pages(tens, client, owner, league, players):
    client.force_login(owner)
    assert "Tens" in client.get(reverse("new-game")).content.decode()
    new = client.get(reverse("new-game") + f"?type=tens&league={league.slug}", follow=True)
    assert new.status_code == 200 and "Points a side needs to win." in new.content.decode()
    seats = {f"seat_{seat}": str(player.pk) for seat, player in zip(SEATS, players, strict=True)}
    started = client.post(reverse("new-game") + f"?type=tens&league={league.slug}", {**seats, "opt_target": "15",
                                                                                       "opt_first_dealer": "N"})
    game = Game.objects.get(game_type="tens")
    assert started.status_code == 302 and started["Location"] == reverse("table", args=[game.pk])

    page = client.get(reverse("table", args=[game.pk])).content.decode()
    assert "Who called?" in page and "NS took" in page and "0 sweeps" in page

    assert post_hand(client, game, "N", 10).status_code == 302
    refused = post_hand(client, game, "X", 4)
    assert refused.status_code == 400 and "caller" in refused.context["form"].errors
    assert post_hand(client, game, "E", 3).status_code == 302
    page = client.get(reverse("table", args=[game.pk])).content.decode()
    assert "Ann called · NS 10, EW 0" in page and "1 sweep" in page and "Sweeps" in page
    assert '<p class="total" data-total="NS">13</p>' in page

    assert post_hand(client, game, "S", 5).status_code == 302
    game.refresh_from_db()
    assert game.status == "finished" and game.winner == "NS"
    assert "Ann &amp; Cat win!" in client.get(reverse("table", args=[game.pk])).content.decode()
    assert "Ann &amp; Cat <b>18</b>" in client.get(reverse("home")).content.decode()
    assert "Tens" in client.get(reverse("live", args=[game.pk])).content.decode()

    league_standings_recompute(league_id=league.pk)
    standings = client.get(reverse("league", args=[league.slug]) + "?type=tens").content.decode()
    assert ">Tens</a>" in standings and "Ann &amp; Cat" in standings
    player = client.get(reverse("player", args=[players[0].pk])).content.decode()
    assert "Calls made" in player and "1 of 1 (100%)" in player


def test_a_new_game_through_the_api(tens, client_for_owner, league, seats):
    created = client_for_owner.post("/api/v1/games/", {"game_type": "tens", "league": league.pk, "seats": seats,
                                                       "options": {"target": 15}}, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()
    assert game["extras"] == {"sweeps": {"NS": 0, "EW": 0}} and game["totals"] == {"NS": 0, "EW": 0}
    hands = f"/api/v1/games/{game['id']}/hands/"
    first = client_for_owner.post(hands, {"caller": "W", "points": {"NS": 0, "EW": 10}}, format="json")
    assert first.status_code == 201 and first.json()["sweeps"] == {"NS": 0, "EW": 1}
    wrong = client_for_owner.post(hands, {"caller": "W", "points": {"NS": 5, "EW": 6}}, format="json")
    assert wrong.status_code == 400 and wrong.json()["points"] == ["points add up to 11, not 10"]
    assert client_for_owner.post(hands, {"caller": "N", "points": {"NS": 2, "EW": 8}},
                                 format="json").status_code == 201
    done = client_for_owner.get(f"/api/v1/games/{game['id']}/").json()
    assert done["status"] == "finished" and done["winner"] == "EW" and done["bags"] is None

    league_standings_recompute(league_id=league.pk)
    standings = client_for_owner.get(f"/api/v1/leagues/{league.pk}/standings/?game_type=tens").json()
    [table] = standings["game_types"]
    assert table["name"] == "Tens" and table["players"][0]["won"] == 1 and table["players"][0]["matches"] is None
    figures = client_for_owner.get(f"/api/v1/players/{seats['W']}/").json()["figures"]
    assert figures == [{"league": {"id": league.pk, "slug": league.slug, "name": league.name}, "season": None,
                        "game_type": "tens",
                        "hands": 2, "counts": {"calls": 1, "calls_made": 1}, "rates": {"call_success": 1.0}}]


def test_its_sampler_plays_a_game_to_its_end_through_the_services(tens, owner, league, seats):
    game = game_start(game_type="tens", seats=seats, by=owner, league=league)
    rng = random.Random(1)
    while game.status != "finished":
        game = hand_record(game=game, record=Tens.sample_hand(rng), by=owner).game
    assert game.hand_count >= 3


class Hearts(Ruleset):
    """Hearts, every player for themselves: the 26 penalty points of a hand (one a heart, 13 the queen of
    spades) count against whoever took them. Once someone reaches the target, the lowest total wins; a tie
    for the lowest plays on."""

    game_type = "hearts"
    name = "Hearts"
    option_specs = (Option("target", "int", 100, "Points that end the game.", minimum=1),)
    record_fields = {"points": True}
    record_example = {"points": {"N": 0, "E": 13, "S": 8, "W": 5}}
    lower_wins = True

    @property
    def sides(self):
        return SEATS

    def side_of(self, seat):
        return seat

    def check_record(self, number, record, state, dealer):
        points = record["points"]
        if not isinstance(points, Mapping) or set(points) != set(SEATS):
            raise InvalidHand(number, "points needs a number for each of N, E, S, W", field="points")
        for seat in SEATS:
            require_int(number, points[seat], f"points.{seat}", 0, HEARTS_POINTS)
        if sum(points.values()) != HEARTS_POINTS:
            raise InvalidHand(number, f"points add up to {sum(points.values())}, not {HEARTS_POINTS}",
                              field="points")

    def score(self, record, state, dealer):
        return HandScore(delta=dict(record["points"]))

    def winner(self, totals, record, state, scored):
        if max(totals.values()) < self.target:
            return None
        lowest = [seat for seat, total in totals.items() if total == min(totals.values())]
        return lowest[0] if len(lowest) == 1 else None

    @classmethod
    def sample_hand(cls, rng: random.Random) -> dict[str, Any]:
        taken = [rng.randint(0, HEARTS_POINTS) for _ in range(3)]
        cuts = sorted(taken)
        return {"points": dict(zip(SEATS, (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], HEARTS_POINTS - cuts[2]),
                                   strict=True))}


HEARTS_POINTS = 26
# Ann (N) keeps lowest; Ben (E) passes the target of 40 on the third hand: Ann 5, Ben 42, Cat 17, Dan 14.
HEARTS_GAME = [{"N": 0, "E": 13, "S": 8, "W": 5}, {"N": 3, "E": 13, "S": 4, "W": 6}, {"N": 2, "E": 16, "S": 5, "W": 3}]


@pytest.fixture
def hearts(monkeypatch):
    """Hearts registered (its ruleset: no page is opened here) for one test."""
    monkeypatch.setitem(RULESETS, "hearts", None)  # restored (removed) after the test
    register(Hearts)
    return Hearts


@pytest.fixture
def hearts_played(hearts, owner, league, seats):
    game = game_start(game_type="hearts", seats=seats, by=owner, league=league, options={"target": 40})
    for points in HEARTS_GAME:
        game = hand_record(game=game, record={"points": points}, by=owner).game
    return game


def names_in_order(table):
    return [line["player"]["name"] for line in table["players"]]


def test_the_lowest_total_wins_and_the_others_place_from_the_lowest_up(hearts_played):
    game = hearts_played
    assert (game.status, game.winner, game.totals) == ("finished", "N", {"N": 5, "E": 42, "S": 17, "W": 14})
    assert Hearts({}).places(game.totals, ["N"]) == {"N": 0, "W": 1, "S": 2, "E": 3}


def test_the_score_command_scores_it_from_a_file(hearts, tmp_path):
    game = tmp_path / "hearts.json"
    game.write_text(json.dumps({"options": {"target": 40}, "hands": [{"points": points} for points in HEARTS_GAME]}))
    out = io.StringIO()
    call_command("score", "hearts", str(game), stdout=out)
    result = json.loads(out.getvalue())
    assert (result["game"], result["totals"], result["winner"]) == ("hearts", {"N": 5, "E": 42, "S": 17, "W": 14}, "N")


def test_its_standings_count_margins_against_the_lowest_other_total(hearts_played, league):
    league_standings_recompute(league_id=league.pk)
    [table] = league_standings(league=league, game_type="hearts")["game_types"]
    # Ann finished 9 under Dan, the best of the others; each of them finished over Ann's 5.
    assert [(line["player"]["name"], line["won"], line["points_for"], line["points_against"],
             line["average_margin"]) for line in table["players"]] == [
        ("Ann", 1, 5, 14, 9.0), ("Dan", 0, 14, 5, -9.0), ("Cat", 0, 17, 5, -12.0), ("Ben", 0, 42, 5, -37.0)]
    assert table["partnerships"] == []  # everyone played alone


def test_a_later_game_folded_into_its_standings_keeps_the_margins_a_recompute_gives(hearts_played, league,
                                                                                    owner, seats):
    league_standings_recompute(league_id=league.pk)
    game = game_start(game_type="hearts", seats=seats, by=owner, league=league, options={"target": 40})
    for points in ({"N": 10, "E": 6, "S": 10, "W": 0}, {"N": 13, "E": 5, "S": 8, "W": 0},
                   {"N": 20, "E": 3, "S": 2, "W": 1}):  # Dan wins on 1, nine under Ben's 14
        game = hand_record(game=game, record={"points": points}, by=owner).game
    assert league_standings_update(league_id=league.pk).mode == "incremental"
    [table] = league_standings(league=league, game_type="hearts")["game_types"]
    assert [(line["player"]["name"], line["won"], line["average_margin"]) for line in table["players"]] == [
        ("Dan", 1, (-9 + 13) / 2), ("Ann", 1, (9 - 42) / 2), ("Cat", 0, (-12 - 19) / 2), ("Ben", 0, (-37 - 13) / 2)]
    same_as_a_recompute(league)


def test_its_ratings_follow_the_places(hearts_played, league):
    league_standings_recompute(league_id=league.pk)
    [table] = league_standings(league=league, game_type="hearts")["game_types"]
    ranks = {line["player"]["name"]: line["rating"]["rank"] for line in table["players"]}
    assert ranks == {"Ann": 1, "Dan": 2, "Cat": 3, "Ben": 4}


def test_its_bg_stats_play_says_the_lowest_wins_and_ranks_by_place(hearts_played):
    game = Game.objects.select_related("league", "north", "east", "south", "west").get(pk=hearts_played.pk)
    play = bgstats_play(game)
    assert play["game"]["highestWins"] is False
    assert [(player["name"], player["score"], player["rank"], player["winner"], player["role"])
            for player in sorted(play["players"], key=lambda player: player["rank"])] == [
        ("Ann", 5, 1, True, ""), ("Dan", 14, 2, False, ""), ("Cat", 17, 3, False, ""), ("Ben", 42, 4, False, "")]


def test_a_backup_of_it_restores_to_the_same_game_and_standings(hearts_played, league, owner):
    league_standings_recompute(league_id=league.pk)
    document = league_export(league=league)
    assert [entry["game_type"] for entry in document["games"]] == ["hearts"]
    restored = league_restore(document=document, by=owner, name="Thursday Club again").league
    game = Game.objects.get(league=restored)
    assert (game.game_type, game.status, game.winner, game.totals) == (
        "hearts", "finished", "N", {"N": 5, "E": 42, "S": 17, "W": 14})
    league_standings_recompute(league_id=restored.pk)

    def lines(of):
        [table] = league_standings(league=of, game_type="hearts")["game_types"]
        return [{**line, "player": line["player"]["name"], "last_played": None} for line in table["players"]]

    assert lines(restored) == lines(league)


@pytest.fixture
def client_for_owner(owner):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    return client
