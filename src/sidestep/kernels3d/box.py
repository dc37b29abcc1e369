"""The agent against a solid axis-aligned box (the article's primary-plane panels).

A box is ``[minx, maxx] x [miny, maxy] x [minz, maxz]``, solid: its
separation is negative inside. As the article says, axis-aligned faces turn
the tests into "a series of decision statements, checking each co-ordinate
value in turn": the slabs below.
"""
import math

from numba import njit

from .segment import _sweep_capsule_segment_outside
from .vector import axpy, cyclic, norm, normalize, sub, vec


@njit(cache=True)
def _clip_segment_box(a, b, lo, hi):
    # Part of ab inside the closed box, as parameters (s0, s1); s0 > s1 when
    # none (Liang-Barsky slab clipping).
    s0 = 0.0
    s1 = 1.0
    for i in range(3):
        ai = a[i]
        ei = b[i] - ai
        if ei == 0.0:
            if ai < lo[i] or ai > hi[i]:
                return 1.0, 0.0
        else:
            t0 = (lo[i] - ai) / ei
            t1 = (hi[i] - ai) / ei
            if t0 > t1:
                t0, t1 = t1, t0
            s0 = max(s0, t0)
            s1 = min(s1, t1)
    return s0, s1


@njit(cache=True)
def _depth(p, lo, hi):
    # Signed distance of p inside the box: the largest of the six face
    # heights lo_i - p_i, p_i - hi_i (<= 0 inside), and which face.
    # Face 2 i is the lower face of axis i, 2 i + 1 the upper one; ties go
    # to the first face.
    best = -math.inf
    face = 0
    for i in range(3):
        below = lo[i] - p[i]
        above = p[i] - hi[i]
        if below > best:
            best = below
            face = 2 * i
        if above > best:
            best = above
            face = 2 * i + 1
    return best, face


