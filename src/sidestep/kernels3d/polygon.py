"""Planar panels, convex or concave, either winding: the panel article's obstacles.

A panel is a planar polygon of ``count`` vertices. Its vertices are read
through an index list, so panels and triangle meshes share every kernel (a
triangle is a 3-vertex panel): vertex ``i`` of a panel is
``vertices[loop[first + i]]``, with ``vertices (N, 3) float64`` and
``loop (M,) int64`` (for a mesh, ``loop`` is its ``(m, 3)`` triangle array
flattened and triangle ``k`` starts at ``first = 3 k``). Edge ``i`` runs from
vertex ``i`` to vertex ``i + 1`` (the last one back to vertex 0).

Every kernel takes the panel's unit normal ``n`` (``newell_normal_polygon``,
computed once when the panel is added): the vertices run counter-clockwise
seen from the side ``n`` points to, its **front**. A ``front_only`` panel
blocks only from the front, as the article culls back faces and as glTF
winds its triangles.

Panels are thin surfaces: their separation is a distance (>= 0). The
article's ray/plane intercept is :func:`ray_polygon`; its same-sign inside
test is :func:`inside_convex_polygon`, kept for the article's convex panels,
while the kernels use the crossing test :func:`contains_point_polygon`,
which also holds for concave outlines.

Triangle meshes also pass ``edge_flags``: bit ``i`` set when edge ``i`` is
active (a real crease or a border, see :mod:`.mesh`); a contact on an
inactive edge, or on a vertex both of whose edges in this panel are
inactive, reports the face normal, so an agent sliding across the shared
edge of two coplanar triangles never bumps. ``edge_flags = -1`` (every bit
set) makes every edge active, as for a lone panel.
"""
import math

import numpy as np
from numba import njit

from ..kernels.polygon import first_crossing_polygon
from .segment import (_closest_point_segment, _closest_points_segments, _edge_normal,
                      _sweep_capsule_segment_outside)
from .vector import add, axpy, cross, dot, neg, norm, same, scale, sub, vec

#: Every edge active: the ``edge_flags`` of a lone panel.
ALL_EDGES = -1

#: A sweep that starts this many units in the last place of the coordinates
#: beyond the reach still counts as starting within it (judged by the motion).
START_ULPS = 16.0

# Which feature of a panel is nearest: its face (inside the outline) or an edge.
_FACE = -1


@njit(cache=True, inline="always")
def _vertex(vertices, loop, first, i):
    k = loop[first + i]
    return (vertices[k, 0], vertices[k, 1], vertices[k, 2])


@njit(cache=True, inline="always")
def _edge_active(edge_flags, i):
    return edge_flags < 0 or (edge_flags >> i) & 1 == 1


@njit(cache=True)
def newell_normal_polygon(vertices, loop, first, count):
    """Unit normal and area of a panel by Newell's method.

    Returns ``(nx, ny, nz, area)``. The normal points to the side from which
    the vertices run counter-clockwise; for a non-planar outline it is the
    normal of the best-fitting plane (Newell; Sutherland et al. 1974). The
    sums run on vertices relative to vertex 0, so a panel far from the origin
    keeps its digits. A degenerate outline (zero area) gives ``(0, 0, 0, 0)``.
    """
    p0 = _vertex(vertices, loop, first, 0)
    nx = 0.0
    ny = 0.0
    nz = 0.0
    for i in range(count):
        p = sub(_vertex(vertices, loop, first, i), p0)
        q = sub(_vertex(vertices, loop, first, (i + 1) % count), p0)
        nx += (p[1] - q[1]) * (p[2] + q[2])
        ny += (p[2] - q[2]) * (p[0] + q[0])
        nz += (p[0] - q[0]) * (p[1] + q[1])
    length = math.sqrt(nx * nx + ny * ny + nz * nz)
    if length == 0.0:
        return 0.0, 0.0, 0.0, 0.0
    return nx / length, ny / length, nz / length, 0.5 * length


