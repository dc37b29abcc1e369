"""Bounding volumes against each other: containment, intersection, entry distance.

Every volume of :mod:`sidestep.volumes` reaches these kernels packed in one
float64 array (see ``pack_*`` in :mod:`sidestep.volumes.packing`), 2D
volumes lying in the plane ``z = 0``:

* ``[KIND]``: :data:`ROUNDED` (a core segment ``v0 v1`` grown by ``RADIUS``:
  points, segments, spheres, capsules), :data:`RAY` (origin ``v0``, unit
  direction ``v1``) or :data:`POLYTOPE` (boxes and frustums: eight corners,
  corner ``i`` at bits x = ``i & 1``, y = ``i & 2``, z = ``i & 4``, six
  outward planes ``n . p <= d`` and the distinct edge directions).
* ``[FLAT]``: 1 for a 2D volume, whose planes 4 and 5 are ``z <= 0`` and
  ``-z <= 0`` (a disc is not grown across them).

Only three pair families exist, so one canonical order per pair:

* rounded against rounded: the distance between the cores
  (:func:`~sidestep.kernels3d.segment.closest_points_segment_segment`);
* rounded against a polytope: the distance from the core segment to the
  polytope (zero when a separating-axis test finds no gap; otherwise the
  least of its ends against the polytope and its interior against the
  polytope's edges), exact;
* polytope against polytope: the separating-axis test over both sets of face
  normals and every edge-cross-edge axis, exact (not the plane-only test).

A ray is a segment long enough to reach past the other volume. Containment
is exact: inside a polytope, the support of the inner volume along every
face normal; inside a rounded volume, the farthest corner from its core
(distance to a convex set is convex, so a corner is farthest).

Entry distances (:func:`entry_distance`: where a ray or segment first meets
a volume) are closed forms, one per family: a polytope clips the ray by its
planes (:func:`clip_ray_planes`), a rounded volume solves its balls' and
cylinder's quadratics, and what the ray meets only within the tolerance
(a bare point or segment, a graze) is where it passes nearest
(:func:`closest_points_lines`).
"""
import math

import numpy as np
from numba import njit

from ..kernels.row_queue import next_rows
from .segment import _ray_capsule_outside, closest_point_segment, closest_points_segment_segment
from .vector import axpy, cross, dot, norm, normalize, sub, vec

ROUNDED, RAY, POLYTOPE = 0, 1, 2
KIND, FLAT, RADIUS, N_DIRS, VERTS, PLANES, DIRS = 0, 1, 2, 3, 4, 28, 52
PACKED = 52 + 36

DISJOINT, INTERSECTS, CONTAINS = 0, 1, 2

#: Corner index pairs of the twelve edges of a polytope (corners differing in one bit).
EDGES = np.array([[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7],
                  [0, 4], [1, 5], [2, 6], [3, 7]], dtype=np.int64)


@njit(cache=True)
def _n_verts(v):
    return 8 if v[KIND] == POLYTOPE else 2


@njit(cache=True)
def _reach(v, ox, oy, oz):
    # The farthest any point of v lies from o (v bounded).
    far = 0.0
    for i in range(_n_verts(v)):
        k = VERTS + 3 * i
        far = max(far, math.sqrt((v[k] - ox) ** 2 + (v[k + 1] - oy) ** 2 + (v[k + 2] - oz) ** 2))
    return far + v[RADIUS]


@njit(cache=True)
def _bounded(v, other, out):
    # out: v with a ray cut into a segment reaching past ``other``.
    out[:] = v
    if v[KIND] == RAY:
        o = v[VERTS:VERTS + 3]
        if other[KIND] == RAY:
            length = 4.0e12
        else:
            length = 2.0 * _reach(other, o[0], o[1], o[2]) + 1.0
        out[KIND] = ROUNDED
        for j in range(3):
            out[VERTS + 3 + j] = o[j] + length * v[VERTS + 3 + j]


@njit(cache=True)
def unit_axis(ax, ay, az):
    """A separating-axis candidate scaled to unit length: ``(usable, ux, uy, uz)``.

    The cross product of two parallel edges is (near) zero and separates
    nothing: it is not usable.
    """
    ll = ax * ax + ay * ay + az * az
    if ll < 1e-20:
        return False, 0.0, 0.0, 0.0
    s = 1.0 / math.sqrt(ll)
    return True, ax * s, ay * s, az * s