@njit(cache=True)
def _face_normal(face):
    # Outward unit normal of face 2 i (lower, -axis i) or 2 i + 1 (upper).
    return cyclic(face // 2, 1.0 if face % 2 == 1 else -1.0, 0.0, 0.0)


@njit(cache=True)
def _edge(lo, hi, k):
    # Box edge k (0..11): 4 parallel to each axis i = k // 4, at the corners
    # of the other two axes given by the bits of k % 4.
    i = k // 4
    j = (i + 1) % 3
    l = (i + 2) % 3
    cj = hi[j] if k & 1 else lo[j]
    cl = hi[l] if k & 2 else lo[l]
    return cyclic(i, lo[i], cj, cl), cyclic(i, hi[i], cj, cl)


@njit(cache=True, inline="always")
def _clamp_box(p, lo, hi):
    # The point of the box nearest p: each coordinate clamped to its slab.
    return (min(max(p[0], lo[0]), hi[0]), min(max(p[1], lo[1]), hi[1]),
            min(max(p[2], lo[2]), hi[2]))


@njit(cache=True, inline="always")
def _outside_distance(a, e, s, lo, hi):
    # Distance from the core point a + s e to the box (0 inside it).
    p = axpy(a, s, e)
    return norm(sub(p, _clamp_box(p, lo, hi)))


@njit(cache=True)
def _gap_boxes(a, b, grow, c, e, d=(0.0, 0.0, 0.0)):
    # Distance between the bounding box of ab (swept by d, grown by grow)
    # and the bounding box of ce: a lower bound on their points' distance.
    total = 0.0
    for i in range(3):
        low = min(a[i], b[i]) + min(d[i], 0.0) - grow
        high = max(a[i], b[i]) + max(d[i], 0.0) + grow
        g = max(min(c[i], e[i]) - high, low - max(c[i], e[i]), 0.0)
        total += g * g
    return math.sqrt(total)


@njit(cache=True)
def _separation_segment_box(a, b, lo, hi):
    # (separation, normal, point on the surface), see separation_capsule_box.
    s0, s1 = _clip_segment_box(a, b, lo, hi)
    e = sub(b, a)
    if s0 <= s1:
        # 1. Inside: the signed distance of a point, max of six linear
        #    functions of s along the core, is convex and piecewise linear;
        #    its least value on [s0, s1] is at an end or where two of the
        #    six lines cross.
        best, _ = _depth(axpy(a, s0, e), lo, hi)
        bs = s0
        depth, _ = _depth(axpy(a, s1, e), lo, hi)
        if depth < best:
            best, bs = depth, s1
        for f in range(6):
            for g in range(f + 1, 6):
                # Face heights h_f(s) = c_f + s m_f; cross where they are equal.
                i = f // 2
                j = g // 2
                sf = 1.0 if f % 2 == 1 else -1.0
                sg = 1.0 if g % 2 == 1 else -1.0
                cf = sf * a[i] - (hi[i] if f % 2 == 1 else -lo[i])
                cg = sg * a[j] - (hi[j] if g % 2 == 1 else -lo[j])
                mf = sf * e[i]
                mg = sg * e[j]
                if mf != mg:
                    s = (cg - cf) / (mf - mg)
                    if s0 < s < s1:
                        depth, _ = _depth(axpy(a, s, e), lo, hi)
                        if depth < best:
                            best, bs = depth, s
        x = axpy(a, bs, e)
        depth, face = _depth(x, lo, hi)
        n = _face_normal(face)
        return depth, n, axpy(x, -depth, n)
    # 2. Outside: the squared distance from the core point a + s e to the
    #    box, sum over axes of (how far p_i(s) is beyond its slab)^2, is
    #    piecewise quadratic in s, with breaks where p_i(s) meets a slab
    #    face. On each piece between breaks (and the ends 0, 1) the axes
    #    beyond their slabs are fixed, and the least value is the piece's
    #    stationary point clamped to it. Every piece is tried (no reliance
    #    on sampled values, which rounding can tie on a tiny piece).
    best_s = 0.0
    best = _outside_distance(a, e, 0.0, lo, hi)
    for k in range(7):
        # Piece k starts at break k (k < 6) or at 0 (k == 6) and runs to
        # the next break after it, or to 1.
        if k < 6:
            i = k // 2
            if e[i] == 0.0:
                continue
            l = ((hi[i] if k % 2 else lo[i]) - a[i]) / e[i]
            if not 0.0 < l < 1.0:
                continue
        else:
            l = 0.0
        r = 1.0
        for j in range(6):
            w = j // 2
            if e[w] != 0.0:
                t = ((hi[w] if j % 2 else lo[w]) - a[w]) / e[w]
                if l < t < r:
                    r = t
        # The axes beyond their slab on this piece (read at its middle) and
        # the quadratic sum over them of (a_i - face_i + s e_i)^2.
        m = axpy(a, 0.5 * (l + r), e)
        num = 0.0
        den = 0.0
        for i in range(3):
            if m[i] < lo[i]:
                num += (a[i] - lo[i]) * e[i]
                den += e[i] * e[i]
            elif m[i] > hi[i]:
                num += (a[i] - hi[i]) * e[i]
                den += e[i] * e[i]
        t = min(max(-num / den, l), r) if den > 0.0 else l
        for candidate in (t, r):
            dist = _outside_distance(a, e, candidate, lo, hi)
            if dist < best:
                best, best_s = dist, candidate
    bx = axpy(a, best_s, e)
    by = _clamp_box(bx, lo, hi)
    n, length = normalize(sub(bx, by))
    if length == 0.0:
        # Outside by the clip, touching by the distance (rounding at a face):
        # the face nearest the end of the core that touches.
        _, face = _depth(bx, lo, hi)
        n = _face_normal(face)
    return best, n, by


@njit(cache=True)
def separation_capsule_box(ax, ay, az, bx, by, bz, minx, miny, minz, maxx, maxy, maxz):
    """Signed distance from the agent core ``ab`` to a solid box's surface.

    Returns ``(separation, nx, ny, nz, qx, qy, qz)``. Outside: the distance
    between the core and the box, the unit normal from the box's nearest
    point ``q`` towards the core (exactly a face's axis over a face).
    Inside or crossing (separation <= 0): minus the depth of the core's
    deepest point, the outward normal of the face nearest that point (the
    face of least penetration; ties to the lower face of x, then upper
    x, lower y, ...) and ``q`` that point's foot on that face.

    Examples
    --------
    An upright capsule core above the unit box, then one reaching into it:

    >>> separation_capsule_box(0.5, 0.5, 3, 0.5, 0.5, 4, 0, 0, 0, 1, 1, 1)
    (2.0, 0.0, 0.0, 1.0, 0.5, 0.5, 1.0)
    >>> separation_capsule_box(0.5, 0.5, 0.75, 0.5, 0.5, 4, 0, 0, 0, 1, 1, 1)[:4]
    (-0.25, 0.0, 0.0, 1.0)
    """
    sep, n, q = _separation_segment_box(vec(ax, ay, az), vec(bx, by, bz),
                                        vec(minx, miny, minz), vec(maxx, maxy, maxz))
    return sep, n[0], n[1], n[2], q[0], q[1], q[2]


@njit(cache=True)
def ray_box(ox, oy, oz, ux, uy, uz, max_distance, minx, miny, minz, maxx, maxy, maxz):
    """First hit of the ray ``o + distance u`` (``u`` unit) on a solid box: the slab test.

    Returns ``(distance, nx, ny, nz)`` with the outward normal of the face
    entered, or ``(inf, 0, 0, 0)`` for a miss or a hit beyond
    ``max_distance`` (Ericson 5.3.3; Kay and Kajiya's slabs). A ray starting
    inside or on the box hits at 0 when it heads inwards through the face of
    least penetration, and misses when it heads out of it.
    """
    o = vec(ox, oy, oz)
    u = vec(ux, uy, uz)
    lo = vec(minx, miny, minz)
    hi = vec(maxx, maxy, maxz)
    depth, face = _depth(o, lo, hi)
    if depth <= 0.0:
        n = _face_normal(face)
        if u[0] * n[0] + u[1] * n[1] + u[2] * n[2] < 0.0:
            return 0.0, n[0], n[1], n[2]
        return math.inf, 0.0, 0.0, 0.0
    enter = 0.0
    leave = max_distance
    face = -1
    for i in range(3):
        if u[i] == 0.0:
            # Parallel to this slab: inside it or never.
            if o[i] < lo[i] or o[i] > hi[i]:
                return math.inf, 0.0, 0.0, 0.0
            continue
        t0 = (lo[i] - o[i]) / u[i]
        t1 = (hi[i] - o[i]) / u[i]
        f0 = 2 * i
        if t0 > t1:
            t0, t1 = t1, t0
            f0 = 2 * i + 1
        if t0 > enter or face < 0 and t0 >= enter:
            enter = t0
            face = f0
        leave = min(leave, t1)
        if enter > leave:
            return math.inf, 0.0, 0.0, 0.0
    if face < 0:
        return math.inf, 0.0, 0.0, 0.0
    n = _face_normal(face)
    return enter, n[0], n[1], n[2]


@njit(cache=True)
def _sweep_capsule_box(a, b, d, radius, lo, hi):
    # (fraction, normal, point); see sweep_capsule_box.
    miss = (math.inf, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    sep, n, q = _separation_segment_box(a, b, lo, hi)
    if sep <= radius:
        if d[0] * n[0] + d[1] * n[1] + d[2] * n[2] < 0.0:
            return 0.0, n, q
        return miss
    # 1. The boxes bounding the agent at the start and at the end must both
    #    miss the box grown by nothing for a miss (a cheap reject).
    for i in range(3):
        low = min(a[i], b[i]) - radius + min(d[i], 0.0)
        high = max(a[i], b[i]) + radius + max(d[i], 0.0)
        if high < lo[i] or low > hi[i]:
            return miss
    best = math.inf
    bn = (0.0, 0.0, 0.0)
    bq = (0.0, 0.0, 0.0)
    # 2. Faces: an end of the core reaches radius over a face's plane,
    #    h(fraction) = h0 + fraction hd, with its foot inside the face.
    for face in range(6):
        i = face // 2
        upper = face % 2 == 1
        s = 1.0 if upper else -1.0
        hd = s * d[i]
        if not hd < 0.0:
            continue
        for p in (a, b):
            h0 = s * p[i] - (hi[i] if upper else -lo[i])
            if h0 >= radius:
                fraction = (radius - h0) / hd
                if fraction < best:
                    foot = axpy(p, fraction, d)
                    j = (i + 1) % 3
                    l = (i + 2) % 3
                    if lo[j] <= foot[j] <= hi[j] and lo[l] <= foot[l] <= hi[l]:
                        fn = _face_normal(face)
                        best, bn = fraction, fn
                        bq = axpy(foot, -(s * foot[i] - (hi[i] if upper else -lo[i])), fn)
    # 3. Edges (and through them the corners), each as a segment.
    for k in range(12):
        c, e = _edge(lo, hi, k)
        # Skip an edge the agent's swept bounding box (grown by the radius) misses.
        if _gap_boxes(a, b, radius, c, e, d) > 0.0:
            continue
        fraction, m, t = _sweep_capsule_segment_outside(a, b, d, radius, c, e)
        if fraction < best:
            best, bn, bq = fraction, m, axpy(c, t, sub(e, c))
    if best > 1.0:
        return miss
    return best, bn, bq


@njit(cache=True)
def sweep_capsule_box(ax, ay, az, bx, by, bz, dx, dy, dz, radius, minx, miny, minz, maxx,
                      maxy, maxz):
    """First contact of the agent (core ``ab``, ``radius``) moving by ``d`` with a solid box.

    Returns ``(fraction, nx, ny, nz, qx, qy, qz)``: the part of ``d``
    travelled (``inf`` for a miss), the unit normal from the box towards the
    agent and the touched point of the box. Analytic and exact up to
    rounding: the earliest of an end of the core reaching a face at
    ``radius`` (linear) and the core reaching one of the twelve edges
    (:func:`.segment.sweep_capsule_segment`), which is how the rounded box
    (faces, edge cylinders, corner balls) is entered. A start touching or
    overlapping hits at 0 moving inwards and misses moving out.
    """
    fraction, n, q = _sweep_capsule_box(vec(ax, ay, az), vec(bx, by, bz), vec(dx, dy, dz),
                                        radius, vec(minx, miny, minz), vec(maxx, maxy, maxz))
    return fraction, n[0], n[1], n[2], q[0], q[1], q[2]
