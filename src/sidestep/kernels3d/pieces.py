"""Obstacle pieces as packed volumes: a box, a triangle, a ground prism.

A world's primitives (:mod:`sidestep.kernels3d.world`) reach the volume
tests of :mod:`sidestep.kernels3d.volumes` in the packed layout documented
there, so that a frustum meets a mesh triangle through the same exact
kernel as it meets a box:

* :func:`pack_box`: an axis-aligned box, exactly as
  :class:`~sidestep.volumes.Box` packs itself;
* :func:`pack_triangle`: a triangle as a flat polytope (corners ``a, b, c,
  c`` twice over; planes: its two sides, its three edges' outward planes in
  its own plane, and its front again), or as the segment it collapses to
  when its corners lie on a line;
* :func:`pack_prism`: a heightfield's ground triangle with the solid below
  it down to ``floor`` along the up axis (the triangle, its shadow on the
  floor, three upright sides): a heightfield is the union of these prisms,
  so testing each one is exact.
"""
from numba import njit

from . import volumes as kv
from .vector import cross, dot, norm, scale, sub


@njit(cache=True)
def pack_box(out, lx, ly, lz, hx, hy, hz):
    """Write box ``[l, h]`` (3D) into ``out (PACKED,)``, as ``Box`` packs itself."""
    out[:] = 0.0
    out[kv.KIND] = kv.POLYTOPE
    for c in range(8):
        m = kv.VERTS + 3 * c
        out[m] = hx if c & 1 else lx
        out[m + 1] = hy if c & 2 else ly
        out[m + 2] = hz if c & 4 else lz
    for j in range(3):
        out[kv.PLANES + 8 * j + j] = 1.0
        out[kv.PLANES + 8 * j + 4 + j] = -1.0
        out[kv.DIRS + 4 * j] = 1.0
    out[kv.PLANES + 3], out[kv.PLANES + 7] = hx, -lx
    out[kv.PLANES + 11], out[kv.PLANES + 15] = hy, -ly
    out[kv.PLANES + 19], out[kv.PLANES + 23] = hz, -lz
    out[kv.N_DIRS] = 3.0


@njit(cache=True)
def pack_framed_box(out, frame, f, lx, ly, lz, hx, hy, hz):
    """Write box ``[l, h]`` of a turned frame into ``out (PACKED,)``: an oriented box.

    The frame is rows ``f..f+3`` of ``frame``: the rotation ``R``'s rows,
    then the position ``t`` (a point ``x`` of the frame is at ``R x + t``;
    see :mod:`sidestep.kernels3d.world`). Corners, face planes and edge
    directions are :func:`pack_box`'s, turned into the world.
    """
    out[:] = 0.0
    out[kv.KIND] = kv.POLYTOPE
    for c in range(8):
        x = hx if c & 1 else lx
        y = hy if c & 2 else ly
        z = hz if c & 4 else lz
        m = kv.VERTS + 3 * c
        for a in range(3):
            out[m + a] = frame[f + a, 0] * x + frame[f + a, 1] * y + frame[f + a, 2] * z \
                + frame[f + 3, a]
    lo = (lx, ly, lz)
    hi = (hx, hy, hz)
    for j in range(3):
        # Axis j of the frame in the world: column j of R.
        up = kv.PLANES + 8 * j
        down = up + 4
        for a in range(3):
            out[up + a] = frame[f + a, j]
            out[down + a] = -frame[f + a, j]
            out[kv.DIRS + 3 * j + a] = frame[f + a, j]
        # n . (R x + t) for x on the face: the face's own offset plus n . t.
        shift = frame[f, j] * frame[f + 3, 0] + frame[f + 1, j] * frame[f + 3, 1] \
            + frame[f + 2, j] * frame[f + 3, 2]
        out[up + 3] = hi[j] + shift
        out[down + 3] = -lo[j] - shift
    out[kv.N_DIRS] = 3.0


@njit(cache=True)
def pack_sphere(out, cx, cy, cz, r):
    """Write the sphere (3D) into ``out (PACKED,)``, as ``Sphere`` packs itself."""
    out[:] = 0.0
    out[kv.KIND] = kv.ROUNDED
    out[kv.RADIUS] = r
    out[kv.VERTS], out[kv.VERTS + 1], out[kv.VERTS + 2] = cx, cy, cz
    out[kv.VERTS + 3], out[kv.VERTS + 4], out[kv.VERTS + 5] = cx, cy, cz


@njit(cache=True)
def _set_plane(out, j, n, d):
    k = kv.PLANES + 4 * j
    out[k], out[k + 1], out[k + 2], out[k + 3] = n[0], n[1], n[2], d