@njit(cache=True)
def interval(v, ax, ay, az):
    """``(lo, hi)``: the extent of packed bounded volume ``v`` along the axis."""
    lo = math.inf
    hi = -math.inf
    for i in range(_n_verts(v)):
        k = VERTS + 3 * i
        s = v[k] * ax + v[k + 1] * ay + v[k + 2] * az
        lo = min(lo, s)
        hi = max(hi, s)
    return lo - v[RADIUS], hi + v[RADIUS]


@njit(cache=True)
def _gap(a, b, ax, ay, az, tol):
    # True when the axis separates a and b by more than tol.
    usable, ax, ay, az = unit_axis(ax, ay, az)
    if not usable:
        return False
    alo, ahi = interval(a, ax, ay, az)
    blo, bhi = interval(b, ax, ay, az)
    return alo > bhi + tol or blo > ahi + tol


@njit(cache=True)
def _separated(a, b, tol):
    """Separating-axis test of two packed volumes (polytopes or radius-0 segments).

    Axes: the face normals of each polytope, then the edge-cross-edge axes (a
    segment's own direction counts as its edge), then a segment's direction
    crossed with the polytope's face normals: a flat polytope (a 2D volume, a
    triangle) has no edge across its plane, and a segment lying in that
    plane beside one of its corners is set apart only by the line along the
    segment, whose normal is that cross product.
    """
    for p in (a, b):
        if p[KIND] == POLYTOPE:
            for j in range(6):
                k = PLANES + 4 * j
                if _gap(a, b, p[k], p[k + 1], p[k + 2], tol):
                    return True
    na = int(a[N_DIRS])
    nb = int(b[N_DIRS])
    for i in range(na):
        ka = DIRS + 3 * i
        for j in range(nb):
            kb = DIRS + 3 * j
            cx = a[ka + 1] * b[kb + 2] - a[ka + 2] * b[kb + 1]
            cy = a[ka + 2] * b[kb] - a[ka] * b[kb + 2]
            cz = a[ka] * b[kb + 1] - a[ka + 1] * b[kb]
            if _gap(a, b, cx, cy, cz, tol):
                return True
    for s, p in ((a, b), (b, a)):
        if s[KIND] != POLYTOPE and p[KIND] == POLYTOPE:
            for i in range(int(s[N_DIRS])):
                ks = DIRS + 3 * i
                for j in range(6):
                    k = PLANES + 4 * j
                    cx = s[ks + 1] * p[k + 2] - s[ks + 2] * p[k + 1]
                    cy = s[ks + 2] * p[k] - s[ks] * p[k + 2]
                    cz = s[ks] * p[k + 1] - s[ks + 1] * p[k]
                    if _gap(a, b, cx, cy, cz, tol):
                        return True
    return False


@njit(cache=True)
def _set_segment_dir(s):
    # A rounded volume's core direction as its one edge direction (none if a point).
    dx = s[VERTS + 3] - s[VERTS]
    dy = s[VERTS + 4] - s[VERTS + 1]
    dz = s[VERTS + 5] - s[VERTS + 2]
    ll = math.sqrt(dx * dx + dy * dy + dz * dz)
    if ll == 0.0:
        s[N_DIRS] = 0.0
    else:
        s[N_DIRS] = 1.0
        s[DIRS], s[DIRS + 1], s[DIRS + 2] = dx / ll, dy / ll, dz / ll


@njit(cache=True, inline="always")
def _height(p, j, px, py, pz):
    # How far the point lies beyond plane j of packed polytope p (< 0 inside).
    k = PLANES + 4 * j
    return p[k] * px + p[k + 1] * py + p[k + 2] * pz - p[k + 3]


@njit(cache=True)
def _foot_inside(p, j, h, px, py, pz, tol):
    # Whether the point's foot on plane j (h beyond it) lies inside the other planes.
    k = PLANES + 4 * j
    fx, fy, fz = px - h * p[k], py - h * p[k + 1], pz - h * p[k + 2]
    for i in range(6):
        if i != j and _height(p, i, fx, fy, fz) > tol:
            return False
    return True


