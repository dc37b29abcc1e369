"""Planar panels: the article's panel test, concave outlines, culling, separation and sweep."""
import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from oracle3d import core_samples, fan_surface, min_distance
from sidestep.kernels3d.polygon import (ALL_EDGES, contains_point_polygon, first_crossing_panel,
                                        inside_convex_polygon, newell_normal_polygon,
                                        planarity_polygon, ray_polygon, ray_triangle,
                                        separation_capsule_polygon, sweep_capsule_polygon,
                                        triangle_gap)

# A unit square in the plane z = 0, counter-clockwise seen from +z (its front).
SQUARE = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
LOOP = np.arange(4)
UP = (0.0, 0.0, 1.0)
# An L-shaped (concave) panel: the notch [1, 2] x [1, 2] is outside it.
ELL = np.array([[0, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0], [1, 2, 0], [0, 2, 0]], float)
ELL_LOOP = np.arange(6)


def panel(vertices):
    v = np.asarray(vertices, float)
    loop = np.arange(len(v))
    nx, ny, nz, _ = newell_normal_polygon(v, loop, 0, len(v))
    return v, loop, 0, len(v), nx, ny, nz


# ------------------------------------------------- the article's panel test
def test_article_ray_plane_intercept():
    # P = (0.25, 0.5, 5) looking down v = (0, 0, -1): R = (P0 - P) . n / (n . v) = 5.
    d, nx, ny, nz = ray_polygon(0.25, 0.5, 5, 0, 0, -1, math.inf, SQUARE, LOOP, 0, 4, *UP, False)
    assert d == 5.0 and (nx, ny, nz) == UP


def test_article_intercept_of_a_slanted_ray():
    u = np.array([0.3, 0.2, -1.0])
    u /= np.linalg.norm(u)
    d, *_ = ray_polygon(0.1, 0.2, 2.0, *u, 10.0, SQUARE, LOOP, 0, 4, *UP, False)
    hit = np.array([0.1, 0.2, 2.0]) + d * u
    assert hit[2] == pytest.approx(0.0, abs=1e-15) and hit[:2] == pytest.approx([0.7, 0.6])


@pytest.mark.parametrize("winding", ["counter-clockwise", "clockwise"])
def test_article_inside_test_either_winding(winding):
    v = SQUARE if winding == "counter-clockwise" else SQUARE[::-1].copy()
    _, _, _, _, nx, ny, nz = panel(v)
    assert nz == (1.0 if winding == "counter-clockwise" else -1.0)
    for normal in ((nx, ny, nz), (-nx, -ny, -nz), (0, 0, 7.0)):   # any sign, any length
        assert inside_convex_polygon(0.5, 0.5, 0, v, LOOP, 0, 4, *normal)
        assert inside_convex_polygon(1.0, 0.5, 0, v, LOOP, 0, 4, *normal)   # on the outline
        assert not inside_convex_polygon(1.5, 0.5, 0, v, LOOP, 0, 4, *normal)
        assert not inside_convex_polygon(0.5, -0.1, 0, v, LOOP, 0, 4, *normal)
    assert contains_point_polygon(0.5, 0.5, 0, v, LOOP, 0, 4, nx, ny, nz)
    assert not contains_point_polygon(1.5, 0.5, 0, v, LOOP, 0, 4, nx, ny, nz)


def test_article_back_face_culled_only_for_front_only_panels():
    # Looking up at the square from below: n . v > 0, its back face.
    assert ray_polygon(0.5, 0.5, -2, 0, 0, 1, 10, SQUARE, LOOP, 0, 4, *UP, True)[0] == math.inf
    d, nx, ny, nz = ray_polygon(0.5, 0.5, -2, 0, 0, 1, 10, SQUARE, LOOP, 0, 4, *UP, False)
    assert d == 2.0 and (nx, ny, nz) == (0, 0, -1)       # turned towards the viewer


def test_article_panel_behind_the_viewer_is_culled():
    # R < 0: the panel is behind the viewer, whichever side faces it.
    for front_only in (False, True):
        assert ray_polygon(0.5, 0.5, 2, 0, 0, 1, 10, SQUARE, LOOP, 0, 4, *UP,
                           front_only)[0] == math.inf


