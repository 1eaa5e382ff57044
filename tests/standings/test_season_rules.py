"""Seasons: the league's owners create, rename, re-date and close them; their dates never overlap, their
names are unique in the league, and whatever is refused changes nothing."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from games.errors import InvalidInput, NotAllowed, StateConflict
from games.models import Season, Standing
from games.models.seasons import today
from games.models.standings import SeasonWatermark
from games.services import season_create, season_update

pytestmark = pytest.mark.django_db

AUTUMN = date(2026, 9, 1)


def dates(league) -> list[tuple[str, date, date | None]]:
    return list(Season.objects.filter(league=league).order_by("starts_on").values_list("name", "starts_on", "ends_on"))


@pytest.fixture
def autumn(league, owner):
    return season_create(league=league, name="Autumn 2026", starts_on=AUTUMN, ends_on=date(2026, 11, 30), by=owner)


def test_the_owner_creates_a_season_with_its_dates(league, owner, autumn):
    assert dates(league) == [("Autumn 2026", AUTUMN, date(2026, 11, 30))]
    assert autumn.created_by == owner


@pytest.mark.parametrize("starts_on, ends_on", [
    (date(2026, 11, 30), date(2026, 12, 31)),  # starts on autumn's last day
    (date(2026, 8, 1), AUTUMN),  # ends on autumn's first day
    (date(2026, 10, 1), date(2026, 10, 2)),  # inside it
    (date(2026, 1, 1), None),  # open from before it: runs on through it
])
def test_a_season_overlapping_another_is_refused_and_nothing_changes(league, owner, autumn, starts_on, ends_on):
    with pytest.raises(StateConflict, match='overlap "Autumn 2026"'):
        season_create(league=league, name="Other", starts_on=starts_on, ends_on=ends_on, by=owner)
    assert dates(league) == [("Autumn 2026", AUTUMN, date(2026, 11, 30))]


def test_seasons_side_by_side_do_not_overlap(league, owner, autumn):
    season_create(league=league, name="Winter 2026", starts_on=date(2026, 12, 1), by=owner)
    season_create(league=league, name="Summer 2026", starts_on=date(2026, 6, 1), ends_on=date(2026, 8, 31), by=owner)
    assert [name for name, _, _ in dates(league)] == ["Summer 2026", "Autumn 2026", "Winter 2026"]


def test_seasons_of_other_leagues_do_not_count_as_overlapping(owner, autumn):
    from games.services import league_create

    other = league_create(name="Friday Club", by=owner)
    twin = season_create(league=other, name="Autumn 2026", starts_on=AUTUMN, by=owner)
    assert (twin.league, twin.starts_on) == (other, AUTUMN)
    assert dates(autumn.league) == [("Autumn 2026", AUTUMN, date(2026, 11, 30))]


def test_a_season_ending_before_it_starts_is_refused(league, owner):
    with pytest.raises(InvalidInput, match="cannot end") as refused:
        season_create(league=league, name="Backwards", starts_on=AUTUMN, ends_on=AUTUMN - timedelta(days=1), by=owner)
    assert refused.value.field == "ends_on"
    assert not Season.objects.exists()


@pytest.mark.parametrize("name", ["Autumn 2026", "autumn  2026", " AUTUMN 2026 "])
def test_a_name_taken_in_the_league_is_refused_whatever_its_case(league, owner, autumn, name):
    with pytest.raises(InvalidInput, match="already has a season named") as refused:
        season_create(league=league, name=name, starts_on=date(2027, 1, 1), by=owner)
    assert refused.value.field == "name"
    assert Season.objects.count() == 1


def test_an_empty_name_or_a_bad_date_is_refused(league, owner):
    with pytest.raises(InvalidInput, match="needs a name"):
        season_create(league=league, name="  ", starts_on=AUTUMN, by=owner)
    with pytest.raises(InvalidInput, match="YYYY-MM-DD"):
        season_create(league=league, name="Autumn", starts_on="1st of September", by=owner)


@pytest.mark.parametrize("who", ["member", "scorekeeper", "stranger"])
def test_only_the_owners_manage_seasons(request, league, autumn, who):
    user = request.getfixturevalue(who)
    with pytest.raises(NotAllowed, match="owners"):
        season_create(league=league, name="Mine", starts_on=date(2027, 1, 1), by=user)
    with pytest.raises(NotAllowed):
        season_update(season=autumn, name="Renamed", by=user)
    with pytest.raises(NotAllowed):
        season_update(season=autumn, close=True, by=user)
    assert dates(league) == [("Autumn 2026", AUTUMN, date(2026, 11, 30))]


def test_the_owner_renames_a_season(league, owner, autumn):
    season_update(season=autumn, name="Autumn League 2026", by=owner)
    assert dates(league)[0][0] == "Autumn League 2026"
    season_create(league=league, name="Autumn 2026 play-offs", starts_on=date(2026, 12, 1), by=owner)
    with pytest.raises(InvalidInput, match="already has a season"):
        season_update(season=autumn, name="autumn 2026 play-offs", by=owner)


def test_closing_an_open_season_ends_it_today(league, owner):
    current = season_create(league=league, name="Now", starts_on=today() - timedelta(days=30), by=owner)
    season_update(season=current, close=True, by=owner)
    assert dates(league) == [("Now", today() - timedelta(days=30), today())]


def test_closing_a_closed_season_is_refused(league, owner, autumn):
    with pytest.raises(StateConflict, match="already closed"):
        season_update(season=autumn, close=True, by=owner)
    assert dates(league) == [("Autumn 2026", AUTUMN, date(2026, 11, 30))]


def test_changing_dates_into_another_season_is_refused(league, owner, autumn):
    winter = season_create(league=league, name="Winter", starts_on=date(2026, 12, 1), by=owner)
    with pytest.raises(StateConflict, match="overlap"):
        season_update(season=winter, starts_on=date(2026, 11, 15), by=owner)
    with pytest.raises(StateConflict, match="overlap"):
        season_update(season=autumn, ends_on=None, by=owner)  # reopened, it would run into winter
    assert dates(league) == [("Autumn 2026", AUTUMN, date(2026, 11, 30)), ("Winter", date(2026, 12, 1), None)]


def test_starting_the_next_season_closes_the_open_one_today(league, owner):
    season_create(league=league, name="First", starts_on=today() - timedelta(days=90), by=owner)
    season_create(league=league, name="Second", by=owner)
    assert dates(league) == [("First", today() - timedelta(days=90), today()),
                             ("Second", today() + timedelta(days=1), None)]


def test_the_open_season_can_be_closed_yesterday_so_the_next_starts_today(league, owner):
    season_create(league=league, name="First", starts_on=today() - timedelta(days=90), by=owner)
    second = season_create(league=league, name="Second", close_previous_on=today() - timedelta(days=1), by=owner)
    assert second.is_current and second.starts_on == today()


def test_after_a_closed_season_the_next_starts_today_or_the_day_after_it_ends(league, owner):
    season_create(league=league, name="Long ago", starts_on=date(2020, 1, 1), ends_on=date(2020, 3, 1), by=owner)
    assert season_create(league=league, name="Now", by=owner).starts_on == today()


def test_the_next_season_follows_the_current_one_and_stops_before_a_planned_one(league, owner):
    now_ends = today() + timedelta(days=10)
    season_create(league=league, name="Now", starts_on=today() - timedelta(days=30), ends_on=now_ends, by=owner)
    planned = today() + timedelta(days=100)
    season_create(league=league, name="Planned", starts_on=planned, ends_on=planned + timedelta(days=90), by=owner)
    season_create(league=league, name="Next", by=owner)
    assert dates(league) == [("Now", today() - timedelta(days=30), now_ends),
                             ("Next", now_ends + timedelta(days=1), planned - timedelta(days=1)),
                             ("Planned", planned, planned + timedelta(days=90))]


def test_a_league_without_seasons_starts_its_first_today(league, owner):
    assert season_create(league=league, name="First", by=owner).starts_on == today()


def test_a_refused_next_season_leaves_the_open_one_open(league, owner):
    season_create(league=league, name="First", starts_on=today() - timedelta(days=10), by=owner)
    with pytest.raises(InvalidInput, match="already has a season"):
        season_create(league=league, name="first", by=owner)
    with pytest.raises(InvalidInput, match="cannot end"):
        season_create(league=league, name="Second", close_previous_on=today() - timedelta(days=20), by=owner)
    assert dates(league) == [("First", today() - timedelta(days=10), None)]


def test_the_same_idempotency_key_creates_one_season(league, owner):
    first = season_create(league=league, name="First", starts_on=AUTUMN, by=owner, idempotency_key="k-1")
    again = season_create(league=league, name="First", starts_on=AUTUMN, by=owner, idempotency_key="k-1")
    assert first.pk == again.pk and Season.objects.count() == 1


def test_a_new_season_and_new_dates_are_computed_after_the_commit(league, owner, players, play_game,
                                                                  django_capture_on_commit_callbacks):
    play_game("smudge", winner="NS")
    with django_capture_on_commit_callbacks(execute=True):
        season = season_create(league=league, name="Now", starts_on=today() - timedelta(days=1), by=owner)
    assert SeasonWatermark.objects.filter(season=season).exists()
    assert Standing.objects.filter(season=season, game_type="smudge").count() == 6

    with django_capture_on_commit_callbacks(execute=True):
        season_update(season=season, starts_on=today() + timedelta(days=1), by=owner)
    assert not Standing.objects.filter(season=season).exists()

    with django_capture_on_commit_callbacks(execute=True) as queued:
        season_update(season=season, name="Renamed", by=owner)
    assert queued == []  # a new name changes no standings
