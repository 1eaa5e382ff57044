"""A season's standings, ratings and figures count only the results that finished within its dates.

Its rows are kept like the league's all-time rows (folded in, refreshed after corrections, recomputed),
and whatever path an update takes they are exactly the rows a full recompute of the season stores.
"""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import (
    ChangedResult,
    CountedResult,
    Game,
    PlayerFigures,
    PlayerRating,
    RatingChange,
    Season,
    Standing,
)
from games.models.seasons import start_of, today
from games.models.standings import SeasonWatermark
from games.services import hand_correct, hand_record, hand_undo
from games.standings.scope import Scope
from games.standings.services import (
    league_standings_recompute,
    league_standings_update,
    recompute,
    stale_league_ids,
)

from .conftest import ONE_HAND

pytestmark = pytest.mark.django_db

SKIPPED = {"id", "computed_at"}
MODELS = (Standing, PlayerRating, RatingChange, PlayerFigures, CountedResult)


def stored(league, season=None) -> dict[str, list[str]]:
    """Every row of one scope (the league's all-time rows, or one season's), as sorted JSON lines."""
    out = {}
    for model in MODELS:
        fields = [field.attname for field in model._meta.concrete_fields if field.name not in SKIPPED]
        rows = model.objects.filter(league=league, season=season).values(*fields)
        out[model.__name__] = sorted(json.dumps(row, default=str, sort_keys=True) for row in rows)
    return out


def watermark(season) -> dict:
    return SeasonWatermark.objects.filter(season=season).values(
        "games", "matches", "last_finished_at", "last_kind", "last_id", "sequences").get()


def same_as_a_recompute(league, season) -> None:
    """The season's stored rows and watermark are those a full recompute of the league stores."""
    kept, mark = stored(league, season), watermark(season)
    league_standings_recompute(league_id=league.pk)
    assert stored(league, season) == kept
    assert watermark(season) == mark


def make_season(league, name, starts_on, ends_on=None) -> Season:
    return Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)


def finished_on(game, day) -> None:
    """Move a finished game to ``day`` (saving it and noting the change, as the services do)."""
    Game.objects.filter(pk=game.pk).update(finished_at=start_of(day) + timedelta(hours=20),
                                           updated_at=timezone.now())
    ChangedResult.objects.create(league_id=game.league_id, game_id=game.pk)


def update(league):
    return league_standings_update(league_id=league.pk)


def season_summary(summary, season):
    return next(found for found in summary.seasons if found.season_id == season.pk)


@pytest.fixture
def seasons(league):
    """Last spring (closed) and this season (open since a week ago)."""
    spring = make_season(league, "Spring", today() - timedelta(days=200), today() - timedelta(days=100))
    now = make_season(league, "Autumn", today() - timedelta(days=7))
    return spring, now


def test_a_season_counts_only_the_games_that_finished_within_its_dates(league, players, play_game, seasons):
    spring, autumn = seasons
    old = play_game("smudge", winner="NS")
    finished_on(old, spring.starts_on + timedelta(days=3))
    play_game("smudge", winner="EW")
    play_game("smudge", winner="EW")
    update(league)

    ann = players[0]

    def line(season):
        return Standing.objects.get(league=league, season=season, game_type="smudge", player=ann, partner=None)

    assert (line(None).played, line(None).won) == (3, 1)
    assert (line(spring).played, line(spring).won) == (1, 1)
    assert (line(autumn).played, line(autumn).won) == (2, 0)
    assert PlayerFigures.objects.get(league=league, season=autumn, game_type="smudge", player=ann).hands == 2


def test_a_season_rating_starts_fresh_at_the_season_start(league, players, play_game, seasons):
    spring, autumn = seasons
    for _ in range(3):
        finished_on(play_game("spades", winner="NS"), spring.starts_on)
    play_game("spades", winner="NS")
    update(league)

    ann = players[0]
    all_time = PlayerRating.objects.get(league=league, season=None, game_type="spades", player=ann)
    this_season = PlayerRating.objects.get(league=league, season=autumn, game_type="spades", player=ann)
    assert (all_time.rated, this_season.rated) == (4, 1)
    # One win from the start (mu 25) is less than a fourth win in a row.
    assert this_season.mu < all_time.mu
    assert RatingChange.objects.filter(league=league, season=autumn, player=ann).values_list(
        "sequence", flat=True).get() == 1


def test_a_game_outside_every_season_counts_only_all_time(league, players, play_game, seasons):
    between = play_game("smudge", winner="NS")
    finished_on(between, today() - timedelta(days=50))  # after spring, before autumn
    update(league)

    assert Standing.objects.filter(league=league, season=None).exists()
    assert not Standing.objects.filter(league=league, season__isnull=False).exists()


