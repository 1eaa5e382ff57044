"""Worked cases from the rules pages (docs/rules.md, docs/rules/<game>.md), one JSON file per game.

Each case gives a game, its options and its hands, and either the expected outcome or the
refusal expected (which hand, which field, and the message word for word, as a player reads it). Deltas and
totals are listed hand by hand so a case reads like a score sheet.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules import InvalidHand, get_ruleset

CASES_DIR = Path(__file__).parent / "cases"


def load_cases():
    for path in sorted(CASES_DIR.glob("*.json")):
        for case in json.loads(path.read_text()):
            yield pytest.param(case, id=f"{path.stem}: {case['name']}")


@pytest.mark.parametrize("case", list(load_cases()))
def test_worked_case(case):
    rules = get_ruleset(case["game"], case.get("options", {}))
    if "error" in case:
        expected = case["error"]
        with pytest.raises(InvalidHand) as refused:
            rules.replay(case["hands"])
        assert refused.value.number == expected["hand"]
        assert refused.value.field == expected.get("field")
        assert refused.value.message == expected["message"]
        return

    state = rules.replay(case["hands"])
    expect = case["expect"]
    if "deltas" in expect:
        assert [dict(hand.delta) for hand in state.hands] == expect["deltas"]
    if "running_totals" in expect:
        assert [dict(hand.totals) for hand in state.hands] == expect["running_totals"]
    assert dict(state.totals) == expect["totals"]
    for extra in ("bags",):
        if extra in expect:
            assert dict(state.extras[extra]) == expect[extra]
    assert state.finished == expect.get("finished", False)
    assert state.winner == expect.get("winner")
    if "next_dealer" in expect:
        assert state.next_dealer == expect["next_dealer"]
    if "details" in expect:
        for number, details in expect["details"].items():
            hand = state.hands[int(number) - 1]
            for key, value in details.items():
                assert hand.details[key] == value, f"hand {number}: {key}"
