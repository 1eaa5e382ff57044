"""The registry: four games, every documented option with its default, and loud refusals."""

from __future__ import annotations

import pytest

from games.rules import InvalidOptions, UnknownGame, game_types, get_ruleset

# Every option docs/rules/<game>.md lists, with its default (plus first_dealer, common to every game).
DOCUMENTED_DEFAULTS = {
    "spades": {
        "target": 500, "nil_value": 50, "blind_nil_value": 100, "failed_nil_tricks": "count",
        "bag_mode": "cycle", "bag_limit": 10, "bag_penalty": 100, "blind_nil_allowed": True,
        "blind_nil_deficit": 100, "allow_double_nil": False, "lose_at": None, "partnerships": True,
    },
    "smudge": {
        "target": 21, "low_goes_to": "captured", "win_rule": "bidder_must_make",
        "dealer_can_steal": True, "dealer_can_steal_smudge": True,
    },
    "trumps": {"target": 50, "double_scope": "all", "match_tiebreak": "none"},
    "thieving_stink": {"target": 500},
}


def test_the_four_games_are_registered():
    assert set(game_types()) == set(DOCUMENTED_DEFAULTS)


@pytest.mark.parametrize("game_type", game_types())
def test_every_option_has_its_rulings_default(game_type):
    options = dict(get_ruleset(game_type, {}).options)
    assert options == {"first_dealer": "N", **DOCUMENTED_DEFAULTS[game_type]}


@pytest.mark.parametrize("game_type", game_types())
def test_every_option_explains_itself(game_type):
    for spec in get_ruleset(game_type).all_option_specs():
        assert spec.help.endswith("."), spec.name


@pytest.mark.parametrize("game_type", game_types())
def test_every_games_example_hand_plays_as_a_first_hand(game_type):
    ruleset = get_ruleset(game_type)
    state = ruleset.play(ruleset.initial_state(), ruleset.record_example)
    assert state.hands_played == 1 and state.hands[0].record == ruleset.record_example


def test_unknown_game_lists_the_valid_ones():
    with pytest.raises(UnknownGame) as refused:
        get_ruleset("bridge", {})
    assert "spades, smudge, trumps, thieving_stink" in refused.value.message


def test_unknown_option_lists_the_valid_ones():
    with pytest.raises(InvalidOptions) as refused:
        get_ruleset("trumps", {"targte": 40})
    assert refused.value.field == "targte"
    assert "valid options: first_dealer, target, double_scope, match_tiebreak" in refused.value.message


@pytest.mark.parametrize(
    ("game_type", "options", "words"),
    [
        ("spades", {"target": "500"}, "target must be a whole number from 1 to 1,000,000"),
        ("spades", {"target": 10**30}, "target must be a whole number from 1 to 1,000,000"),
        ("spades", {"lose_at": -(10**7)}, "lose_at must be a whole number from -1,000,000 to 1,000,000"),
        ("spades", {"target": 0}, "target must be a whole number from 1"),
        ("spades", {"target": True}, "target must be a whole number"),
        ("spades", {"partnerships": "no"}, "partnerships must be true or false"),
        ("spades", {"bag_mode": "sometimes"}, "bag_mode must be one of cycle, minus_one, none"),
        ("smudge", {"win_rule": None}, "win_rule must be one of"),
        ("trumps", {"first_dealer": "X"}, "first_dealer must be one of N, E, S, W"),
        ("thieving_stink", {"target": 12.5}, "target must be a whole number"),
    ],
)
def test_ill_typed_options_are_refused_with_the_valid_values(game_type, options, words):
    with pytest.raises(InvalidOptions) as refused:
        get_ruleset(game_type, options)
    assert words in refused.value.message


def test_lose_at_may_be_null_or_any_whole_number():
    assert get_ruleset("spades", {"lose_at": -200}).options["lose_at"] == -200
    assert get_ruleset("spades", {"lose_at": None}).options["lose_at"] is None