def test_article_ray_parallel_to_the_panel_has_no_intercept():
    assert ray_polygon(-1, 0.5, 0, 1, 0, 0, 10, SQUARE, LOOP, 0, 4, *UP, False)[0] == math.inf


def test_ray_misses_outside_the_outline_and_beyond_max_distance():
    assert ray_polygon(1.5, 0.5, 2, 0, 0, -1, 10, SQUARE, LOOP, 0, 4, *UP, False)[0] == math.inf
    assert ray_polygon(0.5, 0.5, 2, 0, 0, -1, 1.9, SQUARE, LOOP, 0, 4, *UP, False)[0] == math.inf


def test_ray_through_the_notch_of_a_concave_panel_misses():
    nx, ny, nz, _ = newell_normal_polygon(ELL, ELL_LOOP, 0, 6)
    assert ray_polygon(1.5, 1.5, 1, 0, 0, -1, 5, ELL, ELL_LOOP, 0, 6, nx, ny, nz,
                       False)[0] == math.inf
    assert ray_polygon(0.5, 1.5, 1, 0, 0, -1, 5, ELL, ELL_LOOP, 0, 6, nx, ny, nz,
                       False)[0] == 1.0


def test_article_same_sign_test_needs_convex_panels():
    # (0.5, 1.5) lies in the L's upper arm, but the reflex corner (1, 1)
    # turns one cross product round: the article's test, made for convex
    # panels, says outside. The crossing test the kernels use gets it right.
    assert not inside_convex_polygon(0.5, 1.5, 0, ELL, ELL_LOOP, 0, 6, *UP)
    assert contains_point_polygon(0.5, 1.5, 0, ELL, ELL_LOOP, 0, 6, *UP)
    assert not contains_point_polygon(1.5, 1.5, 0, ELL, ELL_LOOP, 0, 6, *UP)
    assert contains_point_polygon(0.5, 0.5, 0, ELL, ELL_LOOP, 0, 6, *UP)


# ------------------------------------------------------------ validation
def test_newell_normal_and_area_follow_the_winding():
    assert newell_normal_polygon(SQUARE, LOOP, 0, 4) == (0.0, 0.0, 1.0, 1.0)
    assert newell_normal_polygon(SQUARE[::-1].copy(), LOOP, 0, 4) == (0.0, 0.0, -1.0, 1.0)
    assert newell_normal_polygon(ELL, ELL_LOOP, 0, 6)[3] == 3.0


def test_newell_normal_far_from_the_origin_keeps_its_digits():
    far = SQUARE * 1e-3 + 1e5
    nx, ny, nz, area = newell_normal_polygon(far, LOOP, 0, 4)
    assert (nx, ny, nz) == UP and area == pytest.approx(1e-6, rel=1e-9)


def test_degenerate_panel_has_no_normal_and_no_plane():
    line = np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2]], float)
    assert newell_normal_polygon(line, np.arange(3), 0, 3) == (0.0, 0.0, 0.0, 0.0)
    assert planarity_polygon(line, np.arange(3), 0, 3) == math.inf


def test_planarity_of_flat_and_bent_panels():
    assert planarity_polygon(SQUARE, LOOP, 0, 4) == 0.0
    # A saddle, corners alternately 0.1 above and below z = 0: by symmetry
    # the best plane is z = 0, and every corner is 0.1 from it.
    saddle = SQUARE + np.array([[0, 0, 0.1], [0, 0, -0.1], [0, 0, 0.1], [0, 0, -0.1]])
    assert newell_normal_polygon(saddle, LOOP, 0, 4)[:3] == UP
    assert planarity_polygon(saddle, LOOP, 0, 4) == pytest.approx(0.1, rel=1e-12)


def test_self_crossing_outline_is_found():
    bow_tie = np.array([[0, 0, 0], [1, 1, 0], [1, 0, 0], [0, 1, 0]], float)
    assert first_crossing_panel(bow_tie, LOOP, 0, 4, *UP) == (0, 2)
    assert first_crossing_panel(ELL, ELL_LOOP, 0, 6, *UP) == (-1, -1)
    # Standing upright (normal along x): projected on y-z, crossing found too.
    upright = bow_tie[:, [2, 0, 1]]
    assert first_crossing_panel(upright, LOOP, 0, 4, 1.0, 0.0, 0.0) == (0, 2)


