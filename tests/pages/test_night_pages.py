"""The club night's pages: starting a night from the league, the director's page and what it refuses, checking in
with the night's code, the player's guide card and the night's standings."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Night, NightPlayer, NightRound, NightSubstitution
from games.services import hand_record, night_check_in, night_round_start, night_start, player_create
from tests.nights.conftest import EW_HAND, NAMES, NS_HAND

pytestmark = pytest.mark.django_db

NINE = NAMES[:9]


@pytest.fixture
def room(owner, league):
    """Thirteen players of the league, by name."""
    return {name: player_create(name=name, by=owner, league=league) for name in NAMES}


@pytest.fixture
def night(owner, league):
    return night_start(league=league, by=owner, game_type="spades", round_end="hands", hands=2, rounds=3,
                       name="Thursday night")


@pytest.fixture
def arrive(owner, room):
    def check_in(night, *names):
        for name in names:
            night_check_in(night=night, by=owner, player=room[name])
    return check_in


def night_url(night) -> str:
    return reverse("night", args=[night.pk])


def act(client, night, action, **fields):
    return client.post(night_url(night), {"action": action, **fields})


def errors(response, form: str) -> dict[str, list[str]]:
    """What the page shows as refused on one of its forms: field -> messages ('__all__': above the form)."""
    return {name: list(messages) for name, messages in response.context[form].errors.items()}


def as_sent(client, url) -> dict[str, str]:
    """The form on the page at ``url`` as a browser sends it untouched: every field with its value shown."""
    form = client.get(url).context["form"]
    return {name: "" if form[name].value() is None else str(form[name].value()) for name in form.fields}


def play(game, *records, by):
    for record in records:
        game = hand_record(game=game, record=record, by=by).game
    return game


# --- starting a night -------------------------------------------------------------------------------------


def test_the_league_page_offers_organisers_a_club_night(owner_client, league, client, member):
    page = owner_client.get(reverse("league", args=[league.slug])).content.decode()
    assert reverse("night-new", args=[league.slug]) in page
    client.force_login(member)
    assert reverse("night-new", args=[league.slug]) not in client.get(reverse("league", args=[league.slug])).content.decode()


def test_only_the_leagues_owners_and_scorekeepers_start_a_night(client, league, member, scorekeeper):
    url = reverse("night-new", args=[league.slug]) + "?type=spades"
    assert client.get(url).status_code == 302  # signed out: to the sign-in page
    client.force_login(member)
    assert client.get(url).status_code == 403
    assert client.post(url, {"rounds": "3", "round_end": "hands", "hands": "2", "movement": "individual"}).status_code == 403
    client.force_login(scorekeeper)
    assert client.get(url).status_code == 200
    assert not Night.objects.exists()


def test_a_night_started_from_its_form_plays_the_chosen_game_by_the_house_rules(owner_client, league):
    url = reverse("night-new", args=[league.slug])
    assert owner_client.get(url)["Location"].startswith(url + "?type=")
    page = owner_client.get(url + "?type=spades")
    assert "opt_last_hand" not in page.context["form"].fields  # the rounds say when a game ends
    response = owner_client.post(url + "?type=spades", {
        **as_sent(owner_client, url + "?type=spades"), "name": "  Thursday   night ", "round_end": "hands",
        "hands": "4", "minutes": "", "rounds": "3", "movement": "pairs", "opt_target": "300",
        "opt_first_dealer": "E"})
    night = Night.objects.get()
    assert response["Location"] == reverse("night", args=[night.pk])
    assert (night.name, night.game_type, night.round_end, night.hands, night.minutes, night.rounds, night.movement) == (
        "Thursday night", "spades", "hands", 4, None, 3, "pairs")
    assert (night.options["target"], night.options["first_dealer"]) == (300, "E")


GOOD_NIGHT = {"round_end": "hands", "hands": "2", "minutes": "", "rounds": "3", "movement": "individual",
              "opt_target": "300"}


@pytest.mark.parametrize(("changes", "field"), [
    ({"rounds": "0"}, "rounds"),
    ({"rounds": "61"}, "rounds"),
    ({"rounds": "three"}, "rounds"),
    ({"rounds": ""}, "rounds"),
    ({"hands": "0"}, "hands"),
    ({"hands": "51"}, "hands"),
    ({"hands": ""}, "hands"),
    ({"round_end": "time", "minutes": "4"}, "minutes"),
    ({"round_end": "time", "minutes": ""}, "minutes"),
    ({"round_end": "forever"}, "round_end"),
    ({"movement": "swiss"}, "movement"),
    ({"name": "x" * 121}, "name"),
    ({"opt_target": "-5"}, "opt_target"),
    ({"opt_target": "lots"}, "opt_target"),
    ({"opt_first_dealer": "Q"}, "opt_first_dealer"),
])
def test_every_bad_value_of_the_night_form_shows_beside_its_field_and_starts_nothing(owner_client, league, changes,
                                                                                        field):
    url = reverse("night-new", args=[league.slug]) + "?type=spades"
    response = owner_client.post(url, {**as_sent(owner_client, url), **GOOD_NIGHT, **changes})
    assert response.status_code == 400
    assert field in errors(response, "form")
    assert not Night.objects.exists()


# --- the director's page ----------------------------------------------------------------------------------


def test_the_director_checks_players_in_by_tapping_their_names_and_adds_a_new_one(owner_client, night, room):
    response = act(owner_client, night, "check-in", player=room["Ann"].pk)
    assert response.status_code == 302
    act(owner_client, night, "check-in", name="  Zoe  Quinn ")
    assert [entrant.player.name for entrant in NightPlayer.objects.filter(night=night)] == ["Ann", "Zoe Quinn"]
    page = owner_client.get(night_url(night))
    assert page.context["director"]
    assert [entrant.player.name for entrant, _ in page.context["here"]] == ["Ann", "Zoe Quinn"]
    assert "Ann" not in [player.name for player in page.context["not_here"]]


def test_a_new_name_like_a_players_asks_before_adding_them(owner_client, night, room):
    response = act(owner_client, night, "check-in", name="ann")
    assert response.status_code == 400 and "name" in errors(response, "check_in_form")
    assert response.context["check_in_form"].asks_to_confirm_names and not NightPlayer.objects.exists()
    assert act(owner_client, night, "check-in", name="ann", allow_similar="on").status_code == 302
    assert [entrant.player.name for entrant in NightPlayer.objects.all()] == ["ann"]


def test_a_time_limited_round_says_when_time_is_up(owner_client, owner, league, room):
    night = night_start(league=league, by=owner, game_type="spades", round_end="time", minutes=25)
    for name in NINE:
        night_check_in(night=night, by=owner, player=room[name])
    round_ = night_round_start(night=night, by=owner)
    page = owner_client.get(night_url(night)).content.decode()
    assert f"Time is up at {timezone.localtime(round_.time_up_at):%H:%M}" in page


def test_a_signed_in_player_not_yet_checked_in_is_told_so(client, night, owner, member, room, league):
    from games.services import player_link

    player_link(league=league, player=room["Cid"], user=member, by=owner)
    client.force_login(member)
    assert "Cid is not checked in" in client.get(night_url(night)).content.decode()
    night_check_in(night=night, by=owner, player=room["Cid"])
    assert client.get(night_url(night)).context["card"].text == "The first round has not started yet"


@pytest.mark.parametrize(("action", "fields", "form", "field"), [
    ("check-in", {"player": "999999"}, "check_in_form", "player"),
    ("check-in", {"player": "nobody"}, "check_in_form", "player"),
    ("check-in", {}, "check_in_form", "name"),
    ("check-in", {"name": "x" * 81}, "check_in_form", "name"),
    ("check-out", {"player": "Ben"}, "check_out_form", "player"),
    ("substitute", {"leaving": "", "arriving": ""}, "substitute_form", "leaving"),
    ("move", {"table": "7", "to": "3"}, "move_form", "table"),
    ("move", {"table": "1", "to": "abc"}, "move_form", "to"),
    ("end-table", {"table": "9"}, "end_table_form", "table"),
])
def test_every_bad_value_of_a_director_form_shows_beside_its_field_and_changes_nothing(
        owner_client, night, arrive, owner, action, fields, form, field):
    arrive(night, *NINE)
    night_round_start(night=night, by=owner)
    before = (list(NightPlayer.objects.values_list("player_id", "left_at")), NightRound.objects.count(),
              list(Game.objects.values_list("pk", "status", "north_id")))
    response = act(owner_client, night, action, **fields)
    assert response.status_code == 400
    assert field in errors(response, form)
    assert (list(NightPlayer.objects.values_list("player_id", "left_at")), NightRound.objects.count(),
            list(Game.objects.values_list("pk", "status", "north_id"))) == before


@pytest.mark.parametrize(("action", "fields", "form", "field", "says"), [
    ("check-in", {"player": "Ann"}, "check_in_form", "player", "Ann is already checked in"),
    ("check-out", {"player": "Ann"}, "check_out_form", "__all__", "Ann is playing at table 1"),
    ("substitute", {"leaving": "Ann", "arriving": "Eve"}, "substitute_form", "arriving", "Eve is playing at table 2"),
    ("substitute", {"leaving": "Ida", "arriving": "Jo"}, "substitute_form", "leaving", "Ida has no seat"),
    ("move", {"table": "1", "to": "1"}, "move_form", "to", "table 1 is table 1 already"),
    ("move", {"table": "1", "to": "100"}, "move_form", "to", "from 1 to 99"),
    ("round", {"idempotency_key": "r2"}, "round_form", "__all__", "round 1 is still being played"),
])
def test_what_the_services_refuse_shows_beside_the_right_field(owner_client, night, arrive, owner, room, action,
                                                              fields, form, field, says):
    arrive(night, *NINE)
    night_round_start(night=night, by=owner)
    fields = {name: str(room[value].pk) if value in room else value for name, value in fields.items()}
    response = act(owner_client, night, action, **fields)
    assert response.status_code in (400, 409)
    shown = errors(response, form)
    assert any(says in message for message in shown.get(field, [])), shown
    assert says in response.content.decode().replace("&#x27;", "'")
    assert NightRound.objects.count() == 1 and not NightSubstitution.objects.exists()


def test_a_round_needs_four_players_and_says_so(owner_client, night, arrive):
    arrive(night, "Ann", "Ben", "Cid")
    response = act(owner_client, night, "round", idempotency_key="r1")
    assert response.status_code in (400, 409)
    assert any("at least four players" in message for message in errors(response, "round_form")["__all__"])
    assert not NightRound.objects.exists()


@pytest.mark.parametrize("who", ["member", "stranger", "anonymous"])
@pytest.mark.parametrize(("action", "fields"), [
    ("check-in", {"player": "Jo"}), ("check-in", {"name": "Zed"}), ("check-out", {"player": "Ann"}),
    ("round", {"idempotency_key": "x"}), ("move-on", {"m-move_on": "on"}), ("end", {"end_tables": "on"}),
    ("code", {}), ("substitute", {"leaving": "Ann", "arriving": "Jo"}), ("move", {"table": "1", "to": "5"}),
    ("end-table", {"table": "1"}),
])
def test_nobody_but_the_organisers_directs_the_night(client, night, arrive, owner, room, member, stranger, who, action,
                                                     fields):
    arrive(night, *NINE)
    night_round_start(night=night, by=owner)
    if who != "anonymous":
        client.force_login(member if who == "member" else stranger)
    before = (list(NightPlayer.objects.values_list("player_id", "left_at", "pair")), NightRound.objects.count(),
              list(Game.objects.values_list("pk", "status", "north_id")), Night.objects.get().code,
              Night.objects.get().status)
    fields = {name: str(room[value].pk) if value in room else value for name, value in fields.items()}
    response = act(client, night, action, **fields)
    assert response.status_code == 403
    assert (list(NightPlayer.objects.values_list("player_id", "left_at", "pair")), NightRound.objects.count(),
            list(Game.objects.values_list("pk", "status", "north_id")), Night.objects.get().code,
            Night.objects.get().status) == before
    page = client.get(night_url(night))
    assert page.status_code == 200 and not page.context.get("director")
    assert client.get(reverse("night-check-in-qr", args=[night.pk])).status_code in (403, 404)


def test_a_private_leagues_night_is_not_found_by_outsiders(client, night, league, stranger):
    league.is_public = False
    league.save()
    client.force_login(stranger)
    assert client.get(night_url(night)).status_code == 404
    assert act(client, night, "code").status_code == 404


def test_an_unknown_action_is_refused(owner_client, night):
    assert act(owner_client, night, "explode").status_code == 403


def test_the_next_round_starts_when_every_table_is_done_or_by_moving_on(owner_client, night, arrive, owner):
    arrive(night, *NINE)
    act(owner_client, night, "round", idempotency_key="r1")
    first = NightRound.objects.get()
    page = owner_client.get(night_url(night))
    assert not page.context["can_start"] and page.context["late_now"] == [1, 2]
    assert "Move on without waiting" in page.content.decode()
    tables = list(first.tables.order_by("number").select_related("game"))
    play(tables[0].game, NS_HAND, NS_HAND, by=owner)
    # A retried post of the same key starts one round.
    act(owner_client, night, "move-on", **{"m-move_on": "on", "m-idempotency_key": "r2"})
    act(owner_client, night, "move-on", **{"m-move_on": "on", "m-idempotency_key": "r2"})
    assert NightRound.objects.count() == 2
    page = owner_client.get(night_url(night))
    assert [round_ for round_, _ in page.context["late"]] == [1]


def test_the_director_ends_the_night_with_its_tables(owner_client, night, arrive, owner):
    arrive(night, *NINE)
    night_round_start(night=night, by=owner)
    game = NightRound.objects.get().tables.get(number=1).game
    play(game, NS_HAND, by=owner)
    act(owner_client, night, "end", end_tables="on")
    night.refresh_from_db()
    game.refresh_from_db()
    assert (night.status, game.status, game.winner) == ("finished", "finished", "NS")
    assert "The night is over." in owner_client.get(night_url(night)).content.decode()


def test_the_director_substitutes_moves_and_ends_a_table(owner_client, night, arrive, owner, room):
    arrive(night, *NINE)
    night_round_start(night=night, by=owner)
    assert act(owner_client, night, "substitute", leaving=room["Ann"].pk, arriving=room["Jo"].pk).status_code == 302
    change = NightSubstitution.objects.get()
    assert (change.leaving.name, change.arriving.name, change.seat) == ("Ann", "Jo", "N")
    assert act(owner_client, night, "move", table="2", to="5").status_code == 302
    assert sorted(NightRound.objects.get().tables.values_list("number", flat=True)) == [1, 5]
    assert act(owner_client, night, "end-table", table="5", abandon="on").status_code == 302
    assert NightRound.objects.get().tables.get(number=5).game.status == "abandoned"
    page = owner_client.get(night_url(night)).content.decode()
    assert "Jo for Ann after 0 hands" in page


def test_renewing_the_code_ends_the_old_qr(owner_client, night, client):
    old = night.code
    act(owner_client, night, "code")
    night.refresh_from_db()
    assert night.code != old
    response = client.get(reverse("night-check-in", args=[night.pk]) + f"?code={old}")
    assert response.status_code == 404
    assert owner_client.get(reverse("night-check-in-qr", args=[night.pk]))["Content-Type"] == "image/svg+xml"


def test_the_director_pairs_players_in_a_pairs_night(owner_client, owner, league, room):
    night = night_start(league=league, by=owner, game_type="spades", movement="pairs", hands=2)
    for name in ("Ann", "Ben", "Cid", "Dee"):
        night_check_in(night=night, by=owner, player=room[name])
    assert act(owner_client, night, "pair", player=room["Ann"].pk, partner=room["Ann"].pk).status_code == 400
    act(owner_client, night, "pair", player=room["Ann"].pk, partner=room["Cid"].pk)
    act(owner_client, night, "pair", player=room["Ben"].pk, partner=room["Dee"].pk)
    page = owner_client.get(night_url(night))
    assert page.context["pairs"] == [(1, "Ann & Cid"), (2, "Ben & Dee")] and page.context["unpaired"] == []
    assert act(owner_client, night, "round", idempotency_key="p1").status_code == 302


def director_page_queries(client, night) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(night_url(night)).status_code == 200
    return len(queries)


def test_the_director_page_reads_the_night_in_a_bounded_number_of_queries(owner_client, night, arrive, owner):
    """However many players, rounds and tables: the same number of queries."""
    arrive(night, *NINE)
    round_ = night_round_start(night=night, by=owner)
    for table in round_.tables.select_related("game"):
        play(table.game, NS_HAND, EW_HAND, by=owner)
    one_round = director_page_queries(owner_client, night)
    arrive(night, "Jo", "Kim", "Lou")
    for _ in range(2):
        round_ = night_round_start(night=night, by=owner, move_on=True)
        for table in round_.tables.select_related("game"):
            play(table.game, NS_HAND, by=owner)
    assert director_page_queries(owner_client, night) == one_round <= 16


# --- checking in with the night's code, the guide card ------------------------------------------------------


def check_in_url(night, code=None) -> str:
    url = reverse("night-check-in", args=[night.pk])
    return f"{url}?code={code}" if code is not None else url


def test_a_wrong_code_is_refused_plainly(client, night):
    response = client.get(check_in_url(night, "not-the-code"))
    assert response.status_code == 404
    assert "This code does not open a club night" in response.content.decode()
    assert client.get(check_in_url(night)).status_code == 404  # nothing kept on the phone
    assert client.get(night_url(night)).status_code == 200  # a public league's night is seen, without a card


def test_a_player_checks_in_with_the_code_and_sees_where_they_sit(client, night, arrive, owner, room):
    arrive(night, *NINE[:8])
    response = client.get(check_in_url(night, night.code))
    assert response["Location"] == check_in_url(night)  # the code leaves the address bar
    page = client.get(check_in_url(night))
    assert "Ida" in page.content.decode()
    response = client.post(check_in_url(night), {"player": room["Ida"].pk})
    assert response["Location"] == night_url(night)
    assert NightPlayer.objects.filter(night=night, player=room["Ida"], checked_in_by=None).exists()
    assert "The first round has not started yet" in client.get(night_url(night)).content.decode()
    night_round_start(night=night, by=owner)
    card = client.get(night_url(night)).context["card"]
    assert card.text == "Round 1 · you sit this round out"
    night_check_in(night=night, by=owner, player=room["Jo"])
    night_round_start(night=night, by=owner, move_on=True)
    page = client.get(night_url(night))
    card = page.context["card"]
    assert re.fullmatch(r"Round 2 · table \d · you sit [NESW] · partner \w+ · against \w+ & \w+", card.text)
    # A public league's game: its player's view.
    assert page.context["card_link"] == reverse("follow", args=[card.table.game.pk])


def test_a_player_already_checked_in_picks_their_name_to_see_their_card(client, night, arrive, owner, room):
    arrive(night, *NINE)
    client.get(check_in_url(night, night.code))
    assert client.post(check_in_url(night), {"player": room["Ann"].pk}).status_code == 302
    night_round_start(night=night, by=owner)
    assert client.get(night_url(night)).context["card"].text.startswith("Round 1 · table 1 · you sit N")


def test_a_typed_name_finds_the_player_and_an_unknown_one_is_sent_to_the_organiser(client, night, room):
    client.get(check_in_url(night, night.code))
    response = client.post(check_in_url(night), {"name": "nobody here"})
    assert response.status_code == 400
    assert "There is no nobody here in the league yet: ask the organiser to add you." in errors(response, "form")["name"]
    assert not NightPlayer.objects.exists()
    assert client.post(check_in_url(night), {"name": "  ann "}).status_code == 302
    assert NightPlayer.objects.get().player == room["Ann"]


def test_a_phone_whose_code_was_renewed_is_told_so(client, night, owner, room):
    from games.services import night_code_renew

    client.get(check_in_url(night, night.code))
    night_code_renew(night=night, by=owner)
    response = client.post(check_in_url(night), {"player": room["Ann"].pk})
    assert response.status_code == 403
    assert "This phone's code no longer opens the night" in response.content.decode()
    assert not NightPlayer.objects.exists()


def test_a_private_leagues_night_is_seen_with_the_code_only_as_its_guide_card(client, night, league, arrive, owner,
                                                                              room):
    league.is_public = False
    league.save()
    assert client.get(night_url(night)).status_code == 404
    client.get(check_in_url(night, night.code))
    client.post(check_in_url(night), {"player": room["Ann"].pk})
    arrive(night, *NINE[1:])
    night_round_start(night=night, by=owner)
    page = client.get(night_url(night))
    assert page.status_code == 200 and page.context["card"].player == room["Ann"]
    assert reverse("league", args=[league.slug]) not in page.content.decode()
    # Their table's game opens with the table's own code: the night's code opens nothing else.
    game = page.context["card"].table.game
    assert page.context["card_link"] == reverse("join", args=[game.pk, game.table_token])
    assert client.get(reverse("follow", args=[game.pk])).status_code == 404
    assert client.get(page.context["card_link"], follow=True).status_code == 200


def test_a_signed_in_player_gets_their_card_on_the_night_page(client, night, arrive, owner, member, room, league):
    from games.services import player_link

    player_link(league=league, player=room["Cid"], user=member, by=owner)
    arrive(night, *NINE)
    night_round_start(night=night, by=owner)
    client.force_login(member)
    assert client.get(night_url(night)).context["card"].text.startswith("Round 1 · table 1 · you sit S · partner Ann")


def test_the_page_answers_304_until_the_night_changes(client, night, arrive, owner):
    arrive(night, *NINE)
    first = client.get(night_url(night))
    assert client.get(night_url(night), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    round_ = night_round_start(night=night, by=owner)
    assert client.get(night_url(night), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    second = client.get(night_url(night))
    play(round_.tables.get(number=1).game, NS_HAND, by=owner)
    assert client.get(night_url(night), HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 200


# --- the night's standings ----------------------------------------------------------------------------------


def test_the_standings_show_sit_outs_as_out_and_negative_points_with_a_minus_sign(client, night, arrive, owner):
    arrive(night, *NINE)
    round_ = night_round_start(night=night, by=owner)
    tables = list(round_.tables.order_by("number").select_related("game"))
    play(tables[0].game, EW_HAND, EW_HAND, by=owner)  # Ann & Cid: set twice, -140; Ben & Dee 122
    play(tables[1].game, NS_HAND, EW_HAND, by=owner)  # level at -9: a draw
    rows = {row["names"]: row for row in client.get(night_url(night)).context["standings"]}
    assert (rows["Ben"]["place"], rows["Ben"]["wins"], rows["Ben"]["points"]) == (1, "1", "122")
    assert (rows["Eve"]["wins"], rows["Eve"]["points"], rows["Eve"]["rounds"][0]["short"]) == ("½", "\u22129", "D")
    assert (rows["Ann"]["points"], rows["Ann"]["rounds"][0]["short"]) == ("\u2212140", "L")
    assert rows["Ida"]["rounds"][0]["short"] == "out" and rows["Ida"]["place"] == 7  # no points beats -140
    page = client.get(night_url(night)).content.decode()
    assert "\u2212140" in page and ">out<" in page


def test_a_pairs_nights_standings_have_a_line_for_each_pair(client, owner, league, room):
    from games.services import night_pair

    night = night_start(league=league, by=owner, game_type="spades", movement="pairs", hands=1)
    for name in ("Ann", "Ben", "Cid", "Dee"):
        night_check_in(night=night, by=owner, player=room[name])
    night_pair(night=night, by=owner, player=room["Ann"], partner=room["Cid"])
    night_pair(night=night, by=owner, player=room["Ben"], partner=room["Dee"])
    round_ = night_round_start(night=night, by=owner)
    game = play(round_.tables.get().game, NS_HAND, by=owner)
    winners = {game.seat_ids["N"], game.seat_ids["S"]}  # NS made their bid, EW were set
    rows = client.get(night_url(night)).context["standings"]
    assert [(set(row["who"]) == winners, row["place"], row["wins"], row["rounds"][0]["short"]) for row in rows] == [
        (True, 1, "1", "W"), (False, 2, "0", "L")]
    assert {row["names"] for row in rows} == {"Ann & Cid", "Ben & Dee"}
