"""Entry distances (``distance_along``, ``distances_along``) against exact references.

Until 0.x the entry was found by bisection on the tolerant intersection test,
so it was the first point within ``VOLUME_TOLERANCE`` of the volume: short of
the true entry by the tolerance over the cosine of the angle of incidence (a
ray from a frustum's eye along its view met the near plane at 0.999999999,
not 1). The closed forms put the returned point on the boundary, which the
references below check in exact rational arithmetic.
"""
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sidestep.kernels3d.box import ray_box
from sidestep.volumes import (Box, Capsule, Frustum, Point, Ray, Segment, Sphere,
                              distances_along)

F3 = Frustum.perspective(eye=(0, 0, 5), target=(0, 0, 0), up=(0, 1, 0), fov_y=math.pi / 2,
                         aspect=1.0, near=1.0, far=10.0)      # z from 4 to -5, |x|,|y| <= 5 - z
W2 = Frustum.wedge(eye=(0, 0), heading=(1, 0), fov=math.pi / 2, near=1.0, far=10.0)
UNIT = Box((0, 0, 0), (1, 1, 1))


# Exact references: the volume as the kernels see it (its float planes, its
# float core and radius), tested in rationals.

def _planes(volume):
    """Rows ``(n..., d)``, inside where ``n . p <= d``, in rationals."""
    k = volume.dim
    if isinstance(volume, Box):
        rows = []
        for j in range(k):
            n = [0.0] * k
            n[j] = 1.0
            rows += [n + [volume.max[j]], [-x for x in n] + [-volume.min[j]]]
    else:
        rows = [list(r[:k]) + [r[3]] for r in volume.planes[:4 if k == 2 else 6]]
    return [[Fraction(x) for x in r] for r in rows]


def _exact_gap(volume, p):
    """``> 0`` outside, ``<= 0`` inside (exact, rationals); a length for polytopes."""
    if isinstance(volume, (Box, Frustum)):
        return max(sum(n * x for n, x in zip(r[:-1], p)) - r[-1] for r in _planes(volume))
    a = [Fraction(x) for x in getattr(volume, "center", None) or volume.start]
    b = [Fraction(x) for x in getattr(volume, "end", None) or a]
    e = [y - x for x, y in zip(a, b)]
    ee = sum(x * x for x in e)
    s = min(max(sum((x - y) * z for x, y, z in zip(p, a, e)) / ee, 0), 1) if ee else 0
    d2 = sum((x - y - s * z) ** 2 for x, y, z in zip(p, a, e))
    return d2 - Fraction(volume.radius) ** 2


def _boundary_distance(volume, p):
    """How far exact point ``p`` lies from the volume's boundary (float)."""
    g = _exact_gap(volume, p)
    if isinstance(volume, (Box, Frustum)):
        return abs(float(g))
    return abs(math.sqrt(float(g + Fraction(volume.radius) ** 2)) - volume.radius)


def _at(ray, t):
    return [Fraction(o) + Fraction(t) * Fraction(u) for o, u in zip(ray.origin, ray.direction)]


def _exact_entry(volume, ray, t_in):
    """The entry of ``ray``, outside at 0 and inside at ``t_in``, by bisection in rationals."""
    lo, hi = Fraction(0), Fraction(t_in)
    assert _exact_gap(volume, _at(ray, lo)) > 0 and _exact_gap(volume, _at(ray, hi)) <= 0
    for _ in range(70):
        mid = (lo + hi) / 2
        if _exact_gap(volume, _at(ray, mid)) <= 0:
            hi = mid
        else:
            lo = mid
    return hi


def _volume(kind, rng):
    dim = 2 if kind.endswith("2") else 3
    c = rng.uniform(-3, 3, dim)
    if kind.startswith("box"):
        return Box(c, c + rng.uniform(0.1, 4, dim))
    if kind.startswith("sphere"):
        return Sphere(c, rng.uniform(0.1, 3))
    if kind.startswith("capsule"):
        return Capsule(c, c + rng.normal(size=dim) * 2, rng.uniform(0.1, 2))
    if kind == "wedge2":
        return Frustum.wedge(c, rng.normal(size=2), rng.uniform(0.2, 2.5), rng.uniform(0.1, 2),
                             rng.uniform(3, 12))
    eye = rng.uniform(-5, 5, 3)
    up = (0, 1, 0) if rng.uniform() < 0.5 else (0, 0, 1)
    return Frustum.perspective(eye, eye + rng.normal(size=3), up, rng.uniform(0.3, 2.0),
                               rng.uniform(0.5, 2), rng.uniform(0.1, 2), rng.uniform(3, 15))


