"""A hand's ETag (its ``version``) and If-Match on its PUT, PATCH and DELETE: two phones correcting the same
hand cannot both succeed from the same copy; the second is told (412) and nothing it sent is stored."""

from __future__ import annotations

import pytest

from games.models import Hand, HandRevision
from tests.api.conftest import SPADES_HAND

# The same hand as SPADES_HAND, read differently by two people at the table.
E_TOOK_TWO = {"bids": SPADES_HAND["bids"], "tricks": {"N": 4, "E": 2, "S": 4, "W": 3}}
W_TOOK_FOUR = {"bids": SPADES_HAND["bids"], "tricks": {"N": 4, "E": 1, "S": 4, "W": 4}}


@pytest.fixture
def hand_path(as_owner, spades):
    assert as_owner.post(f"/api/v1/games/{spades.pk}/hands/", SPADES_HAND, format="json").status_code == 201
    return f"/api/v1/games/{spades.pk}/hands/1/"


def etag_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    assert response["ETag"] == f'"{response.json()["version"]}"'
    return response["ETag"]


def test_a_hand_has_an_etag_that_changes_when_it_is_corrected(as_owner, hand_path):
    before = etag_of(as_owner, hand_path)
    assert etag_of(as_owner, hand_path) == before
    as_owner.put(hand_path, E_TOOK_TWO, format="json")
    assert etag_of(as_owner, hand_path) != before


def test_the_second_of_two_corrections_from_one_copy_is_refused(client_for, owner, scorekeeper, hand_path):
    phone_a, phone_b = client_for(owner), client_for(scorekeeper)
    copy = etag_of(phone_a, hand_path)
    assert etag_of(phone_b, hand_path) == copy
    first = phone_a.put(hand_path, {**E_TOOK_TWO, "reason": "E took the last trick"}, format="json",
                        HTTP_IF_MATCH=copy)
    assert first.status_code == 200
    second = phone_b.patch(hand_path, {"tricks": W_TOOK_FOUR["tricks"]}, format="json", HTTP_IF_MATCH=copy)
    assert second.status_code == 412
    assert second.json()["code"] == "precondition_failed"
    assert Hand.objects.get(number=1).record["tricks"] == E_TOOK_TWO["tricks"]
    assert HandRevision.objects.count() == 1
    # Read again, the second phone can make its change knowingly.
    again = phone_b.patch(hand_path, {"tricks": W_TOOK_FOUR["tricks"]}, format="json",
                          HTTP_IF_MATCH=etag_of(phone_b, hand_path))
    assert again.status_code == 200


def test_an_undo_from_a_stale_copy_is_refused(as_owner, hand_path):
    copy = etag_of(as_owner, hand_path)
    as_owner.put(hand_path, E_TOOK_TWO, format="json")
    assert as_owner.delete(hand_path, format="json", HTTP_IF_MATCH=copy).status_code == 412
    assert Hand.objects.count() == 1
    assert as_owner.delete(hand_path, format="json", HTTP_IF_MATCH=etag_of(as_owner, hand_path)).status_code == 200


def test_correcting_an_earlier_hand_changes_the_later_hands_version(as_owner, spades, hand_path):
    as_owner.post(f"/api/v1/games/{spades.pk}/hands/", SPADES_HAND, format="json")
    second = f"/api/v1/games/{spades.pk}/hands/2/"
    copy = etag_of(as_owner, second)
    as_owner.put(hand_path, E_TOOK_TWO, format="json")  # hand 2's totals change with it
    assert as_owner.put(second, SPADES_HAND, format="json", HTTP_IF_MATCH=copy).status_code == 412


@pytest.mark.parametrize("header", ['W/"{version}"', '"not-its-version"', "garbage", ""])
def test_a_weak_unknown_or_unreadable_tag_does_not_match(as_owner, hand_path, header):
    version = etag_of(as_owner, hand_path).strip('"')
    response = as_owner.put(hand_path, E_TOOK_TWO, format="json", HTTP_IF_MATCH=header.format(version=version))
    assert response.status_code == 412
    assert Hand.objects.get(number=1).record == SPADES_HAND


@pytest.mark.parametrize("header", ["*", '"not-its-version", "{version}"'])
def test_any_tag_or_a_list_holding_the_version_matches(as_owner, hand_path, header):
    version = etag_of(as_owner, hand_path).strip('"')
    response = as_owner.put(hand_path, E_TOOK_TWO, format="json", HTTP_IF_MATCH=header.format(version=version))
    assert response.status_code == 200


def test_an_invalid_correction_is_told_what_is_wrong_even_from_a_stale_copy(as_owner, hand_path):
    short = {"bids": SPADES_HAND["bids"], "tricks": {"N": 4, "E": 1, "S": 4, "W": 3}}
    response = as_owner.put(hand_path, short, format="json", HTTP_IF_MATCH='"stale"')
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_hand"


def test_without_if_match_the_last_correction_wins_as_before(as_owner, hand_path):
    assert as_owner.put(hand_path, E_TOOK_TWO, format="json").status_code == 200
    assert as_owner.put(hand_path, W_TOOK_FOUR, format="json").status_code == 200
    assert Hand.objects.get(number=1).record == W_TOOK_FOUR
