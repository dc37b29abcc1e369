"""The agent's core against a segment: closest points, separation, ray and sweep.

The agent is a capsule: a core segment ``ab`` (``a == b`` for a sphere) and a
radius. Every 3D family's sweep breaks down into the events computed here
(the first time some point of the core comes within ``radius`` of some
feature), so this module is the foundation of the others:

* a point against a capsule (:func:`ray_capsule`): a core end against an
  obstacle edge, or an obstacle vertex against the core, run backwards;
* an edge against an edge (both interiors), in :func:`sweep_capsule_segment`.

Conventions (as in 2D): ``fraction`` is the part of the displacement ``d``
travelled, in [0, 1]; a miss is ``fraction = inf``; normals are unit vectors
from the obstacle towards the agent. A sweep that starts touching or
overlapping hits at 0 when it moves inwards and misses when it moves out, so
a touching agent can always leave.
"""
import math

from numba import njit

from .vector import (any_perpendicular, axpy, cross, dot, neg, norm, normalize, same, scale, sub,
                     vec)


#: Segments whose directions' cross product is below this share of their lengths' product
#: (squared: about 3e-5 rad) are nearly parallel: their closest pair is also sought among
#: the end-to-segment pairs.
_PARALLEL = 1e-9


@njit(cache=True, inline="always")
def _clamp01(x):
    return min(max(x, 0.0), 1.0)


@njit(cache=True)
def _closest_point_segment(p, a, b):
    # Returns (s, q): q = a + s (b - a), the point of ab nearest p.
    e = sub(b, a)
    ll = dot(e, e)
    if ll == 0.0:
        return 0.0, a
    s = _clamp01(dot(sub(p, a), e) / ll)
    return s, axpy(a, s, e)


@njit(cache=True)
def closest_point_segment(px, py, pz, ax, ay, az, bx, by, bz):
    """Closest point to ``p`` on segment ``ab``.

    Returns ``(s, qx, qy, qz)``: ``q = a + s (b - a)`` with ``s`` in [0, 1]
    (0 for a degenerate segment ``a == b``).
    """
    s, q = _closest_point_segment(vec(px, py, pz), vec(ax, ay, az), vec(bx, by, bz))
    return s, q[0], q[1], q[2]


@njit(cache=True)
def _closest_points_segments(p1, q1, p2, q2):
    # Closest points x = p1 + s (q1 - p1), y = p2 + t (q2 - p2) of two
    # segments (Ericson, Real-Time Collision Detection 5.1.9). Degenerate
    # segments (a point) are exact zero lengths only: a segment a hair long
    # is a segment, and the clamps keep s and t in [0, 1] whatever the
    # conditioning of the 2x2 system.
    d1 = sub(q1, p1)
    d2 = sub(q2, p2)
    r = sub(p1, p2)
    a = dot(d1, d1)
    e = dot(d2, d2)
    f = dot(d2, r)
    if a == 0.0 and e == 0.0:
        return 0.0, 0.0, p1, p2
    if a == 0.0:
        s = 0.0
        t = _clamp01(f / e)
    else:
        c = dot(d1, r)
        if e == 0.0:
            t = 0.0
            s = _clamp01(-c / a)
        else:
            b = dot(d1, d2)
            denom = a * e - b * b
            # Parallel segments (denom 0): any s works; take a's end, then clamp t.
            s = _clamp01((b * f - c * e) / denom) if denom > 0.0 else 0.0
            t = (b * s + f) / e
            if t < 0.0:
                t = 0.0
                s = _clamp01(-c / a)
            elif t > 1.0:
                t = 1.0
                s = _clamp01((b - c) / a)
            # ``and`` short-circuits: the cross product only for a pair nearly parallel.
            if denom <= _PARALLEL * a * e and norm(cross(d1, d2)) > 0.0:
                # Nearly parallel, not exactly (denom is then rounding): the nearest pair
                # has an end of one of them, but a's first end need not be it (two
                # segments 8e-10 rad apart sharing an end came out 8e-10 apart). The
                # nearest of that pair and the four end-to-segment pairs. (Exactly
                # parallel ones, an upright core beside an upright edge, are exact as
                # they are: the distance is the same all along their overlap.)
                x = axpy(p1, s, d1)
                y = axpy(p2, t, d2)
                best = dot(sub(x, y), sub(x, y))
                for end in range(4):
                    if end < 2:
                        ss = float(end)
                        x2 = axpy(p1, ss, d1)
                        tt, y2 = _closest_point_segment(x2, p2, q2)
                    else:
                        tt = float(end - 2)
                        y2 = axpy(p2, tt, d2)
                        ss, x2 = _closest_point_segment(y2, p1, q1)
                    gap = dot(sub(x2, y2), sub(x2, y2))
                    if gap < best:
                        best, s, t = gap, ss, tt
    return s, t, axpy(p1, s, d1), axpy(p2, t, d2)


