"""Volumes against independent references: closest points, sampled points, brute force."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sidestep.volumes import (Box, Containment, Frustum, Sphere, contains_boxes, contains_points,
                              contains_spheres)

coord = st.floats(-10, 10, allow_nan=False)
size = st.floats(0, 5, allow_nan=False)


def _frustum(seed):
    rng = np.random.default_rng(seed)
    eye = rng.uniform(-5, 5, 3)
    return Frustum.perspective(eye, eye + rng.normal(size=3), (0, 1, 0) if seed % 2 else (0, 0, 1),
                               rng.uniform(0.3, 2.0), rng.uniform(0.5, 2), rng.uniform(0.1, 2),
                               rng.uniform(3, 15))


def _inside(f, pts):
    p = np.array(f.planes)
    return np.all(pts @ p[:, :3].T - p[:, 3] <= 1e-9, axis=1)


@given(coord, coord, coord, size, coord, coord, coord, size, size, size)
def test_sphere_box_is_the_closest_point_test(cx, cy, cz, r, x, y, z, w, h, d):
    box = Box((x, y, z), (x + w, y + h, z + d))
    c = np.array([cx, cy, cz])
    gap = np.linalg.norm(c - np.clip(c, box.min, box.max))
    state = Sphere(c, r).contains(box)
    if abs(gap - r) > 1e-7:
        assert (state != Containment.DISJOINT) == (gap < r)
    far = max(np.linalg.norm(c - corner) for corner in
              np.array(np.meshgrid(*zip(box.min, box.max))).T.reshape(-1, 3))
    if abs(far - r) > 1e-7:
        assert (state == Containment.CONTAINS) == (far < r)


@settings(max_examples=25)
@given(st.integers(0, 10 ** 6), coord, coord, coord, size, size, size)
def test_frustum_box_against_sampled_points(seed, x, y, z, w, h, d):
    f = _frustum(seed)
    box = Box((x, y, z), (x + w, y + h, z + d))
    state = f.contains(box)
    rng = np.random.default_rng(seed)
    in_box = rng.uniform(box.min, box.max, (2000, 3))
    corners = np.array(f.corners)
    weights = rng.dirichlet(np.full(8, 0.3), 2000)
    in_f = weights @ corners
    if _inside(f, in_box).any() or np.all((in_f >= box.min) & (in_f <= box.max), axis=1).any():
        assert state != Containment.DISJOINT
    if state == Containment.CONTAINS:
        assert _inside(f, in_box).all()
    if state != Containment.CONTAINS:
        assert not _inside(f, np.array(np.meshgrid(*zip(box.min, box.max))).T.reshape(-1, 3)
                           ).all()
    assert Box(box.min, box.max).contains(f) == box.contains(f)


@settings(max_examples=25)
@given(st.integers(0, 10 ** 6), coord, coord, coord, size)
def test_frustum_sphere_against_sampled_points(seed, x, y, z, r):
    f = _frustum(seed)
    state = f.contains(Sphere((x, y, z), r))
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(4000, 3))
    ball = np.array([x, y, z]) + v / np.linalg.norm(v, axis=1)[:, None] * r * \
        rng.uniform(0, 1, (4000, 1)) ** (1 / 3)
    if _inside(f, ball).any():
        assert state != Containment.DISJOINT
    if state == Containment.CONTAINS:
        assert _inside(f, ball).all()
    # The distance from the centre to the frustum, by brute force over a dense sample.
    weights = rng.dirichlet(np.full(8, 0.2), 20000)
    near = np.min(np.linalg.norm(weights @ np.array(f.corners) - (x, y, z), axis=1))
    if near < r - 1e-9:
        assert state != Containment.DISJOINT


def test_batch_equals_scalar():
    rng = np.random.default_rng(7)
    f = _frustum(3)
    w = Frustum.wedge((0, 0), (1, 1), 1.2, 0.5, 8.0)
    for vol, dim in ((f, 3), (w, 2), (Sphere((0, 0, 0), 4.0), 3), (Box((0, 0), (3, 2)), 2)):
        lo = rng.uniform(-12, 12, (3000, dim))
        hi = lo + rng.uniform(0, 3, (3000, dim))
        r = rng.uniform(0, 2, 3000)
        got = contains_boxes(vol, lo, hi)
        assert got.dtype == np.int8 and got.shape == (3000,)
        assert got.tolist() == [vol.contains(Box(a, b)) for a, b in zip(lo, hi)]
        assert contains_spheres(vol, lo, r).tolist() == \
            [vol.contains(Sphere(c, s)) for c, s in zip(lo, r)]
        assert contains_points(vol, lo).tolist() == [vol.contains(Sphere(c, 0)) for c in lo]
        assert {0, 1} <= set(got.tolist())


def _look_at(eye, target, up):
    f = np.subtract(target, eye) / np.linalg.norm(np.subtract(target, eye))
    s = np.cross(f, up)
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


@pytest.mark.parametrize("convention", ["opengl", "directx"])
def test_from_matrix_equals_the_parameters(convention):
    eye, target, up = np.array([1.0, 2, 3]), np.array([4.0, -1, 0]), np.array([0.0, 1, 0])
    fov, aspect, n, f = 1.1, 1.6, 0.5, 40.0
    view = _look_at(eye, target, up)
    t = 1 / math.tan(fov / 2)
    p = np.zeros((4, 4))
    p[0, 0], p[1, 1], p[3, 2] = t / aspect, t, -1.0
    if convention == "opengl":                    # gluPerspective
        p[2, 2], p[2, 3] = (f + n) / (n - f), 2 * f * n / (n - f)
    else:                                         # D3DXMatrixPerspectiveFovRH, column form
        p[2, 2], p[2, 3] = f / (n - f), n * f / (n - f)
    got = Frustum.from_matrix(p @ view, convention=convention)
    want = Frustum.perspective(eye, target, up, fov, aspect, n, f)
    np.testing.assert_allclose(got.corners, want.corners, atol=1e-8)
    np.testing.assert_allclose(got.planes, want.planes, atol=1e-9)
    w, h = 6.0, 4.0
    o = np.eye(4)
    o[0, 0], o[1, 1] = 2 / w, 2 / h
    if convention == "opengl":                    # glOrtho
        o[2, 2], o[2, 3] = -2 / (f - n), -(f + n) / (f - n)
    else:                                         # D3DXMatrixOrthoRH, column form
        o[2, 2], o[2, 3] = 1 / (n - f), n / (n - f)
    got = Frustum.from_matrix(o @ view, convention=convention)
    want = Frustum.orthographic(eye, target, up, w, h, n, f)
    np.testing.assert_allclose(got.corners, want.corners, atol=1e-8)


@settings(max_examples=30)
@given(st.integers(0, 10 ** 6), st.integers(1, 40), st.sampled_from([2, 3]))
def test_enclosing_sphere_is_the_smallest(seed, n, dim):
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(n, dim)) * rng.uniform(0.1, 10)
    s = Sphere.enclosing(pts)
    d = np.linalg.norm(pts - s.center, axis=1)
    assert np.all(d <= s.radius * (1 + 1e-9) + 1e-12)
    # Smallest: the points on the boundary hold the centre in their hull, so no move of
    # the centre shrinks the radius; check against small moves in many directions.
    for v in rng.normal(size=(50, dim)):
        c = np.array(s.center) + 1e-4 * s.radius * v / np.linalg.norm(v)
        assert np.max(np.linalg.norm(pts - c, axis=1)) >= s.radius * (1 - 1e-9)
    assert Sphere.enclosing(pts, seed=5).radius == pytest.approx(s.radius, rel=1e-9, abs=1e-12)


def test_sphere_merge_and_grow():
    a, b = Sphere((0, 0), 1.0), Sphere((4, 0), 1.0)
    m = a.merge(b)
    assert m.center == pytest.approx((2, 0)) and m.radius == pytest.approx(3.0)
    assert m.contains(a) == m.contains(b) == Containment.CONTAINS
    assert a.merge(Sphere((0.5, 0), 0.2)) is a
    assert a.grow(1).radius == 2.0
