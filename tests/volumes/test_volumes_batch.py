"""The batch path (plane test, then the exact test) against the scalar ``contains``, item by item.

The batch kernels settle most items by the plane test and send only the
straddling ones to the exact test; they must answer exactly as
``volume.contains(item)`` does, including beside a frustum's edges and
corners, where the plane test alone calls a disjoint item intersecting.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sidestep.kernels3d import volumes as kv
from sidestep.tolerances import VOLUME_TOLERANCE
from sidestep.volumes import (Box, Capsule, Containment, Frustum, Point, Ray, Segment, Sphere,
                              contains_boxes, contains_points, contains_spheres)

D, I, C = Containment.DISJOINT, Containment.INTERSECTS, Containment.CONTAINS


def _frustum(rng):
    eye = rng.uniform(-5, 5, 3)
    up = (0, 1, 0) if rng.uniform() < 0.5 else (0, 0, 1)
    return Frustum.perspective(eye, eye + rng.normal(size=3), up, rng.uniform(0.3, 2.0),
                               rng.uniform(0.5, 2), rng.uniform(0.1, 2), rng.uniform(3, 15))


def _near_boundary(volume, rng, n):
    """Points near the volume's corners and edges: where the plane test is conservative."""
    corners = np.array([np.pad(c, (0, 3 - len(c))) for c in volume_corners(volume)])
    a = corners[rng.integers(0, len(corners), n)]
    b = corners[rng.integers(0, len(corners), n)]
    t = rng.uniform(0, 1, (n, 1)) * (rng.uniform(size=(n, 1)) < 0.7)   # corners, then edges
    scale = rng.choice([0.0, 1e-9, 1e-3, 0.05, 0.5, 2.0], (n, 1))     # 0: on the boundary
    pts = a + t * (b - a) + rng.normal(size=(n, 3)) * scale
    return pts[:, :volume.dim]


def volume_corners(volume):
    if isinstance(volume, Frustum):
        return volume.corners
    if isinstance(volume, Box):
        lo, hi = volume.min, volume.max
        return [[hi[j] if (i >> j) & 1 else lo[j] for j in range(len(lo))] for i in range(8)]
    if isinstance(volume, (Sphere, Capsule, Segment)):
        c = getattr(volume, "center", None) or volume.start
        r = getattr(volume, "radius", 0.0)
        return [np.add(c, r * e) for e in np.vstack([np.eye(volume.dim), -np.eye(volume.dim)])]
    return [volume.origin, np.add(volume.origin, volume.direction)]


def _check_all(volume, rng, n=400):
    lo = _near_boundary(volume, rng, n)
    hi = lo + rng.uniform(0, 1, (n, volume.dim)) * rng.choice([0.0, 0.01, 1.0, 4.0], (n, 1))
    r = rng.uniform(0, 1, n) * rng.choice([0.0, 0.01, 0.5, 3.0], n)
    got = contains_boxes(volume, lo, hi)
    want = [volume.contains(Box(a, b)) for a, b in zip(lo, hi)]
    assert got.tolist() == want
    got = contains_spheres(volume, lo, r)
    assert got.tolist() == [volume.contains(Sphere(c, s)) for c, s in zip(lo, r)]
    got = contains_points(volume, lo)
    assert got.tolist() == [volume.contains(Point(c)) for c in lo]
    if isinstance(volume, (Frustum, Box)):
        # Spheres whose surface just reaches the volume, or just misses it.
        p = volume.packed
        gap = np.array([kv.distance_point_polytope(*np.pad(c, (0, 3 - len(c))), p,
                                                   VOLUME_TOLERANCE) for c in lo])
        r = np.maximum(gap + rng.choice([-1e-6, -2e-9, 0.0, 2e-9, 1e-6], n), 0.0)
        got = contains_spheres(volume, lo, r)
        assert got.tolist() == [volume.contains(Sphere(c, s)) for c, s in zip(lo, r)]
    return np.array(want)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_frustum_batch_equals_scalar_near_corners_and_edges(seed):
    rng = np.random.default_rng(seed)
    states = _check_all(_frustum(rng), rng)
    assert {0, 1} <= set(states.tolist())


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from(["box3", "box2", "wedge", "sphere",
                                                      "capsule", "segment", "ray", "point"]))
