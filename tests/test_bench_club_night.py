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


def test_a_night_whose_watchers_ask_a_gunicorn_of_their_own_says_so_in_its_rows_and_its_section():
    polls = {"polls": 10, "per_second": 5.0, "share_304": 1.0, "errors": 0, "p50_ms": 5.0, "p99_ms": 9.0,
             "cpu_web_ms": 1.0, "cpu_database_ms": 1.0, "cpu_clients_ms": 1.0, "seconds": 2.0}
    hands = {"hands": 10, "p50_ms": 10.0, "p99_ms": 20.0, "cpu_per_second": 0.1}
    night = {"tables": 20, "watchers": 81, "web_workers": 2, "web_threads": 4, "round_hands": 50, "poll_seconds": 2.0,
             "pace": 1.0, "hand_seconds": 180.0, "probes": 5, "room_board": False, "board_polled": "/b/",
             "unchanged": polls, "drawn": polls, "watching_real": polls, "recording_alone": hands,
             "recording_watched": hands, "real_alone": hands, "real_watched": hands}
    shared = club_night.target_rows(night, 1.2)
    apart = club_night.target_rows({**night, "poll_workers": 1}, 1.2)
    assert all("of their own" not in row[0] for row in shared)
    assert "the watchers asking a gunicorn of their own" in apart[0][0]
    section = " ".join(club_night.doc_lines({**night, "poll_workers": 1}))
    assert "a gunicorn of their own on the same machine (1 worker of 4 threads)" in section
