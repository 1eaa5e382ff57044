import pytest
from games.services import hand_record
from .conftest import sign_in, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def test_look(phone, owner, start_game):
    g = start_game("spades", target=300)
    hand_record(game=g, record={"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}, by=owner)
    hand_record(game=g, record={"bids": {"N": "nil", "E": 4, "S": 4, "W": 2}, "tricks": {"N": 0, "E": 4, "S": 5, "W": 4}}, by=owner)
    sign_in(phone, "owner")
    phone.goto(f"/games/{g.pk}/")
    shoot(phone, "tmp-table")
