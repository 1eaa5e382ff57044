"""The other side confirms each hand (docs/api.md, "Confirming hands"): who may, what is refused, what is stored.

The table: Ann (North) keeps score and is signed in as the league's owner; Ben (East) is a member signed in as
his own player; West has no account, only the table's code. A hand Ann enters waits for EW.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import events
from games.models import Game, Hand, HandCheck, HandRevision, Player, Standing
from games.services import hand_record, league_update, table_token_renew
from tests.api.conftest import SPADES_HAND
from tests.conftest import join

pytestmark = pytest.mark.django_db

# EW say East took one more trick and North one fewer.
EAST_SAYS = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 3, "E": 2, "S": 5, "W": 3}}


@pytest.fixture
def table(league, owner, make_user, seats, start_game):
    """A Spades game to 500 with confirmation by the other side; Ann (N) is the owner's player, Ben (E) a
    member's."""
    league_update(league=league, by=owner, confirmation="opponents")
    ben = make_user("ben")
    join(league, ben, "member", owner)
    Player.objects.filter(pk=seats["N"]).update(user=owner)
    Player.objects.filter(pk=seats["E"]).update(user=ben)
    game = start_game("spades")
    return {"game": game, "ben": ben}


def confirm_url(game, number=1, what="confirm") -> str:
    return f"/api/v1/games/{game.pk}/hands/{number}/{what}/"


def test_a_recorded_hand_waits_for_the_other_side(table, as_owner, owner):
    game = table["game"]
    assert game.confirmation == "opponents"
    hand_record(game=game, record=SPADES_HAND, by=owner)

    hand = as_owner.get(f"/api/v1/games/{game.pk}/hands/1/").json()
    assert hand["confirmation"] == "waiting"
    body = as_owner.get(f"/api/v1/games/{game.pk}/").json()
    assert body["confirmation"] == "opponents" and body["unconfirmed"] == 1 and body["provisional"] is False
    assert Hand.objects.get(game=game).entered_side == "NS"


