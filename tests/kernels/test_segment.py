"""Point and disc against a segment (capsule): closest point, separation, sweep."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidestep.kernels.segment import (CONVEX_END, CONVEX_START, ONE_SIDED, closest_point_segment,
                                      separation_point_segment,
                                      separation_point_wall_one_sided, sweep_circle_segment,
                                      sweep_from_end_wall_one_sided,
                                      within_reach_motion_segment, within_reach_point_segment)


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


# ------------------------------------------------------- reach filter of a motion
def _within_motion(p, d, a, b, reach):
    return within_reach_motion_segment(p[0], p[1], d[0], d[1], math.hypot(*d), a[0], a[1],
                                       b[0], b[1], reach)


def test_within_reach_motion_keeps_what_the_path_passes_and_drops_what_it_never_nears():
    # A motion from (0, 0) by (10, 0), reach 1: the box [-1, 11] x [-1, 1].
    p, d = (0.0, 0.0), (10.0, 0.0)
    assert _within_motion(p, d, (5.0, 1.9), (5.0, 1.9), 1.0) is False      # beside, too far
    assert _within_motion(p, d, (5.0, 0.9), (5.0, 0.9), 1.0) is True
    assert _within_motion(p, d, (-0.9, 0.0), (-0.9, 0.0), 1.0) is True     # behind the start
    assert _within_motion(p, d, (-1.1, 0.0), (-1.1, 0.0), 1.0) is False
    assert _within_motion(p, d, (11.1, 0.0), (11.1, 0.0), 1.0) is False    # past the end
    # A wall whose ends both lie outside the box but which crosses the path.
    assert _within_motion(p, d, (5.0, -30.0), (5.0, 30.0), 1.0) is True
    assert _within_motion(p, d, (-5.0, -3.0), (20.0, -3.0), 1.0) is False  # parallel, below
    # Turned: the same motion along the diagonal.
    q, e = (0.0, 0.0), (10.0 / math.sqrt(2.0), 10.0 / math.sqrt(2.0))
    assert _within_motion(q, e, (4.0, 2.0), (4.0, 2.0), 1.0) is False       # 1.41 across
    assert _within_motion(q, e, (4.0, 3.0), (4.0, 3.0), 1.0) is True        # 0.71 across


def _segments_distance(p, q, a, b):
    # Distance between segments pq and ab, independently of sidestep: zero
    # where they cross, else the least of the four end-to-segment distances.
    def point_segment(x, s0, s1):
        ex, ey = s1[0] - s0[0], s1[1] - s0[1]
        ll = ex * ex + ey * ey
        f = 0.0 if ll == 0.0 else min(1.0, max(0.0, ((x[0] - s0[0]) * ex +
                                                    (x[1] - s0[1]) * ey) / ll))
        return math.hypot(x[0] - s0[0] - f * ex, x[1] - s0[1] - f * ey)

    def side(o, s, t):
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    if side(p, q, a) * side(p, q, b) < 0.0 and side(a, b, p) * side(a, b, q) < 0.0:
        return 0.0
    return min(point_segment(p, a, b), point_segment(q, a, b), point_segment(a, p, q),
               point_segment(b, p, q))


_small = st.floats(-50.0, 50.0, allow_nan=False)


@settings(max_examples=1000, deadline=None)
@given(_small, _small, _small, _small, _small, _small, _small, _small,
       st.floats(0.0, 5.0), st.sampled_from([0.0, 1e6, -3e7]))
def test_within_reach_motion_never_drops_what_a_sweep_meets(px, py, dx, dy, ax, ay, bx, by,
                                                             reach, shift):
    # Whatever a disc of radius reach sweeping p -> p + d touches (the
    # sweep's own answer, and the independent distance between the motion
    # and the segment), the filter keeps; far from the origin as well.
    if math.hypot(dx, dy) < 1e-6:
        return
    px, py, ax, ay, bx, by = px + shift, py + shift, ax + shift, ay + shift, bx + shift, \
        by + shift
    keep = _within_motion((px, py), (dx, dy), (ax, ay), (bx, by), reach)
    if sweep_circle_segment(px, py, dx, dy, reach, ax, ay, bx, by)[0] <= 1.0:
        assert keep
    gap = _segments_distance((px, py), (px + dx, py + dy), (ax, ay), (bx, by))
    if gap <= reach * (1.0 - 1e-12) - 1e-9 * max(1.0, abs(shift)):
        assert keep
    # And it drops a circle (a point item) clearly beyond the box around the
    # motion (whose corners reach 1.42 times as far as the capsule's round
    # ends). (A long segment is kept whenever its span overlaps the box in
    # the motion's frame, near it or not.)
    centre = _segments_distance((px, py), (px + dx, py + dy), (ax, ay), (ax, ay))
    if centre > 1.5 * reach + 1e-6 * max(1.0, abs(shift)):
        assert not _within_motion((px, py), (dx, dy), (ax, ay), (ax, ay), reach)
