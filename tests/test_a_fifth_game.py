"""Adding a game takes a ruleset, a hand form and its template, and nothing else.

A small made-up game, "Tens", is registered for these tests only: each hand, a caller names the
hand and the two partnerships share ten points; taking all ten is a sweep. It is then started,
played, shown, finished and counted through every door without any other change to the code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from django import forms
from django.urls import reverse

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
from games.standings.services import league_standings_recompute

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
    new = client.get(reverse("new-game") + f"?type=tens&league={league.slug}")
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


@pytest.fixture
def client_for_owner(owner):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    return client