@njit(cache=True)
def distance_point_polytope(px, py, pz, p, tol):
    """Distance from a point to a packed polytope (0 inside), exact.

    The nearest point lies on a face the point is outside of (its normal is a
    positive mix of the normals of the faces meeting there, not all of which
    can face away): inside that face, when the point's foot on its plane lies
    in the polytope (then the distance is that height, and no edge is nearer),
    or else on one of the edges. (The heights are written out plane by
    plane: culling calls this for every sphere straddling a frustum's plane.)
    """
    h0 = _height(p, 0, px, py, pz)
    h1 = _height(p, 1, px, py, pz)
    h2 = _height(p, 2, px, py, pz)
    h3 = _height(p, 3, px, py, pz)
    h4 = _height(p, 4, px, py, pz)
    h5 = _height(p, 5, px, py, pz)
    if not (h0 > 0.0 or h1 > 0.0 or h2 > 0.0 or h3 > 0.0 or h4 > 0.0 or h5 > 0.0):
        return 0.0
    if h0 > 0.0 and _foot_inside(p, 0, h0, px, py, pz, tol):
        return h0
    if h1 > 0.0 and _foot_inside(p, 1, h1, px, py, pz, tol):
        return h1
    if h2 > 0.0 and _foot_inside(p, 2, h2, px, py, pz, tol):
        return h2
    if h3 > 0.0 and _foot_inside(p, 3, h3, px, py, pz, tol):
        return h3
    if h4 > 0.0 and _foot_inside(p, 4, h4, px, py, pz, tol):
        return h4
    if h5 > 0.0 and _foot_inside(p, 5, h5, px, py, pz, tol):
        return h5
    best = math.inf
    for e in range(12):
        ka = VERTS + 3 * EDGES[e, 0]
        kb = VERTS + 3 * EDGES[e, 1]
        _, qx, qy, qz = closest_point_segment(px, py, pz, p[ka], p[ka + 1], p[ka + 2],
                                              p[kb], p[kb + 1], p[kb + 2])
        best = min(best, math.sqrt((qx - px) ** 2 + (qy - py) ** 2 + (qz - pz) ** 2))
    return best


@njit(cache=True)
def distance_segment_polytope(s, p, tol):
    """Distance from the core segment of a packed rounded volume to a polytope, exact."""
    if s[N_DIRS] == 0.0:
        return distance_point_polytope(s[VERTS], s[VERTS + 1], s[VERTS + 2], p, tol)
    r = s[RADIUS]
    s[RADIUS] = 0.0
    apart = _separated(s, p, 0.0)
    s[RADIUS] = r
    if not apart:
        return 0.0
    best = min(distance_point_polytope(s[VERTS], s[VERTS + 1], s[VERTS + 2], p, tol),
               distance_point_polytope(s[VERTS + 3], s[VERTS + 4], s[VERTS + 5], p, tol))
    for e in range(12):
        ka = VERTS + 3 * EDGES[e, 0]
        kb = VERTS + 3 * EDGES[e, 1]
        _, _, xx, xy, xz, yx, yy, yz = closest_points_segment_segment(
            s[VERTS], s[VERTS + 1], s[VERTS + 2], s[VERTS + 3], s[VERTS + 4], s[VERTS + 5],
            p[ka], p[ka + 1], p[ka + 2], p[kb], p[kb + 1], p[kb + 2])
        best = min(best, math.sqrt((xx - yx) ** 2 + (xy - yy) ** 2 + (xz - yz) ** 2))
    return best


@njit(cache=True)
def middle_inside(p, sx, sy, sz):
    """Whether the point ``0.5 * s`` lies inside every plane of packed polytope ``p``.

    ``s`` is the sum of two corners of another convex volume, so that point
    is one of its own: inside both, it shows the two intersect.
    """
    mx, my, mz = 0.5 * sx, 0.5 * sy, 0.5 * sz
    for j in range(6):
        k = PLANES + 4 * j
        if p[k] * mx + p[k + 1] * my + p[k + 2] * mz - p[k + 3] > 0.0:
            return False
    return True