# ------------------------------------------------------------ separation
def test_separation_over_the_face_beside_an_edge_and_at_a_vertex():
    sep, *n, qx, qy, qz = separation_capsule_polygon(0.5, 0.5, 2, 0.5, 0.5, 3, SQUARE, LOOP, 0,
                                                     4, *UP, ALL_EDGES, False)
    assert sep == 2.0 and n == [0, 0, 1] and (qx, qy, qz) == (0.5, 0.5, 0)
    sep, *n, qx, qy, qz = separation_capsule_polygon(3, 0.5, 0, 3, 0.5, 1, SQUARE, LOOP, 0, 4,
                                                     *UP, ALL_EDGES, False)
    assert sep == 2.0 and n == [1, 0, 0] and (qx, qy, qz) == (1, 0.5, 0)
    sep, *n, qx, qy, qz = separation_capsule_polygon(2, 2, 1, 2, 2, 1, SQUARE, LOOP, 0, 4, *UP,
                                                     ALL_EDGES, False)
    assert sep == pytest.approx(math.sqrt(3)) and (qx, qy, qz) == (1, 1, 0)


def test_separation_of_a_core_through_the_panel_is_zero():
    sep, nx, ny, nz, *_ = separation_capsule_polygon(0.5, 0.5, -1, 0.5, 0.5, 3, SQUARE, LOOP, 0,
                                                     4, *UP, ALL_EDGES, False)
    assert sep == 0.0 and (nx, ny, nz) == UP      # the side where most of the core is


def test_separation_below_a_two_sided_panel_points_down():
    sep, nx, ny, nz, *_ = separation_capsule_polygon(0.5, 0.5, -3, 0.5, 0.5, -2, SQUARE, LOOP, 0,
                                                     4, *UP, ALL_EDGES, False)
    assert sep == 2.0 and nz == -1.0


def test_front_only_panel_does_not_exist_from_behind():
    assert separation_capsule_polygon(0.5, 0.5, -3, 0.5, 0.5, -2, SQUARE, LOOP, 0, 4, *UP,
                                      ALL_EDGES, True)[0] == math.inf
    assert separation_capsule_polygon(0.5, 0.5, 2, 0.5, 0.5, 3, SQUARE, LOOP, 0, 4, *UP,
                                      ALL_EDGES, True)[0] == 2.0


def test_front_only_panel_does_not_exist_for_a_core_crossing_it():
    # A core through the square, its middle in front: two-sided it touches (0), one-sided
    # the panel has no front for it (a sweep that let it in edge-on must not find it).
    assert separation_capsule_polygon(0.5, 0.5, -1, 0.5, 0.5, 2, SQUARE, LOOP, 0, 4, *UP,
                                      ALL_EDGES, False)[0] == 0.0
    assert separation_capsule_polygon(0.5, 0.5, -1, 0.5, 0.5, 2, SQUARE, LOOP, 0, 4, *UP,
                                      ALL_EDGES, True)[0] == math.inf
    assert sweep_capsule_polygon(0.5, 0.5, -1, 0.5, 0.5, 2, 0, 0, -1, 0.25, SQUARE, LOOP, 0, 4,
                                 *UP, ALL_EDGES, True)[0] == math.inf


def test_front_only_panel_passed_edge_on_by_a_core_through_its_plane_lets_it_through():
    # The explore profile's case: a core piercing the plane of a one-sided star beside it
    # first touches a vertex from behind (skipped), then crosses the panel, its middle in
    # front for a while. The sweep used to stop it later at the face, with the panel
    # already inside the capsule; the panel does not exist for it all along.
    v, _ = _STAR
    args = panel(v)
    a, b, d = np.array([0, -2.25, -2.0]), np.array([2.25, 0, 1.25]), np.array([0, 2.0, 2.0])
    assert sweep_capsule_polygon(*a, *b, *d, 0.125, *args, ALL_EDGES, False)[0] < 0.02
    assert sweep_capsule_polygon(*a, *b, *d, 0.125, *args, ALL_EDGES, True)[0] == math.inf
    for t in np.linspace(0.0, 1.0, 101):
        assert separation_capsule_polygon(*(a + t * d), *(b + t * d), *args, ALL_EDGES,
                                          True)[0] == math.inf


