"""How the engine writes numbers, changes and lists in the sentences it explains hands with (``explaining``)."""

from __future__ import annotations

import pytest

from games.rules.explaining import Explanation, Need, Needs, Part, Term, added, listed, number, signed


@pytest.mark.parametrize(("points", "text"), [(41, "41"), (0, "0"), (-90, "\u221290")])
def test_a_number_is_written_with_a_minus_sign_when_below_nothing(points, text):
    assert number(points) == text


@pytest.mark.parametrize(("points", "text"), [(41, "+41"), (1, "+1"), (0, "0"), (-1, "\u22121"), (-90, "\u221290")])
def test_a_change_is_written_with_its_sign_and_nothing_as_0(points, text):
    assert signed(points) == text


@pytest.mark.parametrize(("words", "text"), [
    (["NS"], "NS"),
    (("NS", "EW"), "NS and EW"),
    (["Ann", "Bob", "Cat"], "Ann, Bob and Cat"),
    (("Ann", "Bob", "Cat", "Dan"), "Ann, Bob, Cat and Dan"),
])
def test_a_list_reads_as_a_person_says_it(words, text):
    assert listed(words) == text


def test_a_sum_adds_a_piece_worth_nothing_and_takes_away_only_what_is_below_nothing():
    assert added([(40, ""), (0, "for no bags"), (-10, "for a bag")]) == "40 + 0 for no bags \u2212 10 for a bag = 30"
    assert added([(0, "for the bid"), (1, "overtrick")]) == "0 for the bid + 1 overtrick = 1"


def test_an_explanation_reads_as_one_sentence_and_as_data():
    part = Part("NS bid 4 and took 5: 40 + 1 overtrick = 41", side="NS", points=41,
                terms=(Term("contract", 40, "the bid of 4"), Term("overtricks", 1, "1 overtrick")))
    explanation = Explanation((Part("N dealt"), part))
    assert explanation.as_dict() == {
        "text": "N dealt; NS bid 4 and took 5: 40 + 1 overtrick = 41",
        "parts": [
            {"side": None, "points": None, "text": "N dealt", "terms": []},
            {"side": "NS", "points": 41, "text": "NS bid 4 and took 5: 40 + 1 overtrick = 41",
             "terms": [{"rule": "contract", "points": 40, "words": "the bid of 4"},
                       {"rule": "overtricks", "points": 1, "words": "1 overtrick"}]},
        ],
    }


def test_needs_read_as_one_sentence_and_as_data():
    needs = Needs((Need("target", "NS need 62 to reach 500", side="NS", amount=62),
                   Need("level", "NS and EW are level at 510", amount=0)))
    assert needs.as_dict() == {
        "text": "NS need 62 to reach 500; NS and EW are level at 510",
        "parts": [{"side": "NS", "what": "target", "amount": 62, "text": "NS need 62 to reach 500"},
                  {"side": None, "what": "level", "amount": 0, "text": "NS and EW are level at 510"}],
    }
    assert Needs().as_dict() == {"text": "", "parts": []}