@njit(cache=True)
def _intersects_bounded(a, b, tol):
    # a, b: rays already cut to segments, rounded cores' directions set.
    if a[KIND] == POLYTOPE and b[KIND] == POLYTOPE:
        # A shared point settles it without the axes: either one's middle
        # (the midpoint of its corners 0 and 7) inside the other's planes.
        if middle_inside(a, b[VERTS] + b[VERTS + 21], b[VERTS + 1] + b[VERTS + 22],
                         b[VERTS + 2] + b[VERTS + 23]):
            return True
        if middle_inside(b, a[VERTS] + a[VERTS + 21], a[VERTS + 1] + a[VERTS + 22],
                         a[VERTS + 2] + a[VERTS + 23]):
            return True
        return not _separated(a, b, tol)
    if a[KIND] == POLYTOPE:
        a, b = b, a
    if b[KIND] == POLYTOPE:
        # Quick exact rejection: both core ends beyond one face by more than the radius.
        for j in range(6):
            k = PLANES + 4 * j
            h0 = b[k] * a[VERTS] + b[k + 1] * a[VERTS + 1] + b[k + 2] * a[VERTS + 2] - b[k + 3]
            h1 = b[k] * a[VERTS + 3] + b[k + 1] * a[VERTS + 4] + b[k + 2] * a[VERTS + 5] - b[k + 3]
            if min(h0, h1) > a[RADIUS] + tol:
                return False
        return distance_segment_polytope(a, b, tol) <= a[RADIUS] + tol
    _, _, xx, xy, xz, yx, yy, yz = closest_points_segment_segment(
        a[VERTS], a[VERTS + 1], a[VERTS + 2], a[VERTS + 3], a[VERTS + 4], a[VERTS + 5],
        b[VERTS], b[VERTS + 1], b[VERTS + 2], b[VERTS + 3], b[VERTS + 4], b[VERTS + 5])
    d = math.sqrt((xx - yx) ** 2 + (xy - yy) ** 2 + (xz - yz) ** 2)
    return d <= a[RADIUS] + b[RADIUS] + tol


@njit(cache=True)
def intersects(a, b, tol, work):
    """True when packed volumes ``a`` and ``b`` share a point (touching counts).

    ``work`` is a ``(2, PACKED)`` float64 scratch array.
    """
    _bounded(a, b, work[0])
    _bounded(b, a, work[1])
    for w in (work[0], work[1]):
        if w[KIND] == ROUNDED:
            _set_segment_dir(w)
    return _intersects_bounded(work[0], work[1], tol)


@njit(cache=True)
def _inside_rounded(a, b, tol):
    # b (bounded) inside rounded a: its farthest corner from a's core, grown by b's radius.
    far = 0.0
    for i in range(_n_verts(b)):
        k = VERTS + 3 * i
        _, qx, qy, qz = closest_point_segment(b[k], b[k + 1], b[k + 2],
                                              a[VERTS], a[VERTS + 1], a[VERTS + 2],
                                              a[VERTS + 3], a[VERTS + 4], a[VERTS + 5])
        far = max(far, math.sqrt((qx - b[k]) ** 2 + (qy - b[k + 1]) ** 2 + (qz - b[k + 2]) ** 2))
    return far + b[RADIUS] <= a[RADIUS] + tol


@njit(cache=True)
def _inside_polytope(a, b, tol):
    # b (bounded) inside polytope a: b's support along every face normal.
    faces = 4 if a[FLAT] == 1.0 else 6
    for j in range(faces):
        k = PLANES + 4 * j
        for i in range(_n_verts(b)):
            m = VERTS + 3 * i
            # The height of the corner above the plane against the slack
            # left by the radius (the batch path of culling compares the same).
            if a[k] * b[m] + a[k + 1] * b[m + 1] + a[k + 2] * b[m + 2] - a[k + 3] > tol - b[RADIUS]:
                return False
    return True