# ----------------------------------------------------------------- sweep
def test_sweep_hit_face():
    f, *n, qx, qy, qz = sweep_capsule_polygon(0.5, 0.5, 2, 0.5, 0.5, 3, 0, 0, -4, 0.5, SQUARE,
                                              LOOP, 0, 4, *UP, ALL_EDGES, False)
    assert f == 1.5 / 4 and n == [0, 0, 1] and (qx, qy, qz) == (0.5, 0.5, 0)


def test_sweep_hit_edge_from_the_side():
    f, *n, qx, qy, qz = sweep_capsule_polygon(3, 0.5, -1, 3, 0.5, 1, -4, 0, 0, 0.5, SQUARE, LOOP,
                                              0, 4, *UP, ALL_EDGES, False)
    assert f == pytest.approx(1.5 / 4) and n == pytest.approx([1, 0, 0]) and qx == 1.0


def test_sweep_miss_beside_and_through_the_notch():
    assert sweep_capsule_polygon(3, 0.5, 2, 3, 0.5, 2, 0, 0, -4, 0.5, SQUARE, LOOP, 0, 4, *UP,
                                 ALL_EDGES, False)[0] == math.inf
    # A ball of radius 0.2 dropped through the middle of the notch [1, 2]^2.
    assert sweep_capsule_polygon(1.5, 1.5, 2, 1.5, 1.5, 2, 0, 0, -4, 0.2, ELL, ELL_LOOP, 0, 6,
                                 *UP, ALL_EDGES, False)[0] == math.inf
    assert sweep_capsule_polygon(1.5, 1.5, 2, 1.5, 1.5, 2, 0, 0, -4, 0.6, ELL, ELL_LOOP, 0, 6,
                                 *UP, ALL_EDGES, False)[0] < 1.0


def test_sweep_graze_along_the_face_at_the_radius_touches_the_edge():
    # Gliding parallel to the face exactly a radius above: the ball touches
    # the near edge from straight above (a double root) and counts it, as in 2D.
    f, *n, qx, qy, qz = sweep_capsule_polygon(-1, 0.5, 0.5, -1, 0.5, 0.5, 3, 0, 0, 0.5, SQUARE,
                                              LOOP, 0, 4, *UP, ALL_EDGES, False)
    assert f == pytest.approx(1 / 3) and n == pytest.approx([0, 0, 1]) and qx == 0.0
    # A hair higher it misses.
    assert sweep_capsule_polygon(-1, 0.5, 0.5 + 1e-9, -1, 0.5, 0.5 + 1e-9, 3, 0, 0, 0.5, SQUARE,
                                 LOOP, 0, 4, *UP, ALL_EDGES, False)[0] == math.inf


def test_sweep_start_inside_hits_moving_in_and_leaves_moving_out():
    args = (SQUARE, LOOP, 0, 4, *UP, ALL_EDGES, False)
    assert sweep_capsule_polygon(0.5, 0.5, 0.3, 0.5, 0.5, 0.3, 0, 0, -1, 0.5, *args)[0] == 0.0
    assert sweep_capsule_polygon(0.5, 0.5, 0.3, 0.5, 0.5, 0.3, 0, 0, 1, 0.5, *args)[0] == math.inf


def test_sweep_front_only_passes_from_the_back_and_stops_from_the_front():
    args = (SQUARE, LOOP, 0, 4, *UP, ALL_EDGES, True)
    assert sweep_capsule_polygon(0.5, 0.5, -2, 0.5, 0.5, -2, 0, 0, 4, 0.5, *args)[0] == math.inf
    f, *n, _, _, _ = sweep_capsule_polygon(0.5, 0.5, 2, 0.5, 0.5, 2, 0, 0, -4, 0.5, *args)
    assert f == 1.5 / 4 and n == [0, 0, 1]


def test_sweep_point_camera_hits_the_face_exactly():
    # Radius 0: the article's point camera, its ray/plane intercept as a sweep.
    f, *n, _, _, _ = sweep_capsule_polygon(0.25, 0.75, 3, 0.25, 0.75, 3, 0, 0, -6, 0.0, SQUARE,
                                           LOOP, 0, 4, *UP, ALL_EDGES, False)
    assert f == 0.5 and n == [0, 0, 1]


