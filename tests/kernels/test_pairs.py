"""Segment against segment (distance, how they cross) and the close-pair search over capsules."""
import numpy as np
import pytest

from sidestep.kernels.pairs import (CROSSING_APART, CROSSING_COLLINEAR, CROSSING_PROPER,
                                    CROSSING_TOUCH, close_pairs_capsules,
                                    crossing_segment_segment, distance_segment_segment)


def test_parallel_segments_meet_in_the_middle_of_where_they_face():
    d, px, py, qx, qy = distance_segment_segment(0, 0, 4, 0, 1, 2, 3, 2)
    assert d == 2.0 and (px, py, qx, qy) == (2.0, 0.0, 2.0, 2.0)


def test_parallel_segments_side_by_side_meet_at_the_near_ends():
    d, px, py, qx, qy = distance_segment_segment(0, 0, 1, 0, 4, 4, 6, 4)
    assert d == pytest.approx(5.0) and (px, py, qx, qy) == (1.0, 0.0, 4.0, 4.0)


def test_crossing_segments_are_at_distance_zero_at_the_crossing():
    d, px, py, qx, qy = distance_segment_segment(0, 0, 2, 2, 0, 2, 2, 0)
    assert d == 0.0 and (px, py) == (qx, qy) == pytest.approx((1.0, 1.0))
    assert crossing_segment_segment(0, 0, 2, 2, 0, 2, 2, 0) == CROSSING_PROPER


def test_nearly_crossing_segments_are_exactly_zero_not_a_rounding_hair():
    # Long segments through the same point at a shallow angle: a distance
    # computed from projections would come out around 1e-16, not 0.
    d, *_ = distance_segment_segment(-1e4, -1.0, 1e4, 1.0, -1e4, 1.0, 1e4, -1.0)
    assert d == 0.0


def test_touching_end_on_segment_is_a_touch_at_that_end():
    d, px, py, qx, qy = distance_segment_segment(0, 0, 4, 0, 2, 0, 2, 3)   # a T
    assert d == 0.0 and (px, py) == (qx, qy) == (2.0, 0.0)
    assert crossing_segment_segment(0, 0, 4, 0, 2, 0, 2, 3) == CROSSING_TOUCH
    assert crossing_segment_segment(0, 0, 4, 0, 4, 0, 4, 3) == CROSSING_TOUCH   # a corner


def test_degenerate_point_against_point():
    d, px, py, qx, qy = distance_segment_segment(0, 0, 0, 0, 3, 4, 3, 4)
    assert d == 5.0 and (px, py, qx, qy) == (0.0, 0.0, 3.0, 4.0)
    assert distance_segment_segment(1, 1, 1, 1, 1, 1, 1, 1)[0] == 0.0
    assert crossing_segment_segment(1, 1, 1, 1, 1, 1, 1, 1) == CROSSING_TOUCH


def test_degenerate_point_against_segment():
    d, px, py, qx, qy = distance_segment_segment(0, 1, 0, 1, -1, 0, 1, 0)
    assert d == 1.0 and (px, py, qx, qy) == (0.0, 1.0, 0.0, 0.0)
    d, *_ = distance_segment_segment(-1, 0, 1, 0, 0.5, 0, 0.5, 0)      # a point on it
    assert d == 0.0
    assert crossing_segment_segment(-1, 0, 1, 0, 0.5, 0, 0.5, 0) == CROSSING_TOUCH


def test_collinear_overlapping_segments():
    d, px, py, qx, qy = distance_segment_segment(0, 0, 2, 0, 1, 0, 3, 0)
    assert d == 0.0 and px == qx and 1.0 <= px <= 2.0
    assert crossing_segment_segment(0, 0, 2, 0, 1, 0, 3, 0) == CROSSING_COLLINEAR
    assert crossing_segment_segment(0, 0, 0, 2, 0, 1, 0, 3) == CROSSING_COLLINEAR   # vertical


def test_collinear_apart_and_end_to_end():
    assert distance_segment_segment(0, 0, 1, 0, 2, 0, 3, 0)[0] == 1.0
    assert crossing_segment_segment(0, 0, 1, 0, 2, 0, 3, 0) == CROSSING_APART
    assert crossing_segment_segment(0, 0, 1, 0, 1, 0, 3, 0) == CROSSING_TOUCH


