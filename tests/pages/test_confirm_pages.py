"""The confirmation's pages without a browser: the owners' house rule, a casual table's choice, the confirm screen's
refusals, and provisional games marked on the league page."""

from __future__ import annotations

import pytest

from games.models import Game, HandCheck, Player
from games.services import Confirmer, hand_confirm, hand_correct, hand_record, league_update

pytestmark = pytest.mark.django_db

HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}
WINNING = {"bids": {"N": 6, "E": 1, "S": 6, "W": 0}, "tricks": {"N": 6, "E": 1, "S": 6, "W": 0}}


def test_the_owner_sets_confirmation_and_the_window(client, league, owner):
    from tests.pages.test_league_admin_pages import league_form

    client.force_login(owner)
    page = client.get(f"/leagues/{league.slug}/edit/").content.decode()
    assert "The other side confirms each hand on their phone" in page and "Provisional for (hours)" in page
    response = client.post(f"/leagues/{league.slug}/edit/", league_form(name=league.name, confirmation="opponents",
                                                                         provisional_hours="24"))
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.confirmation, league.provisional_hours) == ("opponents", 24)


def test_a_casual_table_chooses_confirmation_on_the_new_game_page(owner_client, players):
    from tests.pages.test_new_game import URL, seat_data, spades_options

    page = owner_client.get(URL + "?type=spades", follow=True).content.decode()
    assert "The other side confirms each hand on their phone" in page
    on = owner_client.post(URL + "?type=spades", seat_data(players, **spades_options(), confirm_hands="on"))
    off = owner_client.post(URL + "?type=spades", seat_data(players, **spades_options()))
    assert on.status_code == off.status_code == 302
    assert list(Game.objects.order_by("pk").values_list("confirmation", flat=True)) == ["opponents", "off"]


@pytest.fixture
def table(league, owner, seats, start_game):
    league_update(league=league, by=owner, confirmation="opponents")
    Player.objects.filter(pk=seats["N"]).update(user=owner)
    return start_game("spades", target=100)


def test_the_scorekeepers_side_is_refused_on_the_confirm_screen(client, table, owner):
    hand_record(game=table, record=HAND, by=owner)
    client.force_login(owner)
    response = client.post(f"/games/{table.pk}/hands/1/check/", {"action": "confirm"})
    assert response.status_code == 403
    assert not HandCheck.objects.exists()


def test_handing_the_phone_across_asks_who_holds_it(client, table, owner):
    hand_record(game=table, record=HAND, by=owner)
    client.force_login(owner)
    page = client.get(f"/games/{table.pk}/hands/1/check/?handed=1").content.decode()
    assert "I'm Ben (East): confirm" in page and "I'm Dan (West): confirm" in page
    assert "I'm Ann" not in page and "I'm Cat" not in page
    own_side = client.post(f"/games/{table.pk}/hands/1/check/", {"action": "confirm", "handed": "1", "seat": "S"})
    assert own_side.status_code == 403
    done = client.post(f"/games/{table.pk}/hands/1/check/", {"action": "confirm", "handed": "1", "seat": "E"})
    assert done.status_code == 302
    assert HandCheck.objects.get().via == "handed"


def test_a_stranger_cannot_hand_themselves_the_phone(client, table, owner, stranger):
    hand_record(game=table, record=HAND, by=owner)
    client.force_login(stranger)
    response = client.post(f"/games/{table.pk}/hands/1/check/", {"action": "confirm", "handed": "1", "seat": "E"})
    assert response.status_code == 403
    assert not HandCheck.objects.exists()


def test_a_provisional_game_is_marked_on_the_league_page(client, table, league, owner):
    hand_record(game=table, record=WINNING, by=owner)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "provisional" in page
    assert "enters the standings once every hand is confirmed, or 48 hours after it finished" in page


def confirm_form(client, table, **fields):
    return client.post(f"/games/{table.pk}/hands/1/check/", {"action": "confirm", "handed": "1", "seat": "E",
                                                             **fields}, HTTP_ACCEPT="application/json")


def test_the_confirm_form_carries_a_key_and_a_retry_with_it_confirms_once(client, table, owner):
    hand_record(game=table, record=HAND, by=owner)
    client.force_login(owner)
    page = client.get(f"/games/{table.pk}/hands/1/check/?handed=1").content.decode()
    assert 'name="idempotency_key"' in page and "data-confirm-form" in page
    version = table.hands.get().version

    first = confirm_form(client, table, version=version, idempotency_key="tap-1")
    # The answer was lost on the way; meanwhile the scorekeeper corrected the hand, which now waits again.
    hand_correct(game=table, number=1, record={**HAND, "tricks": {"N": 5, "E": 1, "S": 4, "W": 3}}, by=owner)
    retry = confirm_form(client, table, version=version, idempotency_key="tap-1")
    unkeyed = confirm_form(client, table, version=version)

    assert first.status_code == retry.status_code == 200
    assert first.json()["detail"] == retry.json()["detail"] == "Hand 1 confirmed by East (Ben)."
    assert first.json()["location"] == f"/games/{table.pk}/#hand-1"
    assert HandCheck.objects.filter(action="confirmed").count() == 1
    # Without the key the same request is a new one, refused: the hand changed since the phone showed it.
    assert unkeyed.status_code == 409 and "has changed since your phone showed it" in unkeyed.json()["detail"]
    assert table.hands.get().check_state == "waiting"


def test_a_dispute_sent_with_a_mistake_answers_which_field_in_json(client, table, owner):
    hand_record(game=table, record=HAND, by=owner)
    client.force_login(owner)
    response = client.post(f"/games/{table.pk}/hands/1/check/", {"action": "dispute", "handed": "1", "seat": "E",
                                                                 "idempotency_key": "tap-2"},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and response.json()["code"] == "invalid" and response.json()["errors"]
    assert not HandCheck.objects.exists()


def test_a_provisional_game_does_not_keep_the_standings_updating(client, table, league, owner, start_game):
    from games.standings.services import league_standings_update

    hand_record(game=table, record=WINNING, by=owner)
    league_standings_update(league_id=league.pk)

    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "Standings updating" not in page
    assert "Not counted yet: 1" in page and "It enters the standings once confirmed, or 48 hours" in page

    # A game that counts at once (the league no longer asks for confirmation) is awaited until the update.
    league_update(league=league, by=owner, confirmation="off")
    plain = start_game("spades", target=100)
    hand_record(game=plain, record=WINNING, by=owner)
    assert "Standings updating" in client.get(f"/leagues/{league.slug}/").content.decode()
    league_standings_update(league_id=league.pk)
    assert "Standings updating" not in client.get(f"/leagues/{league.slug}/").content.decode()


def test_a_provisional_result_says_so_until_its_hands_are_confirmed(client, table, owner):
    hand_record(game=table, record=WINNING, by=owner)
    client.force_login(owner)
    assert "Ann &amp; Cat win (provisional)" in client.get(f"/games/{table.pk}/").content.decode()

    hand_confirm(game=table, number=1, confirmer=Confirmer(user=owner, handed_seat="E"))

    page = client.get(f"/games/{table.pk}/").content.decode()
    assert "Ann &amp; Cat win!" in page and "(provisional)" not in page