@pytest.mark.parametrize("speed", [10.0, 100.0, 1000.0])
def test_sweep_fast_move_does_not_tunnel(speed):
    f, *_ = sweep_capsule_polygon(0.5, 0.5, 0.3, 0.5, 0.5, 0.3, 0, 0, -speed * 0.1, 0.1, SQUARE,
                                  LOOP, 0, 4, *UP, ALL_EDGES, False)
    assert f == pytest.approx(0.2 / (speed * 0.1))


def test_sweep_degenerate_zero_motion_misses():
    assert sweep_capsule_polygon(0.5, 0.5, 2, 0.5, 0.5, 2, 0, 0, 0, 0.5, SQUARE, LOOP, 0, 4, *UP,
                                 ALL_EDGES, False)[0] == math.inf


# -------------------------------------------------- brute-force properties
_unit = st.floats(-1.0, 1.0, allow_nan=False)


@st.composite
def star_panels(draw):
    """A star-shaped (often concave) panel in a random plane, and its centre."""
    k = draw(st.integers(3, 7))
    radii = draw(st.lists(st.floats(0.3, 1.5), min_size=k, max_size=k))
    normal = np.array(draw(st.tuples(_unit, _unit, _unit))) + [0.0, 0.0, 1e-3]
    normal /= np.linalg.norm(normal)
    u = np.cross(normal, [1.0, 0.0, 0.0] if abs(normal[0]) < 0.9 else [0.0, 1.0, 0.0])
    u /= np.linalg.norm(u)
    w = np.cross(normal, u)
    centre = np.array(draw(st.tuples(_unit, _unit, _unit)))
    angles = np.arange(k) * 2 * np.pi / k + draw(st.floats(0.0, 1.0))
    v = centre + (np.array(radii) * np.cos(angles))[:, None] * u + \
        (np.array(radii) * np.sin(angles))[:, None] * w
    if draw(st.booleans()):
        v = v[::-1].copy()
    return v, centre


_p = st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(-3, 3))
#: The six-pointed star the explore profile drew: a panel in z = 0, front -z.
_STAR = (np.array([[8.66025404e-01, 5.00000000e-01, 0.0], [1.29903811e+00, -7.50000000e-01, 0.0],
                   [-1.22464680e-16, -1.00000000e+00, 0.0], [-8.66025404e-01, -5.0e-01, 0.0],
                   [-8.66025404e-01, 5.00000000e-01, 0.0], [0.0, 1.00000000e+00, 0.0]]),
         np.array([0.0, 0.0, 0.0]))


@given(star_panels(), _p, _p)
def test_separation_matches_dense_sampling(star, a, b):
    v, centre = star
    args = panel(v)
    sep, nx, ny, nz, qx, qy, qz = separation_capsule_polygon(*a, *b, *args, ALL_EDGES, False)
    surface = fan_surface(v, centre)
    brute = min_distance(core_samples(a, b), surface)
    assert sep <= brute + 1e-9
    assert brute <= sep + 0.08 + math.dist(a, b) / 47
    # The reported point is on the panel and the core lies sep along the normal from it.
    assert min_distance(np.array([[qx, qy, qz]]), surface) < 0.08
    if sep > 0:
        x = np.array([qx, qy, qz]) + sep * np.array([nx, ny, nz])
        assert min_distance(x[None], core_samples(a, b, 400)) < 1e-6 + math.dist(a, b) / 399


@given(star_panels(), _p, _p, _p, st.floats(0.05, 1.0), st.booleans())
@example(_STAR, (0.0, -2.25, -2.0), (2.25, 0.0, 1.25), (0.0, 2.0, 2.0), 0.125, True)
def test_sweep_stops_at_the_radius_and_nothing_earlier_is_closer(star, a, b, d, radius,
                                                                 front_only):
    v, _ = star
    args = panel(v)
    f, *_ = sweep_capsule_polygon(*a, *b, *d, radius, *args, ALL_EDGES, front_only)
    a, b, d = np.array(a), np.array(b), np.array(d)

    def sep_at(t, sides_front=False):
        return separation_capsule_polygon(*(a + t * d), *(b + t * d), *args, ALL_EDGES,
                                          sides_front)[0]

    if sep_at(0.0) <= radius:
        return
    if f != math.inf and not front_only:
        assert sep_at(f) == pytest.approx(radius, abs=1e-9)
    elif f == math.inf and front_only:
        return           # culled: passing through from behind is allowed
    # A front-only panel exists only for an agent in front of it (its own
    # separation is inf otherwise): the explore profile found a core sweeping
    # past such a panel's edge a hair behind its plane, which comes within
    # the radius of the edge (two-sided) and then meets the face from the
    # front; what must hold is that it never comes closer to the front.
    for t in np.linspace(0.0, f if f != math.inf else 1.0, 200):
        assert sep_at(t, front_only) >= radius - 1e-9


