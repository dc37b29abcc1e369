"""Every 3D family against brute force: separation, sweep contact, tunnelling, translation.

Each family is a row of ``FAMILIES``: a Hypothesis strategy for an obstacle,
its kernels, and an independent description (dense surface samples and the
solid's definition) for the brute-force answers of :mod:`oracle3d`. The
agent is a sphere or a capsule; against a cylinder its core stands along the
cylinder's axis, as an upright agent's does.
"""
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from oracle3d import (box_surface, core_samples, cylinder_surface, fan_surface,
                      signed_distance, sphere_surface)
from sidestep.kernels3d.box import separation_capsule_box, sweep_capsule_box
from sidestep.kernels3d.cylinder import separation_capsule_cylinder, sweep_capsule_cylinder
from sidestep.kernels3d.polygon import (ALL_EDGES, newell_normal_polygon,
                                        separation_capsule_polygon, sweep_capsule_polygon)
from sidestep.kernels3d.sphere import separation_capsule_sphere, sweep_capsule_sphere

#: Tolerance handed to the cylinder's first-root search (world units).
SEARCH_TOLERANCE = 1e-12
_c = st.floats(-1.0, 1.0, allow_nan=False)
_vec = st.tuples(_c, _c, _c).map(np.array)


class Sphere:
    name = "sphere"
    strategy = st.tuples(_vec, st.floats(0.2, 1.5))
    axis = None

    @staticmethod
    def separation(a, b, o):
        return separation_capsule_sphere(*a, *b, *o[0], o[1])

    @staticmethod
    def sweep(a, b, d, r, o):
        return sweep_capsule_sphere(*a, *b, *d, r, *o[0], o[1])

    @staticmethod
    def surface(o):
        return sphere_surface(o[0], o[1]), 0.06 * o[1]

    @staticmethod
    def inside(p, o):
        return np.linalg.norm(p - o[0], axis=1) < o[1]

    @staticmethod
    def centre(o):
        return o[0]

    @staticmethod
    def moved(o, shift):
        return (o[0] + shift, o[1])


class Box:
    name = "box"
    strategy = st.tuples(_vec, st.tuples(st.floats(0.05, 2), st.floats(0.05, 2),
                                         st.floats(0.05, 2)).map(np.array))
    axis = None

    @staticmethod
    def separation(a, b, o):
        return separation_capsule_box(*a, *b, *o[0], *(o[0] + o[1]))

    @staticmethod
    def sweep(a, b, d, r, o):
        return sweep_capsule_box(*a, *b, *d, r, *o[0], *(o[0] + o[1]))

    @staticmethod
    def surface(o):
        return box_surface(o[0], o[0] + o[1]), 0.04 * float(np.linalg.norm(o[1]))

    @staticmethod
    def inside(p, o):
        return np.all((p > o[0]) & (p < o[0] + o[1]), axis=1)

    @staticmethod
    def centre(o):
        return o[0] + 0.5 * o[1]

    @staticmethod
    def moved(o, shift):
        return (o[0] + shift, o[1])


class Cylinder:
    name = "cylinder"
    strategy = st.tuples(_vec, st.integers(0, 2), st.floats(0.1, 1.0), st.floats(0.0, 2.0))
    axis = "cylinder"

    @staticmethod
    def separation(a, b, o):
        return separation_capsule_cylinder(*a, *b, *o[0], o[1], o[2], o[3])

    @staticmethod
    def sweep(a, b, d, r, o):
        return sweep_capsule_cylinder(*a, *b, *d, r, *o[0], o[1], o[2], o[3], SEARCH_TOLERANCE)

    @staticmethod
    def surface(o):
        return cylinder_surface(o[0], o[1], o[2], o[3]), 0.05 * o[2] + 0.02 * o[3]

    @staticmethod
    def inside(p, o):
        c, k, radius, height = o
        j, l = (k + 1) % 3, (k + 2) % 3
        rho = np.hypot(p[:, j] - c[j], p[:, l] - c[l])
        return (rho < radius) & (p[:, k] > c[k]) & (p[:, k] < c[k] + height)

    @staticmethod
    def centre(o):
        c = o[0].copy()
        c[o[1]] += 0.5 * o[3]
        return c

    @staticmethod
    def moved(o, shift):
        return (o[0] + shift, o[1], o[2], o[3])


class Triangle:
    name = "triangle"
    strategy = st.tuples(_vec, _vec, _vec).map(np.array).filter(
        lambda v: np.linalg.norm(np.cross(v[1] - v[0], v[2] - v[0])) > 0.05)
    axis = None

    @staticmethod
    def _args(v):
        loop = np.arange(3)
        nx, ny, nz, _ = newell_normal_polygon(v, loop, 0, 3)
        return v, loop, 0, 3, nx, ny, nz, ALL_EDGES, False

    @classmethod
    def separation(cls, a, b, o):
        return separation_capsule_polygon(*a, *b, *cls._args(o))

    @classmethod
    def sweep(cls, a, b, d, r, o):
        return sweep_capsule_polygon(*a, *b, *d, r, *cls._args(o))

    @staticmethod
    def surface(o):
        return fan_surface(o, o.mean(0)), 0.06

    @staticmethod
    def inside(p, o):
        return np.zeros(len(p), bool)

    @staticmethod
    def centre(o):
        return o.mean(0)

    @staticmethod
    def moved(o, shift):
        return o + shift


FAMILIES = [Sphere, Box, Cylinder, Triangle]


