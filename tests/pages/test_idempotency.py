"""A double tap, a resubmit or a retry never records a hand twice."""

import pytest
from django.urls import reverse

from games.models import Hand
from games.services import hand_record

from .conftest import TRUMPS_MADE

TRUMPS_RECORD = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}

pytestmark = pytest.mark.django_db


def test_the_same_form_sent_twice_stores_one_hand_and_both_succeed(post_hand, start_game):
    game = start_game("trumps")
    first = post_hand(game, key="tap-1", expected=1, **TRUMPS_MADE)
    second = post_hand(game, key="tap-1", expected=1, **TRUMPS_MADE)
    assert first.status_code == second.status_code == 302
    assert second["Location"] == first["Location"]
    assert Hand.objects.filter(game=game).count() == 1


def test_the_form_carries_a_fresh_key_each_time_it_is_shown(owner_client, start_game):
    game = start_game("trumps")
    keys = {owner_client.get(reverse("table", args=[game.pk])).context["form"]["idempotency_key"].value()
            for _ in range(2)}
    assert len(keys) == 2


def test_a_stale_form_after_another_hand_is_a_conflict_that_keeps_the_values(post_hand, start_game, owner):
    game = start_game("trumps")
    hand_record(game=game, record={"declarer": "E", "bid": 4, "trump": "clubs", "doubled": False,
                                   "redoubled": False, "tricks": 4}, by=owner)
    response = post_hand(game, key="late", expected=1, **TRUMPS_MADE)
    assert response.status_code == 409
    form = response.context["form"]
    assert "Someone else recorded hand 1" in form.non_field_errors()[0]
    assert form["declarer"].value() == "N" and form["expected_number"].value() == "2"
    assert Hand.objects.filter(game=game).count() == 1


def test_a_reused_key_with_a_different_hand_is_refused(post_hand, start_game):
    game = start_game("trumps", target=500)
    post_hand(game, key="same", expected=1, **TRUMPS_MADE)
    response = post_hand(game, key="same", expected=2, **{**TRUMPS_MADE, "tricks": "9"})
    assert response.status_code == 409
    form = response.context["form"]
    assert "already used" in form.non_field_errors()[0]
    assert form["idempotency_key"].value() != "same"
    assert Hand.objects.filter(game=game).count() == 1


def test_a_refused_hand_frees_its_key_for_the_corrected_entry(post_hand, start_game):
    game = start_game("trumps")
    assert post_hand(game, key="k", expected=1, **{**TRUMPS_MADE, "double": "no", "tricks": "8",
                                                  "bid": "14"}).status_code == 400
    assert post_hand(game, key="k", expected=1, **TRUMPS_MADE).status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


def test_a_new_game_form_sent_twice_starts_one_game(owner_client, players, league):
    from games.models import Game

    url = reverse("new-game") + f"?type=trumps&league={league.slug}"
    form = owner_client.get(url, follow=True).context["form"]
    data = {"idempotency_key": form["idempotency_key"].value(),
            **{f"seat_{seat}": str(player.pk) for seat, player in zip("NESW", players, strict=True)},
            "opt_target": "50", "opt_first_dealer": "N", "opt_double_scope": "all", "opt_match_tiebreak": "none"}
    first, again = owner_client.post(url, data), owner_client.post(url, data)
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Game.objects.count() == 1


def test_a_correction_sent_twice_corrects_once(owner_client, start_game, owner):
    from games.models import HandRevision

    game = start_game("trumps")
    hand_record(game=game, record={**TRUMPS_RECORD}, by=owner)
    url = reverse("hand-correct", args=[game.pk, 1])
    data = {**TRUMPS_MADE, "tricks": "9", "reason": "one more trick", "idempotency_key": "fix-1"}
    assert owner_client.post(url, data).status_code == owner_client.post(url, data).status_code == 302
    assert HandRevision.objects.filter(game=game).count() == 1


def test_an_undo_sent_twice_takes_back_one_hand_and_both_say_so(owner_client, start_game, owner):
    game = start_game("trumps", target=500)
    for _ in range(2):
        hand_record(game=game, record={**TRUMPS_RECORD}, by=owner)
    url = reverse("hand-undo", args=[game.pk])
    data = {"number": "2", "idempotency_key": "undo-2"}
    first, again = owner_client.post(url, data), owner_client.post(url, data)
    assert first.status_code == again.status_code == 302
    game.refresh_from_db()
    assert game.hand_count == 1


def test_an_abandon_sent_twice_succeeds_twice(owner_client, start_game):
    game = start_game("trumps")
    url = reverse("game-abandon", args=[game.pk])
    assert owner_client.post(url, {"idempotency_key": "stop"}).status_code == 302
    assert owner_client.post(url, {"idempotency_key": "stop"}).status_code == 302
    game.refresh_from_db()
    assert game.status == "abandoned"


def test_the_hand_form_is_never_filled_in_again_by_the_browser(owner_client, start_game):
    response = owner_client.get(reverse("table", args=[start_game("trumps").pk]))
    assert 'data-outbox autocomplete="off"' in response.content.decode()
    assert "no-store" in response["Cache-Control"]