def _inside_point(volume, rng):
    """A point well inside ``volume`` (an interior mix of its corners, or near its core)."""
    if isinstance(volume, Frustum):
        w = rng.dirichlet(np.full(len(volume.corners), 2.0))
        return w @ np.array(volume.corners)
    if isinstance(volume, Box):
        return np.add(volume.min, rng.uniform(0.1, 0.9, volume.dim)
                      * np.subtract(volume.max, volume.min))
    a = np.array(getattr(volume, "center", None) or volume.start)
    b = np.array(getattr(volume, "end", None) or a)
    dirn = rng.normal(size=volume.dim)
    return a + rng.uniform() * (b - a) + 0.7 * volume.radius * dirn / np.linalg.norm(dirn)


KINDS = ["box3", "box2", "sphere3", "sphere2", "capsule3", "capsule2", "frustum3", "wedge2"]


# Named cases.

def test_ray_from_the_eye_meets_the_near_plane_at_exactly_one():
    assert Ray((0, 0, 5), (0, 0, -1)).distance_along(F3) == 1.0
    assert Ray((0, 0), (1, 0)).distance_along(W2) == 1.0
    assert Ray((0, 0, 20), (0, 0, -1)).distance_along(F3) == 16.0
    assert Ray((0, 0, -20), (0, 0, 1)).distance_along(F3) == 15.0


def test_ray_meets_a_box_face_exactly():
    assert Ray((-5, 0.5, 0.5), (1, 0, 0)).distance_along(UNIT) == 5.0
    assert Ray((0.25, 0.5, 7), (0, 0, -1)).distance_along(UNIT) == 6.0
    assert Ray((-5, 0.5), (1, 0)).distance_along(Box((0, 0), (1, 1))) == 5.0
    # Along a face (touching counts) and just beside it.
    assert Ray((-5, 1), (1, 0)).distance_along(Box((0, 0), (1, 1))) == 5.0
    assert Ray((-5, 1.001), (1, 0)).distance_along(Box((0, 0), (1, 1))) is None
    # A flat box is a face: met where the ray crosses it.
    assert Ray((-3, 0.5, 0.5), (1, 0, 0)).distance_along(Box((2, 0, 0), (2, 1, 1))) == 5.0


def test_ray_tangent_to_a_sphere_touches_at_the_tangent_point():
    assert Ray((-5, 1, 0), (1, 0, 0)).distance_along(Sphere((0, 0, 0), 1.0)) == 5.0
    assert Ray((0, 3), (1, 0)).distance_along(Sphere((4, 0), 3.0)) == 4.0
    assert Ray((-5, 1.000001, 0), (1, 0, 0)).distance_along(Sphere((0, 0, 0), 1.0)) is None
    assert Ray((-5, 0, 0), (1, 0, 0)).distance_along(Sphere((0, 0, 0), 1.0)) == 4.0


def test_ray_meets_a_capsule_side_and_cap_exactly():
    cap = Capsule((0, 0, 0), (2, 0, 0), 1.0)
    assert Ray((-5, 0, 0), (1, 0, 0)).distance_along(cap) == 4.0          # the end ball
    assert Ray((1, 5, 0), (0, -1, 0)).distance_along(cap) == 4.0          # the side
    assert Ray((1, 5, 1), (0, -1, 0)).distance_along(cap) == 5.0          # grazes the side
    assert Ray((-5, 1, 0), (1, 0, 0)).distance_along(cap) == 5.0          # along the side
    assert Ray((7, 0), (-1, 0)).distance_along(Capsule((0, 0), (2, 0), 1.0)) == 4.0


@pytest.mark.parametrize("volume", [UNIT, Sphere((0.5, 0.5, 0.5), 1.0), F3,
                                    Capsule((0, 0, 0), (1, 1, 1), 0.2)],
                         ids=["box", "sphere", "frustum", "capsule"])
def test_start_inside_or_on_the_boundary_gives_zero(volume):
    inside = (0.5, 0.5, 0.5) if not isinstance(volume, Frustum) else (0, 0, 0)
    for d in ((1, 0, 0), (0, 0, -1), (1, 2, 3)):
        assert Ray(inside, d).distance_along(volume) == 0.0
    # On the boundary heading out, and a hair (within the tolerance) outside.
    assert Ray((1, 0.5, 0.5), (1, 0, 0)).distance_along(UNIT) == 0.0
    assert Ray((1 + 5e-10, 0.5, 0.5), (1, 0, 0)).distance_along(UNIT) == 0.0
    assert Ray((1 + 5e-10, 0.5, 0.5), (-1, 0, 0)).distance_along(UNIT) == 0.0
    assert Ray((1 + 1e-6, 0.5, 0.5), (1, 0, 0)).distance_along(UNIT) is None