@njit(cache=True)
def closest_points_segment_segment(ax, ay, az, bx, by, bz, cx, cy, cz, ex, ey, ez):
    """Closest points of segments ``ab`` and ``ce``.

    Returns ``(s, t, xx, xy, xz, yx, yy, yz)``: ``x = a + s (b - a)`` on the
    first, ``y = c + t (e - c)`` on the second, ``s, t`` in [0, 1]. Where the
    closest pair is not unique (parallel segments) one of them is returned.
    """
    s, t, x, y = _closest_points_segments(vec(ax, ay, az), vec(bx, by, bz),
                                          vec(cx, cy, cz), vec(ex, ey, ez))
    return s, t, x[0], x[1], x[2], y[0], y[1], y[2]


@njit(cache=True)
def _edge_normal(x, c, e, t):
    # Unit normal from the point y = c + t (e - c) of segment ce towards x.
    # Beside the segment (0 < t < 1) it is the part of x - c across the
    # segment, which keeps the rounding of y itself out of the direction.
    # At x itself (touching), a fixed perpendicular of the segment.
    w = sub(x, c)
    u = sub(e, c)
    uu = dot(u, u)
    if 0.0 < t < 1.0 and uu > 0.0:
        w = axpy(w, -dot(w, u) / uu, u)
    elif t >= 1.0:
        w = sub(x, e)
    n, length = normalize(w)
    if length > 0.0:
        return n, length
    return any_perpendicular(u), 0.0


@njit(cache=True)
def _separation_segment_segment(a, b, c, e):
    # (distance, normal from ce towards ab, closest point y on ce, t of y).
    s, t, x, y = _closest_points_segments(a, b, c, e)
    n, _ = _edge_normal(x, c, e, t)
    dist = norm(sub(x, y))
    if dist == 0.0:
        # Crossing or touching: the common perpendicular, else one of ce's.
        m, mm = normalize(cross(sub(b, a), sub(e, c)))
        if mm > 0.0:
            n = m
    return dist, n, y, t


@njit(cache=True)
def separation_capsule_segment(ax, ay, az, bx, by, bz, cx, cy, cz, ex, ey, ez, thickness):
    """Signed separation of the agent core ``ab`` from the capsule ``ce`` of ``thickness``.

    Returns ``(separation, nx, ny, nz, qx, qy, qz)``: the distance between
    the segments minus ``thickness`` (world units, negative when closer),
    the unit normal from ``ce`` towards the core, and ``q`` the point of the
    capsule's surface nearest the core. Where the segments cross, the normal
    is their common perpendicular (or a fixed perpendicular of ``ce`` when
    they are parallel), so it is defined everywhere.
    """
    dist, n, y, t = _separation_segment_segment(vec(ax, ay, az), vec(bx, by, bz),
                                                vec(cx, cy, cz), vec(ex, ey, ez))
    q = axpy(y, thickness, n)
    return dist - thickness, n[0], n[1], n[2], q[0], q[1], q[2]


@njit(cache=True)
def _ray_sphere(o, u, max_distance, c, radius):
    # First entry of o + distance u (u unit) into the ball (c, radius):
    # (distance, normal); inf for a miss. Starting inside or on the ball: 0
    # when heading inwards, a miss when heading out.
    # Solve |m + distance u|^2 = radius^2 with m = o - c (Ericson 5.3.2).
    m = sub(o, c)
    b = dot(m, u)
    cc = dot(m, m) - radius * radius
    if cc <= 0.0:
        if b < 0.0:
            n, mm = normalize(m)
            if mm == 0.0:
                n = any_perpendicular(u)
            return 0.0, n
        return math.inf, (0.0, 0.0, 0.0)
    if b >= 0.0:
        return math.inf, (0.0, 0.0, 0.0)
    # Discriminant b^2 - cc written as radius^2 - |m_perp|^2, m_perp the part
    # of m across the ray: b^2 and cc are huge and nearly equal for a small
    # ball far away (Haines et al., Ray Tracing Gems, ch. 7).
    l = axpy(m, -b, u)
    h = radius * radius - dot(l, l)
    if h < 0.0:
        return math.inf, (0.0, 0.0, 0.0)
    # Smaller root as cc / (-b + sqrt(h)): no cancellation (Numerical Recipes 5.6).
    distance = cc / (-b + math.sqrt(h))
    if distance > max_distance:
        return math.inf, (0.0, 0.0, 0.0)
    w = axpy(m, distance, u)
    n, ww = normalize(w)
    if ww == 0.0:
        n = neg(u)
    return distance, n