def test_distance_matches_dense_sampling_and_is_symmetric():
    rng = np.random.default_rng(7)
    f = np.linspace(0.0, 1.0, 401)
    for _ in range(100):
        a, b, c, d = rng.uniform(-5, 5, (4, 2))
        dist, px, py, qx, qy = distance_segment_segment(*a, *b, *c, *d)
        assert dist == pytest.approx(distance_segment_segment(*c, *d, *a, *b)[0], abs=1e-12)
        assert np.hypot(px - qx, py - qy) == pytest.approx(dist, abs=1e-12)
        p = a + f[:, None] * (b - a)
        q = c + f[:, None] * (d - c)
        sampled = np.hypot(*(p[:, None] - q[None]).T).min()
        # Sampling only finds points at least as far apart, and at most a step further.
        step = (np.hypot(*(b - a)) + np.hypot(*(d - c))) / 400
        assert dist <= sampled + 1e-12 and sampled - dist <= step


def _brute_pairs(geometry, owner, self_pairs, reach, touch):
    found = {}
    for i in range(len(geometry)):
        for j in range(i + 1, len(geometry)):
            same = owner[i] == owner[j]
            if same and not (self_pairs[i] and self_pairs[j]):
                continue
            sep = distance_segment_segment(*geometry[i, :4], *geometry[j, :4])[0] \
                - geometry[i, 4] - geometry[j, 4]
            if (touch < sep < reach) if same else (sep < reach or sep <= touch):
                found[(i, j)] = sep
    return found


def test_close_pairs_match_brute_force_between_obstacles():
    rng = np.random.default_rng(3)
    geometry = np.column_stack([rng.uniform(0, 30, (400, 4)), rng.uniform(0, 0.4, 400)])
    geometry[:100, 2:4] = geometry[:100, 0:2]          # circles: zero-length capsules
    geometry[100:200, 2:4] = geometry[100:200, 0:2] + rng.normal(0, 0.5, (100, 2))
    owner = np.arange(400, dtype=np.int64)
    owner[300:310] = 300                               # one obstacle of ten capsules
    self_pairs = np.zeros(400, bool)
    first, second, sep, dist, middle, crossing = close_pairs_capsules(
        geometry, owner, self_pairs, 1.0, 1e-9)
    want = _brute_pairs(geometry, owner, self_pairs, 1.0, 1e-9)
    got = dict(zip(zip(first.tolist(), second.tolist()), sep.tolist()))
    assert got.keys() == want.keys()
    assert all(got[k] == pytest.approx(want[k], abs=1e-12) for k in got)
    assert np.all(dist >= 0) and np.all(sep <= dist)
    assert middle.shape == (len(first), 2) and crossing.shape == first.shape


def test_close_pairs_of_one_outline_skip_corners_and_lips_in_line():
    # A U-shaped outline with a notch 0.2 wide and 2 deep: its two sides face
    # each other; the edges meeting at corners, and the two lips of the mouth
    # (in line with each other), are not findings.
    u = np.array([(0, 0), (3, 0), (3, 3), (1.6, 3), (1.6, 1), (1.4, 1), (1.4, 3), (0, 3)],
                 float)
    geometry = np.column_stack([u, np.roll(u, -1, axis=0), np.zeros(len(u))])
    owner = np.zeros(len(u), np.int64)
    first, second, sep, dist, middle, _ = close_pairs_capsules(
        geometry, owner, np.ones(len(u), bool), 0.6, 1e-9)
    assert len(first) == 1 and sep[0] == pytest.approx(0.2)
    assert middle[0] == pytest.approx((1.5, 2.0))
    # Without self pairs the obstacle has nothing to compare with.
    assert len(close_pairs_capsules(geometry, owner, np.zeros(len(u), bool), 0.6, 1e-9)[0]) == 0


def test_close_pairs_report_touching_and_crossing_even_at_zero_reach():
    geometry = np.array([[0, 0, 2, 2, 0], [0, 2, 2, 0, 0], [5, 0, 6, 0, 0], [6, 0, 6, 1, 0],
                         [9, 0, 9, 1, 0]], float)
    first, second, sep, _, _, crossing = close_pairs_capsules(
        geometry, np.arange(5, dtype=np.int64), np.zeros(5, bool), 0.0, 1e-9)
    got = dict(zip(zip(first.tolist(), second.tolist()), crossing.tolist()))
    assert got == {(0, 1): CROSSING_PROPER, (2, 3): CROSSING_TOUCH}


def test_close_pairs_of_fewer_than_two_capsules_are_empty():
    for m in (0, 1):
        out = close_pairs_capsules(np.zeros((m, 5)), np.zeros(m, np.int64), np.zeros(m, bool),
                                   1.0, 1e-9)
        assert [len(a) for a in out] == [0] * 6
