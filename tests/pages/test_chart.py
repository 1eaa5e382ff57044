"""The server-side score chart."""

from games.views.chart import score_chart


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
