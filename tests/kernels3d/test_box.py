"""Solid axis-aligned boxes: separation (signed), the slab ray, the exact sweep."""
import math

import pytest

from sidestep.kernels3d.box import ray_box, separation_capsule_box, sweep_capsule_box

UNIT = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0)


def test_separation_over_a_face_is_exactly_axial():
    sep, *n, qx, qy, qz = separation_capsule_box(0.3, 0.7, 3, 0.3, 0.7, 4, *UNIT)
    assert sep == 2.0 and n == [0, 0, 1] and (qx, qy, qz) == (0.3, 0.7, 1.0)


def test_separation_past_an_edge_and_a_corner():
    sep, *n, _, _, _ = separation_capsule_box(2, 0.5, 2, 2, 0.5, 2, *UNIT)
    assert sep == pytest.approx(math.sqrt(2)) and n == pytest.approx([2 ** -0.5, 0, 2 ** -0.5])
    sep, *n, qx, qy, qz = separation_capsule_box(-1, -1, -1, -1, -1, -1, *UNIT)
    assert sep == pytest.approx(math.sqrt(3)) and (qx, qy, qz) == (0, 0, 0)


def test_separation_of_a_core_skimming_past_an_edge():
    # A horizontal core along y passing 1 beyond the edge x = 1, z = 1.
    sep, *n, qx, qy, qz = separation_capsule_box(2, -5, 1, 2, 5, 1, *UNIT)
    assert sep == 1.0 and n == [1, 0, 0] and qx == 1.0


def test_separation_inside_uses_the_face_of_least_penetration():
    sep, *n, qx, qy, qz = separation_capsule_box(0.5, 0.5, 0.9, 0.5, 0.5, 0.9, *UNIT)
    assert sep == pytest.approx(-0.1) and n == [0, 0, 1] and qz == 1.0
    # A core through the middle: its deepest point is the centre, 0.5 deep.
    sep, *n, _, _, _ = separation_capsule_box(0.5, 0.5, -3, 0.5, 0.5, 3, *UNIT)
    assert sep == -0.5


def test_separation_inside_a_thin_slab_prefers_its_thin_axis():
    sep, *n, _, _, _ = separation_capsule_box(-4, 0.5, 0.05, 9, 0.5, 0.05, 0, 0, 0, 5, 1, 0.1)
    assert sep == pytest.approx(-0.05) and n[2] in (-1.0, 1.0)


def test_ray_hits_the_face_it_enters():
    assert ray_box(0.5, 0.5, 3, 0, 0, -1, 10, *UNIT) == (2.0, 0.0, 0.0, 1.0)
    assert ray_box(-2, 0.5, 0.5, 1, 0, 0, 10, *UNIT) == (2.0, -1.0, 0.0, 0.0)


def test_ray_misses_beside_beyond_and_behind():
    assert ray_box(2, 0.5, 3, 0, 0, -1, 10, *UNIT)[0] == math.inf
    assert ray_box(0.5, 0.5, 3, 0, 0, -1, 1.5, *UNIT)[0] == math.inf
    assert ray_box(0.5, 0.5, 3, 0, 0, 1, 10, *UNIT)[0] == math.inf


def test_ray_grazing_an_edge_hits_it():
    d, *_ = ray_box(-1, 0.5, 1, 1, 0, 0, 10, *UNIT)
    assert d == 1.0


def test_ray_from_inside_hits_at_zero_inwards_only():
    assert ray_box(0.5, 0.5, 0.9, 0, 0, -1, 10, *UNIT)[0] == 0.0
    assert ray_box(0.5, 0.5, 0.9, 0, 0, 1, 10, *UNIT)[0] == math.inf


def test_sweep_hit_face_edge_and_corner():
    f, *n, qx, qy, qz = sweep_capsule_box(0.5, 0.5, 3, 0.5, 0.5, 4, 0, 0, -10, 0.5, *UNIT)
    assert f == pytest.approx(0.15) and n == [0, 0, 1] and (qx, qy, qz) == (0.5, 0.5, 1.0)
    f, *n, _, _, _ = sweep_capsule_box(3, 0.5, 3, 3, 0.5, 3, -4, 0, -4, 0.5, *UNIT)
    assert f == pytest.approx((2 - 0.5 / math.sqrt(2)) / 4)
    assert n == pytest.approx([2 ** -0.5, 0, 2 ** -0.5])
    f, *n, qx, qy, qz = sweep_capsule_box(3, 3, 3, 3, 3, 3, -10, -10, -10, 0.5, *UNIT)
    assert f == pytest.approx((2 * math.sqrt(3) - 0.5) / (10 * math.sqrt(3)))
    assert (qx, qy, qz) == (1, 1, 1)


