"""Point and disc against a segment (capsule): closest point, separation, sweep."""
import math

import pytest

from sidestep.kernels.segment import (closest_point_segment, separation_point_segment,
                                      sweep_circle_segment)


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
