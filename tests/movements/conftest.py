"""Helpers for the movement tests: tallies of who partnered, opposed and sat out."""

from __future__ import annotations

from collections import Counter

from games.movements.seating import Tally, all_pairs

WHIST_COUNTS = [n for n in range(4, 42) if n % 4 in (0, 1)]


def tally(rounds):
    return Tally.of(rounds)


def partner_counts(rounds, players):
    counts = Tally.of(rounds).partnered
    return Counter(counts[pair] for pair in all_pairs(list(players)))


def opponent_counts(rounds, players):
    counts = Tally.of(rounds).opposed
    return Counter(counts[pair] for pair in all_pairs(list(players)))


def sit_outs_stay_even(rounds, players):
    """After every round, no one has sat out more than once more than anyone else."""
    sat = Counter()
    for round_ in rounds:
        sat.update(round_.sitting_out)
        counts = [sat[p] for p in players]
        if max(counts) - min(counts) > 1:
            return False
    return True


def each_once(round_, players):
    return sorted(map(repr, round_.players)) == sorted(map(repr, players))
