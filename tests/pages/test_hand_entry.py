"""Recording a hand through each game's form: success redirects, and every error path shows beside its field."""

import pytest
from django.urls import reverse

from games.models import Hand

from .conftest import SMUDGE_MADE, STINK_HAND, TRUMPS_MADE, spades_fields

pytestmark = pytest.mark.django_db


def test_spades_hand_is_recorded_and_redirects_to_the_table(post_hand, start_game):
    game = start_game("spades")
    response = post_hand(game, **spades_fields([3, 4, 4, 2], [4, 4, 3, 2]))
    assert response.status_code == 302
    # Back to the top of the table: the new totals, the confirmation and the next hand's entry.
    assert response["Location"] == reverse("table", args=[game.pk])
    game.refresh_from_db()
    assert game.totals == {"NS": 70, "EW": 60}
    assert Hand.objects.get(game=game).record == {"bids": {"N": 3, "E": 4, "S": 4, "W": 2},
                                                  "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}


def test_spades_nil_and_note_reach_the_record(post_hand, start_game):
    game = start_game("spades")
    post_hand(game, note="great nil", **spades_fields(["nil", 5, 4, 3], [0, 5, 4, 4]))
    record = Hand.objects.get(game=game).record
    assert record["bids"]["N"] == "nil" and record["note"] == "great nil"


@pytest.mark.parametrize(("game_type", "fields", "record"), [
    ("smudge", SMUDGE_MADE, {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": "NS", "game": "NS",
                             "all_tricks": False}),
    ("trumps", TRUMPS_MADE, {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False,
                             "tricks": 8}),
    ("thieving_stink", STINK_HAND, {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}),
])
def test_each_game_records_its_hand(post_hand, start_game, game_type, fields, record):
    game = start_game(game_type)
    assert post_hand(game, **fields).status_code == 302
    assert Hand.objects.get(game=game).record == record


def test_smudge_not_dealt_tie_forced_and_smudge_bid(post_hand, start_game):
    game = start_game("smudge")
    fields = {**SMUDGE_MADE, "bid": "smudge", "jack": "none", "game": "none", "all_tricks": "no", "forced": "on"}
    assert post_hand(game, **fields).status_code == 302
    record = Hand.objects.get(game=game).record
    assert record["bid"] == "smudge" and record["jack"] is None and record["game"] is None and record["forced"]


def test_trumps_redoubled_sets_both_flags(post_hand, start_game):
    game = start_game("trumps")
    post_hand(game, **{**TRUMPS_MADE, "double": "redoubled"})
    record = Hand.objects.get(game=game).record
    assert record["doubled"] is True and record["redoubled"] is True


def test_tricks_not_adding_to_13_shows_beside_the_tricks_and_keeps_values(post_hand, start_game):
    game = start_game("spades")
    response = post_hand(game, **spades_fields([3, 4, 4, 2], [4, 4, 3, 1]))
    assert response.status_code == 400
    page = response.content.decode()
    group = page[page.index('id="group-tricks"'):]
    assert "tricks add up to 12" in group[:600]
    assert response.context["form"]["tricks_W"].value() == "1"
    assert not Hand.objects.filter(game=game).exists()


def test_blind_nil_refused_shows_beside_that_bid(post_hand, start_game):
    game = start_game("spades")
    response = post_hand(game, **spades_fields(["blind_nil", 4, 4, 3], [0, 5, 4, 4]))
    assert response.status_code == 400
    form = response.context["form"]
    assert any("blind nil needs NS" in error for error in form.errors["bid_N"])


def test_double_nil_refused_shows_on_the_bids_group(post_hand, start_game):
    game = start_game("spades")
    response = post_hand(game, **spades_fields(["nil", 4, "nil", 3], [0, 5, 4, 4]))
    assert response.status_code == 400
    assert "both bid nil" in response.context["form"].group_errors["bids"][0]
    assert "one of the partners must bid at least 1 trick" in response.context["form"].group_errors["bids"][0]


def test_missing_fields_are_named(post_hand, start_game):
    game = start_game("spades")
    response = post_hand(game, bid_N="3")
    assert response.status_code == 400
    form = response.context["form"]
    assert "Choose Ben's bid." in form.errors["bid_E"]
    assert "Choose how many tricks Ann took." in form.errors["tricks_N"]


def test_smudge_all_tricks_contradiction_shows_beside_all_tricks(post_hand, start_game):
    game = start_game("smudge")
    response = post_hand(game, **{**SMUDGE_MADE, "low": "EW", "all_tricks": "yes"})
    assert response.status_code == 400
    assert "took all six tricks" in response.context["form"].errors["all_tricks"][0]


def test_smudge_forced_bid_by_a_non_dealer_shows_beside_the_bidder(post_hand, start_game):
    game = start_game("smudge")
    response = post_hand(game, **{**SMUDGE_MADE, "bidder": "E", "forced": "on"})
    assert "forced bid is the dealer's" in response.context["form"].errors["bidder"][0]


def test_trumps_bad_choice_is_a_form_error(post_hand, start_game):
    game = start_game("trumps")
    response = post_hand(game, **{**TRUMPS_MADE, "trump": "stars"})
    assert response.status_code == 400 and "trump" in response.context["form"].errors


def test_thieving_stink_face_cards_too_few_for_the_stack(post_hand, start_game):
    game = start_game("thieving_stink")
    response = post_hand(game, **{**STINK_HAND, "face_NS": "2", "face_EW": "2", "stack_size": "5"})
    assert response.status_code == 400
    assert "at least 11 must have been won" in response.context["form"].group_errors["face_cards"][0]


def test_hand_after_the_game_is_over_is_refused_above_the_form(post_hand, start_game):
    game = start_game("trumps", target=5)
    post_hand(game, **TRUMPS_MADE)
    response = post_hand(game, **TRUMPS_MADE)
    assert response.status_code == 400
    assert "the game is already over" in response.content.decode()
    assert Hand.objects.filter(game=game).count() == 1


def test_abandoned_game_refuses_hands(post_hand, start_game, owner):
    from games.services import game_abandon

    game = start_game("trumps")
    game_abandon(game=game, by=owner)
    response = post_hand(game, **TRUMPS_MADE)
    assert response.status_code == 400 and "abandoned" in response.content.decode()


def test_member_and_stranger_may_not_record(post_hand, start_game, signed_in, member, stranger, client):
    game = start_game("trumps")
    assert post_hand(game, client=signed_in(member), **TRUMPS_MADE).status_code == 403
    assert post_hand(game, client=signed_in(stranger), **TRUMPS_MADE).status_code == 403
    assert not Hand.objects.filter(game=game).exists()


def test_anonymous_post_is_sent_to_sign_in(client, start_game):
    game = start_game("trumps")
    response = client.post(reverse("hand-record", args=[game.pk]), TRUMPS_MADE)
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_get_on_the_record_url_is_not_allowed(owner_client, start_game):
    assert owner_client.get(reverse("hand-record", args=[start_game("trumps").pk])).status_code == 405


def test_csrf_is_enforced(owner, start_game):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    game = start_game("trumps")
    assert client.post(reverse("hand-record", args=[game.pk]), TRUMPS_MADE).status_code == 403