def test_front_only_panel_passed_edge_on_from_a_hair_behind_is_met_at_its_face():
    # A thin diamond, front +y (tilted 1e-3), the core sweeping down past its
    # edge from a hair behind the plane: the two-sided sweep stops at the edge
    # (0.2929), the front-only one lets the core pass the edge and stops it
    # where an end reaches the face from the front; the agent is never within
    # the radius of the front on the way.
    v = np.array([[1.0, -1.0, -1.0], [-1.22464680e-16, -1.001, -1.9999995],
                  [-1.0, -1.0, -1.0], [0.0, -0.999, -4.99999625e-07]])
    args = panel(v)
    a, b, d = np.array([0.0, 0.0, 1.0]), np.array([1.0, -1.0, 0.0]), np.array([0.0, -1.0, -1.0])
    both = sweep_capsule_polygon(*a, *b, *d, 0.5, *args, ALL_EDGES, False)[0]
    front = sweep_capsule_polygon(*a, *b, *d, 0.5, *args, ALL_EDGES, True)[0]
    assert both == pytest.approx(1.0 - math.sqrt(0.5), abs=1e-6) and both < front < 1.0
    for t in np.linspace(0.0, front, 50):
        c = separation_capsule_polygon(*(a + t * d), *(b + t * d), *args, ALL_EDGES, True)[0]
        assert c >= 0.5 - 1e-9


# --- Triangle rows: the ray test of a triangle read from one row --------------

def triangle_row(corners, front=False):
    v, loop, first, count, nx, ny, nz = panel(corners)
    return np.array([[*v.ravel(), nx, ny, nz, 1.0 if front else 0.0]]), (v, loop, first,
                                                                          count, nx, ny, nz)


def both_ray_tests(corners, o, u, max_distance=10.0, front=False):
    row, (v, loop, first, count, nx, ny, nz) = triangle_row(corners, front)
    return (ray_triangle(*o, *u, max_distance, row, 0, front),
            ray_polygon(*o, *u, max_distance, v, loop, first, count, nx, ny, nz, front))


@pytest.mark.parametrize("o, u, front", [
    ((0.2, 0.2, 2.0), (0.0, 0.0, -1.0), False),           # hit from the front
    ((0.2, 0.2, -2.0), (0.0, 0.0, 1.0), False),           # hit from behind, two-sided
    ((0.2, 0.2, -2.0), (0.0, 0.0, 1.0), True),            # back face culled
    ((0.8, 0.8, 2.0), (0.0, 0.0, -1.0), False),           # beside the hypotenuse
    ((0.5, 0.5, 2.0), (0.0, 0.0, -1.0), False),           # on the hypotenuse
    ((0.0, 0.0, 2.0), (0.0, 0.0, -1.0), False),           # on a corner
    ((-1.0, 0.2, 0.0), (1.0, 0.0, 0.0), False),           # along the plane: parallel
    ((0.2, 0.2, -2.0), (0.0, 0.0, -1.0), False),          # behind the viewer
    ((0.2, 0.2, 20.0), (0.0, 0.0, -1.0), False),          # beyond max_distance
])
def test_triangle_row_answers_as_the_panel_test(o, u, front):
    tri = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    fast, general = both_ray_tests(tri, o, u, front=front)
    assert fast == general


@given(st.lists(st.floats(-50, 50), min_size=9, max_size=9),
       st.lists(st.floats(-50, 50), min_size=3, max_size=3),
       st.lists(st.floats(-1, 1), min_size=3, max_size=3), st.booleans())
