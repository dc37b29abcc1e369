"""Point and disc against a segment (capsule): closest point, separation, sweep."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidestep.kernels.segment import (CONVEX_END, CONVEX_START, ONE_SIDED, closest_point_segment,
                                      separation_point_segment,
                                      separation_point_wall_one_sided, sweep_circle_segment,
                                      sweep_from_end_wall_one_sided, within_reach_point_segment)


def test_closest_point_vertical_wall():
    # The wall article's y = m x + n form needs a fudge for vertical walls; projection does not.
    assert closest_point_segment(3.0, 5.0, 0.0, 0.0, 0.0, 10.0) == (0.0, 5.0)


def test_closest_point_clamps_to_ends():
    assert closest_point_segment(-4.0, 1.0, 0.0, 0.0, 10.0, 0.0) == (0.0, 0.0)
    assert closest_point_segment(14.0, 1.0, 0.0, 0.0, 10.0, 0.0) == (10.0, 0.0)


def test_closest_point_degenerate_segment_is_its_point():
    assert closest_point_segment(3.0, 4.0, 1.0, 1.0, 1.0, 1.0) == (1.0, 1.0)


def test_separation_with_thickness():
    sep, nx, ny, qx, qy = separation_point_segment(5.0, 2.0, 0.0, 0.0, 10.0, 0.0, 0.5)
    assert sep == 1.5 and (nx, ny) == (0.0, 1.0) and (qx, qy) == (5.0, 0.5)


def test_separation_on_the_segment_uses_left_normal():
    sep, nx, ny, _, _ = separation_point_segment(5.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.5)
    assert sep == -0.5 and (nx, ny) == (-0.0, 1.0)


def test_separation_on_an_end_uses_left_normal_too():
    # On the very end the round end's normal is undefined; a fixed (1, 0)
    # pointed into a level's void at half its corners.
    for x in (0.0, 10.0):
        sep, nx, ny, qx, qy = separation_point_segment(x, 0.0, 0.0, 0.0, 10.0, 0.0, 0.5)
        assert sep == -0.5 and (nx, ny) == (-0.0, 1.0) and (qx, qy) == (x, 0.5)
        sep, nx, ny, _, _ = separation_point_wall_one_sided(x, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0,
                                                           ONE_SIDED)
        assert sep == 0.0 and (nx, ny) == (-0.0, 1.0)
    # A circle (a segment of no length) keeps its fixed normal.
    assert separation_point_segment(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5)[1:3] == (1.0, 0.0)


@pytest.mark.parametrize("convex", [False, True])
def test_sweep_from_the_end_of_a_one_sided_wall_enters_only_behind_it(convex):
    # The wall (0, 0) -> (10, 0), walkable above; the centre on its end (10, 0).
    code = ONE_SIDED | (CONVEX_END if convex else 0)

    def enters(dx, dy):
        return sweep_from_end_wall_one_sided(dx, dy, 0.0, 0.0, 10.0, 0.0, False, code)[0] == 0.0
    assert enters(-1.0, -1.0) and enters(-1.0, -1e-17)   # back along it, behind
    assert not enters(-1.0, 0.0) and not enters(-1.0, 1.0) and not enters(1.0, 1.0)
    # Beyond the end and behind the line: the void wedge at a convex corner,
    # the next wall's walkable side at a reflex one.
    assert enters(1.0, -1.0) == convex and enters(0.0, -1.0) == convex
    assert sweep_from_end_wall_one_sided(-1.0, -1.0, 0.0, 0.0, 10.0, 0.0, False,
                                         code)[1:] == (-0.0, 1.0)
    # From the start the same, mirrored.
    code = ONE_SIDED | (CONVEX_START if convex else 0)
    assert sweep_from_end_wall_one_sided(1.0, -1.0, 0.0, 0.0, 10.0, 0.0, True, code)[0] == 0.0
    assert (sweep_from_end_wall_one_sided(-1.0, -1.0, 0.0, 0.0, 10.0, 0.0, True, code)[0]
            == 0.0) == convex


def test_sweep_hit_side():
    f, nx, ny = sweep_circle_segment(5.0, 3.0, 0.0, -4.0, 0.5, 0.0, 0.0, 10.0, 0.0)
    assert f == pytest.approx(2.5 / 4.0) and (nx, ny) == pytest.approx((0.0, 1.0))


def test_sweep_hit_round_end():
    f, nx, ny = sweep_circle_segment(-3.0, 0.0, 4.0, 0.0, 1.0, 0.0, 0.0, 10.0, 0.0)
    assert f == pytest.approx(0.5) and (nx, ny) == pytest.approx((-1.0, 0.0))


def test_sweep_miss_parallel():
    f, _, _ = sweep_circle_segment(-3.0, 2.0, 20.0, 0.0, 1.0, 0.0, 0.0, 10.0, 0.0)
    assert f == math.inf


def test_sweep_touching_grazes_side():
    f, nx, ny = sweep_circle_segment(5.0, 1.5, 0.0, -1.0, 1.0, 0.0, 0.0, 10.0, 0.0)
    assert f == pytest.approx(0.5) and ny == pytest.approx(1.0)


def test_sweep_start_inside_moving_in_and_out():
    assert sweep_circle_segment(5.0, 0.5, 0.0, -1.0, 1.0, 0.0, 0.0, 10.0, 0.0)[0] == 0.0
    assert sweep_circle_segment(5.0, 0.5, 0.0, 1.0, 1.0, 0.0, 0.0, 10.0, 0.0)[0] == math.inf


def test_sweep_zero_radius_point_crosses_thin_wall():
    # A point camera (radius 0) against a wall of zero thickness: plain crossing.
    f, nx, ny = sweep_circle_segment(5.0, -2.0, 0.0, 4.0, 0.0, 0.0, 0.0, 10.0, 0.0)
    assert f == pytest.approx(0.5) and ny == pytest.approx(-1.0)


def test_sweep_zero_displacement_misses():
    assert sweep_circle_segment(5.0, 3.0, 0.0, 0.0, 1.0, 0.0, 0.0, 10.0, 0.0)[0] == math.inf


@pytest.mark.parametrize("speed", [10.0, 100.0, 1000.0])
def test_sweep_fast_move_does_not_tunnel(speed):
    f, _, _ = sweep_circle_segment(5.0, -1.0, 0.0, speed, 0.1, 0.0, 0.0, 10.0, 0.0)
    assert f == pytest.approx(0.9 / speed)


# ---------------------------------------------------------------- reach filter
def test_within_reach_beside_segment():
    assert within_reach_point_segment(5.0, 2.0, 0.0, 0.0, 10.0, 0.0, 2.0)
    assert not within_reach_point_segment(5.0, 2.1, 0.0, 0.0, 10.0, 0.0, 2.0)


def test_within_reach_past_either_end_measures_to_the_end():
    # (13, 4) is 5 from the end (10, 0) although only 4 from the segment's line.
    assert not within_reach_point_segment(13.0, 4.0, 0.0, 0.0, 10.0, 0.0, 4.5)
    assert within_reach_point_segment(13.0, 4.0, 0.0, 0.0, 10.0, 0.0, 5.0)
    assert not within_reach_point_segment(-3.0, 4.0, 0.0, 0.0, 10.0, 0.0, 4.5)
    assert within_reach_point_segment(-3.0, 4.0, 0.0, 0.0, 10.0, 0.0, 5.0)


def test_within_reach_degenerate_segment_is_a_circle():
    assert within_reach_point_segment(4.0, 4.0, 1.0, 1.0, 1.0, 1.0, 5.0)
    assert not within_reach_point_segment(4.0, 4.0, 1.0, 1.0, 1.0, 1.0, 4.2)


def test_within_reach_far_along_a_long_wall():
    # Beside a 20 km wall, 1e4 from its start: the squared form cancels
    # badly there, and must still accept a point right at reach.
    assert within_reach_point_segment(1.0e4, 0.5, 0.0, 0.0, 2.0e4, 0.0, 0.5)
    assert not within_reach_point_segment(1.0e4, 0.6, 0.0, 0.0, 2.0e4, 0.0, 0.5)


def test_within_reach_underflowing_geometry_is_accepted():
    # Lengths near 1e-100: their fourth powers underflow to zero, so the
    # squared test cannot tell; the filter must then accept (never drop).
    h = 2.1341765699947153e-100
    assert within_reach_point_segment(0.0, h, h, h, 0.0, 0.0, 0.0)
    assert separation_point_segment(0.0, h, h, h, 0.0, 0.0, 0.0)[0] > 0.0


_coord = st.floats(-1e3, 1e3, allow_nan=False)


@settings(max_examples=500, deadline=None)
@given(_coord, _coord, _coord, _coord, _coord, _coord, st.floats(0.0, 50.0))
def test_within_reach_agrees_with_the_exact_separation(px, py, ax, ay, bx, by, reach):
    sep = separation_point_segment(px, py, ax, ay, bx, by, 0.0)[0]
    size = math.hypot(px - ax, py - ay) + math.hypot(bx - ax, by - ay)
    # Within reach (beyond the exact separation's own rounding): never rejected.
    if sep <= reach - 1e-12 * (size + max(map(abs, (px, py, ax, ay, bx, by)))):
        assert within_reach_point_segment(px, py, ax, ay, bx, by, reach)
    # Clearly beyond: rejected, unless the geometry is so small that fourth
    # powers of its lengths underflow (then the filter accepts, safe side).
    if sep > reach * (1.0 + 1e-6) + 1e-5 * size and size > 1e-70:
        assert not within_reach_point_segment(px, py, ax, ay, bx, by, reach)
