"""The agent against a solid upright cylinder with flat caps (trees on terrain).

A cylinder stands along coordinate axis ``axis`` (0, 1 or 2: x, y or z):
its base centre is ``c``, its radius ``R``, and it spans ``c[axis]`` to
``c[axis] + height`` along the axis.

Separation is closed-form. The sweep is not: the agent's first contact with
a cylinder's rim (a torus once rounded by the agent's radius) is a quartic
root, so it is found as the first root of ``g(fraction) = separation(core +
fraction d) - radius`` instead, which is safe for two reasons:

* ``g`` is convex: the signed distance to a convex solid is a convex
  function of the point, the moving core's points are affine in
  ``(s, fraction)``, and minimising over ``s`` keeps convexity;
* ``g`` is ``|d|``-Lipschitz: moving ``fraction`` by ``t`` moves every point
  of the agent by ``t |d|``.

So conservative advancement (``fraction += g / |d|``) never steps past a
contact; where it converges slowly (a glancing approach) a golden-section
search brackets the minimum of ``g`` (a miss is proven once the bracket is
shorter than ``g`` allows), and bisection on the decreasing part before it
finds the first root. No speed tunnels.
"""
import math

from numba import njit

from .vector import axpy, cyclic, dot, norm, sub, vec

#: Golden-section ratio (3 - sqrt 5) / 2: the bracket shrinks by 0.618 a step.
_GOLDEN = 0.3819660112501051
#: Steps of each search: enough to shrink [0, 1] below 1e-16.
_STEPS = 80
#: Conservative-advancement steps tried before the bracketing search.
_ADVANCES = 12


@njit(cache=True, inline="always")
def _radial_axes(axis):
    # The two coordinate axes across the cylinder's axis.
    return (axis + 1) % 3, (axis + 2) % 3


@njit(cache=True)
def _separation_point_cylinder(p, c, axis, radius, height):
    # (separation, normal, surface point) of point p; see separation_capsule_cylinder.
    i, j = _radial_axes(axis)
    rx = p[i] - c[i]
    ry = p[j] - c[j]
    rho = math.sqrt(rx * rx + ry * ry)
    if rho > 0.0:
        ex = rx / rho
        ey = ry / rho
    else:
        ex = 1.0
        ey = 0.0
    lo = c[axis]
    hi = c[axis] + height
    z = p[axis]
    dr = rho - radius
    if z - hi >= lo - z:
        dz = z - hi
        zs = 1.0
        zc = hi
    else:
        dz = lo - z
        zs = -1.0
        zc = lo
    if dr > 0.0 and dz > 0.0:
        # Beyond the rim: the distance to the rim circle.
        sep = math.hypot(dr, dz)          # > 0: no underflow of dr^2 + dz^2
        n = cyclic(axis, zs * dz / sep, ex * dr / sep, ey * dr / sep)
        q = cyclic(axis, zc, c[i] + radius * ex, c[j] + radius * ey)
    elif dr > 0.0 or (dz <= 0.0 and dr >= dz):
        # Beside the side (or inside, nearer the side than a cap).
        sep = dr
        n = cyclic(axis, 0.0, ex, ey)
        q = cyclic(axis, z, c[i] + radius * ex, c[j] + radius * ey)
    else:
        # Over a cap (or inside, nearer that cap).
        sep = dz
        n = cyclic(axis, zs, 0.0, 0.0)
        q = cyclic(axis, zc, p[i], p[j])
    return sep, n, q


@njit(cache=True)
def _separation_segment_cylinder(a, b, c, axis, radius, height):
    # (separation, normal, surface point) of the core ab.
    e = sub(b, a)
    i, j = _radial_axes(axis)
    if e[i] == 0.0 and e[j] == 0.0:
        # A core along the axis (an upright capsule, or a point): the signed
        # distance at a fixed distance from the axis grows with the distance
        # from the cylinder's middle height, so the nearest core point is the
        # one nearest that height.
        if e[axis] == 0.0:
            s = 0.0
        else:
            middle = c[axis] + 0.5 * height
            s = min(max((middle - a[axis]) / e[axis], 0.0), 1.0)
        return _separation_point_cylinder(axpy(a, s, e), c, axis, radius, height)
    # A tilted core: golden-section search of the convex signed distance
    # along it (never needed by an upright agent; kept so the kernel answers
    # for any segment).
    lo = 0.0
    hi = 1.0
    x1 = lo + _GOLDEN * (hi - lo)
    x2 = hi - _GOLDEN * (hi - lo)
    f1 = _separation_point_cylinder(axpy(a, x1, e), c, axis, radius, height)[0]
    f2 = _separation_point_cylinder(axpy(a, x2, e), c, axis, radius, height)[0]
    for _ in range(_STEPS):
        if f1 <= f2:
            hi = x2
            x2 = x1
            f2 = f1
            x1 = lo + _GOLDEN * (hi - lo)
            f1 = _separation_point_cylinder(axpy(a, x1, e), c, axis, radius, height)[0]
        else:
            lo = x1
            x1 = x2
            f1 = f2
            x2 = hi - _GOLDEN * (hi - lo)
            f2 = _separation_point_cylinder(axpy(a, x2, e), c, axis, radius, height)[0]
    s = x1 if f1 <= f2 else x2
    best = _separation_point_cylinder(axpy(a, s, e), c, axis, radius, height)
    for t in (0.0, 1.0):
        other = _separation_point_cylinder(axpy(a, t, e), c, axis, radius, height)
        if other[0] < best[0]:
            best = other
    return best


