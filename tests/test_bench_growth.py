"""`make bench-growth` leaves a league size out when its run would pass the budget: foreseen from the sizes measured,
whose runs share a fixed part (the engine's template games, the migrations) and a part that grows with the league."""

from bench.run import foreseen_seconds


def test_nothing_is_foreseen_before_the_first_size():
    assert foreseen_seconds([], 2_000) is None


def test_after_one_size_the_next_is_foreseen_to_take_as_long():
    assert foreseen_seconds([(2_000, 65.0)], 20_000) == 65.0


def test_after_two_sizes_the_next_is_on_their_line_so_the_fixed_part_is_not_scaled_up():
    # 60 s fixed, 2.5 ms a game: 65 s at 2,000 games, 110 s at 20,000, so 310 s at 100,000 (not 550 s).
    assert foreseen_seconds([(2_000, 65.0), (20_000, 110.0)], 100_000) == 310.0


def test_a_larger_league_is_never_foreseen_to_be_quicker():
    assert foreseen_seconds([(2_000, 70.0), (20_000, 60.0)], 100_000) == 60.0