@njit(cache=True)
def contains(a, b, tol, work):
    """The state of packed ``b`` against packed ``a``: DISJOINT, INTERSECTS or CONTAINS.

    CONTAINS when every point of ``b`` lies in ``a`` (closed volumes: on the
    boundary counts, within ``tol``).
    """
    if a[KIND] == POLYTOPE and b[KIND] != RAY:
        # The common culling answer first: b wholly beyond one face of a.
        for j in range(6):
            k = PLANES + 4 * j
            lo = math.inf
            for i in range(_n_verts(b)):
                m = VERTS + 3 * i
                lo = min(lo, a[k] * b[m] + a[k + 1] * b[m + 1] + a[k + 2] * b[m + 2])
            if lo - a[k + 3] > b[RADIUS] + tol:
                return DISJOINT
    if b[KIND] == RAY:
        # Only a ray holds a ray: same direction, its origin on the outer ray.
        if a[KIND] == RAY:
            along = (a[VERTS + 3] * b[VERTS + 3] + a[VERTS + 4] * b[VERTS + 4]
                     + a[VERTS + 5] * b[VERTS + 5])
            t = max(0.0, (b[VERTS] - a[VERTS]) * a[VERTS + 3] + (b[VERTS + 1] - a[VERTS + 1])
                    * a[VERTS + 4] + (b[VERTS + 2] - a[VERTS + 2]) * a[VERTS + 5])
            off = math.sqrt((a[VERTS] + t * a[VERTS + 3] - b[VERTS]) ** 2
                            + (a[VERTS + 1] + t * a[VERTS + 4] - b[VERTS + 1]) ** 2
                            + (a[VERTS + 2] + t * a[VERTS + 5] - b[VERTS + 2]) ** 2)
            if along >= 1.0 - 1e-12 and off <= tol:
                return CONTAINS
    else:
        if a[KIND] == POLYTOPE:
            inside = _inside_polytope(a, b, tol)
        else:
            _bounded(a, b, work[0])
            inside = _inside_rounded(work[0], b, tol)
        if inside:
            return CONTAINS
    return INTERSECTS if intersects(a, b, tol, work) else DISJOINT


@njit(cache=True)
def contains_pair(a, b, tol, work):
    """:func:`contains`, called from Python (``Volume.contains``).

    Kernels call :func:`contains` itself, for the array types they hold; this
    entry is compiled for the read-only rows volumes keep, once.
    """
    return contains(a, b, tol, work)


@njit(cache=True)
def intersects_pair(a, b, tol, work):
    """:func:`intersects`, called from Python (``Volume.intersects``); see :func:`contains_pair`."""
    return intersects(a, b, tol, work)


@njit(cache=True, inline="always")
def _clamp(x, lo, hi):
    return min(max(x, lo), hi)


@njit(cache=True)
def closest_points_lines(o, u, l1, a, w, l2):
    """Closest points of two segments or rays given by a start, a unit direction and a length.

    ``x = o + s u`` with ``0 <= s <= l1`` and ``y = a + t w`` with
    ``0 <= t <= l2``; a length may be ``inf`` (a ray) or 0 (a point, whose
    direction is then ignored). Returns ``(s, t, |x - y|)``, ``s`` and ``t``
    in length units. Where the closest pair is not unique (parallel, or
    overlapping along one line) ``s`` is the least.
    """
    # Ericson 5.1.9 with |u| = |w| = 1 (a = e = 1), written in lengths rather
    # than fractions, so a ray needs no far end: s = (b f - c) / (1 - b^2),
    # then t = b s + f, each clamped and the other recomputed.
    r = sub(o, a)
    b = dot(u, w)
    c = dot(u, r)
    f = dot(w, r)
    if l2 == 0.0:
        s = _clamp(-c, 0.0, l1)
        t = 0.0
    elif l1 == 0.0:
        s = 0.0
        t = _clamp(f, 0.0, l2)
    else:
        # 1 - b^2 as |u x w|^2 (Lagrange's identity): the difference rounds
        # to 0 for lines a few 1e-8 rad from parallel.
        m = cross(u, w)
        denom = dot(m, m)
        s = _clamp((b * f - c) / denom, 0.0, l1) if denom > 0.0 else 0.0
        t = b * s + f
        if t < 0.0:
            t = 0.0
            s = _clamp(-c, 0.0, l1)
        elif t > l2:
            t = l2
            s = _clamp(b * l2 - c, 0.0, l1)
    return s, t, norm(sub(axpy(o, s, u), axpy(a, t, w)))