@njit(cache=True)
def _ray_capsule_outside(o, u, max_distance, a, b, radius):
    # First entry of the ray into the capsule (a, b, radius), for an origin
    # outside it: the earliest of the side (an infinite cylinder about ab,
    # entered between the ends) and the two end balls (the capsule is their
    # union; Ericson 5.3.7). Returns (distance, normal, t) with t the
    # parameter along ab of the contact's closest core point.
    best, n = _ray_sphere(o, u, max_distance, a, radius)
    t_best = 0.0
    e = sub(b, a)
    ll = dot(e, e)
    if ll > 0.0:
        db, nb = _ray_sphere(o, u, max_distance, b, radius)
        if db < best:
            best, n, t_best = db, nb, 1.0
        # Side: solve |m_perp + distance u_perp|^2 = radius^2, the parts of
        # m = o - a and u across the axis.
        w, length = normalize(e)
        m = sub(o, a)
        mp = axpy(m, -dot(m, w), w)
        up = axpy(u, -dot(u, w), w)
        aa = dot(up, up)
        bb = dot(mp, up)
        cc = dot(mp, mp) - radius * radius
        if aa > 0.0 and bb < 0.0 and cc > 0.0:
            l = axpy(mp, -bb / aa, up)
            h = radius * radius - dot(l, l)
            if h >= 0.0:
                distance = cc / (-bb + math.sqrt(aa * h))
                if distance < best and distance <= max_distance:
                    along = dot(axpy(m, distance, u), w)
                    if 0.0 <= along <= length:
                        side, ss = normalize(axpy(mp, distance, up))
                        if ss > 0.0:
                            best = distance
                            n = side
                            t_best = along / length
    return best, n, t_best


@njit(cache=True)
def ray_capsule(ox, oy, oz, ux, uy, uz, max_distance, ax, ay, az, bx, by, bz, radius):
    """First hit of the ray ``o + distance u`` (``u`` unit) on the capsule ``ab`` of ``radius``.

    Returns ``(distance, nx, ny, nz)``; ``(inf, 0, 0, 0)`` for a miss or a
    hit beyond ``max_distance``. A ray starting inside or on the capsule hits
    at 0 when it heads inwards and misses when it heads out. With
    ``radius == 0`` the capsule is a bare segment, which a ray meets only
    by exact coincidence.
    """
    o = vec(ox, oy, oz)
    u = vec(ux, uy, uz)
    a = vec(ax, ay, az)
    b = vec(bx, by, bz)
    t, q = _closest_point_segment(o, a, b)
    n, dist = _edge_normal(o, a, b, t)
    if dist <= radius and radius > 0.0:
        if dot(u, n) < 0.0:
            return 0.0, n[0], n[1], n[2]
        return math.inf, 0.0, 0.0, 0.0
    distance, n, _ = _ray_capsule_outside(o, u, max_distance, a, b, radius)
    return distance, n[0], n[1], n[2]


@njit(cache=True)
def _sweep_edges_interior(a, b, d, radius, c, e):
    # First time the interiors of the moving core ab (by d) and the fixed
    # segment ce come within radius: their lines' distance along the common
    # perpendicular m is h(fraction) = h0 + fraction hd, linear, and the
    # contact is where |h| reaches radius with both closest points on the
    # segments. Nearly parallel segments (|m| below 1e-12 of the lengths'
    # product) are left to the end-point events, which meet them first.
    # Returns (fraction, normal, t on ce).
    d1 = sub(b, a)
    d2 = sub(e, c)
    m, mm = normalize(cross(d1, d2))
    if not mm > 1e-12 * norm(d1) * norm(d2):
        return math.inf, (0.0, 0.0, 0.0), 0.0
    h0 = dot(sub(a, c), m)
    hd = dot(d, m)
    if h0 >= radius and hd < 0.0:
        side = 1.0
    elif h0 <= -radius and hd > 0.0:
        side = -1.0
    else:
        return math.inf, (0.0, 0.0, 0.0), 0.0
    fraction = (side * radius - h0) / hd
    if fraction > 1.0:
        return math.inf, (0.0, 0.0, 0.0), 0.0
    # Closest points of the two lines at that time (Ericson 5.1.8).
    r = sub(axpy(a, fraction, d), c)
    aa = dot(d1, d1)
    bb = dot(d1, d2)
    ee = dot(d2, d2)
    cc = dot(d1, r)
    ff = dot(d2, r)
    # aa ee - bb^2 = |d1 x d2|^2 (Lagrange's identity), taken from the cross
    # product: for segments 1e-10 rad from parallel the difference form
    # rounds to 0.
    denom = mm * mm
    if denom == 0.0:
        # |d1 x d2|^2 underflows (below 1e-308) only when one segment is
        # shorter than about 1e-154 over the other's length: a point, for
        # which the end-point events are the exact contact (the explore
        # profile found a core 3.5e-280 long dividing by zero here).
        return math.inf, (0.0, 0.0, 0.0), 0.0
    s = (bb * ff - cc * ee) / denom
    t = (aa * ff - bb * cc) / denom
    if 0.0 <= s <= 1.0 and 0.0 <= t <= 1.0:
        # The points must be the radius apart: for a core many orders of magnitude
        # shorter than the segment and nearly along it, the numerators cancel to
        # rounding and can put both on the segments far from the lines' true closest
        # points (the explore profile found a core 3e-44 long, 1e-9 rad off a box's
        # edge, hit at 0 from 1.41 radii away). The end-point events meet such a core.
        gap = norm(sub(axpy(r, s, d1), scale(d2, t)))
        if abs(gap - radius) <= 1e-9 * (1.0 + radius + norm(r)):
            return fraction, scale(m, side), t
    return math.inf, (0.0, 0.0, 0.0), 0.0