@njit(cache=True)
def planarity_polygon(vertices, loop, first, count):
    """How far a panel is from flat: the largest distance of a vertex from its best-fit plane.

    The plane is Newell's (:func:`newell_normal_polygon`) through the
    vertices' centroid (Ericson, Real-Time Collision Detection 12.4.1).
    Returns a length in world units (0 for a flat panel; ``inf`` for a
    degenerate one, which has no plane).
    """
    nx, ny, nz, area = newell_normal_polygon(vertices, loop, first, count)
    if area == 0.0:
        return math.inf
    n = (nx, ny, nz)
    p0 = _vertex(vertices, loop, first, 0)
    centre = 0.0
    for i in range(count):
        centre += dot(sub(_vertex(vertices, loop, first, i), p0), n)
    centre /= count
    worst = 0.0
    for i in range(count):
        worst = max(worst, abs(dot(sub(_vertex(vertices, loop, first, i), p0), n) - centre))
    return worst


@njit(cache=True, inline="always")
def _drop_axis(nx, ny, nz):
    # The two coordinates kept when a panel is projected along its dominant
    # normal axis: the projection is then one-to-one and shrinks no direction
    # by more than 1/sqrt(3).
    ax = abs(nx)
    ay = abs(ny)
    az = abs(nz)
    if ax >= ay and ax >= az:
        return 1, 2
    if ay >= az:
        return 2, 0
    return 0, 1


@njit(cache=True)
def first_crossing_panel(vertices, loop, first, count, nx, ny, nz):
    """First pair of edges of a planar panel's outline that cross or touch, or (-1, -1).

    The outline is projected along the dominant axis of its normal and
    tested by the 2D kernel
    :func:`sidestep.kernels.polygon.first_crossing_polygon` (O(count^2),
    once when a panel is added).
    """
    i0, i1 = _drop_axis(nx, ny, nz)
    flat = np.empty((count, 2))
    p0 = _vertex(vertices, loop, first, 0)
    for i in range(count):
        p = sub(_vertex(vertices, loop, first, i), p0)
        flat[i, 0] = p[i0]
        flat[i, 1] = p[i1]
    return first_crossing_polygon(flat)


@njit(cache=True)
def _crosses(px, py, xi, yi, xj, yj):
    # One step of Franklin's PNPOLY: whether the edge (xi, yi)-(xj, yj)
    # crosses the ray from (px, py) towards +x. The edge's x at height py is
    # computed from its lower end whichever way round the edge is given, so
    # two panels sharing the edge (each running it the other way) round it
    # alike and a point on it is inside exactly one of them: without that, a
    # ray through the shared diagonal of two triangles slipped between them
    # (1 of 500 slanted rays, a test borrowed from a watertight-test study).
    if yi > yj:
        xi, yi, xj, yj = xj, yj, xi, yi
    return (yi > py) != (yj > py) and px < xi + (py - yi) * (xj - xi) / (yj - yi)


@njit(cache=True)
def _contains(p, vertices, loop, first, count, n):
    # Even-odd crossing test (Franklin's PNPOLY) in the projection along the
    # dominant axis of n: concave outlines and either winding alike.
    i0, i1 = _drop_axis(n[0], n[1], n[2])
    px = p[i0]
    py = p[i1]
    inside = False
    j = count - 1
    for i in range(count):
        vi = _vertex(vertices, loop, first, i)
        vj = _vertex(vertices, loop, first, j)
        if _crosses(px, py, vi[i0], vi[i1], vj[i0], vj[i1]):
            inside = not inside
        j = i
    return inside


@njit(cache=True)
def contains_point_polygon(px, py, pz, vertices, loop, first, count, nx, ny, nz):
    """Whether the foot of ``p`` on the panel's plane lies inside its outline.

    Even-odd crossing test in the projection along the dominant axis of the
    normal: correct for concave panels and for either winding (the article's
    same-sign test, :func:`inside_convex_polygon`, needs convex panels).
    """
    return _contains(vec(px, py, pz), vertices, loop, first, count, vec(nx, ny, nz))