def test_misses_and_parallel_rays():
    assert Ray((-5, 0.5, 0.5), (-1, 0, 0)).distance_along(UNIT) is None    # heading away
    assert Ray((-5, 2, 0.5), (1, 0, 0)).distance_along(UNIT) is None       # parallel, beside
    assert Ray((0, 0, 3), (0, 0, 1)).distance_along(F3) == 0.0             # inside, leaving
    assert Ray((0, 0, 6), (0, 0, 1)).distance_along(F3) is None            # behind the eye
    assert Segment((-5, 0.5, 0.5), (-0.5, 0.5, 0.5)).distance_along(UNIT) is None  # too short
    assert Segment((-5, 0.5, 0.5), (0, 0.5, 0.5)).distance_along(UNIT) == 5.0       # just reaches


def test_ray_along_a_slanted_frustum_edge_touches_where_the_edge_starts():
    # The edge from near corner 0 to far corner 4 lies in two slanted planes;
    # rounding leaves a ray along it a hair inside or outside them, never far.
    c0, c4 = np.array(F3.corners[0]), np.array(F3.corners[4])
    ray = Ray(c0 - 2 * (c4 - c0), c4 - c0)
    d = ray.distance_along(F3)
    assert d is not None and abs(d - 2 * np.linalg.norm(c4 - c0)) < 1e-8


def test_points_segments_and_rays_are_met_where_the_ray_crosses_them():
    r = Ray((0, 0), (1, 1))
    assert r.distance_along(Point((2, 2))) == pytest.approx(2 * math.sqrt(2), rel=1e-15)
    assert r.distance_along(Point((2, 2.1))) is None
    assert r.distance_along(Segment((0, 4), (4, 0))) == pytest.approx(2 * math.sqrt(2),
                                                                        rel=1e-15)
    along = Ray((0, 0, 0), (1, 0, 0))
    assert along.distance_along(Segment((3, 0, 0), (7, 0, 0))) == 3.0
    assert along.distance_along(Segment((7, 0, 0), (3, 0, 0))) == 3.0
    assert along.distance_along(Segment((-1, 0, 0), (1, 0, 0))) == 0.0
    assert along.distance_along(Ray((3, 0, 0), (-1, 0, 0))) == 0.0
    assert along.distance_along(Ray((3, 0, 0), (1, 0, 0))) == 3.0
    assert along.distance_along(Ray((3, 5, 0), (0, -1, 0))) == 3.0
    assert along.distance_along(Ray((3, 5, 1), (0, -1, 0))) is None


def test_zero_length_segment_is_a_point():
    assert Segment((1, 1), (1, 1)).distance_along(Sphere((0, 0), 2)) == 0.0
    assert Segment((5, 5), (5, 5)).distance_along(Sphere((0, 0), 2)) is None
    assert Segment((5, 5, 5), (5, 5, 5)).distance_along(UNIT) is None


# Properties.

@settings(max_examples=40)
@given(st.integers(0, 10 ** 6), st.sampled_from(KINDS))
def test_entry_is_the_exact_entry(seed, kind):
    """Aimed at a point inside: the answer is the exact entry (to rounding), on the
    boundary, and a hair before it the ray is still outside."""
    rng = np.random.default_rng(seed)
    volume = _volume(kind, rng)
    target = _inside_point(volume, rng)
    dirn = rng.normal(size=volume.dim)
    origin = target + dirn / np.linalg.norm(dirn) * rng.uniform(4, 30)
    ray = Ray(origin, target - origin)
    if _exact_gap(volume, _at(ray, 0)) <= 0:
        assert ray.distance_along(volume) == 0.0
        return
    t = ray.distance_along(volume)
    assert t is not None
    want = _exact_entry(volume, ray, np.dot(target - origin, ray.direction))
    assert abs(t - float(want)) <= 1e-12 * (1 + float(want))
    assert _boundary_distance(volume, _at(ray, t)) <= 1e-12 * (1 + t)
    assert _exact_gap(volume, _at(ray, t - 1e-9 * (1 + t))) > 0


