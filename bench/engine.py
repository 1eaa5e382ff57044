"""Rules engine throughput: hands scored per second for each game, replaying long games.

    python -m bench.engine [--hands N]

Targets are set out of reach so a game runs to N hands; the hands are the seeded random ones
of each game's ``sample_hand``. Reports the best of several runs, timed in CPU seconds of this
process (``time.process_time``): hands per second per core, whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from games.rules import game_types, get_ruleset, random_hand

UNREACHABLE = {"target": 1_000_000}  # the largest target allowed


def long_game(game_type: str, hands: int) -> list[dict]:
    rng = random.Random(7)
    return [random_hand(game_type, rng) for _ in range(hands)]


def best_replay(ruleset, records: list[dict], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        state = ruleset.replay(records)
        best = min(best, time.process_time() - started)
    assert state.hands_played == len(records)
    return best


def measure(game_type: str, hands: int, repeats: int = 5) -> dict:
    """Hands per CPU second; and, to show where the time goes, the same with Python's cyclic garbage
    collector paused (it passes over every hand kept so far, and a long replay keeps them all)."""
    ruleset = get_ruleset(game_type, UNREACHABLE)
    records = long_game(game_type, hands)
    best = best_replay(ruleset, records, repeats)
    gc.disable()
    try:
        without_collector = best_replay(ruleset, records, repeats)
    finally:
        gc.enable()
    return {"game": game_type, "hands": hands, "seconds": best, "hands_per_second": hands / best,
            "hands_per_second_collector_paused": hands / without_collector}


def run(hands: int = 10000) -> list[dict]:
    return [measure(game_type, hands) for game_type in game_types()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10000)  # spades reaches the largest target near 12,000
    args = parser.parse_args()
    print(f"{'game':<16}{'hands':>8}{'seconds':>10}{'hands/s':>12}{'collector paused':>18}")
    for row in run(args.hands):
        print(f"{row['game']:<16}{row['hands']:>8}{row['seconds']:>10.3f}{row['hands_per_second']:>12,.0f}"
              f"{row['hands_per_second_collector_paused']:>18,.0f}")


if __name__ == "__main__":
    main()