@njit(cache=True)
def inside_convex_polygon(px, py, pz, vertices, loop, first, count, nx, ny, nz):
    """The panel article's inside test: ``p`` (on the plane) inside a convex panel.

    For each edge ``AB`` the normal ``(A - p) x (B - p)`` is compared with the
    panel normal ``n``; ``p`` is inside when every product ``n . ((A - p) x
    (B - p))`` has the same sign (the article's angles "of the same sign"),
    so clockwise and counter-clockwise panels both work, and ``n`` need not
    be unit length (the article's square-root-free variant). Points on the
    outline count as inside. Holds for convex panels only.
    """
    p = vec(px, py, pz)
    n = vec(nx, ny, nz)
    positive = False
    negative = False
    for i in range(count):
        a = sub(_vertex(vertices, loop, first, i), p)
        b = sub(_vertex(vertices, loop, first, (i + 1) % count), p)
        # n . (a x b) as a triple product.
        s = (n[0] * (a[1] * b[2] - a[2] * b[1]) + n[1] * (a[2] * b[0] - a[0] * b[2])
             + n[2] * (a[0] * b[1] - a[1] * b[0]))
        if s > 0.0:
            positive = True
        elif s < 0.0:
            negative = True
    return not (positive and negative)


@njit(cache=True)
def _intercept(o, u, v0, n, max_distance, front_only):
    # The article's ray/plane intercept: the distance to the plane through v0
    # with normal n, or inf where the article culls the panel.
    nu = dot(n, u)
    # n . v == 0: the ray runs along the plane, no intercept.
    if nu == 0.0:
        return math.inf, nu
    # n . v > 0: the panel faces away from the viewer (back-face culling).
    if front_only and nu > 0.0:
        return math.inf, nu
    # Range R = (P0 - P) . n / (n . v), with P0 any vertex (the article's
    # D = -n . P0 substituted into n . (P + R v) + D = 0).
    distance = dot(sub(v0, o), n) / nu
    # R < 0: the panel is behind the viewer.
    if distance < 0.0 or distance > max_distance:
        return math.inf, nu
    return distance, nu


@njit(cache=True)
def _ray_polygon(o, u, max_distance, vertices, loop, first, count, n, front_only):
    # The article's ray/plane intercept: (distance, normal facing the origin).
    distance, nu = _intercept(o, u, _vertex(vertices, loop, first, 0), n, max_distance,
                              front_only)
    if distance == math.inf or \
            not _contains(axpy(o, distance, u), vertices, loop, first, count, n):
        return math.inf, (0.0, 0.0, 0.0)
    return distance, (n if nu < 0.0 else neg(n))


#: Columns of a triangle row (:func:`ray_triangle`): the corners, the unit
#: normal and 1.0 when only the front blocks; a caller may keep more columns
#: after these (the world keeps the triangle's obstacle and part).
TRIANGLE_ROW = 13


@njit(cache=True)
def ray_triangle(ox, oy, oz, ux, uy, uz, max_distance, rows, k, front_only):
    """:func:`ray_polygon` for a triangle stored as row ``k`` of ``rows (m, >= 13)``.

    A row holds the corners ``a, b, c`` (columns 0-8, counter-clockwise seen
    from the front), the unit normal (9-11) and the front-only flag (12), so
    a ray reads one contiguous row instead of a panel's corner indices and
    its vertices: what a ray through a big mesh spends its time on. The same
    intercept and inside test as :func:`ray_polygon` on that triangle, so the
    answer is the same, bit for bit. ``front_only`` culls the back face.

    Examples
    --------
    >>> import numpy as np
    >>> row = np.array([[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0]], float)
    >>> ray_triangle(0.2, 0.2, 2, 0, 0, -1, 10, row, 0, True)
    (2.0, 0.0, 0.0, 1.0)
    >>> ray_triangle(0.8, 0.8, 2, 0, 0, -1, 10, row, 0, True)[0]    # beside it
    inf
    """
    o = (ox, oy, oz)
    u = (ux, uy, uz)
    n = (rows[k, 9], rows[k, 10], rows[k, 11])
    distance, nu = _intercept(o, u, (rows[k, 0], rows[k, 1], rows[k, 2]), n, max_distance,
                              front_only)
    if distance == math.inf:
        return math.inf, 0.0, 0.0, 0.0
    p = axpy(o, distance, u)
    i0, i1 = _drop_axis(n[0], n[1], n[2])
    px = p[i0]
    py = p[i1]
    inside = False
    j = 2
    for i in range(3):
        if _crosses(px, py, rows[k, 3 * i + i0], rows[k, 3 * i + i1], rows[k, 3 * j + i0],
                    rows[k, 3 * j + i1]):
            inside = not inside
        j = i
    if not inside:
        return math.inf, 0.0, 0.0, 0.0
    if nu < 0.0:
        return distance, n[0], n[1], n[2]
    return distance, -n[0], -n[1], -n[2]


