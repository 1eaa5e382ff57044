"""``python -m games.movements``: the figures for the docs, or one night's rounds to print for the room.

    python -m games.movements --figures            # docs/club-night.md's tables, for 4-41 players
    python -m games.movements --players 9          # the rounds of a 9-player individual night
    python -m games.movements --pairs 7 --rounds 3 # the first 3 rounds of a 7-pair round robin
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Hashable

from .figures import figures_text
from .individual import individual_movement
from .pairs import pairs_movement
from .search import PLAYER_COUNTS
from .seating import Movement


def chart(movement: Movement[Hashable]) -> str:
    lines = []
    for number, round_ in enumerate(movement.rounds, start=1):
        tables = "   ".join(
            f"table {t}: {table.north}-{table.south} v {table.east}-{table.west}"
            for t, table in enumerate(round_.tables, start=1)
        )
        out = f"   sitting out: {', '.join(map(str, round_.sitting_out))}" if round_.sitting_out else ""
        lines.append(f"round {number}: {tables}{out}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.movements", description="Club-night movements.")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--figures", action="store_true", help="the figures per count of players (Markdown)")
    what.add_argument("--players", type=int, help="an individual movement for this many players (numbered from 1)")
    what.add_argument("--pairs", type=int, help="a pairs movement for this many pairs (numbered from 1)")
    parser.add_argument("--rounds", type=int, help="how many rounds (default: one full cycle)")
    args = parser.parse_args(argv)
    if args.figures:
        print(figures_text(PLAYER_COUNTS))
        return 0
    movement: Movement[Hashable]
    if args.players is not None:
        movement = individual_movement(range(1, args.players + 1), args.rounds)
    else:
        movement = pairs_movement([(f"{n}a", f"{n}b") for n in range(1, args.pairs + 1)], args.rounds)
    print(f"{movement.description}; a full cycle is {movement.cycle} rounds")
    print(chart(movement))
    return 0


if __name__ == "__main__":
    sys.exit(main())
