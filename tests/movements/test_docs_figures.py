"""docs/club-night.md shows the figures ``python -m games.movements --figures`` prints, so they cannot drift."""

from __future__ import annotations

from pathlib import Path

from games.movements.__main__ import main
from games.movements.figures import (
    designs_table,
    figures_row,
    figures_table,
    movement_figures,
    planner_figures,
)
from games.movements.search import PLAYER_COUNTS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "club-night.md"
START, END = "<!-- figures: the output of python -m games.movements --figures -->", "<!-- end of figures -->"


def shown_figures() -> str:
    text = DOCS.read_text()
    return text[text.index(START) + len(START) : text.index(END)].strip()


def test_the_docs_show_how_each_cycle_is_built_and_its_figures():
    expected = designs_table(PLAYER_COUNTS) + "\n\n" + "Over one full cycle of the movement:" + "\n\n"
    expected += figures_table(PLAYER_COUNTS, movement_figures)
    assert expected in shown_figures()


def test_the_docs_show_the_planners_figures():
    # Up to 13 players: planning every count's cycle round by round takes several seconds.
    planner_part = shown_figures().split("planned by the planner alone:")[1]
    for players in range(4, 14):
        assert figures_row(planner_figures(players)) in planner_part


def test_the_docs_show_the_eight_player_chart_the_command_prints(capsys):
    text = DOCS.read_text()
    start, end = "<!-- chart: the output of python -m games.movements --players 8 -->", "<!-- end of chart -->"
    shown = text[text.index(start) + len(start) : text.index(end)].strip().strip("`").strip()
    assert main(["--players", "8"]) == 0
    assert shown == capsys.readouterr().out.strip()