@njit(cache=True)
def ray_polygon(ox, oy, oz, ux, uy, uz, max_distance, vertices, loop, first, count,
                nx, ny, nz, front_only):
    """First hit of the ray ``o + distance u`` on a panel: the article's intercept.

    ``u`` is a unit direction. Returns ``(distance, nx, ny, nz)`` with the
    face normal turned towards the ray's origin, or ``(inf, 0, 0, 0)`` when
    the ray runs parallel to the plane, hits behind its origin (the
    article's behind-the-viewer culling), beyond ``max_distance``, outside
    the outline, or, for a ``front_only`` panel, on its back face. An
    origin on the plane hits at distance 0.

    Examples
    --------
    A unit square in z = 0, counter-clockwise seen from above (its front):

    >>> import numpy as np
    >>> square = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    >>> loop = np.arange(4)
    >>> ray_polygon(0.5, 0.5, 2, 0, 0, -1, 10, square, loop, 0, 4, 0, 0, 1, True)
    (2.0, 0.0, 0.0, 1.0)
    >>> ray_polygon(0.5, 0.5, -2, 0, 0, 1, 10, square, loop, 0, 4, 0, 0, 1, True)[0]  # back face
    inf
    >>> ray_polygon(-1, 0.5, 0, 1, 0, 0, 10, square, loop, 0, 4, 0, 0, 1, False)[0]  # parallel
    inf
    """
    distance, m = _ray_polygon(vec(ox, oy, oz), vec(ux, uy, uz), max_distance, vertices,
                               loop, first, count, vec(nx, ny, nz), front_only)
    return distance, m[0], m[1], m[2]


@njit(cache=True)
def _point_polygon(p, vertices, loop, first, count, n):
    # Nearest point of the panel to p: (distance, q, edge or _FACE, t on the edge).
    v0 = _vertex(vertices, loop, first, 0)
    h = dot(sub(p, v0), n)
    foot = axpy(p, -h, n)
    if _contains(foot, vertices, loop, first, count, n):
        return abs(h), foot, _FACE, 0.0
    best = math.inf
    bq = foot
    be = 0
    bt = 0.0
    for i in range(count):
        a = _vertex(vertices, loop, first, i)
        b = _vertex(vertices, loop, first, (i + 1) % count)
        t, q = _closest_point_segment(p, a, b)
        dist = norm(sub(p, q))
        if dist < best:
            best, bq, be, bt = dist, q, i, t
    return best, bq, be, bt


@njit(cache=True)
def _segment_polygon(a, b, vertices, loop, first, count, n):
    # Nearest points of the core ab and the panel:
    # (distance, x on the core, y on the panel, edge or _FACE, t on the edge).
    # The closest pair has x an end of the core (point to panel), or y on
    # the outline (core to edge), or the core crosses the face (distance 0);
    # an interior x over the face interior means the core runs parallel to
    # the face, and sliding along it reaches one of the other cases.
    v0 = _vertex(vertices, loop, first, 0)
    ha = dot(sub(a, v0), n)
    hb = dot(sub(b, v0), n)
    if (ha < 0.0 < hb) or (hb < 0.0 < ha):
        c = axpy(a, ha / (ha - hb), sub(b, a))
        c = axpy(c, -dot(sub(c, v0), n), n)
        if _contains(c, vertices, loop, first, count, n):
            return 0.0, c, c, _FACE, 0.0
    best, y, edge, t = _point_polygon(a, vertices, loop, first, count, n)
    x = a
    db, yb, eb, tb = _point_polygon(b, vertices, loop, first, count, n)
    if db < best:
        best, x, y, edge, t = db, b, yb, eb, tb
    if same(a, b):
        return best, x, y, edge, t
    for i in range(count):
        c = _vertex(vertices, loop, first, i)
        e = _vertex(vertices, loop, first, (i + 1) % count)
        _, ti, xi, yi = _closest_points_segments(a, b, c, e)
        di = norm(sub(xi, yi))
        if di < best:
            best, x, y, edge, t = di, xi, yi, i, ti
    return best, x, y, edge, t