@njit(cache=True)
def _side_plane(out, j, p, q, other, n):
    # Plane j through edge pq containing direction n, its normal away from `other`.
    m = cross(sub(q, p), n)
    m = scale(m, 1.0 / norm(m))
    if dot(m, sub(other, p)) > 0.0:
        m = scale(m, -1.0)
    _set_plane(out, j, m, dot(m, p))


@njit(cache=True)
def _add_dir(out, d):
    # Append unit edge direction d unless it is zero or parallel to one already there.
    length = norm(d)
    if length == 0.0:
        return
    d = scale(d, 1.0 / length)
    for i in range(int(out[kv.N_DIRS])):
        k = kv.DIRS + 3 * i
        if abs(abs(out[k] * d[0] + out[k + 1] * d[1] + out[k + 2] * d[2]) - 1.0) < 1e-12:
            return
    k = kv.DIRS + 3 * int(out[kv.N_DIRS])
    out[k], out[k + 1], out[k + 2] = d[0], d[1], d[2]
    out[kv.N_DIRS] += 1.0


@njit(cache=True)
def _corners(out, a, b, c, lower):
    # Corners 0-3 a, b, c, c; corners 4-7 the same, or `lower`'s four.
    top = (a, b, c, c)
    for i in range(8):
        v = top[i & 3] if i < 4 else lower[i & 3]
        m = kv.VERTS + 3 * i
        out[m], out[m + 1], out[m + 2] = v[0], v[1], v[2]


@njit(cache=True)
def pack_triangle(out, a, b, c):
    """Write triangle ``abc`` (3-tuples) into ``out (PACKED,)``: a flat polytope.

    A triangle whose corners lie on a line (a cross product below 1e-14 of
    its squared size) is the segment between its two farthest corners.
    """
    out[:] = 0.0
    ab = sub(b, a)
    ac = sub(c, a)
    n = cross(ab, ac)
    size = max(dot(ab, ab), dot(ac, ac), dot(sub(c, b), sub(c, b)))
    if norm(n) <= 1e-14 * size or size == 0.0:
        p, q = a, b
        if dot(ac, ac) > dot(sub(q, p), sub(q, p)):
            p, q = a, c
        if dot(sub(c, b), sub(c, b)) > dot(sub(q, p), sub(q, p)):
            p, q = b, c
        out[kv.KIND] = kv.ROUNDED
        out[kv.VERTS], out[kv.VERTS + 1], out[kv.VERTS + 2] = p[0], p[1], p[2]
        out[kv.VERTS + 3], out[kv.VERTS + 4], out[kv.VERTS + 5] = q[0], q[1], q[2]
        return
    n = scale(n, 1.0 / norm(n))
    out[kv.KIND] = kv.POLYTOPE
    _corners(out, a, b, c, (a, b, c, c))
    _set_plane(out, 0, n, dot(n, a))
    _set_plane(out, 1, scale(n, -1.0), -dot(n, a))
    _side_plane(out, 2, a, b, c, n)
    _side_plane(out, 3, b, c, a, n)
    _side_plane(out, 4, c, a, b, n)
    _set_plane(out, 5, n, dot(n, a))
    _add_dir(out, ab)
    _add_dir(out, sub(c, b))
    _add_dir(out, ac)


@njit(cache=True, inline="always")
def _lowered(v, up, floor):
    return (floor if up == 0 else v[0], floor if up == 1 else v[1], floor if up == 2 else v[2])


@njit(cache=True)
def pack_prism(out, a, b, c, up, floor):
    """Write the solid under triangle ``abc`` down to ``floor`` along axis ``up`` into ``out``.

    The triangle's projection along ``up`` must have an area (a heightfield's
    always has: it is half a grid cell) and ``floor`` must lie below it.
    """
    out[:] = 0.0
    a2 = _lowered(a, up, floor)
    b2 = _lowered(b, up, floor)
    c2 = _lowered(c, up, floor)
    e = (1.0 if up == 0 else 0.0, 1.0 if up == 1 else 0.0, 1.0 if up == 2 else 0.0)
    out[kv.KIND] = kv.POLYTOPE
    _corners(out, a, b, c, (a2, b2, c2, c2))
    n = cross(sub(b, a), sub(c, a))
    n = scale(n, 1.0 / norm(n))
    if n[up] < 0.0:
        n = scale(n, -1.0)
    _set_plane(out, 0, n, dot(n, a))                 # the surface, solid below it
    _set_plane(out, 1, scale(e, -1.0), -floor)       # the floor
    _side_plane(out, 2, a, b, c, e)                  # three upright sides
    _side_plane(out, 3, b, c, a, e)
    _side_plane(out, 4, c, a, b, e)
    _set_plane(out, 5, n, dot(n, a))
    for p, q in ((a, b), (b, c), (c, a), (a2, b2), (b2, c2), (c2, a2)):
        _add_dir(out, sub(q, p))
    _add_dir(out, e)

