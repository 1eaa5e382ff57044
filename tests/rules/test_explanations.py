"""A hand's score in words (``Ruleset.explain``): worked cases per game, one per rule that moves a number.

Each case plays its hands and reads the last one back, with the players seated as Ann (N), Bob (E),
Cat (S) and Dan (W). A property then checks, over many random games of every kind, that each side's
terms add up to what the side scored: the words never tell a different sum from the score sheet.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import InvalidHand, Ruleset, get_ruleset
from tests.rules.examples import examples

NAMES = {"N": "Ann", "E": "Bob", "S": "Cat", "W": "Dan"}


def spades(bids, tricks):
    seats = ("N", "E", "S", "W")
    return {"bids": dict(zip(seats, bids, strict=True)), "tricks": dict(zip(seats, tricks, strict=True))}


def smudge(bidder, bid, high, low, jack, game, all_tricks=False, **extra):
    return {"bidder": bidder, "bid": bid, "high": high, "low": low, "jack": jack, "game": game,
            "all_tricks": all_tricks, **extra}


def trumps(declarer, bid, trump, tricks, doubled=False, redoubled=False):
    return {"declarer": declarer, "bid": bid, "trump": trump, "doubled": doubled, "redoubled": redoubled,
            "tricks": tricks}


def stink(ns, ew, holder, size):
    return {"face_cards": {"NS": ns, "EW": ew}, "trump_stack": {"holder": holder, "size": size}}


def explained(game, hands, options=None, names=NAMES):
    rules = get_ruleset(game, options or {})
    state = rules.replay(hands)
    return rules.explain(state.hands[-1], names)


CASES = [
    # --- Spades ---
    pytest.param(
        "spades", {}, [spades((2, 3, 2, 4), (3, 3, 3, 4)), spades((2, 4, 2, 4), (3, 4, 2, 4))],
        "NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 3 in all; EW bid 8 and took 8: 80",
        id="spades: a contract made with an overtrick scores 10 a trick bid and 1 a bag; the bags add up"),
    pytest.param(
        "spades", {}, [spades((4, 3, 4, 2), (3, 4, 3, 3))],
        "NS bid 8 and took 6, set: −80; EW bid 5 and took 7: 50 + 2 overtricks = 52; 2 bags, 2 in all",
        id="spades: a set contract loses 10 a trick bid"),
    pytest.param(
        "spades", {}, [spades(("nil", 3, 4, 5), (0, 4, 4, 5))],
        "NS bid 4 and took 4: 40 + 50 for Ann's nil = 90; EW bid 8 and took 9: 80 + 1 overtrick = 81; "
        "1 bag, 1 in all",
        id="spades: a nil made beside a partner's 4 made exactly scores 50 + 40"),
    pytest.param(
        "spades", {}, [spades(("nil", 4, 4, 5), (2, 4, 3, 4))],
        "NS bid 4 and took 5: 40 + 1 overtrick − 50 for Ann's failed nil = −9; 1 bag, 1 in all; "
        "EW bid 9 and took 8, set: −90",
        id="spades: a failed nil's tricks count toward the partner's bid"),
    pytest.param(
        "spades", {"blind_nil_deficit": 0}, [spades((4, 5, 4, "blind_nil"), (4, 5, 4, 0))],
        "NS bid 8 and took 8: 80; EW bid 5 and took 5: 50 + 100 for Dan's blind nil = 150",
        id="spades: a blind nil made scores 100"),
    pytest.param(
        "spades", {"blind_nil_deficit": 0}, [spades((4, 4, 4, "blind_nil"), (4, 5, 3, 1))],
        "NS bid 8 and took 7, set: −80; EW bid 4 and took 6: 40 + 2 overtricks − 100 for Dan's failed blind nil "
        "= −58; 2 bags, 2 in all",
        id="spades: a blind nil failed loses 100"),
    pytest.param(
        "spades", {"failed_nil_tricks": "bags_only"}, [spades(("nil", 4, 4, 5), (2, 5, 3, 3))],
        "NS bid 4 and took 5 (2 on Ann's failed nil count only as overtricks), set: −40 + 2 overtricks − 50 for "
        "Ann's failed nil = −88; 2 bags, 2 in all; EW bid 9 and took 8, set: −90",
        id="spades: under bags_only a failed nil's tricks are overtricks, not toward the bid"),
    pytest.param(
        "spades", {"failed_nil_tricks": "ignore"}, [spades(("nil", 4, 4, 5), (2, 4, 4, 3))],
        "NS bid 4 and took 6 (2 on Ann's failed nil count for nothing): 40 − 50 for Ann's failed nil = −10; "
        "EW bid 9 and took 7, set: −90",
        id="spades: under ignore a failed nil's tricks score nothing"),
    pytest.param(
        "spades", {"bag_mode": "minus_one"}, [spades((3, 4, 3, 3), (5, 4, 3, 1))],
        "NS bid 6 and took 8: 60 − 2 overtricks = 58; EW bid 7 and took 5, set: −70",
        id="spades: under minus_one each overtrick costs 1 and no bags are kept"),
    pytest.param(
        "spades", {"bag_mode": "none"}, [spades((3, 4, 3, 3), (5, 4, 3, 1))],
        "NS bid 6 and took 8: 60 + 2 overtricks = 62; EW bid 7 and took 5, set: −70",
        id="spades: under none each overtrick scores 1 and no bags are kept"),
    pytest.param(
        "spades", {}, [*[spades((3, 3, 3, 3), (5, 3, 4, 1))] * 3, spades((3, 3, 3, 3), (4, 3, 3, 3))],
        "NS bid 6 and took 7: 60 + 1 overtrick − 100 for 10 bags = −39; 1 bag, 10 in all: 10 paid off, 0 left; "
        "EW bid 6 and took 6: 60",
        id="spades: the tenth bag costs 100 and the bags start again"),
    pytest.param(
        "spades", {"bag_limit": 2, "bag_penalty": 50}, [spades((1, 4, 1, 1), (4, 5, 3, 1))],
        "NS bid 2 and took 7: 20 + 5 overtricks − 100 for 4 bags = −75; 5 bags, 5 in all: 4 paid off, 1 left; "
        "EW bid 5 and took 6: 50 + 1 overtrick = 51; 1 bag, 1 in all",
        id="spades: passing the bag limit twice in a hand pays the penalty twice"),
    pytest.param(
        "spades", {"allow_double_nil": True}, [spades(("nil", 4, 0, 5), (1, 5, 0, 7))],
        "NS bid nil twice and took 1: 1 overtrick − 50 for Ann's failed nil + 50 for Cat's nil = 1; "
        "1 bag, 1 in all; EW bid 9 and took 12: 90 + 3 overtricks = 93; 3 bags, 3 in all",
        id="spades: a double nil's side bids nothing and every trick it takes is a bag"),
    pytest.param(
        "spades", {"allow_double_nil": True, "blind_nil_deficit": 0},
        [spades(("blind_nil", 4, "nil", 5), (0, 6, 0, 7))],
        "NS bid blind nil and nil and took 0: 100 for Ann's blind nil + 50 for Cat's nil = 150; "
        "EW bid 9 and took 13: 90 + 4 overtricks = 94; 4 bags, 4 in all",
        id="spades: a blind nil beside a partner's nil is said as both, not as one twice"),
    pytest.param(
        "spades", {"partnerships": False}, [spades(("nil", 4, 3, 5), (0, 5, 3, 5))],
        "Ann bid nil and took 0: 50 for the nil; Bob bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 1 in all; "
        "Cat bid 3 and took 3: 30; Dan bid 5 and took 5: 50",
        id="spades: without partnerships each player's bid and score are their own"),
    pytest.param(
        "spades", {"partnerships": False, "failed_nil_tricks": "ignore"}, [spades(("nil", 4, 3, 4), (2, 4, 3, 4))],
        "Ann bid nil and took 2 (2 on the failed nil count for nothing): −50 for the failed nil; "
        "Bob bid 4 and took 4: 40; Cat bid 3 and took 3: 30; Dan bid 4 and took 4: 40",
        id="spades: playing alone, a failed nil's tricks under ignore are the player's own, said as the nil's"),
    # --- Smudge ---
    pytest.param(
        "smudge", {}, [smudge("N", 3, "NS", "EW", "NS", "EW")],
        "NS bid 3 (Ann): High to NS, Low to EW, Jack to NS, Game to EW; NS made 2 of 3: set back 3; EW score 2",
        id="smudge: bidders short of their bid are set back by it; the defenders score what they took"),
    pytest.param(
        "smudge", {}, [smudge("E", 2, "EW", "NS", "EW", None)],
        "EW bid 2 (Bob): High to EW, Low to NS, Jack to EW, Game tied; EW made the bid with 2: score 2; NS score 1",
        id="smudge: a tied Game goes to nobody"),
    pytest.param(
        "smudge", {}, [smudge("S", 2, "NS", "EW", None, "NS")],
        "NS bid 2 (Cat): High to NS, Low to EW, no Jack dealt, Game to NS; NS made the bid with 2: score 2; "
        "EW score 1",
        id="smudge: a Jack not dealt goes to nobody"),
    pytest.param(
        "smudge", {}, [smudge("N", 2, "NS", "NS", "EW", "NS")],
        "NS bid 2 (Ann): High to NS, Low to NS, Jack to EW, Game to NS; NS made the bid with 3: score 3; EW score 1",
        id="smudge: a bid made scores every point taken"),
    pytest.param(
        "smudge", {}, [smudge("N", 3, "NS", "NS", "NS", "NS")],
        "NS bid 3 (Ann): High to NS, Low to NS, Jack to NS, Game to NS; NS made the bid with 4: score 4; "
        "EW score 0",
        id="smudge: all four points without all six tricks is a bid made, said plainly"),
    pytest.param(
        "smudge", {}, [smudge("S", "smudge", "NS", "NS", "NS", "NS", True)],
        "NS bid smudge (Cat): High to NS, Low to NS, Jack to NS, Game to NS, all six tricks to NS; "
        "NS made the smudge, all four points and all six tricks: score 5; EW score 0",
        id="smudge: a smudge made with every point and trick scores 5"),
    pytest.param(
        "smudge", {}, [smudge("S", 5, "NS", "NS", "NS", "NS")],
        "NS bid smudge (Cat): High to NS, Low to NS, Jack to NS, Game to NS; "
        "NS missed the smudge without all six tricks: set back 5; EW score 0",
        id="smudge: a smudge needs all six tricks too"),
    pytest.param(
        "smudge", {}, [smudge("S", 5, "NS", "EW", "NS", "NS")],
        "NS bid smudge (Cat): High to NS, Low to EW, Jack to NS, Game to NS; "
        "NS missed the smudge with 3 of 4 points: set back 5; EW score 1",
        id="smudge: a smudge needs all four points"),
    pytest.param(
        "smudge", {}, [smudge("N", 5, "NS", "NS", None, "NS", True)],
        "NS bid smudge (Ann): High to NS, Low to NS, no Jack dealt, Game to NS, all six tricks to NS; "
        "NS missed the smudge (with no Jack dealt it cannot be made): set back 5; EW score 0",
        id="smudge: with no Jack dealt a smudge cannot be made"),
    pytest.param(
        "smudge", {}, [smudge("N", 2, "NS", "NS", "NS", "NS"), smudge("E", 4, "EW", "EW", "EW", "EW", True)],
        "EW bid 4 (Bob): High to EW, Low to EW, Jack to EW, Game to EW, all six tricks to EW; EW made the bid with 4: "
        "score 4 (all six tricks score 5 only on a smudge bid); NS score 0",
        id="smudge: bidding 4 and taking everything scores 4"),
    pytest.param(
        "smudge", {"first_dealer": "W"}, [smudge("W", 2, "EW", "EW", None, None, forced=True)],
        "EW bid 2 (Dan, forced): High to EW, Low to EW, no Jack dealt, Game tied; EW made the bid with 2: score 2; "
        "NS score 0",
        id="smudge: a forced bid is said, and scores like any other"),
    pytest.param(
        "smudge", {"first_dealer": "W"}, [smudge("W", 3, "NS", "NS", "NS", "EW", stolen=True)],
        "EW bid 3 (Dan, stolen): High to NS, Low to NS, Jack to NS, Game to EW; EW made 1 of 3: set back 3; "
        "NS score 3",
        id="smudge: a stolen bid is said"),
    # --- Trumps ---
    pytest.param(
        "trumps", {}, [trumps("N", 7, "hearts", 8)],
        "NS bid 7 hearts (Ann) and took 8; NS score 5 + 1 overtrick = 6",
        id="trumps: a contract made scores its value and 1 an overtrick"),
    pytest.param(
        "trumps", {}, [trumps("E", 9, "spades", 6)],
        "EW bid 9 spades (Bob) and took 6; EW were 3 tricks short: NS score 3 × 5 = 15",
        id="trumps: a set gives the defenders 5 a trick short"),
    pytest.param(
        "trumps", {}, [trumps("S", 9, "spades", 7, doubled=True)],
        "NS bid 9 spades (Cat), doubled, and took 7; NS were 2 tricks short: EW score 2 × 5 × 2 = 20",
        id="trumps: a double doubles the set's penalty"),
    pytest.param(
        "trumps", {}, [trumps("N", 7, "hearts", 8, doubled=True)],
        "NS bid 7 hearts (Ann), doubled, and took 8; NS score (5 + 1 overtrick) × 2 = 12",
        id="trumps: a double doubles the whole result, overtricks too"),
    pytest.param(
        "trumps", {}, [trumps("W", 8, "clubs", 9, doubled=True, redoubled=True)],
        "EW bid 8 clubs (Dan), redoubled, and took 9; EW score (10 + 1 overtrick) × 4 = 44",
        id="trumps: a redouble multiplies the whole result by 4"),
    pytest.param(
        "trumps", {}, [trumps("N", 7, "notrump", 7)],
        "NS bid 7 no trump (Ann) and took 7; NS score 10 (7 no trump is worth 10, as a bid of 8)",
        id="trumps: no trump counts as a bid one higher"),
    pytest.param(
        "trumps", {"target": 500}, [trumps("N", 13, "notrump", 13)],
        "NS bid 13 no trump (Ann) and took 13; NS score 150 (13 no trump is worth 150)",
        id="trumps: 13 no trump is worth 150"),
    pytest.param(
        "trumps", {"double_scope": "contract_only"}, [trumps("N", 8, "clubs", 10, doubled=True)],
        "NS bid 8 clubs (Ann), doubled, and took 10; NS score 10 × 2 + 2 overtricks = 22 (overtricks are not doubled)",
        id="trumps: under contract_only a double leaves the overtricks alone"),
    pytest.param(
        "trumps", {"double_scope": "contract_only"}, [trumps("E", 7, "notrump", 9, doubled=True, redoubled=True)],
        "EW bid 7 no trump (Bob), redoubled, and took 9; EW score 10 × 4 + 2 overtricks = 42 "
        "(7 no trump is worth 10, as a bid of 8; overtricks are not redoubled)",
        id="trumps: under contract_only a redoubled no trump"),
    # --- Thieving Stink ---
    pytest.param(
        "thieving_stink", {}, [stink(6, 7, "E", 7)],
        "Face cards NS 6, EW 7, trump stack of 7 held by Bob (E); NS score 60 for 6 face cards; "
        "EW score 70 for 7 face cards + 35 for the stack of 7 = 105",
        id="thieving stink: 10 a face card, and 5 a stack card to the holder's side"),
    pytest.param(
        "thieving_stink", {}, [stink(0, 12, "S", 4)],
        "Face cards NS 0, EW 12, trump stack of 4 held by Cat (S); NS score 20 for the stack of 4; "
        "EW score 120 for 12 face cards",
        id="thieving stink: a side without face cards scores only the stack it holds"),
    pytest.param(
        "thieving_stink", {}, [stink(0, 12, "E", 4)],
        "Face cards NS 0, EW 12, trump stack of 4 held by Bob (E); NS score 0, with no face cards; "
        "EW score 120 for 12 face cards + 20 for the stack of 4 = 140",
        id="thieving stink: a side with neither scores nothing"),
]


@pytest.mark.parametrize("game, options, hands, sentence", CASES)
def test_a_hand_reads_as_its_rules_score_it(game, options, hands, sentence):
    assert explained(game, hands, options).text == sentence


def test_seats_stand_in_for_names_left_out():
    hand = smudge("N", 3, "NS", "EW", "NS", "EW")
    assert explained("smudge", [hand], names=None).text.startswith("NS bid 3 (N): ")
    assert explained("smudge", [hand], names={"N": ""}).text.startswith("NS bid 3 (N): ")
    assert explained("thieving_stink", [stink(6, 7, "E", 7)], names=None).text.startswith(
        "Face cards NS 6, EW 7, trump stack of 7 held by E; ")


def test_the_parts_name_each_side_its_change_and_the_rules_that_made_it():
    explanation = explained("spades", [spades(("nil", 4, 4, 5), (2, 4, 3, 4))])
    ns, ew = explanation.parts
    assert (ns.side, ns.points, ew.side, ew.points) == ("NS", -9, "EW", -90)
    assert [(term.rule, term.points, term.words) for term in ns.terms] == [
        ("contract", 40, "the bid of 4"), ("overtricks", 1, "1 overtrick"), ("nil", -50, "Ann's failed nil")]
    assert [(term.rule, term.points) for term in ew.terms] == [("set", -90)]
    assert explanation.as_dict()["parts"][0] == {
        "side": "NS", "points": -9, "text": ns.text,
        "terms": [{"rule": "contract", "points": 40, "words": "the bid of 4"},
                  {"rule": "overtricks", "points": 1, "words": "1 overtrick"},
                  {"rule": "nil", "points": -50, "words": "Ann's failed nil"}]}


def test_what_happened_is_a_part_of_no_side():
    opening, *sides = explained("smudge", [smudge("N", 3, "NS", "EW", "NS", "EW")]).parts
    assert (opening.side, opening.points, opening.terms) == (None, None, ())
    assert [part.side for part in sides] == ["NS", "EW"]


# --- every side's terms add up to its score, in any game ------------------------------------------


def any_spades_hand(rng: random.Random) -> dict:
    """A Spades hand with nils, blind nils and bids far from the tricks as often as not."""
    hand = get_ruleset("spades").sample_hand(rng)
    for seat in hand["bids"]:
        if rng.random() < 0.25:
            hand["bids"][seat] = rng.choice(("nil", 0, "blind_nil"))
        elif rng.random() < 0.3:
            hand["bids"][seat] = rng.randint(1, 13)
    return hand


SPADES_OPTIONS = st.fixed_dictionaries({}, optional={
    "failed_nil_tricks": st.sampled_from(("count", "bags_only", "ignore")),
    "bag_mode": st.sampled_from(("cycle", "minus_one", "none")),
    "bag_limit": st.integers(1, 10),
    "blind_nil_deficit": st.just(0),
    "allow_double_nil": st.booleans(),
    "partnerships": st.booleans(),
    "target": st.just(100_000),
})


def played(rules, rng, make_hand, count):
    """Up to ``count`` hands the rules accept, made by ``make_hand``."""
    state = rules.initial_state()
    for _ in range(count * 5):
        if state.finished or state.hands_played == count:
            break
        try:
            state = rules.play(state, make_hand(rng))
        except InvalidHand:
            continue
    return state


def assert_terms_add_up(rules, state):
    assert state.hands
    for hand in state.hands:
        explanation = rules.explain(hand, NAMES)
        sides = [part.side for part in explanation.parts if part.side is not None]
        assert len(sides) == len(set(sides))
        for part in explanation.parts:
            if part.side is not None:
                assert part.points == hand.delta[part.side] == sum(term.points for term in part.terms), part.text
        # A side the words leave out (the side that does not score in Trumps) scored nothing.
        assert all(hand.delta[side] == 0 for side in rules.sides if side not in sides)


@settings(max_examples=examples(60), deadline=None)
@given(options=SPADES_OPTIONS, seed=st.integers(0, 2**32))
def test_spades_terms_add_up_to_each_sides_score(options, seed):
    if not options.get("partnerships", True):
        options.pop("blind_nil_deficit", None)
    rules = get_ruleset("spades", options)
    assert_terms_add_up(rules, played(rules, random.Random(seed), any_spades_hand, 12))


def any_smudge_hand(rng: random.Random) -> dict:
    hand = get_ruleset("smudge").sample_hand(rng)
    if rng.random() < 0.3:
        hand.update(bid="smudge", all_tricks=rng.random() < 0.5)
    return hand


def any_trumps_hand(rng: random.Random) -> dict:
    doubled = rng.random() < 0.4
    return {**get_ruleset("trumps").sample_hand(rng), "tricks": rng.randint(0, 13), "doubled": doubled,
            "redoubled": doubled and rng.random() < 0.5}


OTHER_GAMES = [
    ("smudge", {}, any_smudge_hand),
    ("smudge", {"win_rule": "first_to_target"}, any_smudge_hand),
    ("trumps", {}, any_trumps_hand),
    ("trumps", {"double_scope": "contract_only"}, any_trumps_hand),
    ("thieving_stink", {}, get_ruleset("thieving_stink").sample_hand),
]


@settings(max_examples=examples(40), deadline=None)
@given(game=st.sampled_from(OTHER_GAMES), seed=st.integers(0, 2**32))
def test_every_games_terms_add_up_to_each_sides_score(game, seed):
    game_type, options, any_hand = game
    rules = get_ruleset(game_type, {**options, "target": 100_000})
    assert_terms_add_up(rules, played(rules, random.Random(seed), any_hand, 12))


def test_a_game_that_says_nothing_of_its_own_names_each_sides_change():
    """The ruleset's default, for a game added without words of its own: each side's change, and no needs
    (only a game's own rules know what wins it)."""
    rules = get_ruleset("thieving_stink")
    state = rules.replay([stink(6, 7, "E", 7)])
    assert Ruleset.explain(rules, state.hands[0], NAMES).text == "NS score 60; EW score 105"
    assert Ruleset.needs(rules, state, NAMES).parts == ()
    trumps_rules = get_ruleset("trumps")
    hand = trumps_rules.replay([trumps("N", 7, "hearts", 8)]).hands[0]
    ns, ew = Ruleset.explain(trumps_rules, hand, NAMES).parts
    assert [(part.text, part.side, part.points) for part in (ns, ew)] == [("NS score 6", "NS", 6), ("EW score 0", "EW", 0)]
    assert [(term.rule, term.points, term.words) for term in ns.terms] == [("points", 6, "points")]
    alone = get_ruleset("spades", {"partnerships": False})
    hand = alone.replay([spades((3, 3, 3, 4), (3, 3, 3, 4))]).hands[0]
    assert Ruleset.explain(alone, hand, NAMES).text == "Ann scores 30; Bob scores 30; Cat scores 30; Dan scores 40"


def test_thieving_stink_terms_name_the_face_cards_and_the_stack():
    _, ns, ew = explained("thieving_stink", [stink(6, 7, "E", 7)]).parts
    assert [(term.rule, term.points, term.words) for term in ns.terms] == [("face_cards", 60, "6 face cards")]
    assert [(term.rule, term.points, term.words) for term in ew.terms] == [
        ("face_cards", 70, "7 face cards"), ("trump_stack", 35, "the stack of 7")]


def test_trumps_terms_name_the_contract_its_overtricks_and_a_set():
    _, made = explained("trumps", [trumps("N", 7, "hearts", 9)]).parts
    assert [(term.rule, term.points, term.words) for term in made.terms] == [
        ("contract", 5, "the bid of 7 hearts"), ("overtricks", 2, "2 overtricks")]
    _, set_ = explained("trumps", [trumps("E", 9, "spades", 6)]).parts
    assert [(term.rule, term.points, term.words) for term in set_.terms] == [("set", 15, "3 tricks short")]


def test_smudge_terms_name_the_points_a_set_and_a_smudge():
    _, made, defended = explained("smudge", [smudge("N", 2, "NS", "NS", "EW", "NS")]).parts
    assert [(term.rule, term.points, term.words) for term in made.terms] == [("points", 3, "3 points")]
    assert [(term.rule, term.points, term.words) for term in defended.terms] == [("points", 1, "1 point")]
    _, set_, defended = explained("smudge", [smudge("N", 3, "NS", "EW", "NS", "EW")]).parts
    assert [(term.rule, term.points, term.words) for term in set_.terms] == [("set", -3, "the bid of 3, set")]
    assert [(term.rule, term.points, term.words) for term in defended.terms] == [("points", 2, "2 points")]
    _, smudged, _ = explained("smudge", [smudge("S", "smudge", "NS", "NS", "NS", "NS", True)]).parts
    assert [(term.rule, term.points, term.words) for term in smudged.terms] == [("smudge", 5, "the smudge")]


def test_spades_terms_name_a_set_a_blind_nil_and_the_bag_penalty():
    set_, _ = explained("spades", [spades((4, 3, 4, 2), (3, 4, 3, 3))]).parts
    assert [term.as_dict() for term in set_.terms] == [{"rule": "set", "points": -80, "words": "the bid of 8, set"}]
    bags_paid, blind = explained("spades", [*[spades((3, 3, 3, 3), (5, 3, 4, 1))] * 3,
                                            spades((3, 3, 3, "blind_nil"), (4, 4, 5, 0))],
                                 {"blind_nil_deficit": 0}).parts
    assert [(term.rule, term.points, term.words) for term in bags_paid.terms] == [
        ("contract", 60, "the bid of 6"), ("overtricks", 3, "3 overtricks"), ("bag_penalty", -100, "10 bags")]
    assert [(term.rule, term.points, term.words) for term in blind.terms] == [
        ("contract", 30, "the bid of 3"), ("overtricks", 1, "1 overtrick"), ("blind_nil", 100, "Dan's blind nil")]