@njit(cache=True)
def _face_side(x, a, b, v0, n):
    # +1 or -1: the side of the panel's plane the agent is on, read at the
    # contact point x, else at the core's middle; +1 when all lie in the plane.
    h = dot(sub(x, v0), n)
    if h == 0.0:
        h = 0.5 * (dot(sub(a, v0), n) + dot(sub(b, v0), n))
    return 1.0 if h >= 0.0 else -1.0


@njit(cache=True)
def _feature_normal(x, y, dist, edge, t, a, b, vertices, loop, first, count, n, edge_flags):
    # Unit normal from the panel towards the agent at the closest pair (x, y)
    # and whether it is the face's own (the face, an inactive edge, or a
    # vertex whose two edges here are inactive). Returns (normal, geometric
    # normal): the second is the true direction, used to tell the front.
    v0 = _vertex(vertices, loop, first, 0)
    side = _face_side(x, a, b, v0, n)
    face = scale(n, side)
    if edge == _FACE or dist == 0.0:
        return face, face
    c = _vertex(vertices, loop, first, edge)
    e = _vertex(vertices, loop, first, (edge + 1) % count)
    geometric, _ = _edge_normal(x, c, e, t)
    if 0.0 < t < 1.0:
        smooth = not _edge_active(edge_flags, edge)
    elif t <= 0.0:
        smooth = not _edge_active(edge_flags, edge) and \
            not _edge_active(edge_flags, (edge + count - 1) % count)
    else:
        smooth = not _edge_active(edge_flags, edge) and \
            not _edge_active(edge_flags, (edge + 1) % count)
    if smooth and dot(geometric, n) != 0.0:
        return scale(n, 1.0 if dot(geometric, n) > 0.0 else -1.0), geometric
    return geometric, geometric


@njit(cache=True, inline="always")
def _in_front(dist, geometric, n):
    # Whether a front-only panel exists for a core at distance `dist` from it whose
    # closest pair points along `geometric` (from the panel to the core): in front of it,
    # not crossing it.
    return dist > 0.0 and dot(geometric, n) > 0.0


@njit(cache=True)
def _core_meets(a, b, vertices, loop, first, count, n):
    # Whether the core a-b meets the panel (distance 0).
    return _segment_polygon(a, b, vertices, loop, first, count, n)[0] == 0.0


@njit(cache=True)
def separation_capsule_polygon(ax, ay, az, bx, by, bz, vertices, loop, first, count,
                               nx, ny, nz, edge_flags, front_only):
    """Distance from the agent core ``ab`` to a panel, with the contact normal and point.

    Returns ``(separation, nx, ny, nz, qx, qy, qz)``: the distance (world
    units, >= 0: a panel is a thin surface) from the core to the panel, the
    unit normal from the panel towards the agent and ``q`` the panel point
    nearest the core. Over the face the normal is the face normal on the
    agent's side; at an edge or vertex it points from that feature to the
    core, unless ``edge_flags`` marks the feature inactive (then the face
    normal). Where the core touches or crosses the panel (distance 0) the
    normal is the face normal on the side of the core's middle.

    A ``front_only`` panel does not exist for an agent behind it nor for one
    whose core crosses it: when the true contact direction does not point to
    the front (``n``), or the core meets the panel (distance 0: it has no
    direction, and a sweep that let the core in from behind or edge-on must not
    find it in front), the answer is ``(inf, 0, 0, 0, 0, 0, 0)``.
    """
    a = vec(ax, ay, az)
    b = vec(bx, by, bz)
    n = vec(nx, ny, nz)
    dist, x, y, edge, t = _segment_polygon(a, b, vertices, loop, first, count, n)
    m, geometric = _feature_normal(x, y, dist, edge, t, a, b, vertices, loop, first, count, n,
                                   edge_flags)
    if front_only and not _in_front(dist, geometric, n):
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return dist, m[0], m[1], m[2], y[0], y[1], y[2]


