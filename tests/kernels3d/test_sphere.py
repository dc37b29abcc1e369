"""Solid spheres: separation, ray and the analytic sweep."""
import math

import pytest

from sidestep.kernels3d.sphere import ray_sphere, separation_capsule_sphere, sweep_capsule_sphere

BALL = (0.0, 0.0, 0.0, 1.0)


def test_separation_outside_beside_and_inside():
    sep, *n, qx, qy, qz = separation_capsule_sphere(3, 0, -1, 3, 0, 1, *BALL)
    assert sep == 2.0 and n == [1, 0, 0] and (qx, qy, qz) == (1, 0, 0)
    sep, *n, _, _, _ = separation_capsule_sphere(0, 0.5, 0, 0, 0.5, 0, *BALL)
    assert sep == -0.5 and n == [0, 1, 0]


def test_separation_at_the_centre_has_a_fixed_normal():
    sep, *n, _, _, _ = separation_capsule_sphere(0, 0, 0, 0, 0, 0, *BALL)
    assert sep == -1.0 and n == [1, 0, 0]
    sep, *n, _, _, _ = separation_capsule_sphere(0, 0, -2, 0, 0, 2, *BALL)
    assert sep == -1.0 and n[2] == 0.0 and math.hypot(*n) == pytest.approx(1.0)


def test_ray_hit_miss_and_far_small_sphere():
    assert ray_sphere(0, 0, 5, 0, 0, -1, 10, *BALL) == (4.0, 0.0, 0.0, 1.0)
    assert ray_sphere(2, 0, 5, 0, 0, -1, 10, *BALL)[0] == math.inf
    assert ray_sphere(0, 0, 5, 0, 0, -1, 3.9, *BALL)[0] == math.inf
    # A 1 mm ball 1e6 away: the stable root keeps the distance to the last digits.
    d, *_ = ray_sphere(0, 0, 1e6, 0, 0, -1, math.inf, 0, 0, 0, 1e-3)
    assert d == pytest.approx(1e6 - 1e-3, rel=1e-15)


def test_ray_tangent_grazes_and_from_inside_hits_inwards_only():
    d, *n = ray_sphere(-5, 1, 0, 1, 0, 0, 10, *BALL)
    assert d == 5.0 and n == [0, 1, 0]
    assert ray_sphere(0, 0.5, 0, 0, -1, 0, 10, *BALL)[0] == 0.0
    assert ray_sphere(0, 0.5, 0, 0, 1, 0, 10, *BALL)[0] == math.inf


def test_sweep_capsule_hits_with_its_end_and_its_side():
    f, *n, qx, qy, qz = sweep_capsule_sphere(0, 0, 5, 0, 0, 6, 0, 0, -10, 0.5, *BALL)
    assert f == pytest.approx(0.35) and n == pytest.approx([0, 0, 1]) and qz == pytest.approx(1)
    f, *n, qx, qy, qz = sweep_capsule_sphere(4, 0, -1, 4, 0, 1, -4, 0, 0, 0.5, *BALL)
    assert f == pytest.approx(2.5 / 4) and n == pytest.approx([1, 0, 0])


def test_sweep_miss_graze_inside_and_zero_motion():
    assert sweep_capsule_sphere(4, 2, 0, 4, 2, 0, -8, 0, 0, 0.5, *BALL)[0] == math.inf
    f, *n, _, _, _ = sweep_capsule_sphere(4, 1.5, 0, 4, 1.5, 0, -8, 0, 0, 0.5, *BALL)
    assert f == 0.5 and n == pytest.approx([0, 1, 0])
    assert sweep_capsule_sphere(0, 1.2, 0, 0, 1.2, 0, 0, -1, 0, 0.5, *BALL)[0] == 0.0
    assert sweep_capsule_sphere(0, 1.2, 0, 0, 1.2, 0, 0, 1, 0, 0.5, *BALL)[0] == math.inf
    assert sweep_capsule_sphere(0, 3, 0, 0, 3, 0, 0, 0, 0, 0.5, *BALL)[0] == math.inf


@pytest.mark.parametrize("speed", [10.0, 100.0, 1000.0])
def test_sweep_fast_move_does_not_tunnel(speed):
    f, *_ = sweep_capsule_sphere(0, 0, 0.5, 0, 0, 0.5, 0, 0, -speed * 0.1, 0.1, 0, 0, 0, 0.2)
    assert f == pytest.approx(0.2 / (speed * 0.1))
