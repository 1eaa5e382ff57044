"""The server-side score chart."""

from games.views.chart import rating_sparkline, score_chart


def test_one_line_per_side_from_zero_with_the_target_marked():
    chart = score_chart(("NS", "EW"), {"NS": "Ann & Cat", "EW": "Ben & Dan"},
                        [{"NS": 70, "EW": 60}, {"NS": 141, "EW": 0}], 300)
    assert [line["side"] for line in chart["lines"]] == ["NS", "EW"]
    assert all(len(line["points"].split()) == 3 for line in chart["lines"])
    assert chart["top"] <= chart["target_y"] < chart["zero_y"]
    assert "Ann & Cat 141" in chart["summary"]


def test_negative_scores_stay_inside_the_plot():
    chart = score_chart(("NS", "EW"), {"NS": "a", "EW": "b"}, [{"NS": -120, "EW": 40}], 200)
    ys = [float(point.split(",")[1]) for line in chart["lines"] for point in line["points"].split()]
    assert min(ys) >= chart["top"] and max(ys) <= chart["bottom"]


def test_a_long_rating_history_is_drawn_with_its_lows_and_highs_in_a_few_hundred_points():
    ordinals = [((n * 37) % 101) / 10 - 5 for n in range(5000)]
    chart = rating_sparkline(ordinals)
    points = [tuple(map(float, point.split(","))) for point in chart["points"].split()]
    assert len(points) <= 2 * 160 + 1
    ys = [y for _, y in points]
    # The highest and the lowest skill are both drawn (at the top and the bottom of the line's box), and the last.
    assert (min(ys), max(ys)) == (4.0, 36.0)
    assert points[-1] == (chart["last_x"], chart["last_y"])
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert "5000 rated results" in chart["summary"]
    short = rating_sparkline(ordinals[:40])
    assert len(short["points"].split()) == 41  # every result, from 0