def test_triangle_row_equals_the_panel_test_bit_for_bit(corners, o, u, front):
    # The row path and the panel path share the intercept and the crossing
    # step, so they give the same tuple, inf or a distance, to the last bit.
    v = np.array(corners).reshape(3, 3)
    if np.linalg.norm(np.cross(v[1] - v[0], v[2] - v[0])) < 1e-6:
        return                                    # no plane: add_panels refuses these
    length = math.sqrt(sum(x * x for x in u))
    if length < 1e-3:
        return
    u = [x / length for x in u]
    fast, general = both_ray_tests(v, o, u, 100.0, front)
    assert fast == general


# Two triangles of the unit square z = 0 sharing the diagonal, and a fan of four
# round its centre, counter-clockwise seen from +z: rays through the shared edge
# or vertex, where rounding decides the side, must hit at least one of them.
SQUARE_PAIR = np.array([0, 1, 2, 0, 2, 3])
SQUARE_FAN = np.vstack([SQUARE, [0.5, 0.5, 0.0]])
FAN_LOOP = np.array([0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4])


def _slanted(rng):
    u = rng.normal(size=3)
    u[2] = -abs(u[2]) - 0.1
    return u / np.linalg.norm(u)


def test_ray_through_the_shared_edge_hits_at_least_one_triangle():
    rng = np.random.default_rng(7)
    for _ in range(500):
        s = rng.uniform(0.0, 1.0)
        u = _slanted(rng)
        o = np.array([s, s, 0.0]) - 4.0 * u
        assert any(ray_polygon(*o, *u, 10.0, SQUARE, SQUARE_PAIR, first, 3, *UP, False)[0]
                   < math.inf for first in (0, 3))


def test_ray_through_the_shared_vertex_hits_at_least_one_triangle():
    rng = np.random.default_rng(11)
    for _ in range(200):
        u = _slanted(rng)
        o = SQUARE_FAN[4] - 2.5 * u
        assert any(ray_polygon(*o, *u, 10.0, SQUARE_FAN, FAN_LOOP, first, 3, *UP, False)[0]
                   < math.inf for first in (0, 3, 6, 9))


# ------------------------------------------------------ the triangle gap filter
FLOOR = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0]], float)     # counter-clockwise from +z


def test_gap_of_a_capsule_standing_on_the_triangle_is_its_height():
    a, b = (0.5, 0.5, 0.4), (0.5, 0.5, 1.4)
    assert triangle_gap(FLOOR, np.arange(3), 0, UP, a, b, a, b) == pytest.approx(0.4)


def test_gap_of_a_capsule_beside_the_triangle_counts_the_edge_too():
    # Beside the hypotenuse x + y = 2, 0.3 out in the plane and 0.4 above it.
    out = 0.3 / math.sqrt(2.0)
    a = (1.0 + out, 1.0 + out, 0.4)
    b = (1.0 + out, 1.0 + out, 1.4)
    assert triangle_gap(FLOOR, np.arange(3), 0, UP, a, b, a, b) == pytest.approx(0.5)


def test_gap_of_a_motion_across_the_triangle_is_zero():
    a, b = (-1.0, 0.5, 0.3), (3.0, 0.5, 0.3)            # over it, then through the plane
    c, d = (-1.0, 0.5, -0.3), (3.0, 0.5, -0.3)
    assert triangle_gap(FLOOR, np.arange(3), 0, UP, a, b, c, d) == 0.0


@given(st.lists(st.floats(-2, 2), min_size=9, max_size=9), _p, _p, _p)
def test_gap_never_exceeds_the_distance_of_the_hull(corners, a, b, d):
    # A lower bound of the exact separation of the core a-b, and of the core
    # moved anywhere along d (the hull of a, b, a + d, b + d).
    v = np.array(corners).reshape(3, 3)
    loop = np.arange(3)
    nx, ny, nz, area = newell_normal_polygon(v, loop, 0, 3)
    if not area > 1e-3:
        return
    a, b, d = np.array(a), np.array(b), np.array(d)
    gap = triangle_gap(v, loop, 0, (nx, ny, nz), tuple(a), tuple(b), tuple(a + d), tuple(b + d))
    for t in np.linspace(0.0, 1.0, 9):
        sep = separation_capsule_polygon(*(a + t * d), *(b + t * d), v, loop, 0, 3, nx, ny, nz,
                                         ALL_EDGES, False)[0]
        assert gap <= sep + 1e-12
