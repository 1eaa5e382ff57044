"""The correction page carries the hand's version: a correction made on a page opened before someone else
changed the hand is refused with a clear message, instead of silently overwriting theirs."""

import pytest
from django.urls import reverse

from games.models import Hand, HandRevision
from games.services import hand_correct, hand_record

from .conftest import spades_fields

pytestmark = pytest.mark.django_db

HAND = {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}
THEIR_FIX = {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 5, "E": 4, "S": 3, "W": 1}}


@pytest.fixture
def game(start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=HAND, by=owner)
    return game


def opened_form(client, game) -> dict[str, str]:
    """The correction page as opened now: its hidden version, and a correction of E's tricks."""
    page = client.get(reverse("hand-correct", args=[game.pk, 1]))
    version = page.context["form"]["version"].value()
    assert version == Hand.objects.get(game=game, number=1).version
    assert f'name="version" value="{version}"' in page.content.decode()
    return {**spades_fields([3, 4, 4, 2], [4, 5, 3, 1]), "reason": "E took W's last trick", "version": version}


def test_a_correction_on_a_page_opened_before_someone_elses_is_refused(owner_client, game, scorekeeper):
    mine = opened_form(owner_client, game)
    hand_correct(game=game, number=1, record=THEIR_FIX, by=scorekeeper, reason="N took W's last trick")

    refused = owner_client.post(reverse("hand-correct", args=[game.pk, 1]), mine)
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Someone else changed hand 1 while you were correcting it" in page
    assert Hand.objects.get(game=game, number=1).record["tricks"] == THEIR_FIX["tricks"]
    assert HandRevision.objects.filter(game=game).count() == 1
    # The page now shows the hand as it stands and keeps what was entered ...
    assert refused.context["hand"].record["tricks"] == THEIR_FIX["tricks"]
    form = refused.context["form"]
    assert form["tricks_E"].value() == "5"
    # ... so that saving again, knowingly, goes through.
    again = owner_client.post(reverse("hand-correct", args=[game.pk, 1]),
                              {**mine, "version": form["version"].value()})
    assert again.status_code == 302
    assert Hand.objects.get(game=game, number=1).record["tricks"]["E"] == 5


def test_a_correction_on_a_current_page_goes_through(owner_client, game):
    response = owner_client.post(reverse("hand-correct", args=[game.pk, 1]), opened_form(owner_client, game))
    assert response.status_code == 302
    assert Hand.objects.get(game=game, number=1).record["tricks"]["E"] == 5