@njit(cache=True)
def clip_ray_planes(p, ox, oy, oz, ux, uy, uz, length, grow):
    """``(enter, leave)``: the part ``enter <= t <= leave`` of ``o + t u``, ``0 <= t <= length``,
    inside the six planes of packed polytope ``p`` moved out by ``grow``.

    ``enter > leave`` when no part is inside. Cyrus-Beck clipping (Ericson
    5.3.8): plane ``n . x <= d + grow`` holds the points where
    ``h + t (n . u) <= 0``, ``h`` the start's height above it, so a plane
    the ray heads into (``n . u < 0``) starts the part at ``t = -h / (n . u)``,
    one it heads out of ends it there, and one it runs along holds all of
    it or none. A box's planes are axis-aligned, where this is the slab test
    of :func:`~sidestep.kernels3d.box.ray_box` bit for bit
    (``-(o_x - hi) / u_x`` is ``(hi - o_x) / u_x``).
    """
    enter = 0.0
    leave = length
    for j in range(6):
        k = PLANES + 4 * j
        h = p[k] * ox + p[k + 1] * oy + p[k + 2] * oz - p[k + 3] - grow
        den = p[k] * ux + p[k + 1] * uy + p[k + 2] * uz
        if den < 0.0:
            enter = max(enter, -h / den)
        elif den > 0.0:
            leave = min(leave, -h / den)
        elif h > 0.0:
            return math.inf, -math.inf
    return enter, leave


@njit(cache=True)
def _touches(ox, oy, oz, ux, uy, uz, length, b, tol):
    # intersects() of b and the ray (the segment, for a finite length).
    r = np.zeros(PACKED)
    r[FLAT] = b[FLAT]
    r[VERTS], r[VERTS + 1], r[VERTS + 2] = ox, oy, oz
    if length == math.inf:
        r[KIND] = RAY
        r[VERTS + 3], r[VERTS + 4], r[VERTS + 5] = ux, uy, uz
    else:
        r[KIND] = ROUNDED
        r[VERTS + 3], r[VERTS + 4], r[VERTS + 5] = ox + length * ux, oy + length * uy, \
            oz + length * uz
    return intersects(r, b, tol, np.empty((2, PACKED)))


@njit(cache=True)
def _entry_polytope(ox, oy, oz, ux, uy, uz, length, p, tol):
    # See entry_distance.
    enter, leave = clip_ray_planes(p, ox, oy, oz, ux, uy, uz, length, 0.0)
    if enter == 0.0 and leave >= 0.0:
        return 0.0
    # 1. A start outside by at most tol touches (as Point(start) would): only
    # possible when no plane has it higher than tol, which settles most rays.
    high = -math.inf
    for j in range(6):
        high = max(high, _height(p, j, ox, oy, oz))
    if high <= tol and distance_point_polytope(ox, oy, oz, p, tol) <= tol:
        return 0.0
    # 2. The exact entry.
    if enter <= leave:
        return enter
    # 3. A graze: the ray misses the polytope but comes within tol of it
    # (along a face, past an edge; rounding leaves a ray meant to lie in a
    # slanted face a hair outside it). It touches where it enters the
    # planes moved out by tol; intersects() has the last word, so that
    # distance_along misses exactly when intersects says they are apart.
    enter, leave = clip_ray_planes(p, ox, oy, oz, ux, uy, uz, length, tol)
    if enter <= leave and _touches(ox, oy, oz, ux, uy, uz, length, p, tol):
        return enter
    return -1.0


@njit(cache=True)
def _entry_rounded(ox, oy, oz, ux, uy, uz, length, b, tol):
    # See entry_distance. b's core: from a along unit w for reach (inf for a ray).
    o = vec(ox, oy, oz)
    u = vec(ux, uy, uz)
    a = vec(b[VERTS], b[VERTS + 1], b[VERTS + 2])
    e = vec(b[VERTS + 3], b[VERTS + 4], b[VERTS + 5])
    radius = b[RADIUS]
    if b[KIND] == RAY:
        w, reach = e, math.inf
    else:
        w, reach = normalize(sub(e, a))
    # 1. A start within radius + tol of the core touches.
    if closest_points_lines(o, u, 0.0, a, w, reach)[2] <= radius + tol:
        return 0.0
    # 2. The exact entry: the first root of the infinite cylinder's quadratic
    # between the ends, or of either end ball's (Ericson 5.3.7).
    if radius > 0.0:
        distance, _, _ = _ray_capsule_outside(o, u, length, a, e, radius)
        if distance < math.inf:
            return distance
    # 3. No entry: the ray touches where it passes nearest, if within tol (a
    # graze; or a bare point, segment or ray, met only within tol).
    s, _, gap = closest_points_lines(o, u, length, a, w, reach)
    return s if gap <= radius + tol else -1.0