@st.composite
def agents(draw, family, obstacle):
    """An agent core (a, b): a sphere (a == b) or a capsule, upright along a cylinder's axis."""
    a = np.array(draw(st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(-3, 3))))
    kind = draw(st.sampled_from(["sphere", "capsule"]))
    if kind == "sphere":
        return a, a.copy()
    if family.axis == "cylinder":
        b = a.copy()
        b[obstacle[1]] += draw(st.floats(0.1, 2.0))
        return a, b
    return a, a + np.array(draw(st.tuples(_c, _c, _c)))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@given(data=st.data())
def test_separation_matches_dense_sampling(family, data):
    obstacle = data.draw(family.strategy)
    a, b = data.draw(agents(family, obstacle))
    sep, nx, ny, nz, qx, qy, qz = family.separation(a, b, obstacle)
    surface, step = family.surface(obstacle)
    points = core_samples(a, b)
    brute = signed_distance(points, surface, family.inside(points, obstacle))
    core_step = np.linalg.norm(b - a) / (len(points) - 1)
    if brute >= 0.0 and sep >= 0.0:
        # Outside: never farther than any sampled pair, and within their spacing.
        assert sep <= brute + 1e-9
        assert brute <= sep + step + core_step
    else:
        # Inside, the samples' depth errs either way, by their spacing at most.
        assert abs(sep - brute) <= step + core_step
    assert math.hypot(nx, ny, nz) == pytest.approx(1.0)
    # The reported point lies on the surface.
    assert np.min(np.linalg.norm(surface - [qx, qy, qz], axis=1)) <= step


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@given(data=st.data())
def test_sweep_stops_at_the_radius_and_no_earlier_time_is_closer(family, data):
    obstacle = data.draw(family.strategy)
    a, b = data.draw(agents(family, obstacle))
    d = np.array(data.draw(st.tuples(st.floats(-6, 6), st.floats(-6, 6), st.floats(-6, 6))))
    radius = data.draw(st.floats(0.05, 1.0))
    f, nx, ny, nz, *_ = family.sweep(a, b, d, radius, obstacle)

    def sep_at(t):
        return family.separation(a + t * d, b + t * d, obstacle)[0]

    assume(sep_at(0.0) > radius)
    if f != math.inf:
        assert 0.0 <= f <= 1.0
        assert sep_at(f) == pytest.approx(radius, abs=1e-9)
        assert math.hypot(nx, ny, nz) == pytest.approx(1.0)
    for t in np.linspace(0.0, min(f, 1.0), 400):
        assert sep_at(t) >= radius - 1e-9


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@given(data=st.data())
def test_fast_sweeps_never_tunnel(family, data):
    # Aimed through the obstacle's centre from 4 away, moving 6 to 12 in all
    # at 10 to 1000 radii a move (so radius = length / speed).
    obstacle = data.draw(family.strategy)
    length = data.draw(st.floats(6.0, 12.0))
    speed = data.draw(st.floats(10.0, 1000.0))
    radius = length / speed
    heading = np.array(data.draw(st.tuples(_c, _c, _c)))
    assume(np.linalg.norm(heading) > 0.1)
    heading /= np.linalg.norm(heading)
    centre = family.centre(obstacle)
    start = centre - 4.0 * heading
    d = heading * length
    assume(family.separation(start, start, obstacle)[0] > radius)
    f, *_ = family.sweep(start, start, d, radius, obstacle)
    if family is Triangle and abs(np.dot(heading, np.cross(obstacle[1] - obstacle[0],
                                                           obstacle[2] - obstacle[0]))) < 1e-9:
        return       # edge-on through a thin panel's plane: may pass beside it
    reach = 4.0 / length                      # the fraction at which the centre is reached
    assert f <= reach
    p = start + f * d
    assert family.separation(p, p, obstacle)[0] == pytest.approx(radius, abs=1e-9)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
@given(data=st.data())
def test_results_survive_translating_everything_by_1e5(family, data):
    obstacle = data.draw(family.strategy)
    a, b = data.draw(agents(family, obstacle))
    d = np.array(data.draw(st.tuples(st.floats(-6, 6), st.floats(-6, 6), st.floats(-6, 6))))
    radius = data.draw(st.floats(0.05, 1.0))
    shift = np.array(data.draw(st.tuples(st.floats(-1e5, 1e5), st.floats(-1e5, 1e5),
                                         st.floats(-1e5, 1e5))))
    moved = family.moved(obstacle, shift)
    sep = family.separation(a, b, obstacle)
    sep_moved = family.separation(a + shift, b + shift, moved)
    # Coordinates near 1e5 carry steps of 1.5e-11: separations agree to 1e-9.
    assert sep_moved[0] == pytest.approx(sep[0], abs=1e-9)
    # Sweeps from a clear start (within rounding of the radius, in contact or
    # not is a coin toss).
    assume(sep[0] > radius + 1e-6)
    f, nx, ny, nz, *_ = family.sweep(a, b, d, radius, obstacle)
    g, *_ = family.sweep(a + shift, b + shift, d, radius, moved)
    if f == g:
        return
    # A contact on one side only, or two slightly apart, happens only where
    # the motion grazes the obstacle: the other answer is still a contact
    # within 1e-6 of the radius, and nothing earlier comes closer.
    for h in (f, g):
        if h != math.inf:
            assert family.separation(a + h * d, b + h * d, obstacle)[0] == \
                pytest.approx(radius, abs=1e-6)
    if f != math.inf and g != math.inf:
        approach = abs(d @ np.array([nx, ny, nz]))
        assert abs(f - g) * approach <= 1e-6
