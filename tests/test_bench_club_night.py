"""`make bench`'s club night: a night made through the services, every watcher opening its page and then answered
304 while nothing changes, and the hands the bench records fitting in the night's round."""

import pytest
from django.test import Client

from bench import club_night
from bench.recording import CpuMeter

pytestmark = pytest.mark.django_db


@pytest.fixture
def bench_night(settings):
    return club_night.night(secret_key=settings.SECRET_KEY, tables=3)


def test_the_bench_night_is_a_round_of_the_services_seating_every_player_checked_in(bench_night):
    from games.models import Night, NightPlayer

    night = Night.objects.get(pk=bench_night.night_id)
    round_ = night.night_rounds.get()
    seated = sorted(pk for table in round_.tables.select_related("game") for pk in table.game.seat_ids.values())
    assert night.movement == Night.Movement.INDIVIDUAL and night.round_end == Night.RoundEnd.HANDS
    assert seated == sorted(NightPlayer.objects.filter(night=night).values_list("player_id", flat=True))
    assert sorted(bench_night.games) == sorted(round_.tables.values_list("game_id", flat=True))
    assert round_.sitting_out == []


def test_four_phones_follow_each_table_and_one_tv_the_room(bench_night):
    assert len(bench_night.watchers) == 4 * 3 + 1
    assert bench_night.watchers[-1] is bench_night.board
    for game in bench_night.games:
        assert sum(f"/games/{game}/" in watcher.path for watcher in bench_night.watchers[:-1]) == 4


def test_every_watcher_opens_its_page_and_is_answered_304_while_nothing_changes(bench_night):
    tv = Client().get(bench_night.board.path, HTTP_COOKIE=bench_night.board.cookie, HTTP_ACCEPT="text/html")
    assert tv.status_code == 200
    bench_night.board.path = club_night.asked_by(tv.content.decode(), bench_night.board.path)
    for watcher in bench_night.watchers:
        opened = Client().get(watcher.path, HTTP_COOKIE=watcher.cookie, HTTP_ACCEPT="text/html")
        assert opened.status_code == 200, watcher.name
        again = Client().get(watcher.path, HTTP_COOKIE=watcher.cookie, HTTP_ACCEPT="text/html",
                             HTTP_IF_NONE_MATCH=opened["ETag"])
        assert again.status_code == 304, watcher.name


def test_the_hands_a_run_records_fit_in_the_nights_round():
    from games.services.nights import HANDS_RANGE

    assert club_night.ROUND_HANDS <= HANDS_RANGE[1]
    assert club_night.hands_a_table(seconds=20, real_seconds=60, pace=1.0,
                                    hand_seconds=club_night.HAND_SECONDS) <= club_night.ROUND_HANDS


def test_a_run_asking_a_table_for_more_hands_than_its_round_has_is_refused_before_it_starts():
    with pytest.raises(ValueError, match="a round of the night has 50"):
        club_night.run("http://127.0.0.1:9", meter=CpuMeter(), secret_key="unused", seconds=60)


def test_at_a_real_nights_pace_the_room_board_sees_every_tables_hands():
    measured = {"cpu_web_ms": 1.0, "cpu_database_ms": 0.0}
    night = {"watchers": 81, "tables": 20, "poll_seconds": 2.0, "hand_seconds": 180.0, "unchanged": measured,
             "drawn": measured}
    share, _ = club_night.real_night({**night, "room_board": False})
    assert share == pytest.approx(1 - 2 / 180)
    share, _ = club_night.real_night({**night, "room_board": True})
    assert share == pytest.approx(1 - (80 * 2 / 180 + 20 * 2 / 180) / 81)