def test_new_games_are_folded_into_the_current_season_as_a_recompute_would_store_them(
        league, players, make_seats, play_game, seasons):
    spring, autumn = seasons
    ann, ben, cat, dan = players
    update(league)  # both seasons computed, empty
    tables = [make_seats(ann, ben, cat, dan), make_seats(ben, ann, dan, cat), make_seats(cat, dan, ann, ben)]
    plan = [("spades", "NS"), ("smudge", "EW"), ("thieving_stink", "NS"), ("trumps", "EW"), ("spades", "EW"),
            ("smudge", "NS")]
    for number, (game_type, winner) in enumerate(plan):
        play_game(game_type, winner=winner, seats=tables[number % len(tables)])
        summary = update(league)
        assert summary.mode == "incremental"
        assert season_summary(summary, autumn).mode == "incremental"
        assert spring.pk not in {found.season_id for found in summary.seasons}  # nothing there changed

    assert RatingChange.objects.filter(league=league, season=autumn).count() == 4 * len(plan)
    same_as_a_recompute(league, autumn)
    assert stored(league, autumn)["Standing"] and not stored(league, spring)["Standing"]


def test_corrections_and_undos_in_a_season_leave_the_rows_of_a_recompute(league, owner, players, play_game,
                                                                         seasons):
    spring, autumn = seasons
    first = play_game("spades", winner="NS")
    play_game("spades", winner="EW")
    play_game("smudge", winner="NS")
    update(league)

    hand_correct(game=first, number=1, record=ONE_HAND["spades"]["EW"], by=owner, reason="bids misread")
    summary = update(league)
    assert season_summary(summary, autumn).mode == "partial"
    same_as_a_recompute(league, autumn)

    last = Game.objects.filter(league=league, game_type="smudge").get()
    hand_undo(game=last, by=owner)
    summary = update(league)
    assert season_summary(summary, autumn).mode == "partial"
    assert not Standing.objects.filter(league=league, season=autumn, game_type="smudge").exists()
    same_as_a_recompute(league, autumn)

    hand_record(game=Game.objects.get(pk=last.pk), record=ONE_HAND["smudge"]["EW"], by=owner)
    update(league)
    same_as_a_recompute(league, autumn)


def test_a_game_moved_to_another_season_leaves_both_as_a_recompute_would(league, players, play_game, seasons):
    spring, autumn = seasons
    games = [play_game("smudge", winner=winner) for winner in ("NS", "EW", "NS")]
    finished_on(games[0], spring.starts_on)
    update(league)
    assert watermark(spring)["games"] == 1 and watermark(autumn)["games"] == 2

    finished_on(games[1], spring.ends_on)
    summary = update(league)

    # Spring gains a game after its last (folded in); autumn loses one (refreshed).
    assert {found.season_id: found.mode for found in summary.seasons} == {spring.pk: "incremental",
                                                                          autumn.pk: "partial"}
    assert watermark(spring)["games"] == 2 and watermark(autumn)["games"] == 1
    same_as_a_recompute(league, spring)
    same_as_a_recompute(league, autumn)


def test_a_new_season_and_a_season_whose_dates_changed_are_recomputed_by_the_next_update(
        league, players, play_game, seasons):
    spring, autumn = seasons
    play_game("smudge", winner="NS")
    update(league)
    assert update(league).seasons == ()  # nothing changed anywhere

    autumn.starts_on = today() + timedelta(days=1)  # the game is no longer in it
    autumn.save()
    SeasonWatermark.objects.filter(season=autumn).delete()  # what changing its dates does
    assert league.pk in stale_league_ids()
    summary = update(league)

    assert (season_summary(summary, autumn).mode, season_summary(summary, autumn).games) == ("recompute", 0)
    assert not Standing.objects.filter(season=autumn).exists()
    assert stale_league_ids() == []


def test_the_all_time_rows_stay_those_of_a_league_without_seasons(league, players, play_game, seasons, recompute):
    play_game("spades", winner="NS")
    play_game("smudge", winner="EW")
    update(league)
    with_seasons = stored(league)
    Season.objects.filter(league=league).delete()  # and their rows with them
    assert not Standing.objects.filter(season__isnull=False).exists()
    recompute()
    assert stored(league) == with_seasons


def test_a_scope_recompute_touches_no_other_scope(league, players, play_game, seasons):
    spring, autumn = seasons
    play_game("smudge", winner="NS")
    update(league)
    before = stored(league), stored(league, spring)
    with_lock = Scope.of(autumn)
    Standing.objects.filter(season=autumn).update(won=99)
    recompute(with_lock, 0.0)
    assert (stored(league), stored(league, spring)) == before
    assert not Standing.objects.filter(season=autumn, won=99).exists()


def test_rebuild_standings_rebuilds_every_season_too(league, players, play_game, seasons):
    from django.core.management import call_command

    spring, autumn = seasons
    finished_on(play_game("smudge", winner="NS"), spring.starts_on)
    play_game("smudge", winner="EW")
    update(league)
    kept = stored(league), stored(league, spring), stored(league, autumn)
    for model in MODELS:
        model.objects.all().delete()
    SeasonWatermark.objects.all().delete()

    call_command("rebuild_standings", "--league", league.slug, "--no-progress", stdout=io.StringIO())

    assert (stored(league), stored(league, spring), stored(league, autumn)) == kept
    assert SeasonWatermark.objects.count() == 2
