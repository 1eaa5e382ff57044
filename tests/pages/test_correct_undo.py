"""Correcting any hand (prefilled, with a reason) and undoing the last (after a confirmation)."""

import pytest
from django.urls import reverse

from games.models import Hand, HandRevision
from games.services import hand_record

from .conftest import spades_fields

pytestmark = pytest.mark.django_db

HAND = {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}


@pytest.fixture
def game(start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=HAND, by=owner)
    hand_record(game=game, record=HAND, by=owner)
    return game


def test_correction_form_is_prefilled_with_the_record(owner_client, game):
    response = owner_client.get(reverse("hand-correct", args=[game.pk, 1]))
    form = response.context["form"]
    assert form["bid_E"].value() == "4" and form["tricks_W"].value() == "2"
    # A correction has a reason and its own key (sent twice, it corrects once), but no expected number.
    assert "reason" in form.fields and "idempotency_key" in form.fields and "expected_number" not in form.fields


def test_correction_rescores_and_keeps_history(owner_client, game):
    data = {**spades_fields([3, 4, 4, 2], [5, 4, 3, 1]), "reason": "W's last trick was N's"}
    response = owner_client.post(reverse("hand-correct", args=[game.pk, 1]), data)
    assert response.status_code == 302
    game.refresh_from_db()
    assert Hand.objects.get(game=game, number=1).record["tricks"]["N"] == 5
    assert game.totals == {"NS": 141, "EW": 0}  # hand 1 now: NS 8 on 7 (+71), EW 5 on 6 (-60)
    revision = HandRevision.objects.get(game=game)
    assert revision.reason == "W's last trick was N's"
    page = owner_client.get(reverse("table", args=[game.pk])).content.decode()
    assert "corrected" in page


def test_a_correction_may_go_without_a_reason(owner_client, game):
    response = owner_client.post(reverse("hand-correct", args=[game.pk, 1]), spades_fields([3, 4, 4, 2], [4, 4, 3, 2]))
    assert response.status_code == 302
    revision = HandRevision.objects.get()
    assert revision.reason == "" and revision.new_record["tricks"]["N"] == 4


def test_invalid_correction_shows_beside_the_field_and_keeps_values(owner_client, game):
    data = {**spades_fields([3, 4, 4, 2], [4, 4, 3, 3]), "reason": "typo"}
    response = owner_client.post(reverse("hand-correct", args=[game.pk, 1]), data)
    assert response.status_code == 400
    form = response.context["form"]
    assert "tricks add up to 14" in form.group_errors["tricks"][0]
    assert form["tricks_W"].value() == "3"


def test_correcting_a_missing_hand_is_404(owner_client, game):
    assert owner_client.get(reverse("hand-correct", args=[game.pk, 9])).status_code == 404


def test_member_may_not_correct(signed_in, member, game):
    assert signed_in(member).get(reverse("hand-correct", args=[game.pk, 1])).status_code == 403


def test_undo_asks_first_then_takes_back_the_last_hand(owner_client, game):
    page = owner_client.get(reverse("hand-undo", args=[game.pk])).content.decode()
    assert "Undo the last hand?" in page and "Yes, undo hand 2" in page
    response = owner_client.post(reverse("hand-undo", args=[game.pk]), {"number": "2", "reason": "oops"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.hand_count == 1
    assert HandRevision.objects.get(game=game).action == "undo"


def test_undo_from_a_stale_page_is_refused(owner_client, game):
    response = owner_client.post(reverse("hand-undo", args=[game.pk]), {"number": "1"})
    assert response.status_code == 409
    game.refresh_from_db()
    assert game.hand_count == 2


def test_undo_with_no_hands(owner_client, start_game):
    game = start_game("spades")
    assert "There is no hand to undo" in owner_client.get(reverse("hand-undo", args=[game.pk])).content.decode()
    refused = owner_client.post(reverse("hand-undo", args=[game.pk]), {"number": "0"})
    assert refused.status_code == 400 and "there is no hand to undo" in refused.content.decode()


def test_stranger_may_not_undo(signed_in, stranger, game):
    assert signed_in(stranger).post(reverse("hand-undo", args=[game.pk]), {"number": "2"}).status_code == 403


def test_abandon_asks_then_abandons(owner_client, game):
    assert "Abandon this game?" in owner_client.get(reverse("game-abandon", args=[game.pk])).content.decode()
    assert owner_client.post(reverse("game-abandon", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == "abandoned"
    assert owner_client.post(reverse("game-abandon", args=[game.pk])).status_code == 400


def test_member_may_not_abandon(signed_in, member, game):
    assert signed_in(member).post(reverse("game-abandon", args=[game.pk])).status_code == 403
