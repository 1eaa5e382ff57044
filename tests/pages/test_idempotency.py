"""A double tap, a resubmit or a retry never records a hand twice."""

import pytest
from django.urls import reverse

from games.models import Hand
from games.services import hand_record

from .conftest import TRUMPS_MADE

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