def test_sweep_upright_capsule_catches_an_edge_with_its_middle():
    # The core spans z in [-2, 3]; its middle meets the box's vertical edge x = y = 1.
    f, *n, qx, qy, qz = sweep_capsule_box(3, 3, -2, 3, 3, 3, -4, -4, 0, 0.5, *UNIT)
    assert f == pytest.approx((2 * math.sqrt(2) - 0.5) / (4 * math.sqrt(2)))
    assert (qx, qy) == (1, 1) and 0 <= qz <= 1


def test_sweep_miss_and_graze():
    assert sweep_capsule_box(3, 0.5, 3, 3, 0.5, 3, 0, 0, -10, 0.5, *UNIT)[0] == math.inf
    # Gliding exactly a radius above the top face: touches the near edge, as in 2D.
    f, *n, _, _, _ = sweep_capsule_box(-2, 0.5, 1.5, -2, 0.5, 1.5, 4, 0, 0, 0.5, *UNIT)
    assert f == pytest.approx(0.5) and n == pytest.approx([0, 0, 1])


def test_sweep_start_inside_hits_moving_in_and_leaves_moving_out():
    assert sweep_capsule_box(0.5, 0.5, 1.2, 0.5, 0.5, 1.2, 0, 0, -1, 0.5, *UNIT)[0] == 0.0
    assert sweep_capsule_box(0.5, 0.5, 1.2, 0.5, 0.5, 1.2, 0, 0, 1, 0.5, *UNIT)[0] == math.inf


def test_sweep_degenerate_flat_box_and_zero_motion():
    # A box of zero height is still a wall to land on.
    f, *n, _, _, _ = sweep_capsule_box(0.5, 0.5, 2, 0.5, 0.5, 2, 0, 0, -4, 0.5, 0, 0, 0, 1, 1, 0)
    assert f == pytest.approx(1.5 / 4) and n == [0, 0, 1]
    assert sweep_capsule_box(0.5, 0.5, 3, 0.5, 0.5, 3, 0, 0, 0, 0.5, *UNIT)[0] == math.inf


@pytest.mark.parametrize("speed", [10.0, 100.0, 1000.0])
def test_sweep_fast_move_does_not_tunnel(speed):
    # A ball of radius 0.1 thrown at a 1 cm slab at 10 to 1000 radii per move.
    f, *_ = sweep_capsule_box(0.5, 0.5, 0.3, 0.5, 0.5, 0.3, 0, 0, -speed * 0.1, 0.1,
                              0, 0, 0, 1, 1, 0.01)
    assert f == pytest.approx(0.19 / (speed * 0.1))


def test_separation_of_a_core_starting_a_hair_outside_a_slab():
    # Regression (found by the 1e5-translation property): the core starts
    # 2e-313 outside the box's x slab, so one break of the piecewise
    # quadratic distance sits at s = 2e-313, and the distances at 0 and
    # there round equal. Picking the best sampled break and searching only
    # the pieces beside it then missed the minimum (at s = 0.235, 1.0914
    # reported as 1.1180); every piece is now searched.
    sep, *_ = separation_capsule_box(-2.22507386e-313, -0.5, 0, 1, 0.5, -0.25, 0, 0, 1, 1, 1, 2)
    assert sep == pytest.approx(math.sqrt((0.5 - 0.5 / 2.125) ** 2 + (1 + 0.125 / 2.125) ** 2))


def test_sweep_of_a_tiny_core_passing_a_box_edge_is_not_hit_at_the_start():
    # The explore profile's case: a point-like core (3e-44 long) 1.41 radii from the box,
    # moving past its edge, touches it at the end of the move, not at its start.
    f, nx, ny, nz, *_ = sweep_capsule_box(0, 0, 0, 0, 3.2075888e-44, 3.57806786e-53,
                                          1, 0, 0, 1.0, 1, 1, 0, 2, 2, 1)
    assert f == pytest.approx(1.0) and (nx, ny, nz) == pytest.approx((0, -1, 0))