@njit(cache=True)
def separation_capsule_cylinder(ax, ay, az, bx, by, bz, cx, cy, cz, axis, cylinder_radius,
                                height):
    """Signed distance from the agent core ``ab`` to a solid upright cylinder.

    ``c`` is the centre of the base, ``axis`` (0, 1, 2) the coordinate axis
    the cylinder stands along, ``height`` its length along it. Returns
    ``(separation, nx, ny, nz, qx, qy, qz)``: negative inside, the unit
    normal from the cylinder towards the core (radial beside the side, along
    the axis over a cap, towards the core past the rim; inside, the way out
    through the side or cap of least penetration, radially ``(1, 0)`` in the
    cross-section on the axis itself) and ``q`` the surface point nearest
    the core.

    Exact (closed form) for a core along the cylinder's axis, as an upright
    capsule or a sphere has; a tilted core is searched (golden section on
    the convex signed distance along it, to about 1e-15 of its length).
    """
    sep, n, q = _separation_segment_cylinder(vec(ax, ay, az), vec(bx, by, bz),
                                             vec(cx, cy, cz), axis, cylinder_radius, height)
    return sep, n[0], n[1], n[2], q[0], q[1], q[2]


@njit(cache=True)
def ray_cylinder(ox, oy, oz, ux, uy, uz, max_distance, cx, cy, cz, axis, cylinder_radius,
                 height):
    """First hit of the ray ``o + distance u`` (``u`` unit) on a solid upright cylinder.

    Returns ``(distance, nx, ny, nz)`` or ``(inf, 0, 0, 0)`` for a miss or a
    hit beyond ``max_distance``: the earliest of the side (a circle in the
    cross-section, entered between the caps) and the two caps (planes,
    entered within the radius). A ray starting inside or on the cylinder
    hits at 0 when it heads inwards and misses when it heads out.
    """
    o = vec(ox, oy, oz)
    u = vec(ux, uy, uz)
    c = vec(cx, cy, cz)
    sep, n, _ = _separation_point_cylinder(o, c, axis, cylinder_radius, height)
    if sep <= 0.0:
        if dot(u, n) < 0.0:
            return 0.0, n[0], n[1], n[2]
        return math.inf, 0.0, 0.0, 0.0
    i, j = _radial_axes(axis)
    lo = c[axis]
    hi = c[axis] + height
    best = math.inf
    m = (0.0, 0.0, 0.0)
    # 1. The side: |r0 + distance w|^2 = R^2 in the cross-section (the
    #    stable form of sphere.ray_sphere's root, in two coordinates).
    rx = o[i] - c[i]
    ry = o[j] - c[j]
    wx = u[i]
    wy = u[j]
    aa = wx * wx + wy * wy
    bb = rx * wx + ry * wy
    cc = rx * rx + ry * ry - cylinder_radius * cylinder_radius
    if aa > 0.0 and bb < 0.0 and cc > 0.0:
        lx = rx - (bb / aa) * wx
        ly = ry - (bb / aa) * wy
        h = cylinder_radius * cylinder_radius - (lx * lx + ly * ly)
        if h >= 0.0:
            distance = cc / (-bb + math.sqrt(aa * h))
            z = o[axis] + distance * u[axis]
            if lo <= z <= hi and distance <= max_distance:
                best = distance
                px = rx + distance * wx
                py = ry + distance * wy
                pp = math.sqrt(px * px + py * py)
                m = cyclic(axis, 0.0, px / pp, py / pp)
    # 2. The caps: the plane of the cap faced, reached within the radius.
    for upper in (True, False):
        level = hi if upper else lo
        s = 1.0 if upper else -1.0
        if s * (o[axis] - level) > 0.0 and s * u[axis] < 0.0:
            distance = (level - o[axis]) / u[axis]
            if distance < best and distance <= max_distance:
                px = rx + distance * wx
                py = ry + distance * wy
                if px * px + py * py <= cylinder_radius * cylinder_radius:
                    best = distance
                    m = cyclic(axis, s, 0.0, 0.0)
    if best == math.inf:
        return math.inf, 0.0, 0.0, 0.0
    return best, m[0], m[1], m[2]


