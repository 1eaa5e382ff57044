"""The score chart, drawn on the server as SVG coordinates: one line per side, the target marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 14, 30
# Colour-blind-safe pairs, each also drawn with its own dash pattern.
STYLES = [("#0b5d3b", ""), ("#b4461b", "8 4"), ("#1f4e9c", "2 4"), ("#7a2e8c", "12 4 2 4")]


def nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 6:
            return step
    return 10000


def score_chart(
    sides: Sequence[str], names: Mapping[str, str], totals_by_hand: Sequence[Mapping[str, int]], target: int | None
) -> dict[str, Any]:
    """Coordinates for the template ``games/_chart.html``: totals hand by hand, from 0 before hand 1."""
    series = [{side: 0 for side in sides}, *totals_by_hand]
    values = [row.get(side, 0) for row in series for side in sides]
    low = min(0, *values)
    high = max([*values, target or 0, 1])
    hands = max(len(series) - 1, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + plot_w * index / hands, 1)

    def y(value: int) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    lines = []
    for index, side in enumerate(sides):
        colour, dash = STYLES[index % len(STYLES)]
        points = " ".join(f"{x(i)},{y(row.get(side, 0))}" for i, row in enumerate(series))
        last = series[-1].get(side, 0)
        lines.append({"side": side, "name": names[side], "points": points, "colour": colour, "dash": dash,
                      "last_x": x(len(series) - 1), "last_y": y(last), "total": last})
    step = nice_step(high - low)
    ticks = [{"value": v, "y": y(v)} for v in range((low // step) * step, high + 1, step) if low <= v <= high]
    label_every = max(1, -(-hands // 10))
    hand_ticks = [{"number": i, "x": x(i)} for i in range(1, len(series)) if i % label_every == 0 or i == 1]
    summary = ", ".join(f"{names[side]} {series[-1].get(side, 0)}" for side in sides)
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
        "bottom": HEIGHT - BOTTOM, "zero_y": y(0), "lines": lines, "ticks": ticks, "hand_ticks": hand_ticks,
        "target": target, "target_y": y(target) if target is not None else None,
        "summary": f"After {len(series) - 1} hands: {summary}" + (f"; target {target}." if target else "."),
    }


SPARK_W, SPARK_H, SPARK_PAD = 160, 40, 4


def thinned(series: Sequence[float], columns: int) -> list[int]:
    """The indexes of ``series`` worth drawing ``columns`` wide: all of them when there are few; else, in each
    column's share of them, its lowest and its highest (in order), and the last: the line looks the same, and a
    player's thousandth result does not add to the page."""
    if len(series) <= 2 * columns:
        return list(range(len(series)))
    kept = []
    for column in range(columns):
        share = range(column * len(series) // columns, (column + 1) * len(series) // columns)
        low, high = min(share, key=series.__getitem__), max(share, key=series.__getitem__)
        kept += sorted({low, high})
    return kept if kept[-1] == len(series) - 1 else [*kept, len(series) - 1]


def rating_sparkline(ordinals: Sequence[float]) -> dict[str, Any] | None:
    """A small line of a rating's conservative skill, result by result (from 0, a new player's), or None."""
    if not ordinals:
        return None
    series = [0.0, *ordinals]
    low, high = min(series), max(series)
    span = (high - low) or 1.0
    steps = len(series) - 1

    def x(index: int) -> float:
        return round(SPARK_PAD + (SPARK_W - 2 * SPARK_PAD) * index / steps, 1)

    def y(value: float) -> float:
        return round(SPARK_PAD + (SPARK_H - 2 * SPARK_PAD) * (high - value) / span, 1)

    return {
        "width": SPARK_W, "height": SPARK_H,
        "points": " ".join(f"{x(i)},{y(series[i])}" for i in thinned(series, SPARK_W - 2 * SPARK_PAD)),
        "zero_y": y(0.0), "last_x": x(steps), "last_y": y(series[-1]),
        "summary": f"Skill after each of {steps} rated result{'s' if steps != 1 else ''}, from 0 to "
                   f"{series[-1]:.1f} (lowest {low:.1f}, highest {high:.1f}).",
    }
