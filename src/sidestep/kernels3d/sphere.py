"""The agent against a solid sphere (the radial articles' trees and boulders, in 3D).

A sphere of radius ``R`` against the agent (core ``ab``, radius ``r``) is
the sphere's centre against the capsule ``ab`` of radius ``R + r``: every
query here is a point query of :mod:`.segment` turned round.
"""
import math

from numba import njit

from .segment import _closest_point_segment, _ray_capsule_outside, _ray_sphere
from .vector import any_perpendicular, axpy, neg, norm, normalize, scale, sub, vec


@njit(cache=True)
def separation_capsule_sphere(ax, ay, az, bx, by, bz, cx, cy, cz, sphere_radius):
    """Signed distance from the agent core ``ab`` to a sphere's surface.

    Returns ``(separation, nx, ny, nz, qx, qy, qz)``: ``|x - c| - R`` with
    ``x`` the core point nearest the centre (negative inside), the unit
    normal from the centre towards ``x`` and ``q``, the surface point
    nearest the core. With the centre on the core the normal is a fixed
    perpendicular of the core (``(1, 0, 0)`` for a point agent), so it is
    defined everywhere.
    """
    a = vec(ax, ay, az)
    b = vec(bx, by, bz)
    c = vec(cx, cy, cz)
    _, x = _closest_point_segment(c, a, b)
    n, dist = normalize(sub(x, c))
    if dist == 0.0:
        n = any_perpendicular(sub(b, a))
    q = axpy(c, sphere_radius, n)
    return dist - sphere_radius, n[0], n[1], n[2], q[0], q[1], q[2]


@njit(cache=True)
def ray_sphere(ox, oy, oz, ux, uy, uz, max_distance, cx, cy, cz, sphere_radius):
    """First hit of the ray ``o + distance u`` (``u`` unit) on a sphere.

    Returns ``(distance, nx, ny, nz)``, or ``(inf, 0, 0, 0)`` for a miss or
    a hit beyond ``max_distance``. Solves ``|o + distance u - c|^2 = R^2``
    for its smaller root (Ericson 5.3.2), written without cancellation. A
    ray starting inside or on the sphere hits at 0 when it heads inwards
    (towards the centre) and misses when it heads out.
    """
    distance, n = _ray_sphere(vec(ox, oy, oz), vec(ux, uy, uz), max_distance,
                              vec(cx, cy, cz), sphere_radius)
    return distance, n[0], n[1], n[2]


@njit(cache=True)
def sweep_capsule_sphere(ax, ay, az, bx, by, bz, dx, dy, dz, radius, cx, cy, cz,
                         sphere_radius):
    """First contact of the agent (core ``ab``, ``radius``) moving by ``d`` with a sphere.

    Returns ``(fraction, nx, ny, nz, qx, qy, qz)``: the part of ``d``
    travelled (``inf`` for a miss), the unit normal from the sphere towards
    the agent and the touched point of the sphere. Analytic: the centre,
    moving by ``-d``, against the capsule ``ab`` of radius ``R + r``
    (a cylinder and two balls, closed-form roots). A start touching or
    overlapping hits at 0 moving inwards and misses moving out.

    Examples
    --------
    A ball of radius 0.5 dropped 10 onto a unit sphere 5 below it; the
    same ball moving past it; and not moving at all:

    >>> sweep_capsule_sphere(0, 0, 5, 0, 0, 5, 0, 0, -10, 0.5, 0, 0, 0, 1.0)[:4]
    (0.35, -0.0, -0.0, 1.0)
    >>> sweep_capsule_sphere(0, 3, 5, 0, 3, 5, 0, 0, -10, 0.5, 0, 0, 0, 1.0)[0]
    inf
    >>> sweep_capsule_sphere(0, 0, 5, 0, 0, 5, 0, 0, 0, 0.5, 0, 0, 0, 1.0)[0]
    inf
    """
    a = vec(ax, ay, az)
    b = vec(bx, by, bz)
    c = vec(cx, cy, cz)
    d = vec(dx, dy, dz)
    reach = radius + sphere_radius
    sep, nx, ny, nz, qx, qy, qz = separation_capsule_sphere(ax, ay, az, bx, by, bz, cx, cy,
                                                            cz, sphere_radius)
    if sep <= radius:
        if dx * nx + dy * ny + dz * nz < 0.0:
            return 0.0, nx, ny, nz, qx, qy, qz
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    length = norm(d)
    if length == 0.0:
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    distance, m, _ = _ray_capsule_outside(c, scale(d, -1.0 / length), length, a, b, reach)
    if distance == math.inf:
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    n = neg(m)
    q = axpy(c, sphere_radius, n)
    return distance / length, n[0], n[1], n[2], q[0], q[1], q[2]
