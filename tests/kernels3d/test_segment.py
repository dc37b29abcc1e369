"""The agent's core against a segment: closest points, separation, ray, exact sweep."""
import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from oracle3d import core_samples, min_distance
from sidestep.kernels3d.segment import (closest_point_segment, closest_points_segment_segment,
                                        ray_capsule, separation_capsule_segment,
                                        sweep_capsule_segment)

X_AXIS = (-1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def test_closest_point_beside_and_past_the_ends():
    assert closest_point_segment(0.5, 3.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0) == \
        (0.5, 0.5, 0.0, 0.0)
    assert closest_point_segment(-4.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0)[0] == 0.0
    assert closest_point_segment(9.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0)[0] == 1.0


def test_closest_points_of_skew_segments():
    # The x axis and a segment along y one unit up: nearest at the origin and (0, 0, 1).
    s, t, *xy = closest_points_segment_segment(-1, 0, 0, 1, 0, 0, 0, -1, 1, 0, 1, 1)
    assert (s, t) == (0.5, 0.5) and xy == [0, 0, 0, 0, 0, 1]


def test_closest_points_degenerate_segments_are_points():
    s, t, *xy = closest_points_segment_segment(2, 2, 2, 2, 2, 2, 0, 0, 0, 4, 0, 0)
    assert xy == [2, 2, 2, 2, 0, 0] and t == 0.5
    s, t, *xy = closest_points_segment_segment(1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3)
    assert (s, t) == (0.0, 0.0) and xy == [1, 1, 1, 3, 3, 3]


def test_closest_points_parallel_segments_give_a_closest_pair():
    s, t, *xy = closest_points_segment_segment(0, 1, 0, 2, 1, 0, 1, 0, 0, 5, 0, 0)
    assert math.dist(xy[:3], xy[3:]) == 1.0


def test_separation_upright_capsule_from_a_thick_rail():
    sep, nx, ny, nz, qx, qy, qz = separation_capsule_segment(0, 0, 2, 0, 0, 5, *X_AXIS, 0.5)
    assert sep == 1.5 and (nx, ny, nz) == (0, 0, 1) and (qx, qy, qz) == (0, 0, 0.5)


def test_separation_of_crossing_segments_has_a_normal():
    # Crossing at the origin: distance 0, the normal their common perpendicular.
    sep, nx, ny, nz, *_ = separation_capsule_segment(0, -1, 0, 0, 1, 0, *X_AXIS, 0.0)
    assert sep == 0.0 and abs(nz) == 1.0


def test_ray_capsule_hits_side_and_end():
    d, nx, ny, nz = ray_capsule(0, 5, 0, 0, -1, 0, 10, *X_AXIS, 1.0)
    assert d == 4.0 and (nx, ny, nz) == (0, 1, 0)
    d, nx, ny, nz = ray_capsule(5, 0, 0, -1, 0, 0, 10, *X_AXIS, 1.0)
    assert d == 3.0 and (nx, ny, nz) == (1, 0, 0)


def test_ray_capsule_misses_beyond_max_distance_and_when_pointing_away():
    assert ray_capsule(0, 5, 0, 0, -1, 0, 3.9, *X_AXIS, 1.0)[0] == math.inf
    assert ray_capsule(0, 5, 0, 0, 1, 0, 10, *X_AXIS, 1.0)[0] == math.inf


def test_ray_capsule_from_inside_hits_at_zero_inwards_only():
    assert ray_capsule(0, 0.5, 0, 0, -1, 0, 10, *X_AXIS, 1.0)[0] == 0.0
    assert ray_capsule(0, 0.5, 0, 0, 1, 0, 10, *X_AXIS, 1.0)[0] == math.inf


def test_sweep_hit_edge_to_edge_interiors():
    # A horizontal core along y, 3 above the x axis, falling: the interiors meet.
    f, nx, ny, nz, qx, qy, qz = sweep_capsule_segment(0, -1, 3, 0, 1, 3, 0, 0, -4, 0.5,
                                                      *X_AXIS)
    assert f == pytest.approx(2.5 / 4) and (nx, ny, nz) == (0, 0, 1) and (qx, qy, qz) == (0, 0, 0)


def test_sweep_hit_vertex_against_core():
    # The segment's end (1, 0, 0) meets the moving upright core's side.
    f, nx, ny, nz, qx, qy, qz = sweep_capsule_segment(4, 0, -1, 4, 0, 1, -4, 0, 0, 0.5,
                                                      *X_AXIS)
    assert f == pytest.approx(2.5 / 4) and (nx, ny, nz) == pytest.approx((1, 0, 0))
    assert (qx, qy, qz) == (1, 0, 0)


def test_sweep_miss_passing_beside():
    assert sweep_capsule_segment(0, 3, -1, 0, 3, 1, 0, 0, 0, 0.5, *X_AXIS)[0] == math.inf
    assert sweep_capsule_segment(-5, 3, 0, -5, 3, 0, 10, 0, 0, 0.5, *X_AXIS)[0] == math.inf


def test_sweep_graze_touches_at_the_radius():
    # Gliding along x exactly a radius above the segment: the ball first
    # touches the end (1, 0, 0) from straight above, a double root.
    f, nx, ny, nz, qx, qy, qz = sweep_capsule_segment(3, 0, 1, 3, 0, 1, -6, 0, 0, 1.0, *X_AXIS)
    assert f == pytest.approx(1 / 3) and (nx, ny, nz) == pytest.approx((0, 0, 1))
    assert (qx, qy, qz) == (1, 0, 0)


def test_sweep_start_inside_hits_moving_in_and_misses_moving_out():
    assert sweep_capsule_segment(0, 0, 0.3, 0, 0, 0.3, 0, 0, -1, 0.5, *X_AXIS)[0] == 0.0
    assert sweep_capsule_segment(0, 0, 0.3, 0, 0, 0.3, 0, 0, 1, 0.5, *X_AXIS)[0] == math.inf


def test_sweep_degenerate_segment_is_a_ball_and_zero_motion_misses():
    f, nx, ny, nz, *_ = sweep_capsule_segment(0, 0, 5, 0, 0, 5, 0, 0, -10, 1.0,
                                              0, 0, 0, 0, 0, 0)
    assert f == pytest.approx(0.4) and nz == 1.0
    assert sweep_capsule_segment(0, 0, 5, 0, 0, 6, 0, 0, 0, 1.0, *X_AXIS)[0] == math.inf


@pytest.mark.parametrize("speed", [10.0, 100.0, 1000.0])
def test_sweep_fast_move_does_not_tunnel(speed):
    # A ball of radius 0.1 thrown through a thin rail at 10 to 1000 radii per move.
    f, *_ = sweep_capsule_segment(0.2, -1, 0.05, 0.2, -1, 0.05, 0, speed * 0.1, 0, 0.1,
                                  *X_AXIS)
    gap = math.sqrt(0.1 ** 2 - 0.05 ** 2)
    assert f == pytest.approx((1 - gap) / (speed * 0.1))


_c = st.floats(-3.0, 3.0, allow_nan=False)
_point = st.tuples(_c, _c, _c)


@given(_point, _point, _point, _point)
@example((0.0, 0.0, 1.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 8.126767342798616e-10, 1.0))
def test_separation_matches_dense_sampling(a, b, c, e):
    sep, nx, ny, nz, qx, qy, qz = separation_capsule_segment(*a, *b, *c, *e, 0.0)
    brute = min_distance(core_samples(a, b, 200), core_samples(c, e, 200))
    step = (math.dist(a, b) + math.dist(c, e)) / 199
    assert sep <= brute + 1e-12 and brute <= sep + step
    assert math.isclose(math.hypot(nx, ny, nz), 1.0)


@given(_point, _point, _point, _point, _point, st.floats(0.05, 1.0))
def test_sweep_stops_at_the_radius_and_nothing_earlier_is_closer(a, b, d, c, e, radius):
    f, nx, ny, nz, *_ = sweep_capsule_segment(*a, *b, *d, radius, *c, *e)
    a = np.array(a)
    b = np.array(b)
    d = np.array(d)

    def sep_at(t):
        return separation_capsule_segment(*(a + t * d), *(b + t * d), *c, *e, 0.0)[0]

    start = sep_at(0.0)
    if start <= radius:
        return
    end = f if f != math.inf else 1.0
    if f != math.inf:
        assert sep_at(f) == pytest.approx(radius, abs=1e-9)
    for t in np.linspace(0.0, end, 300):
        assert sep_at(t) >= radius - 1e-9


def test_sweep_of_nearly_parallel_segments_does_not_divide_by_zero():
    # Regression (found by the explore run of the translation property, on
    # a box edge): a core 6e-11 rad from parallel to an edge. Its interior
    # event was solved with aa ee - bb^2, which rounds to 0 there; the
    # cross product's squared length is the same number, computed exactly.
    f, nx, ny, nz, *_ = sweep_capsule_segment(0, 0, 2, 1, 6.269467e-11, 2, 0, 0, -1, 1.0,
                                              0, 0, 0.5, 1, 0, 0.5)
    assert f == pytest.approx(0.5) and (nx, ny, nz) == pytest.approx((0, 0, 1))


@pytest.mark.parametrize("length", [3.5e-280, 1e-200, 1e-160])
def test_sweep_of_a_core_far_shorter_than_1e_154_is_the_sweep_of_a_point(length):
    # Regression (found by the explore profile, through a box and a triangle):
    # a core 3.5e-280 long crossing an edge; |d1 x d2|^2 underflowed to 0 and
    # the interior event divided by it. Such a core is a point to the
    # end-point events, which give the same contact.
    point = sweep_capsule_segment(0, 0, 0, 0, 0, 0, 1, 0, 0, 0.5, 1, -1, 0, 1, 1, 0)
    tiny = sweep_capsule_segment(0, 0, 0, 0, 0, length, 1, 0, 0, 0.5, 1, -1, 0, 1, 1, 0)
    assert tiny[0] == pytest.approx(point[0]) == pytest.approx(0.5)
    assert tiny[1:4] == pytest.approx(point[1:4])


def test_sweep_of_a_tiny_core_nearly_along_an_edge_is_not_hit_from_afar():
    # Regression (found by the explore profile, through a box): a core 3e-44 long and
    # 1.1e-9 rad off an edge's direction, 1.41 radii from it, moving past its end. The
    # interior event's numerators cancelled to rounding, put the closest points of the
    # lines at the ends of both segments and answered a contact at 0; the end-point
    # events give the true one, the point agent touching the edge's end at the move's end.
    tiny = sweep_capsule_segment(0, 0, 0, 0, 3.2075888e-44, 3.57806786e-53, 1, 0, 0, 1.0,
                                 1, 1, 0, 1, 2, 0)
    point = sweep_capsule_segment(0, 0, 0, 0, 0, 0, 1, 0, 0, 1.0, 1, 1, 0, 1, 2, 0)
    assert tiny[0] == pytest.approx(point[0]) == pytest.approx(1.0)
    assert tiny[1:4] == pytest.approx(point[1:4])


def test_separation_of_nearly_parallel_segments_sharing_an_end_is_zero():
    # Regression (found by the explore profile): 8e-10 rad apart, running opposite ways,
    # meeting at the origin. The parallel fallback took the first segment's first end and
    # answered 8e-10; the end-to-segment pairs find the shared end.
    sep, *_ = separation_capsule_segment(0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8.126767342798616e-10,
                                         1, 0.0)
    assert sep == 0.0
    # Exactly parallel, side by side: the distance all along their overlap.
    assert separation_capsule_segment(0, 0, 0, 0, 0, 2, 1, 0, 1, 1, 0, 3, 0.0)[0] == 1.0