@njit(cache=True, inline="always")
def _slab(c, e, n, p0, p1, p2, p3):
    # How far all four points lie beyond the edge c -> e, out of the triangle
    # (its outward normal in the plane is (e - c) x n); 0 if one is not.
    m = cross(sub(e, c), n)
    length = norm(m)
    if length == 0.0:
        return 0.0
    least = min(dot(sub(p0, c), m), dot(sub(p1, c), m), dot(sub(p2, c), m),
                dot(sub(p3, c), m))
    return max(least / length, 0.0)


@njit(cache=True)
def triangle_gap(vertices, loop, first, n, p0, p1, p2, p3):
    """A lower bound of the distance from the points ``p0..p3`` (and their convex hull) to a triangle.

    The triangle is corners ``first .. first + 2`` of ``loop``, counter-clockwise
    about its unit normal ``n``. Every point ``x`` of the hull lies a height
    ``h(x)`` off the triangle's plane and an in-plane distance at least
    ``s(x)`` beyond one of its edges, so its distance is at least
    ``sqrt(h^2 + s^2)``; ``h`` and each edge's ``s`` are linear, least at one
    of the points. A cheap filter before the exact tests: a capsule standing
    on a floor of triangles is within reach of the one under it, and this
    tells it from the others of the floor in a few dozen operations.
    Rounded like the exact tests; the callers leave a margin.
    """
    c0 = _vertex(vertices, loop, first, 0)
    c1 = _vertex(vertices, loop, first, 1)
    c2 = _vertex(vertices, loop, first, 2)
    h0 = dot(sub(p0, c0), n)
    h1 = dot(sub(p1, c0), n)
    h2 = dot(sub(p2, c0), n)
    h3 = dot(sub(p3, c0), n)
    low = min(h0, h1, h2, h3)
    high = max(h0, h1, h2, h3)
    h = low if low > 0.0 else (-high if high < 0.0 else 0.0)
    s = max(_slab(c0, c1, n, p0, p1, p2, p3), _slab(c1, c2, n, p0, p1, p2, p3),
            _slab(c2, c0, n, p0, p1, p2, p3))
    return math.sqrt(h * h + s * s)


@njit(cache=True, inline="always")
def _size(a, b, radius):
    # The scale of a query's rounding: its largest coordinate or radius, at least 1.
    return max(1.0, abs(a[0]), abs(a[1]), abs(a[2]), abs(b[0]), abs(b[1]), abs(b[2]), radius)


@njit(cache=True, inline="always")
def _level_with(m, a, b, y, level, size):
    # Whether the core a-b lies at least ``level`` (less rounding: START_ULPS
    # of the coordinates) off the plane through y with normal m. An inactive
    # edge reports its face's normal (no bump over the seam of coplanar
    # triangles); that is safe only while the agent is level with the face or
    # above it. Beyond a convex inactive edge, lower than the face's plane,
    # the face normal would let it glide into the face: there the edge's own
    # normal judges the motion. The rounding allowed is that of the heights'
    # own arithmetic, never a share of the coordinates larger than that: a
    # level far from the origin is judged as the same level at the origin.
    return min(dot(sub(a, y), m), dot(sub(b, y), m)) >= \
        level - START_ULPS * 2.220446049250313e-16 * size


@njit(cache=True)
def solving_normal_polygon(ax, ay, az, bx, by, bz, qx, qy, qz, nx, ny, nz, level):
    """The normal a slide solves with for a panel contact at ``q`` reported with normal ``n``.

    ``n`` itself, unless the core ``a -> b`` lies lower than ``level`` off
    the plane through ``q`` with normal ``n`` (:func:`_level_with`): then
    ``n`` is an inactive edge's face normal seen from beyond a convex edge,
    and the direction from ``q`` to the core's nearest point is the contact
    as it is (the agent rounds the edge instead of gliding into the face).
    A slide passes the ``level`` its sweeps judge by
    (:func:`sweep_capsule_polygon`), so a plane it solves with is the one
    its sweep would stop it at.
    """
    a = vec(ax, ay, az)
    b = vec(bx, by, bz)
    q = vec(qx, qy, qz)
    m = vec(nx, ny, nz)
    if _level_with(m, a, b, q, level, _size(a, b, level)):
        return nx, ny, nz
    _, x = _closest_point_segment(q, a, b)
    g = sub(x, q)
    length = norm(g)
    if length == 0.0:
        return nx, ny, nz
    return g[0] / length, g[1] / length, g[2] / length