def test_every_volume_kind_batch_equals_scalar(seed, kind):
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-3, 3, 3)
    volume = {
        "box3": lambda: Box(lo, lo + rng.uniform(0, 4, 3)),
        "box2": lambda: Box(lo[:2], lo[:2] + rng.uniform(0, 4, 2)),
        "wedge": lambda: Frustum.wedge(lo[:2], rng.normal(size=2), rng.uniform(0.2, 3.0),
                                       rng.uniform(0.1, 1), rng.uniform(2, 9)),
        "sphere": lambda: Sphere(lo, rng.uniform(0, 3)),
        "capsule": lambda: Capsule(lo[:2], lo[:2] + rng.normal(size=2), rng.uniform(0, 2)),
        "segment": lambda: Segment(lo, lo + rng.normal(size=3)),
        "ray": lambda: Ray(lo, rng.normal(size=3)),
        "point": lambda: Point(lo),
    }[kind]()
    _check_all(volume, rng, n=150)


def test_the_plane_test_alone_would_be_wrong_here():
    # The far plane (z >= -10) and the right plane (x <= -z) of this frustum
    # meet along the edge x = 10, z = -10. A box reaching below z = -10 (so one
    # corner is inside the right plane) and above it (inside the far plane)
    # has a corner inside each plane, yet stays right of x = 10, where no
    # point of the frustum is: disjoint, though no plane culls it. Only the
    # edge-cross-edge axes show the gap.
    f = Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), math.pi / 2, 1.0, 1.0, 10.0)
    beside_edge = Box((10.2, -1, -10.5), (11, 1, -9.8))
    assert f.contains(beside_edge) is D
    planes = np.array(f.planes)
    lo, hi = np.array(beside_edge.min), np.array(beside_edge.max)
    nearest = np.where(planes[:, :3] >= 0, lo, hi)
    assert np.all(np.sum(planes[:, :3] * nearest, axis=1) <= planes[:, 3])  # no plane culls it
    assert contains_boxes(f, [lo], [hi]).tolist() == [D]
    # A sphere centred beyond both planes, by less than its radius each
    # (0.28 and 0.2), is 0.63 from the edge: its centre's distance decides.
    centre = (10.6, 0.0, -10.2)
    assert np.all(planes[:, :3] @ centre - planes[:, 3] <= 0.3)
    assert f.contains(Sphere(centre, 0.3)) is D
    assert contains_spheres(f, [centre, centre], [0.3, 0.7]).tolist() == [D, I]


def test_named_states_of_a_batch():
    f = Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), math.pi / 2, 1.0, 1.0, 10.0)
    mins = [(-0.5, -0.5, -5.5), (-0.5, -0.5, -1.5), (-20, -20, -20), (9.5, -1, -10.5),
            (0, 0, -1), (3, 3, -30)]
    maxs = [(0.5, 0.5, -4.5), (0.5, 0.5, 0.5), (20, 20, 20), (10.5, 1, -9.5),
            (0, 0, -1), (4, 4, -29)]
    # inside; across the near plane; holding the whole frustum; across a far corner;
    # a point on the near plane; beyond the far plane.
    assert contains_boxes(f, mins, maxs).tolist() == [C, I, I, I, C, D]
    assert contains_spheres(f, [(0, 0, -5), (0, 0, 0), (0, 0, -11)], [1, 1, 0.5]).tolist() == \
        [C, I, D]
    assert contains_spheres(f, np.zeros((0, 3)), 1.0).tolist() == []


@pytest.mark.parametrize("call, message", [
    (lambda f: contains_spheres(f, [(0, 0, math.nan)], 1.0), "centers"),
    (lambda f: contains_spheres(f, [(0, 0, 1e13)], 1.0), "centers"),
    (lambda f: contains_spheres(f, [(0, 0, 0)], -1.0), "radii"),
    (lambda f: contains_spheres(f, [(0, 0, 0), (1, 1, 1)], [1.0, math.inf]), "radii"),
    (lambda f: contains_spheres(f, [(0, 0, 0)], [1.0, 2.0]), "radii"),
    (lambda f: contains_spheres(f, [(0, 0)], 1.0), "centers"),
    (lambda f: contains_points(f, [(0, math.inf, 0)]), "points"),
    (lambda f: contains_boxes(f, [(0, 0, 0)], [(1, -1, 1)]), "mins must not exceed maxs"),
    (lambda f: contains_boxes(f, [(0, 0, 0)], [(1, 1, math.nan)]), "maxs"),
    (lambda f: contains_boxes(f, [(0, 0, 0)], [(1, 1, 1), (2, 2, 2)]), "same shape"),
    (lambda f: contains_boxes(Sphere((0, 0, 0), 1), [(0, -math.inf, 0)], [(1, 1, 1)]), "mins"),
])
def test_bad_rows_raise_naming_the_argument(call, message):
    f = Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), 1.0, 1.0, 1.0, 10.0)
    with pytest.raises(ValueError, match=message):
        call(f)
