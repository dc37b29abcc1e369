"""Point and disc against a circle: separation and sweep, named cases."""
import math

import pytest

from sidestep.kernels.circle import separation_point_circle, sweep_circle_circle


def test_separation_outside():
    sep, nx, ny, qx, qy = separation_point_circle(3.0, 0.0, 0.0, 0.0, 1.0)
    assert (sep, nx, ny, qx, qy) == (2.0, 1.0, 0.0, 1.0, 0.0)


def test_separation_inside_is_negative():
    sep, nx, ny, _, _ = separation_point_circle(0.0, 0.25, 0.0, 0.0, 1.0)
    assert sep == -0.75 and (nx, ny) == (0.0, 1.0)


def test_separation_at_centre_has_a_defined_normal():
    sep, nx, ny, _, _ = separation_point_circle(2.0, 2.0, 2.0, 2.0, 0.5)
    assert sep == -0.5 and math.hypot(nx, ny) == 1.0


def test_sweep_hit_head_on():
    # From x = -3 towards a unit circle at the origin: contact at x = -1.
    f, nx, ny = sweep_circle_circle(-3.0, 0.0, 4.0, 0.0, 0.0, 0.0, 1.0)
    assert f == pytest.approx(0.5) and (nx, ny) == pytest.approx((-1.0, 0.0))


def test_sweep_miss_passing_by():
    f, _, _ = sweep_circle_circle(-3.0, 2.0, 6.0, 0.0, 0.0, 0.0, 1.0)
    assert f == math.inf


def test_sweep_miss_short():
    f, _, _ = sweep_circle_circle(-3.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    assert f == math.inf


def test_sweep_touching_and_grazing():
    f, nx, ny = sweep_circle_circle(-3.0, 1.0, 6.0, 0.0, 0.0, 0.0, 1.0)
    assert f == pytest.approx(0.5) and (nx, ny) == pytest.approx((0.0, 1.0))


def test_sweep_starting_inside_moving_in_hits_at_zero():
    f, nx, ny = sweep_circle_circle(0.5, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0)
    assert f == 0.0 and (nx, ny) == (1.0, 0.0)


def test_sweep_starting_inside_moving_out_misses():
    f, _, _ = sweep_circle_circle(0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    assert f == math.inf


def test_sweep_zero_displacement_misses():
    f, _, _ = sweep_circle_circle(-3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    assert f == math.inf


def test_sweep_fast_ball_does_not_pass_the_bat():
    # The radial article's comment: bat radius 1 at x = 0, ball radius 0.5 at
    # x = -2 moving 5 per frame. Stepping positions misses it; the sweep must not.
    f, nx, _ = sweep_circle_circle(-2.0, 0.0, 5.0, 0.0, 0.0, 0.0, 1.0 + 0.5)
    assert f == pytest.approx(0.1) and nx == -1.0


def test_sweep_small_circle_far_away_is_accurate():
    # Catastrophic cancellation would lose the root here with the textbook formula.
    f, _, _ = sweep_circle_circle(-1e6, 0.0, 2e6, 0.0, 0.0, 0.0, 1e-3)
    assert f * 2e6 == pytest.approx(1e6 - 1e-3, abs=1e-9)
