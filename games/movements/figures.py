"""How even a movement is, in numbers: the figures docs/club-night.md prints for every count of players.

For one full cycle of each count: how many pairs of players partner more than once, how many
different partners each player has, how often each two players meet as opponents (fewest and most),
and how often each player sits out. The same figures for the planner alone (the cycle planned round
by round, as after a change of attendance) show what a night loses when it leaves its design.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .individual import individual_cycle, individual_movement
from .planner import plan_round
from .seating import Round, Tally, all_pairs


@dataclass(frozen=True)
class Figures:
    players: int
    rounds: int
    partnered_again: int  # pairs of players who partner more than once
    most_partnered: int  # the most times any two players partner
    partners: tuple[int, int]  # fewest and most different partners a player has
    opposed: tuple[int, int]  # fewest and most times two players meet as opponents
    sat_out: tuple[int, int]  # fewest and most times a player sits out


def figures(rounds: Sequence[Round[int]], players: int) -> Figures:
    tally = Tally.of(rounds)
    everyone = list(range(players))
    pairs = list(all_pairs(everyone))
    partnered = [tally.partnered[pair] for pair in pairs]
    opposed = [tally.opposed[pair] for pair in pairs]
    partners = [sum(1 for other in everyone if other != p and tally.partnered[frozenset((p, other))]) for p in everyone]
    sat_out = [tally.sat_out[p] for p in everyone]
    return Figures(
        players,
        len(rounds),
        sum(1 for count in partnered if count > 1),
        max(partnered),
        (min(partners), max(partners)),
        (min(opposed), max(opposed)),
        (min(sat_out), max(sat_out)),
    )


def movement_figures(players: int) -> Figures:
    return figures(individual_movement(range(players)).rounds, players)


def planner_figures(players: int) -> Figures:
    everyone = list(range(players))
    rounds: list[Round[int]] = []
    for _ in range(individual_cycle(players)):
        rounds.append(plan_round(everyone, rounds))
    return figures(rounds, players)


def span(pair: tuple[int, int]) -> str:
    low, high = pair
    return str(low) if low == high else f"{low}–{high}"


FIGURES_HEAD = ["players", "rounds", "pairs partnering twice", "partners each", "opponent meetings", "sit-outs each"]


def figures_row(found: Figures) -> str:
    cells = [found.players, found.rounds, found.partnered_again, span(found.partners), span(found.opposed),
             span(found.sat_out)]
    return "| " + " | ".join(map(str, cells)) + " |"


def figures_table(counts: Sequence[int], figures_of: Callable[[int], Figures]) -> str:
    """``figures_of`` each count of players, as a Markdown table."""
    lines = ["| " + " | ".join(FIGURES_HEAD) + " |", "|" + " --- |" * len(FIGURES_HEAD)]
    lines += [figures_row(figures_of(players)) for players in counts]
    return "\n".join(lines)


def designs_table(counts: Sequence[int]) -> str:
    """How each count's cycle is built, as a Markdown table."""
    lines = ["| players | tables | sitting out | rounds in a cycle | built as |", "| --- | --- | --- | --- | --- |"]
    for players in counts:
        night = individual_movement(range(players))
        lines.append(f"| {players} | {players // 4} | {players % 4} | {night.cycle} | {night.description} |")
    return "\n".join(lines)


def figures_text(counts: Sequence[int]) -> str:
    """Everything ``python -m games.movements --figures`` prints (docs/club-night.md shows it)."""
    return "\n\n".join(
        [
            "How each cycle is built:",
            designs_table(counts),
            "Over one full cycle of the movement:",
            figures_table(counts, movement_figures),
            "Over the same number of rounds planned by the planner alone:",
            figures_table(counts, planner_figures),
        ]
    )
