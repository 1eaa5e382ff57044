"""export_league and import_league: a league as a JSON document that round-trips exactly."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from games.demo import load_demo
from games.integrity import game_mismatches
from games.models import Game, League, Season
from games.rules import get_ruleset


@pytest.fixture
def demo_league(db):
    return load_demo()


def export(slug, tmp_path, name="league.json") -> dict:
    path = tmp_path / name
    call_command("export_league", slug, output=str(path))
    return json.loads(path.read_text())


def test_export_then_import_then_export_gives_the_same_document(demo_league, tmp_path):
    Season.objects.create(league=demo_league, name="Winter 2025", starts_on=date(2025, 1, 1),
                          ends_on=date(2025, 3, 31))
    Season.objects.create(league=demo_league, name="Spring 2025", starts_on=date(2025, 4, 1))
    first = export(demo_league.slug, tmp_path)
    assert first["seasons"] == [{"name": "Winter 2025", "starts_on": "2025-01-01", "ends_on": "2025-03-31"},
                                {"name": "Spring 2025", "starts_on": "2025-04-01", "ends_on": None}]
    # Import it under another slug and export that: identical but for the slug.
    first["league"]["slug"] = "copy"
    (tmp_path / "copy.json").write_text(json.dumps(first))
    call_command("import_league", str(tmp_path / "copy.json"))
    assert export("copy", tmp_path, "again.json") == first
    copy = League.objects.get(slug="copy")
    assert copy.games.count() == demo_league.games.count()
    assert copy.seasons.count() == 2
    for game in Game.objects.filter(league=copy).prefetch_related("hands"):
        assert game_mismatches(game) == []


def test_the_document_can_be_rescored_by_the_engine_alone(demo_league, tmp_path):
    document = export(demo_league.slug, tmp_path)
    stored = {game.started_at.isoformat(): game for game in demo_league.games.all()}
    for entry in document["games"]:
        state = get_ruleset(entry["game_type"], entry["options"]).replay([h["record"] for h in entry["hands"]])
        assert dict(state.totals) == stored[entry["started_at"]].totals


def test_an_import_with_a_bad_hand_stores_nothing(demo_league, tmp_path):
    document = export(demo_league.slug, tmp_path)
    document["league"]["slug"] = "broken"
    document["games"][0]["hands"][0]["record"] = {"nonsense": True}
    (tmp_path / "broken.json").write_text(json.dumps(document))
    leagues_before = League.objects.count()
    with pytest.raises(CommandError, match="game G"):
        call_command("import_league", str(tmp_path / "broken.json"))
    assert League.objects.count() == leagues_before


def test_an_existing_slug_is_refused(demo_league, tmp_path):
    export(demo_league.slug, tmp_path)
    with pytest.raises(CommandError, match="already exists") as refused:
        call_command("import_league", str(tmp_path / "league.json"))
    assert str(refused.value) == f'a league with the slug "{demo_league.slug}" already exists'


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": "1"}, 'version "1" is not supported (only 1)'),
        ({"version": None}, "version null is not supported (only 1)"),
        ({"players": {}}, 'document: "players" must be a list, not {}'),
        ({"league": []}, 'document: "league" must be an object, not []'),
    ],
)
def test_a_malformed_document_is_refused_in_json_terms(demo_league, tmp_path, change, message):
    document = export(demo_league.slug, tmp_path)
    document["league"]["slug"] = "fresh"
    document.update(change)
    (tmp_path / "bad.json").write_text(json.dumps(document))
    with pytest.raises(CommandError) as refused:
        call_command("import_league", str(tmp_path / "bad.json"))
    assert str(refused.value) == message


def test_export_of_an_unknown_league_says_so(db):
    with pytest.raises(CommandError, match="there is no league 'nope'"):
        call_command("export_league", "nope")