@njit(cache=True)
def entry_distance(ox, oy, oz, ux, uy, uz, length, b, tol):
    """The least ``t`` in ``[0, length]`` at which ``o + t u`` (``u`` unit) meets packed ``b``.

    -1 on a miss. Closed forms, no search:

    * a start that touches ``b`` (within ``tol``, as ``Point(o)`` would): 0;
    * a polytope (box, frustum, wedge): :func:`clip_ray_planes`, the largest
      entering and smallest leaving parameter over its planes;
    * a rounded volume (sphere, capsule): the first root of the ball's or
      the cylinder's quadratic
      (:func:`~sidestep.kernels3d.segment._ray_capsule_outside`);
    * touching only within ``tol`` (a graze, or a point, segment or ray,
      which have no inside to enter): where the ray comes nearest a rounded
      volume (:func:`closest_points_lines`), where it enters a polytope's
      planes moved out by ``tol``.

    So the answer is the exact entry (to a few ulps, not short by ``tol``),
    and it is -1 exactly when :func:`intersects` says the two are apart (up
    to rounding at the edge of the tolerance). ``u = 0`` with ``length = 0``
    is a point: 0 or -1.
    """
    if b[KIND] == POLYTOPE:
        return _entry_polytope(ox, oy, oz, ux, uy, uz, length, b, tol)
    return _entry_rounded(ox, oy, oz, ux, uy, uz, length, b, tol)


@njit(cache=True)
def unit_direction(x, y, z):
    """``(ux, uy, uz)``: the vector scaled to unit length (zeros for zeros).

    What a :class:`~sidestep.volumes.Ray` stores and what
    :func:`distances_rows` makes of each row, so the two agree to the bit
    (:func:`~sidestep.kernels3d.vector.normalize`: no underflow for short vectors).
    """
    u, _ = normalize(vec(x, y, z))
    return u[0], u[1], u[2]


@njit(cache=True)
def distance_along(r, b, tol):
    """:func:`entry_distance` of packed ray or segment ``r`` into packed ``b``; -1 on a miss.

    Called from Python (``Ray.distance_along``, ``Segment.distance_along``).
    A segment runs from its start towards its end, for its length.
    """
    ox, oy, oz = r[VERTS], r[VERTS + 1], r[VERTS + 2]
    if r[KIND] == RAY:
        return entry_distance(ox, oy, oz, r[VERTS + 3], r[VERTS + 4], r[VERTS + 5], math.inf,
                              b, tol)
    u, length = normalize(vec(r[VERTS + 3] - ox, r[VERTS + 4] - oy, r[VERTS + 5] - oz))
    return entry_distance(ox, oy, oz, u[0], u[1], u[2], length, b, tol)


@njit(cache=True, nogil=True)
def distances_rows(b, origins, directions, max_distance, tol, out, queue):
    """:func:`entry_distance` into packed ``b`` of each ray, ``out (n,)``, inf on a miss.

    ``origins, directions (n, 2|3)`` (``z = 0`` in 2D), each direction scaled
    to unit length by :func:`unit_direction`; ``max_distance (n,)`` or
    ``(1,)`` for every ray (inf allowed). A zero direction is answered NaN
    (the Python side then names the row).
    """
    dim = origins.shape[1]
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            return
        for i in range(first, stop):
            oz = origins[i, 2] if dim == 3 else 0.0
            ux, uy, uz = unit_direction(directions[i, 0], directions[i, 1],
                                        directions[i, 2] if dim == 3 else 0.0)
            if ux == 0.0 and uy == 0.0 and uz == 0.0:
                out[i] = math.nan
                continue
            length = max_distance[i if max_distance.shape[0] > 1 else 0]
            d = entry_distance(origins[i, 0], origins[i, 1], oz, ux, uy, uz, length, b, tol)
            out[i] = d if d >= 0.0 else math.inf