@njit(cache=True, inline="always")
def _gap(a, b, d, fraction, c, axis, radius, height, agent_radius):
    # g(fraction): the moving agent's separation beyond its radius.
    return _separation_segment_cylinder(axpy(a, fraction, d), axpy(b, fraction, d), c, axis,
                                        radius, height)[0] - agent_radius


@njit(cache=True)
def _sweep_capsule_cylinder(a, b, d, agent_radius, c, axis, radius, height, tolerance):
    # (fraction, normal, point); see sweep_capsule_cylinder.
    miss = (math.inf, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    sep, n, q = _separation_segment_cylinder(a, b, c, axis, radius, height)
    if sep <= agent_radius:
        if dot(d, n) < 0.0:
            return 0.0, n, q
        return miss
    length = norm(d)
    if length == 0.0:
        return miss
    # 1. Conservative advancement: no contact before fraction + g / |d|.
    fraction = 0.0
    g = sep - agent_radius
    for _ in range(_ADVANCES):
        if g <= tolerance:
            break
        fraction += g / length
        if fraction > 1.0:
            return miss
        g = _gap(a, b, d, fraction, c, axis, radius, height, agent_radius)
    if g > tolerance:
        # 2. Golden-section search for the minimum of the convex g on
        #    [fraction, 1]: the first root, if any, lies before it. Stop at
        #    the first point with g <= 0 (the root is then before it), or
        #    when the bracket is too short for g to reach 0 inside it (g
        #    changes by at most |d| per unit of fraction): a miss.
        lo = fraction
        hi = 1.0
        x1 = lo + _GOLDEN * (hi - lo)
        x2 = hi - _GOLDEN * (hi - lo)
        f1 = _gap(a, b, d, x1, c, axis, radius, height, agent_radius)
        f2 = _gap(a, b, d, x2, c, axis, radius, height, agent_radius)
        g_hi = _gap(a, b, d, 1.0, c, axis, radius, height, agent_radius)
        inside = -1.0
        if g_hi <= 0.0:
            inside = 1.0
        for _ in range(_STEPS):
            if inside >= 0.0:
                break
            if f1 <= 0.0:
                inside = x1
                break
            if f2 <= 0.0:
                inside = x2
                break
            if (hi - lo) * length < min(f1, f2):
                return miss
            if f1 <= f2:
                hi = x2
                x2 = x1
                f2 = f1
                x1 = lo + _GOLDEN * (hi - lo)
                f1 = _gap(a, b, d, x1, c, axis, radius, height, agent_radius)
            else:
                lo = x1
                x1 = x2
                f1 = f2
                x2 = hi - _GOLDEN * (hi - lo)
                f2 = _gap(a, b, d, x2, c, axis, radius, height, agent_radius)
        if inside < 0.0:
            return miss
        # 3. Bisection between fraction (g > 0) and inside (g <= 0): g is
        #    convex, so it crosses 0 once there; keep the free side.
        lo = fraction
        hi = inside
        for _ in range(_STEPS):
            mid = 0.5 * (lo + hi)
            if mid <= lo or mid >= hi:
                break
            if _gap(a, b, d, mid, c, axis, radius, height, agent_radius) > 0.0:
                lo = mid
            else:
                hi = mid
            if (hi - lo) * length <= tolerance:
                break
        fraction = lo
    sep, n, q = _separation_segment_cylinder(axpy(a, fraction, d), axpy(b, fraction, d), c, axis,
                                             radius, height)
    return fraction, n, q


@njit(cache=True)
def sweep_capsule_cylinder(ax, ay, az, bx, by, bz, dx, dy, dz, radius, cx, cy, cz, axis,
                           cylinder_radius, height, tolerance):
    """First contact of the agent (core ``ab``, ``radius``) moving by ``d`` with a cylinder.

    Returns ``(fraction, nx, ny, nz, qx, qy, qz)``: the part of ``d``
    travelled (``inf`` for a miss), the unit normal from the cylinder
    towards the agent at that point and the cylinder's point nearest the
    agent there. The fraction is never past the contact: the agent's
    separation there is between ``radius`` and ``radius + tolerance``
    (world units, e.g. a thousandth of the slide's skin), up to float64
    rounding of the separation itself (see the module docstring for why no
    contact is skipped). A start touching or overlapping hits at 0 moving
    inwards and misses moving out.
    """
    fraction, n, q = _sweep_capsule_cylinder(vec(ax, ay, az), vec(bx, by, bz),
                                             vec(dx, dy, dz), radius, vec(cx, cy, cz), axis,
                                             cylinder_radius, height, tolerance)
    return fraction, n[0], n[1], n[2], q[0], q[1], q[2]