def test_a_player_of_the_other_side_confirms_on_their_own_phone(table, client_for, owner,
                                                               django_capture_on_commit_callbacks):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    heard = []
    events.subscribe(events.HandConfirmed, heard.append)

    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(table["ben"]).post(confirm_url(game), {}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["check"]["action"] == "confirmed" and body["check"]["seat"] == "E"
    assert body["check"]["via"] == "account" and body["check"]["by"] == "Ben D."
    assert body["hand"]["confirmation"] == "confirmed"
    assert Game.objects.get(pk=game.pk).unconfirmed == 0
    assert [event.check.seat for event in heard] == ["E"]
    events.subscribers[events.HandConfirmed].remove(heard.append)


def test_the_scorekeepers_side_cannot_confirm_its_own_hand(table, as_owner, anonymous, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)

    mine = as_owner.post(confirm_url(game), {}, format="json")
    partner = anonymous.post(confirm_url(game), {"table_token": game.table_token, "seat": "S"}, format="json")

    assert mine.status_code == 403
    assert mine.json()["detail"] == ("hand 1 was entered by NS; a player of EW confirms it, not the side that "
                                     "entered it")
    assert partner.status_code == 403
    assert not HandCheck.objects.exists() and Hand.objects.get(game=game).check_state == "waiting"


def test_a_phone_with_only_the_tables_code_confirms_for_its_seat(table, anonymous, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)

    response = anonymous.post(confirm_url(game), {"table_token": game.table_token, "seat": "W"}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["check"]["via"] == "code" and response.json()["check"]["by"] is None
    assert HandCheck.objects.get().seat == "W"


def test_a_token_for_one_game_is_refused_everywhere_else(table, anonymous, owner, start_game):
    game = table["game"]
    other = start_game("spades")
    hand_record(game=game, record=SPADES_HAND, by=owner)
    hand_record(game=other, record=SPADES_HAND, by=owner)

    elsewhere = anonymous.post(confirm_url(other), {"table_token": game.table_token, "seat": "W"}, format="json")
    nothing = anonymous.post(confirm_url(game), {"seat": "W"}, format="json")
    reading = anonymous.get(f"/api/v1/games/{game.pk}/hands/1/checks/",
                            {"table_token": game.table_token})

    # The league is public, so anyone may read the other game; the code still confirms nothing there.
    assert elsewhere.status_code == 403
    assert elsewhere.json()["detail"] == ("this table code does not open this game (it is another game's, or it "
                                          "was renewed); scan the table's code again")
    assert nothing.status_code == 403
    # The league is public, so the trail can be read; the code adds nothing to what anyone may read.
    assert reading.status_code == 200
    assert not HandCheck.objects.exists()


def test_a_renewed_token_stops_working_at_once(table, anonymous, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    old = game.table_token
    table_token_renew(game=game, by=owner)

    response = anonymous.post(confirm_url(game), {"table_token": old, "seat": "W"}, format="json")
    current = anonymous.post(confirm_url(game), {"table_token": game.table_token, "seat": "W"}, format="json")

    assert response.status_code == 403
    assert current.status_code == 200
    assert HandCheck.objects.count() == 1


def test_in_a_private_league_a_code_opens_only_its_own_game(table, league, anonymous, owner, start_game):
    league.is_public = False
    league.save(update_fields=["is_public"])
    game = table["game"]
    other = start_game("spades")
    hand_record(game=game, record=SPADES_HAND, by=owner)
    hand_record(game=other, record=SPADES_HAND, by=owner)

    elsewhere = anonymous.post(confirm_url(other), {"table_token": game.table_token, "seat": "W"}, format="json")
    reading = anonymous.get(f"/api/v1/games/{game.pk}/hands/1/checks/")
    own = anonymous.post(confirm_url(game), {"table_token": game.table_token, "seat": "W"}, format="json")

    assert elsewhere.status_code == 404 and elsewhere.json()["detail"] == f"there is no game {other.pk}"
    assert reading.status_code == 404
    assert own.status_code == 200
    assert HandCheck.objects.get().hand.game_id == game.pk


def test_a_confirm_for_a_hand_corrected_since_is_refused_with_the_version_now(table, client_for, as_owner, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    seen = as_owner.get(f"/api/v1/games/{game.pk}/hands/1/")["ETag"]
    fixed = {**SPADES_HAND, "tricks": {"N": 4, "E": 2, "S": 4, "W": 3}}
    assert as_owner.put(f"/api/v1/games/{game.pk}/hands/1/", {**fixed, "reason": "E's trick"},
                        format="json").status_code == 200
    now = Hand.objects.get(game=game).version

    response = client_for(table["ben"]).post(confirm_url(game), {}, format="json", HTTP_IF_MATCH=seen)

    assert response.status_code == 412
    assert response.json()["detail"] == (
        f"hand 1 has changed since your phone showed it (it was corrected); it now reads version {now}: look at "
        "it again before you confirm or dispute it")
    assert not HandCheck.objects.exists()
    again = client_for(table["ben"]).post(confirm_url(game), {}, format="json", HTTP_IF_MATCH=f'"{now}"')
    assert again.status_code == 200


def test_confirming_twice_stores_one_confirmation(table, client_for, anonymous, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    ben = client_for(table["ben"])

    first = ben.post(confirm_url(game), {}, format="json", HTTP_IDEMPOTENCY_KEY="ben-1")
    retry = ben.post(confirm_url(game), {}, format="json", HTTP_IDEMPOTENCY_KEY="ben-1")
    west = anonymous.post(confirm_url(game), {"table_token": game.table_token, "seat": "W"}, format="json")

    assert first.status_code == retry.status_code == west.status_code == 200
    assert first.json()["check"] == retry.json()["check"] == west.json()["check"]
    assert HandCheck.objects.count() == 1


def test_a_dispute_ends_in_a_correction_confirmed_by_the_disputing_side(table, client_for, as_owner, owner,
                                                                       django_capture_on_commit_callbacks):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    heard = []
    events.subscribe(events.HandDisputed, heard.append)

    with django_capture_on_commit_callbacks(execute=True):
        disputed = client_for(table["ben"]).post(confirm_url(game, what="dispute"),
                                                 {"record": EAST_SAYS, "note": "I took the last trick"},
                                                 format="json")

    assert disputed.status_code == 201, disputed.content
    assert disputed.json()["hand"]["confirmation"] == "disputed"
    assert disputed.json()["check"]["record"] == EAST_SAYS
    assert [event.check.note for event in heard] == ["I took the last trick"]
    events.subscribers[events.HandDisputed].remove(heard.append)

    corrected = as_owner.put(f"/api/v1/games/{game.pk}/hands/1/", {**EAST_SAYS, "reason": "as East says"},
                             format="json")
    assert corrected.status_code == 200
    trail = as_owner.get(f"/api/v1/games/{game.pk}/hands/1/checks/").json()
    assert [(check["action"], check["seat"], check["via"]) for check in trail] == [
        ("disputed", "E", "account"), ("confirmed", "E", "correction")]
    assert Hand.objects.get(game=game).check_state == "confirmed"
    assert HandRevision.objects.get(game=game).reason == "as East says"
    assert Game.objects.get(pk=game.pk).unconfirmed == 0


def test_a_correction_other_than_the_disputed_one_waits_again(table, client_for, as_owner, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    client_for(table["ben"]).post(confirm_url(game, what="dispute"), {"record": EAST_SAYS}, format="json")
    other = {**SPADES_HAND, "tricks": {"N": 5, "E": 1, "S": 4, "W": 3}}

    as_owner.put(f"/api/v1/games/{game.pk}/hands/1/", other, format="json")

    assert Hand.objects.get(game=game).check_state == "waiting"


def test_the_scorekeeper_keeps_a_disputed_hand_with_a_note(table, client_for, as_owner, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    client_for(table["ben"]).post(confirm_url(game, what="dispute"), {"record": EAST_SAYS}, format="json")

    no_note = as_owner.post(confirm_url(game, what="keep"), {"note": ""}, format="json")
    by_ben = client_for(table["ben"]).post(confirm_url(game, what="keep"), {"note": "mine"}, format="json")
    kept = as_owner.post(confirm_url(game, what="keep"), {"note": "the cards were counted again"}, format="json")

    assert no_note.status_code == 400 and by_ben.status_code == 403
    assert kept.status_code == 200 and kept.json()["hand"]["confirmation"] == "kept"
    assert Game.objects.get(pk=game.pk).unconfirmed == 0


def test_a_dispute_must_be_a_hand_the_rules_allow(table, client_for, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    short = {**SPADES_HAND, "tricks": {"N": 4, "E": 1, "S": 4, "W": 3}}

    response = client_for(table["ben"]).post(confirm_url(game, what="dispute"), {"record": short}, format="json")

    assert response.status_code == 400
    assert not HandCheck.objects.exists() and Hand.objects.get(game=game).check_state == "waiting"


def test_a_game_without_confirmation_refuses_a_confirm(league, owner, client_for, start_game, make_user):
    game = start_game("spades")
    hand_record(game=game, record=SPADES_HAND, by=owner)

    response = client_for(owner).post(confirm_url(game), {}, format="json")

    assert response.status_code == 409
    assert Hand.objects.get(game=game).check_state == ""


def test_the_sync_feed_carries_confirmations(table, client_for, as_owner, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)
    since = timezone.now().isoformat()
    client_for(table["ben"]).post(confirm_url(game), {}, format="json")

    feed = as_owner.get("/api/v1/hands/", {"league": game.league_id, "updated_after": since}).json()

    assert [(hand["number"], hand["confirmation"]) for hand in feed["results"]] == [(1, "confirmed")]


# --- provisional results -------------------------------------------------------------------------------

WINNING = {"bids": {"N": 6, "E": 1, "S": 6, "W": 0}, "tricks": {"N": 6, "E": 1, "S": 6, "W": 0}}


def played(league) -> int:
    from games.standings.services import league_standings_update

    league_standings_update(league_id=league.pk)
    return Standing.objects.filter(league=league, partner__isnull=True, player__name="Ann").values_list(
        "played", flat=True).first() or 0


def test_a_provisional_game_enters_the_standings_when_confirmed(table, league, client_for, owner, start_game):
    game = start_game("spades", target=100)
    hand_record(game=game, record=WINNING, by=owner)
    game.refresh_from_db()
    assert game.status == "finished" and game.provisional and played(league) == 0

    client_for(table["ben"]).post(confirm_url(game), {}, format="json")

    game.refresh_from_db()
    assert not game.provisional and played(league) == 1


def test_a_provisional_game_enters_the_standings_when_the_window_passes(table, league, owner, start_game):
    from games.tasks import standings_catch_up

    league_update(league=league, by=owner, provisional_hours=24)
    game = start_game("spades", target=100)
    hand_record(game=game, record=WINNING, by=owner)
    assert played(league) == 0

    assert standings_catch_up.delay().get() == [] and Game.objects.get(pk=game.pk).provisional
    # The clock moves a day and a minute on: the window has passed.
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(hours=24, minutes=1))
    standings_catch_up.delay().get()

    assert not Game.objects.get(pk=game.pk).provisional and played(league) == 1


def test_the_window_is_the_owners_to_set(league, owner, member, client_for):
    bad = client_for(owner).patch(f"/api/v1/leagues/{league.pk}/", {"provisional_hours": -1}, format="json")
    not_owner = client_for(member).patch(f"/api/v1/leagues/{league.pk}/", {"confirmation": "opponents"},
                                         format="json")
    good = client_for(owner).patch(f"/api/v1/leagues/{league.pk}/",
                                   {"confirmation": "opponents", "provisional_hours": 12}, format="json")

    assert bad.status_code == 400 and not_owner.status_code == 403
    assert good.status_code == 200
    assert (good.json()["confirmation"], good.json()["provisional_hours"]) == ("opponents", 12)


def test_a_casual_game_chooses_confirmation(creator, seats, client_for):
    body = client_for(creator).post("/api/v1/games/", {"game_type": "spades", "seats": seats,
                                                       "confirmation": "opponents"}, format="json")
    default = client_for(creator).post("/api/v1/games/", {"game_type": "spades", "seats": seats}, format="json")

    assert body.status_code == 201 and body.json()["confirmation"] == "opponents"
    assert default.json()["confirmation"] == "off"


# --- two opponents at once ------------------------------------------------------------------------------


def race(game, ben) -> list[int]:
    """Ben (signed in, East) and West (the table's code) confirm hand 1 at the same moment."""
    barrier = threading.Barrier(2)
    statuses: list[int] = []
    token = Token.objects.get_or_create(user=ben)[0].key

    def post(body: dict, credentials: str | None) -> None:
        client = APIClient()
        if credentials:
            client.credentials(HTTP_AUTHORIZATION=f"Token {credentials}")
        try:
            barrier.wait()
            statuses.append(client.post(confirm_url(game), body, format="json").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=({}, token)),
               threading.Thread(target=post, args=({"table_token": game.table_token, "seat": "W"}, None))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.mark.django_db(transaction=True)
def test_two_opponents_confirming_at_once_confirm_once_on_postgres(postgres, table, owner):
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)

    assert race(game, table["ben"]) == [200, 200]
    assert HandCheck.objects.filter(action="confirmed").count() == 1
    assert Game.objects.get(pk=game.pk).unconfirmed == 0


@pytest.mark.django_db(transaction=True)
def test_two_opponents_confirming_at_once_confirm_once_on_sqlite(table, owner):
    if connection.vendor != "sqlite":
        pytest.skip("the PostgreSQL variant covers this database")
    game = table["game"]
    hand_record(game=game, record=SPADES_HAND, by=owner)

    assert race(game, table["ben"]) == [200, 200]
    assert HandCheck.objects.filter(action="confirmed").count() == 1