@njit(cache=True)
def _sweep_capsule_segment_outside(a, b, d, radius, c, e):
    # First contact of the core ab + radius moving by d with segment ce,
    # for a start farther than radius. The contact pair (x on the core, y on
    # ce) at the first touch is one of: x an end of the core (a ray from a or
    # b against the capsule about ce), y an end of ce (a ray from c or e,
    # moving by -d, against the capsule about the core), or both interior
    # (_sweep_edges_interior); parallel interiors slide to an end. So the
    # earliest of these events is the contact, exactly.
    # Returns (fraction, normal from ce to the core, t on ce of the contact).
    length = norm(d)
    if length == 0.0:
        return math.inf, (0.0, 0.0, 0.0), 0.0
    u = scale(d, 1.0 / length)
    best, n, t = _ray_capsule_outside(a, u, length, c, e, radius)
    if not same(a, b):
        db, nb, tb = _ray_capsule_outside(b, u, length, c, e, radius)
        if db < best:
            best, n, t = db, nb, tb
    back = neg(u)
    dc, nc, _ = _ray_capsule_outside(c, back, length, a, b, radius)
    if dc < best:
        best, n, t = dc, neg(nc), 0.0
    if not same(c, e):
        de, ne, _ = _ray_capsule_outside(e, back, length, a, b, radius)
        if de < best:
            best, n, t = de, neg(ne), 1.0
    fraction = best / length
    if not same(a, b) and not same(c, e):
        fi, ni, ti = _sweep_edges_interior(a, b, d, radius, c, e)
        if fi < fraction:
            fraction, n, t = fi, ni, ti
    return fraction, n, t


@njit(cache=True)
def _sweep_capsule_segment(a, b, d, radius, c, e):
    # As sweep_capsule_segment, on tuples: (fraction, normal, t on ce).
    dist, n, y, t = _separation_segment_segment(a, b, c, e)
    if dist <= radius:
        if dot(d, n) < 0.0:
            return 0.0, n, t
        return math.inf, (0.0, 0.0, 0.0), 0.0
    return _sweep_capsule_segment_outside(a, b, d, radius, c, e)


@njit(cache=True)
def sweep_capsule_segment(ax, ay, az, bx, by, bz, dx, dy, dz, radius, cx, cy, cz, ex, ey, ez):
    """First contact of the agent (core ``ab``, ``radius``) moving by ``d`` with segment ``ce``.

    ``radius`` is the agent's radius plus the segment's thickness, if any.
    Returns ``(fraction, nx, ny, nz, qx, qy, qz)``: the part of ``d``
    travelled at first contact (``inf`` for a miss), the unit normal from
    the segment towards the agent there, and ``q`` the touched point of the
    segment. Exact (closed-form events, see the module docstring) up to
    float64 rounding, except that segments within 1e-12 rad of parallel are
    met by their ends only (an error below 1e-12 of their lengths).
    """
    c = vec(cx, cy, cz)
    e = vec(ex, ey, ez)
    fraction, n, t = _sweep_capsule_segment(vec(ax, ay, az), vec(bx, by, bz), vec(dx, dy, dz),
                                            radius, c, e)
    if fraction == math.inf:
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    q = axpy(c, t, sub(e, c))
    return fraction, n[0], n[1], n[2], q[0], q[1], q[2]