@njit(cache=True)
def _sweep_capsule_polygon(a, b, d, radius, vertices, loop, first, count, n, edge_flags,
                           front_only, level):
    # (fraction, normal, point), fraction inf for a miss; see sweep_capsule_polygon.
    miss = (math.inf, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    hd = dot(d, n)
    # 1. A front-only panel stops only motion into its front face.
    if front_only and not hd < 0.0:
        return miss
    # 2. A cheap reject: the heights of the core's ends over the plane are
    #    linear in the fraction, and the core lies between them, so a core
    #    beyond radius on one side at both ends of the motion stays beyond.
    v0 = _vertex(vertices, loop, first, 0)
    ha = dot(sub(a, v0), n)
    hb = dot(sub(b, v0), n)
    if min(ha, hb, ha + hd, hb + hd) > radius or max(ha, hb, ha + hd, hb + hd) < -radius:
        return miss
    #    And the panel's bounding box against the one the agent sweeps.
    for i in range(3):
        low = math.inf
        high = -math.inf
        for k in range(count):
            v = vertices[loop[first + k], i]
            low = min(low, v)
            high = max(high, v)
        if min(a[i], b[i]) + min(d[i], 0.0) - radius > high or \
                max(a[i], b[i]) + max(d[i], 0.0) + radius < low:
            return miss
    #    A triangle: its edges too (a floor's other triangles, beside the agent).
    if count == 3:
        rounding = 1e-9 * (1.0 + abs(a[0]) + abs(a[1]) + abs(a[2]) + norm(sub(b, a)) + norm(d))
        if triangle_gap(vertices, loop, first, n, a, b, add(a, d), add(b, d)) > \
                radius + rounding:
            return miss
    # 3. Starting within reach: hit at 0 moving in, miss moving out. Within
    #    reach up to rounding (START_ULPS of the coordinates): a slide's sweep
    #    leaves the agent exactly at the reach, and the next pass must judge
    #    that start by the motion; the events below, each computing the
    #    distance its own way, could see it a hair outside and miss a motion
    #    into the panel (a capsule crossing an inactive edge of nav_test).
    dist, x, y, edge, t = _segment_polygon(a, b, vertices, loop, first, count, n)
    size = _size(a, b, radius)
    if dist <= radius + START_ULPS * 2.220446049250313e-16 * size:
        m, geometric = _feature_normal(x, y, dist, edge, t, a, b, vertices, loop, first,
                                       count, n, edge_flags)
        if front_only and not _in_front(dist, geometric, n):
            return miss
        if not _level_with(m, a, b, y, level, size):
            m = geometric
        elif _level_with(m, add(a, d), add(b, d), y, level, size):
            # Level with the face (over it, or over an inactive edge's seam)
            # at the start and at the end, so all along: gliding along it,
            # whatever the sign of a motion into it too small to matter.
            return miss
        # Judged on the reported normal: over the shared edge of two coplanar
        # triangles (face normal) gliding along the face is not moving in.
        if dot(d, m) < 0.0:
            return 0.0, m, y
        return miss
    best = math.inf
    bn = (0.0, 0.0, 0.0)
    bq = (0.0, 0.0, 0.0)
    # 4. The face: an end of the core reaches height +-radius over the plane,
    #    h(fraction) = h0 + fraction hd, with its foot inside the outline.
    for p in (a, b):
        h0 = dot(sub(p, v0), n)
        side = 0.0
        if h0 >= radius and hd < 0.0:
            side = 1.0
        elif h0 <= -radius and hd > 0.0 and not front_only:
            side = -1.0
        if side != 0.0:
            fraction = (side * radius - h0) / hd
            if fraction < best:
                foot = axpy(axpy(p, fraction, d), -side * radius, n)
                if _contains(foot, vertices, loop, first, count, n) and not (
                        front_only and _core_meets(axpy(a, fraction, d), axpy(b, fraction, d),
                                                   vertices, loop, first, count, n)):
                    best, bn, bq = fraction, scale(n, side), foot
    # 5. The outline: each edge as a segment (its ends are the vertices).
    for i in range(count):
        c = _vertex(vertices, loop, first, i)
        e = _vertex(vertices, loop, first, (i + 1) % count)
        fraction, m, t = _sweep_capsule_segment_outside(a, b, d, radius, c, e)
        if fraction < best:
            up = dot(m, n)
            if front_only and (not up > 0.0 or _core_meets(axpy(a, fraction, d),
                                                            axpy(b, fraction, d), vertices,
                                                            loop, first, count, n)):
                continue
            if 0.0 < t < 1.0:
                smooth = not _edge_active(edge_flags, i)
            elif t <= 0.0:
                smooth = not _edge_active(edge_flags, i) and \
                    not _edge_active(edge_flags, (i + count - 1) % count)
            else:
                smooth = not _edge_active(edge_flags, i) and \
                    not _edge_active(edge_flags, (i + 1) % count)
            q = axpy(c, t, sub(e, c))
            face = scale(n, 1.0 if up > 0.0 else -1.0)
            if smooth and up != 0.0 and _level_with(face, axpy(a, fraction, d),
                                                    axpy(b, fraction, d), q, level, size):
                m = face
                # Reached gliding along the face (as over the seam of two
                # coplanar triangles) and level with it to the end: nothing
                # stops the motion there.
                if not dot(d, m) < 0.0 or _level_with(face, add(a, d), add(b, d), q, level,
                                                      size):
                    continue
            best, bn, bq = fraction, m, q
    if best > 1.0:
        return miss
    return best, bn, bq


@njit(cache=True)
def sweep_capsule_polygon(ax, ay, az, bx, by, bz, dx, dy, dz, radius, vertices, loop, first,
                          count, nx, ny, nz, edge_flags, front_only, level=-1.0):
    """First contact of the agent (core ``ab``, ``radius``) moving by ``d`` with a panel.

    Returns ``(fraction, nx, ny, nz, qx, qy, qz)``: the part of ``d``
    travelled at first contact (``inf`` for a miss), the unit normal from
    the panel towards the agent there (the face normal over the face, on an
    inactive edge and on a vertex whose edges are both inactive) and ``q``,
    the touched point of the panel.

    Exact: the first contact is the earliest of closed-form events, an end
    of the core reaching the face plane at ``radius`` over the outline, or
    the core reaching an edge (:func:`.segment.sweep_capsule_segment`), so
    no speed tunnels. The events are computed from the start, not stepped,
    and rounding only moves the fraction by a few ulps of the coordinates
    over ``|d|``.

    A start within ``radius`` of the panel hits at 0 when ``d`` heads into
    it and misses when it heads out. A ``front_only`` panel stops only a
    motion into its front face (``d . n < 0``) by an agent in front of it;
    moving from the back it is passed through, and so is a core that crosses
    it (one a skipped contact from behind or edge-on let in: the panel does
    not exist for it, as :func:`separation_capsule_polygon` says).

    ``level`` (world units, ``radius`` when negative) is the least height over
    the face's plane at which the core counts as *level* with the face: over
    the face or an inactive edge, a core that stays at least that high all
    along the motion glides on untouched (a slide's agent keeps a skin off
    the floor it glides on, inside the radius it is swept with, and must not
    bump on the seams of the floor's triangles, whatever the sign of a motion
    into the floor a rounding step deep). Beyond a convex inactive edge, lower
    than that, the edge's own normal judges the motion.
    """
    fraction, m, q = _sweep_capsule_polygon(vec(ax, ay, az), vec(bx, by, bz), vec(dx, dy, dz),
                                            radius, vertices, loop, first, count,
                                            vec(nx, ny, nz), edge_flags, front_only,
                                            radius if level < 0.0 else level)
    return fraction, m[0], m[1], m[2], q[0], q[1], q[2]