@njit(cache=True, nogil=True)
def contains_rows(a, items, tol, out, queue):
    """:func:`contains` of packed ``a`` against each packed row of ``items`` (n, PACKED)."""
    work = np.empty((2, PACKED))
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            return
        for i in range(first, stop):
            out[i] = contains(a, items[i], tol, work)


@njit(cache=True)
def _det3(a, b, c):
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0]))


@njit(cache=True)
def _ball_through(p, idx, count):
    # The smallest ball with points p[idx[:count]] on its boundary (count 1 to 4).
    a = p[idx[0]]
    if count == 1:
        return a[0], a[1], a[2], 0.0
    b = p[idx[1]] - a
    if count == 2:
        return (a[0] + 0.5 * b[0], a[1] + 0.5 * b[1], a[2] + 0.5 * b[2],
                0.5 * math.sqrt(b[0] ** 2 + b[1] ** 2 + b[2] ** 2))
    c = p[idx[2]] - a
    m = np.empty((3, 3))
    rhs = np.empty(3)
    m[0], rhs[0] = b, 0.5 * (b[0] ** 2 + b[1] ** 2 + b[2] ** 2)
    m[1], rhs[1] = c, 0.5 * (c[0] ** 2 + c[1] ** 2 + c[2] ** 2)
    if count == 3:
        # The centre lies in the plane of the three points.
        m[2] = np.array([b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2],
                         b[0] * c[1] - b[1] * c[0]])
        rhs[2] = 0.0
    else:
        d = p[idx[3]] - a
        m[2], rhs[2] = d, 0.5 * (d[0] ** 2 + d[1] ** 2 + d[2] ** 2)
    det = _det3(m[0], m[1], m[2])
    if abs(det) <= 1e-300:
        return math.nan, 0.0, 0.0, -1.0
    x = np.empty(3)
    for j in range(3):                      # Cramer's rule
        col = m.copy()
        col[:, j] = rhs
        x[j] = _det3(col[0], col[1], col[2]) / det
    return a[0] + x[0], a[1] + x[1], a[2] + x[2], math.sqrt(x[0] ** 2 + x[1] ** 2 + x[2] ** 2)


@njit(cache=True)
def _outside(p, cx, cy, cz, r):
    d = math.sqrt((p[0] - cx) ** 2 + (p[1] - cy) ** 2 + (p[2] - cz) ** 2)
    return d > r * (1.0 + 1e-12) + 1e-12


@njit(cache=True)
def enclosing_sphere(points, flat):
    """The smallest ball holding ``points (n, 3)`` (a disc in ``z = 0`` when ``flat``).

    Welzl's algorithm in its iterative form (the points in the caller's
    shuffled order; each point found outside restarts the scan with it on the
    boundary, up to four boundary points, three when flat): expected linear
    time, exact up to rounding. Returns ``(cx, cy, cz, r)``.
    """
    n = points.shape[0]
    idx = np.zeros(4, dtype=np.int64)
    levels = 3 if flat else 4
    cx, cy, cz, r = points[0, 0], points[0, 1], points[0, 2], 0.0
    for i in range(1, n):
        if not _outside(points[i], cx, cy, cz, r):
            continue
        idx[0] = i
        cx, cy, cz, r = _ball_through(points, idx, 1)
        for j in range(i):
            if not _outside(points[j], cx, cy, cz, r):
                continue
            idx[1] = j
            cx, cy, cz, r = _ball_through(points, idx, 2)
            if levels < 3:
                continue
            for k in range(j):
                if not _outside(points[k], cx, cy, cz, r):
                    continue
                idx[2] = k
                nx, ny, nz, nr = _ball_through(points, idx, 3)
                if nr >= 0.0:
                    cx, cy, cz, r = nx, ny, nz, nr
                if levels < 4:
                    continue
                for m in range(k):
                    if not _outside(points[m], cx, cy, cz, r):
                        continue
                    idx[3] = m
                    nx, ny, nz, nr = _ball_through(points, idx, 4)
                    if nr >= 0.0:
                        cx, cy, cz, r = nx, ny, nz, nr
    return cx, cy, cz, r
