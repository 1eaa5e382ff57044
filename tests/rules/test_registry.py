"""The registry: four games, every documented option with its default, and loud refusals."""

from __future__ import annotations

import random

import pytest

from games.rules import (
    RULESETS,
    InvalidOptions,
    Option,
    Ruleset,
    UnknownGame,
    game_order,
    game_types,
    get_ruleset,
    random_hand,
    register,
    ruleset_class,
    rulesets,
)
from games.rules.smudge import Smudge
from games.rules.spades import Spades
from games.rules.thieving_stink import ThievingStink
from games.rules.trumps import Trumps

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
    # Every game may also be played for a fixed number of hands (docs/rules.md): by default, to its target.
    assert options == {"first_dealer": "N", **DOCUMENTED_DEFAULTS[game_type], "last_hand": None}


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
    assert refused.value.field == "game_type"
    assert refused.value.message == 'unknown game "bridge"; valid games: spades, smudge, trumps, thieving_stink'


def test_a_game_type_that_is_not_text_is_an_unknown_game_too():
    with pytest.raises(UnknownGame) as refused:
        ruleset_class(["spades"])
    assert refused.value.message == 'unknown game ["spades"]; valid games: spades, smudge, trumps, thieving_stink'


def test_games_are_listed_in_the_registrys_order_and_unknown_ones_last():
    assert game_types() == ("spades", "smudge", "trumps", "thieving_stink")
    assert rulesets() == (Spades, Smudge, Trumps, ThievingStink)
    assert sorted(["thieving_stink", "whist", "smudge", "spades"], key=game_order) == [
        "spades", "smudge", "thieving_stink", "whist"]
    assert game_order("trumps") == 2 and game_order("whist") == 4


def test_a_registered_game_is_listed_last_and_found_by_its_type():
    class Whist(Ruleset):
        game_type = "whist"

    try:
        assert register(Whist) is Whist
        assert game_types()[-1] == "whist" and ruleset_class("whist") is Whist
    finally:
        del RULESETS["whist"]


@pytest.mark.parametrize("game_type", game_types())
def test_a_random_hand_of_each_game_plays_under_its_default_options(game_type):
    ruleset = get_ruleset(game_type)
    rng = random.Random(5)
    state = ruleset.replay([random_hand(game_type, rng) for _ in range(3)])
    assert state.hands_played == 3 or state.finished


def test_a_random_hand_follows_the_random_number_generator_it_is_given():
    assert random_hand("smudge", random.Random(8)) == random_hand("smudge", random.Random(8))


def test_unknown_option_lists_the_valid_ones():
    with pytest.raises(InvalidOptions) as refused:
        get_ruleset("trumps", {"targte": 40})
    assert refused.value.field == "targte"
    assert refused.value.message == (
        'unknown option "targte" for trumps; valid options: first_dealer, target, double_scope, match_tiebreak, '
        'last_hand')


def test_options_must_be_an_object():
    with pytest.raises(InvalidOptions) as refused:
        get_ruleset("smudge", ["target", 21])
    assert (refused.value.field, refused.value.message) == (
        "options", "options must be an object of option names to values")


@pytest.mark.parametrize(
    ("game_type", "options", "message"),
    [
        ("spades", {"target": "500"}, 'target must be a whole number from 1 to 1,000,000, not "500"'),
        ("spades", {"target": 10**30},
         f"target must be a whole number from 1 to 1,000,000, not {10**30}"),
        ("spades", {"target": 1_000_001}, "target must be a whole number from 1 to 1,000,000, not 1000001"),
        ("spades", {"lose_at": -(10**7)},
         "lose_at must be a whole number from -1,000,000 to 1,000,000 (or null), not -10000000"),
        ("spades", {"target": 0}, "target must be a whole number from 1 to 1,000,000, not 0"),
        ("spades", {"target": True}, "target must be a whole number from 1 to 1,000,000, not true"),
        ("spades", {"partnerships": "no"}, 'partnerships must be true or false, not "no"'),
        ("spades", {"partnerships": None}, "partnerships must be true or false, not null"),
        ("spades", {"bag_mode": "sometimes"}, 'bag_mode must be one of cycle, minus_one, none, not "sometimes"'),
        ("smudge", {"win_rule": None},
         "win_rule must be one of bidder_must_make, first_to_target, not null"),
        ("trumps", {"first_dealer": "X"}, 'first_dealer must be one of N, E, S, W, not "X"'),
        ("trumps", {"first_dealer": ["N"]}, 'first_dealer must be one of N, E, S, W, not ["N"]'),
        ("thieving_stink", {"target": 12.5}, "target must be a whole number from 1 to 1,000,000, not 12.5"),
    ],
)
def test_ill_typed_options_are_refused_with_the_valid_values(game_type, options, message):
    with pytest.raises(InvalidOptions) as refused:
        get_ruleset(game_type, options)
    assert refused.value.field == next(iter(options))
    assert refused.value.message == message


def test_lose_at_may_be_null_or_any_whole_number():
    assert get_ruleset("spades", {"lose_at": -200}).options["lose_at"] == -200
    assert get_ruleset("spades", {"lose_at": None}).options["lose_at"] is None
    assert get_ruleset("spades", {"lose_at": -1_000_000}).options["lose_at"] == -1_000_000


def test_a_whole_number_option_takes_its_bounds():
    assert get_ruleset("spades", {"target": 1}).options["target"] == 1
    assert get_ruleset("spades", {"target": 1_000_000}).options["target"] == 1_000_000
    assert get_ruleset("spades", {"nil_value": 0}).options["nil_value"] == 0


def test_an_option_of_a_kind_the_engine_does_not_check_takes_no_value():
    # A kind misspelt where an option is declared must not let every value through.
    rounds = Option("rounds", "integer", 3, "How many rounds a night has.")
    with pytest.raises(InvalidOptions) as refused:
        rounds.check(3)
    assert refused.value.field == "rounds"