@settings(max_examples=40)
@given(st.integers(0, 10 ** 6), st.sampled_from(KINDS))
def test_entry_or_miss_agrees_with_intersects(seed, kind):
    """Rays in every direction, some starting inside: a miss exactly when ``intersects`` says
    apart; a hit from outside lies on the boundary, with the ray outside just before it."""
    rng = np.random.default_rng(seed)
    volume = _volume(kind, rng)
    for _ in range(20):
        ray = Ray(rng.uniform(-8, 8, volume.dim), rng.normal(size=volume.dim))
        t = ray.distance_along(volume)
        assert (t is not None) == ray.intersects(volume)
        if t:
            assert _boundary_distance(volume, _at(ray, t)) <= 1e-12 * (1 + t)
            assert _exact_gap(volume, _at(ray, t - 1e-9 * (1 + t))) > 0


@settings(max_examples=40)
@given(st.integers(0, 10 ** 6))
def test_box_entry_is_the_slab_test(seed):
    """A box's planes are axis-aligned, where the plane clip is the slab test bit for bit."""
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-3, 3, 3)
    hi = lo + rng.uniform(0, 3, 3) * (rng.uniform(size=3) < 0.8)    # some flat
    box = Box(lo, hi)
    for _ in range(20):
        d = rng.normal(size=3) * (rng.uniform(size=3) < 0.8)          # some axis-parallel
        if not d.any():
            continue
        ray = Ray(rng.uniform(-8, 8, 3), d)
        if _exact_gap(box, _at(ray, 0)) <= 1e-6:
            continue                       # ray_box answers a start inside its own way
        want = ray_box(*ray.origin, *ray.direction, math.inf, *lo, *hi)[0]
        if want < math.inf:
            assert ray.distance_along(box) == want


@pytest.mark.parametrize("kind", KINDS + ["point3", "segment2", "ray2"])
def test_batch_equals_single(kind):
    rng = np.random.default_rng(sum(map(ord, kind)))
    dim = 2 if kind.endswith("2") else 3
    if kind == "point3":
        volume = Point(rng.uniform(-1, 1, 3))
    elif kind == "segment2":
        volume = Segment((0, 0), (2, 1))
    elif kind == "ray2":
        volume = Ray((0, 0), (1, 2))
    else:
        volume = _volume(kind, rng)
    n = 2000                               # several chunks on every thread
    origins = rng.uniform(-8, 8, (n, dim))
    toward = np.array([_inside_point(volume, rng) if hasattr(volume, "radius") or
                       isinstance(volume, (Box, Frustum)) else rng.uniform(-1, 1, dim)
                       for _ in range(n)])
    directions = np.where(rng.uniform(size=(n, 1)) < 0.5, toward - origins,
                          rng.normal(size=(n, dim)))
    # Some that start on the boundary or pass through a point exactly.
    if isinstance(volume, Point):
        origins[:100] = np.array(volume.position) - 3 * directions[:100]
    got = distances_along(volume, origins, directions)
    want = [Ray(o, d).distance_along(volume) for o, d in zip(origins, directions)]
    want = np.array([math.inf if w is None else w for w in want])
    assert np.array_equal(got, want)
    assert np.isfinite(got).any() and np.isinf(got).any()


def test_batch_max_distance_turns_rays_into_segments():
    origins = [(-5, 0.5, 0.5), (-5, 0.5, 0.5), (-5, 0.5, 0.5), (0.5, 0.5, 0.5)]
    directions = [(2, 0, 0)] * 4
    got = distances_along(UNIT, origins, directions, [4.0, 5.0, math.inf, 0.0])
    assert got.tolist() == [math.inf, 5.0, 5.0, 0.0]
    assert distances_along(UNIT, origins, directions, 4.5).tolist() == [math.inf] * 3 + [0.0]


@pytest.mark.parametrize("args, message", [
    (([(0, 0, 0)], [(0, 0, 0)]), "directions must not be the zero vector; row 0"),
    (([(0, 0, 0)], [(1, 0)]), "directions"),
    (([(0, 0, 0), (1, 1, 1)], [(1, 0, 0)]), "same shape"),
    (([(0, math.nan, 0)], [(1, 0, 0)]), "origins"),
    (([(0, 0, 0)], [(1, 0, 0)], -1.0), "max_distance"),
    (([(0, 0, 0)], [(1, 0, 0)], [1.0, 2.0]), "max_distance"),
])
def test_batch_bad_input_names_the_argument(args, message):
    with pytest.raises(ValueError, match=message):
        distances_along(UNIT, *args)
