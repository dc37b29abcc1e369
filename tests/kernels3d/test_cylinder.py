"""Solid upright cylinders: closed-form separation and ray, the safe first-root sweep."""
import math

import numpy as np
import pytest

from sidestep.kernels3d.cylinder import (ray_cylinder, separation_capsule_cylinder,
                                         sweep_capsule_cylinder)

# A tree: base at the origin, standing along y (axis 1), radius 1, 2 tall.
TREE = (0.0, 0.0, 0.0, 1, 1.0, 2.0)
TOL = 1e-12


def test_separation_beside_over_the_cap_and_past_the_rim():
    sep, *n, qx, qy, qz = separation_capsule_cylinder(3, 0.5, 0, 3, 1.5, 0, *TREE)
    assert sep == 2.0 and n == [1, 0, 0] and (qx, qy, qz) == (1, 1.0, 0)
    sep, *n, qx, qy, qz = separation_capsule_cylinder(0.5, 3, 0, 0.5, 4, 0, *TREE)
    assert sep == 1.0 and n == [0, 1, 0] and (qx, qy, qz) == (0.5, 2, 0)
    sep, *n, qx, qy, qz = separation_capsule_cylinder(0, 6, 4, 0, 9, 4, *TREE)
    assert sep == 5.0 and n == pytest.approx([0, 0.8, 0.6]) and (qx, qy, qz) == (0, 2, 1)


def test_separation_inside_through_side_or_cap():
    sep, *n, _, _, _ = separation_capsule_cylinder(0.8, 1, 0, 0.8, 1, 0, *TREE)
    assert sep == pytest.approx(-0.2) and n == [1, 0, 0]
    sep, *n, _, _, _ = separation_capsule_cylinder(0, 1.9, 0, 0, 1.9, 0, *TREE)
    assert sep == pytest.approx(-0.1) and n == [0, 1, 0]


def test_separation_of_a_capsule_through_the_axis_has_a_normal():
    sep, *n, _, _, _ = separation_capsule_cylinder(0, -5, 0, 0, 5, 0, *TREE)
    assert sep == -1.0 and math.hypot(*n) == 1.0


def test_separation_of_a_tilted_core_is_searched():
    # A core along x at height 3: nearest over the cap, 1 above it. The
    # distance is flat along the cap, so the search may end at its rim,
    # where the normal has barely begun to tilt.
    sep, *n, _, _, _ = separation_capsule_cylinder(-5, 3, 0.2, 5, 3, 0.2, *TREE)
    assert sep == pytest.approx(1.0, abs=1e-12) and n == pytest.approx([0, 1, 0], abs=1e-6)


def test_ray_side_cap_miss_and_inside():
    assert ray_cylinder(5, 1, 0, -1, 0, 0, 10, *TREE) == (4.0, 1.0, 0.0, 0.0)
    assert ray_cylinder(0.5, 5, 0, 0, -1, 0, 10, *TREE) == (3.0, 0.0, 1.0, 0.0)
    assert ray_cylinder(5, 3, 0, -1, 0, 0, 10, *TREE)[0] == math.inf
    assert ray_cylinder(5, 1, 0, 1, 0, 0, 10, *TREE)[0] == math.inf
    assert ray_cylinder(5, 1, 0, -1, 0, 0, 3.9, *TREE)[0] == math.inf
    assert ray_cylinder(0.5, 1, 0, 1, 0, 0, 10, *TREE)[0] == math.inf
    assert ray_cylinder(0.5, 1, 0, -1, 0, 0, 10, *TREE)[0] == 0.0


def test_sweep_hits_side_head_on_exactly():
    f, *n, qx, qy, qz = sweep_capsule_cylinder(5, 0.5, 0, 5, 1.5, 0, -10, 0, 0, 0.5, *TREE, TOL)
    assert f == pytest.approx(0.35, abs=1e-12) and n == pytest.approx([1, 0, 0])


def test_sweep_lands_on_the_cap():
    f, *n, _, _, _ = sweep_capsule_cylinder(0, 5, 0, 0, 6, 0, 0, -10, 0, 0.5, *TREE, TOL)
    assert f == pytest.approx(0.25, abs=1e-12) and n == pytest.approx([0, 1, 0])


def test_sweep_glancing_the_rim_stops_at_the_radius():
    # Falling at a slant past the rim circle: the rounded rim is a torus, found by search.
    a = np.array([3.0, 4.0, 0.3])
    d = np.array([-3.0, -3.0, 0.0])
    f, *n, _, _, _ = sweep_capsule_cylinder(*a, *a, *d, 0.5, *TREE, TOL)
    assert 0 < f < 1
    at = a + f * d
    sep = separation_capsule_cylinder(*at, *at, *TREE)[0]
    assert 0.5 <= sep <= 0.5 + 1e-9
    for t in np.linspace(0, f, 200):
        p = a + t * d
        assert separation_capsule_cylinder(*p, *p, *TREE)[0] >= 0.5 - 1e-12


def test_sweep_miss_near_and_far():
    assert sweep_capsule_cylinder(5, 3, 0, 5, 3, 0, -10, 0, 0, 0.5, *TREE, TOL)[0] == math.inf
    # Passing the rim 1e-6 beyond touching: proven a miss.
    gap = 1e-6
    assert sweep_capsule_cylinder(5, 2.5 + gap, 0, 5, 2.5 + gap, 0, -10, 0, 0, 0.5, *TREE,
                                  TOL)[0] == math.inf


def test_sweep_start_inside_hits_moving_in_and_leaves_moving_out():
    assert sweep_capsule_cylinder(1.2, 1, 0, 1.2, 1, 0, -1, 0, 0, 0.5, *TREE, TOL)[0] == 0.0
    assert sweep_capsule_cylinder(1.2, 1, 0, 1.2, 1, 0, 1, 0, 0, 0.5, *TREE, TOL)[0] == math.inf


def test_sweep_degenerate_zero_motion_and_flat_cylinder():
    assert sweep_capsule_cylinder(5, 1, 0, 5, 1, 0, 0, 0, 0, 0.5, *TREE, TOL)[0] == math.inf
    # Height 0: a disc, still solid to land on.
    f, *n, _, _, _ = sweep_capsule_cylinder(0, 3, 0, 0, 3, 0, 0, -6, 0, 0.5, 0, 0, 0, 1, 1.0, 0.0,
                                            TOL)
    assert f == pytest.approx(2.5 / 6, abs=1e-12) and n == pytest.approx([0, 1, 0])


@pytest.mark.parametrize("speed", [10.0, 100.0, 1000.0])
def test_sweep_fast_move_does_not_tunnel(speed):
    # A ball of radius 0.1 shot past a thin pole, slightly off-centre.
    a = np.array([0.05, 1.0, -0.5])
    d = np.array([0.0, 0.0, speed * 0.1])
    f, *_ = sweep_capsule_cylinder(*a, *a, *d, 0.1, 0, 0, 0, 1, 0.1, 2.0, TOL)
    assert f < 1.0
    at = a + f * d
    assert separation_capsule_cylinder(*at, *at, 0, 0, 0, 1, 0.1, 2.0)[0] == \
        pytest.approx(0.1, abs=1e-9)
