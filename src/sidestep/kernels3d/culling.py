"""One volume against many boxes or spheres: the batch path of frustum culling.

:func:`~sidestep.kernels3d.volumes.contains` answers any pair from two
packed volumes; per item it copies both (88 floats each) and projects every
corner of both on every separating axis. Against one fixed polytope (a
frustum or a box) most of that is the same for every item, so
:func:`prepare_polytope` does it once: the polytope's planes, its middle,
and its extent along every separating-axis candidate an axis-aligned box
can need (its own face normals, the box's, and every cross product of an
edge direction of each). Per item then:

1. **Plane test** (the p/n-vertex test): a box's corner nearest each plane
   and its farthest (per axis, ``lo`` or ``hi`` by the sign of the normal);
   a sphere's centre, its height above the plane against ``+-`` its radius.
   Beyond one plane: DISJOINT; inside every plane: CONTAINS; a sphere's
   centre inside every plane: INTERSECTS. That settles every item but
   those straddling a plane (9 % of the boxes and 4 % of the spheres of
   ``benchmarks/culling.py``).
2. **Exact test** for the straddling ones, which the plane test alone would
   call INTERSECTS although some lie beside an edge or a corner: a box's
   middle inside the polytope (or the polytope's inside the box) shows a
   shared point, else the prepared separating axes decide (both sets of
   face normals and every edge-cross-edge axis); a sphere's centre is
   measured against the polytope
   (:func:`~sidestep.kernels3d.volumes.distance_point_polytope`, reading the
   packed polytope in place).

The answers are those of :func:`~sidestep.kernels3d.volumes.contains`,
bit for bit, not merely within a tolerance: every comparison is the same
float expression, in steps that answer as the generic kernel's do. A box's
corner nearest a plane gives the least of the eight rounded projections
because rounding is monotonic (``x <= y`` implies ``fl(x + z) <= fl(y +
z)``, and ``n_x lo_x <= n_x hi_x`` when ``n_x >= 0``), and the polytope's
extents are the generic kernel's own (:func:`~sidestep.kernels3d.volumes.interval`
on :func:`~sidestep.kernels3d.volumes.unit_axis`).

A rounded volume (point, segment, sphere, capsule) against spheres takes
the core-to-core distance directly, without the copies; everything else
(a ray, or a rounded volume against boxes) goes through the generic kernel
one item at a time (:func:`boxes_generic`, :func:`spheres_generic`).

Batch kernels read ``(n, 2)`` or ``(n, 3)`` arrays (``z = 0`` in 2D, as the
packed 2D volumes lie) and check them as they go: a row with a coordinate
not finite or beyond ``limit``, a minimum above its maximum or a radius
negative, is answered :data:`BAD_ROW` (the Python side then names the
argument).
"""
import math

import numpy as np
from numba import njit

from ..kernels.row_queue import next_rows
from . import volumes as kv
from .segment import closest_point_segment, closest_points_segment_segment

DISJOINT, INTERSECTS, CONTAINS = kv.DISJOINT, kv.INTERSECTS, kv.CONTAINS

#: The answer for a row that fails the input checks.
BAD_ROW = -1

# A prepared polytope (float64): how many planes the inside test reads (4 for a
# flat one, else 6), how many axes, its middle (x, y, z: half the sum of its
# corners 0 and 7), six planes (nx, ny, nz, d), then the axes column by
# column (MAX_AXES each: ux, uy, uz, and the polytope's extent lo, hi along
# the unit axis), so that one box is tested on many axes at once (SIMD).
P_FACES, P_N_AXES, P_MIDDLE, P_PLANES, P_AXES = 0, 1, 2, 5, 29
#: Its face normals, the box's six, and its edge directions (at most 12) times the box's 3.
MAX_AXES = 6 + 6 + 12 * 3
A_UX, A_UY, A_UZ, A_LO, A_HI = (P_AXES + c * MAX_AXES for c in range(5))
PREPARED = P_AXES + 5 * MAX_AXES

# A row answered after the plane test's pass (never returned).
_STRADDLES = 3


@njit(cache=True)
def _add_axis(prep, a, ax, ay, az):
    usable, ux, uy, uz = kv.unit_axis(ax, ay, az)
    if not usable:
        return
    q = int(prep[P_N_AXES])
    lo, hi = kv.interval(a, ux, uy, uz)
    prep[A_UX + q], prep[A_UY + q], prep[A_UZ + q], prep[A_LO + q], prep[A_HI + q] = \
        ux, uy, uz, lo, hi
    prep[P_N_AXES] += 1


@njit(cache=True)
def prepare_polytope(a, dim):
    """The prepared form of packed polytope ``a`` for tests against ``dim``-D boxes.

    Returns a ``(PREPARED,)`` float64 array (layout in the module source).
    The axes are those :func:`~sidestep.kernels3d.volumes.contains` tries
    against a packed :class:`~sidestep.volumes.Box` of dimension ``dim``, in
    its order: ``a``'s face normals, the box's (``+x, -x, +y, ...``), then
    each edge direction of ``a`` crossed with each box axis (zero crossings,
    from parallel edges, dropped).
    """
    prep = np.zeros(PREPARED)
    prep[P_FACES] = 4.0 if a[kv.FLAT] == 1.0 else 6.0
    for j in range(3):
        prep[P_MIDDLE + j] = 0.5 * (a[kv.VERTS + j] + a[kv.VERTS + 21 + j])
    for j in range(24):
        prep[P_PLANES + j] = a[kv.PLANES + j]
    for j in range(6):
        k = kv.PLANES + 4 * j
        _add_axis(prep, a, a[k], a[k + 1], a[k + 2])
    for j in range(3):
        for sign in (1.0, -1.0):
            _add_axis(prep, a, sign if j == 0 else 0.0, sign if j == 1 else 0.0,
                      sign if j == 2 else 0.0)
    for i in range(int(a[kv.N_DIRS])):
        ka = kv.DIRS + 3 * i
        for j in range(dim):
            bx = 1.0 if j == 0 else 0.0
            by = 1.0 if j == 1 else 0.0
            bz = 1.0 if j == 2 else 0.0
            # The cross product as volumes._separated forms it.
            _add_axis(prep, a, a[ka + 1] * bz - a[ka + 2] * by, a[ka + 2] * bx - a[ka] * bz,
                      a[ka] * by - a[ka + 1] * bx)
    return prep


@njit(cache=True, inline="always")
def _box_plane(prep, j, lx, ly, lz, hx, hy, hz, tol):
    # Plane j against box [l, h]: (the nearest corner is beyond it, the farthest is).
    # The nearest corner takes lo where the normal is >= 0 (n_x lo_x is then the
    # smaller product), the farthest hi; a choice per plane, not per box, so
    # three times faster than min and max of both products.
    k = P_PLANES + 4 * j
    nx = prep[k]
    ny = prep[k + 1]
    nz = prep[k + 2]
    d = prep[k + 3]
    px = nx >= 0.0
    py = ny >= 0.0
    pz = nz >= 0.0
    near = nx * (lx if px else hx) + ny * (ly if py else hy) + nz * (lz if pz else hz)
    far = nx * (hx if px else lx) + ny * (hy if py else ly) + nz * (hz if pz else lz)
    return near - d > tol, far - d > tol


@njit(cache=True, inline="always")
def _box_planes(prep, lx, ly, lz, hx, hy, hz, tol):
    # 1. The plane test: DISJOINT beyond a face, CONTAINS inside all, else _STRADDLES.
    # Written out plane by plane: as a loop it runs 4x slower (it is not unrolled).
    b0, o0 = _box_plane(prep, 0, lx, ly, lz, hx, hy, hz, tol)
    b1, o1 = _box_plane(prep, 1, lx, ly, lz, hx, hy, hz, tol)
    b2, o2 = _box_plane(prep, 2, lx, ly, lz, hx, hy, hz, tol)
    b3, o3 = _box_plane(prep, 3, lx, ly, lz, hx, hy, hz, tol)
    b4, o4 = _box_plane(prep, 4, lx, ly, lz, hx, hy, hz, tol)
    b5, o5 = _box_plane(prep, 5, lx, ly, lz, hx, hy, hz, tol)
    if b0 | b1 | b2 | b3 | b4 | b5:
        return DISJOINT
    # A flat (2D) polytope's inside test reads its first four planes only.
    if not (o0 | o1 | o2 | o3 | ((prep[P_FACES] > 4.0) & (o4 | o5))):
        return CONTAINS
    return _STRADDLES


@njit(cache=True)
def _box_apart(prep, lx, ly, lz, hx, hy, hz, tol):
    # Whether some prepared axis separates box [l, h] from the polytope by
    # more than tol. Every axis, without an early exit: a straddling box is
    # rarely disjoint, and a loop without exits, alone in its function, runs
    # on several axes at once (2x faster).
    n = int(prep[P_N_AXES])
    ux = prep[A_UX:A_UX + n]
    uy = prep[A_UY:A_UY + n]
    uz = prep[A_UZ:A_UZ + n]
    alo = prep[A_LO:A_LO + n]
    ahi = prep[A_HI:A_HI + n]
    apart = False
    for q in range(n):
        x = ux[q]
        y = uy[q]
        z = uz[q]
        # The box's extent as volumes.interval finds it (less its radius, 0).
        blo = min(x * lx, x * hx) + min(y * ly, y * hy) + min(z * lz, z * hz)
        bhi = max(x * lx, x * hx) + max(y * ly, y * hy) + max(z * lz, z * hz)
        apart |= (alo[q] > bhi + tol) | (blo > ahi[q] + tol)
    return apart


@njit(cache=True, inline="always")
def _box_exact(prep, a, lx, ly, lz, hx, hy, hz, tol):
    # 2. For a box the plane test left straddling: volumes._intersects_bounded's
    # steps, a shared point (either's middle inside the other) or else the
    # separating axes. The polytope's middle is looked for in the box last,
    # as it is rarely there (only the answer counts, not the order).
    if kv.middle_inside(a, lx + hx, ly + hy, lz + hz):
        return INTERSECTS
    if not _box_apart(prep, lx, ly, lz, hx, hy, hz, tol):
        return INTERSECTS
    # A box's planes are x <= hx, -x <= -lx, ...: its inside test is lx <= x <= hx, exactly.
    mx = prep[P_MIDDLE]
    my = prep[P_MIDDLE + 1]
    mz = prep[P_MIDDLE + 2]
    if (lx <= mx) & (mx <= hx) & (ly <= my) & (my <= hy) & (lz <= mz) & (mz <= hz):
        return INTERSECTS
    return DISJOINT


@njit(cache=True)
def box_state(prep, a, lx, ly, lz, hx, hy, hz, tol):
    """The state of box ``[l, h]`` against prepared polytope ``prep`` (packed ``a``)."""
    state = _box_planes(prep, lx, ly, lz, hx, hy, hz, tol)
    if state == _STRADDLES:
        return _box_exact(prep, a, lx, ly, lz, hx, hy, hz, tol)
    return state


@njit(cache=True, inline="always")
def _sphere_plane(prep, j, cx, cy, cz, beyond, poking):
    # Plane j against a sphere whose centre's height h above it decides:
    # (beyond it: h > r + tol, poking out of it: h > tol - r, the centre outside: h > 0).
    k = P_PLANES + 4 * j
    h = prep[k] * cx + prep[k + 1] * cy + prep[k + 2] * cz - prep[k + 3]
    return h > beyond, h > poking, h > 0.0


@njit(cache=True, inline="always")
def _sphere_planes(prep, cx, cy, cz, r, tol):
    # 1. The plane test, written out plane by plane as _box_planes is; a
    # centre inside every plane is INTERSECTS outright (its distance is 0).
    beyond = r + tol
    poking = tol - r
    b0, o0, c0 = _sphere_plane(prep, 0, cx, cy, cz, beyond, poking)
    b1, o1, c1 = _sphere_plane(prep, 1, cx, cy, cz, beyond, poking)
    b2, o2, c2 = _sphere_plane(prep, 2, cx, cy, cz, beyond, poking)
    b3, o3, c3 = _sphere_plane(prep, 3, cx, cy, cz, beyond, poking)
    b4, o4, c4 = _sphere_plane(prep, 4, cx, cy, cz, beyond, poking)
    b5, o5, c5 = _sphere_plane(prep, 5, cx, cy, cz, beyond, poking)
    if b0 | b1 | b2 | b3 | b4 | b5:
        return DISJOINT
    if not (o0 | o1 | o2 | o3 | ((prep[P_FACES] > 4.0) & (o4 | o5))):
        return CONTAINS
    if not (c0 | c1 | c2 | c3 | c4 | c5):
        return INTERSECTS
    return _STRADDLES


@njit(cache=True)
def _sphere_exact(a, cx, cy, cz, r, tol):
    # 2. For a sphere the plane test left straddling: its centre's exact distance.
    return INTERSECTS if kv.distance_point_polytope(cx, cy, cz, a, tol) <= r + tol else DISJOINT


@njit(cache=True)
def sphere_state(prep, a, cx, cy, cz, r, tol):
    """The state of a sphere against prepared polytope ``prep`` (packed ``a``)."""
    state = _sphere_planes(prep, cx, cy, cz, r, tol)
    if state == _STRADDLES:
        return _sphere_exact(a, cx, cy, cz, r, tol)
    return state


@njit(cache=True)
def rounded_sphere_state(a, cx, cy, cz, r, tol):
    """The state of a sphere against packed rounded volume ``a`` (not a ray), exact.

    Contained: the centre within ``a``'s radius less ``r`` of its core;
    touching: the cores within the sum of the radii (the steps of
    :func:`~sidestep.kernels3d.volumes.contains` without its copies).
    """
    v = kv.VERTS
    _, qx, qy, qz = closest_point_segment(cx, cy, cz, a[v], a[v + 1], a[v + 2],
                                          a[v + 3], a[v + 4], a[v + 5])
    far = math.sqrt((qx - cx) ** 2 + (qy - cy) ** 2 + (qz - cz) ** 2)
    if far + r <= a[kv.RADIUS] + tol:
        return CONTAINS
    _, _, xx, xy, xz, yx, yy, yz = closest_points_segment_segment(
        a[v], a[v + 1], a[v + 2], a[v + 3], a[v + 4], a[v + 5], cx, cy, cz, cx, cy, cz)
    d = math.sqrt((xx - yx) ** 2 + (xy - yy) ** 2 + (xz - yz) ** 2)
    return INTERSECTS if d <= a[kv.RADIUS] + r + tol else DISJOINT


# --- Batch kernels ---------------------------------------------------------------

@njit(cache=True, inline="always")
def _coordinate(flat, dim, i, j):
    # Row i's coordinate j of an (n, dim) array read flat (a flat view indexes
    # faster than two subscripts); z = 0 in 2D.
    return flat[dim * i + j] if j < dim else 0.0


@njit(cache=True, inline="always")
def _box_row(lo, hi, dim, i, limit):
    lx = _coordinate(lo, dim, i, 0)
    ly = _coordinate(lo, dim, i, 1)
    lz = _coordinate(lo, dim, i, 2)
    hx = _coordinate(hi, dim, i, 0)
    hy = _coordinate(hi, dim, i, 1)
    hz = _coordinate(hi, dim, i, 2)
    # NaN fails every comparison, so a NaN fails this check too.
    good = ((lx <= hx) & (ly <= hy) & (lz <= hz) & (-limit <= lx) & (-limit <= ly)
            & (-limit <= lz) & (hx <= limit) & (hy <= limit) & (hz <= limit))
    return good, lx, ly, lz, hx, hy, hz


@njit(cache=True, inline="always")
def _sphere_row(c, dim, radii, i, limit):
    cx = _coordinate(c, dim, i, 0)
    cy = _coordinate(c, dim, i, 1)
    cz = _coordinate(c, dim, i, 2)
    # One radius for every row, or one per row.
    r = radii[i if radii.shape[0] > 1 else 0]
    good = ((abs(cx) <= limit) & (abs(cy) <= limit) & (abs(cz) <= limit) & (r >= 0.0)
            & (r <= limit))
    return good, cx, cy, cz, r


@njit(cache=True, inline="always")
def _boxes_pass(prep, a, lo, hi, dim, tol, limit, out):
    # The plane test over every row, then the axes for the straddling ones.
    # Bad rows are counted, and marked in a pass of their own: choosing the
    # answer row by row halves the speed of the first pass.
    bad = 0
    for i in range(out.shape[0]):
        good, lx, ly, lz, hx, hy, hz = _box_row(lo, hi, dim, i, limit)
        bad += not good
        out[i] = _box_planes(prep, lx, ly, lz, hx, hy, hz, tol)
    if bad:
        for i in range(out.shape[0]):
            if not _box_row(lo, hi, dim, i, limit)[0]:
                out[i] = BAD_ROW
    for i in range(out.shape[0]):
        if out[i] == _STRADDLES:
            _, lx, ly, lz, hx, hy, hz = _box_row(lo, hi, dim, i, limit)
            out[i] = _box_exact(prep, a, lx, ly, lz, hx, hy, hz, tol)


@njit(cache=True, nogil=True)
def boxes_polytope(prep, a, mins, maxs, tol, limit, out, queue):
    """States ``out (n,) int8`` of boxes ``mins, maxs (n, 2|3)`` against prepared ``prep``
    (packed ``a``).

    Per chunk of rows two passes: the plane test over every row (straight
    code without early exits), then the separating axes for the rows it left
    straddling. How the rows are read matters as much as the tests: each
    chunk is a slice read flat from index 0 (a loop from a start only known
    at run time keeps a negative-index check per read, 4x slower), and each
    pass is compiled for a constant ``dim``.
    """
    dim = mins.shape[1]
    lo = mins.reshape(-1)
    hi = maxs.reshape(-1)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            return
        chunk_lo = lo[dim * first:dim * stop]
        chunk_hi = hi[dim * first:dim * stop]
        if dim == 3:
            _boxes_pass(prep, a, chunk_lo, chunk_hi, 3, tol, limit, out[first:stop])
        else:
            _boxes_pass(prep, a, chunk_lo, chunk_hi, 2, tol, limit, out[first:stop])


@njit(cache=True, inline="always")
def _spheres_pass(prep, a, c, dim, radii, tol, limit, out):
    # As _boxes_pass.
    bad = 0
    for i in range(out.shape[0]):
        good, cx, cy, cz, r = _sphere_row(c, dim, radii, i, limit)
        bad += not good
        out[i] = _sphere_planes(prep, cx, cy, cz, r, tol)
    if bad:
        for i in range(out.shape[0]):
            if not _sphere_row(c, dim, radii, i, limit)[0]:
                out[i] = BAD_ROW
    for i in range(out.shape[0]):
        if out[i] == _STRADDLES:
            _, cx, cy, cz, r = _sphere_row(c, dim, radii, i, limit)
            out[i] = _sphere_exact(a, cx, cy, cz, r, tol)


@njit(cache=True, nogil=True)
def spheres_polytope(prep, a, centers, radii, tol, limit, out, queue):
    """States ``out (n,) int8`` of spheres ``centers (n, 2|3)``, ``radii (n,)`` or ``(1,)``
    against prepared ``prep`` (packed ``a``): the plane test, then the exact
    distance for the straddling (two passes per chunk, as :func:`boxes_polytope`)."""
    dim = centers.shape[1]
    c = centers.reshape(-1)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            return
        chunk = c[dim * first:dim * stop]
        r = radii[first:stop] if radii.shape[0] > 1 else radii
        if dim == 3:
            _spheres_pass(prep, a, chunk, 3, r, tol, limit, out[first:stop])
        else:
            _spheres_pass(prep, a, chunk, 2, r, tol, limit, out[first:stop])


@njit(cache=True, nogil=True)
def spheres_rounded(a, centers, radii, tol, limit, out, queue):
    """States of spheres against packed rounded volume ``a`` (:func:`rounded_sphere_state`)."""
    dim = centers.shape[1]
    c = centers.reshape(-1)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            return
        for i in range(first, stop):
            good, cx, cy, cz, r = _sphere_row(c, dim, radii, i, limit)
            out[i] = rounded_sphere_state(a, cx, cy, cz, r, tol) if good else BAD_ROW


@njit(cache=True, nogil=True)
def boxes_generic(a, flat, mins, maxs, tol, limit, out, queue):
    """States of boxes against any packed ``a``, each packed and put through ``contains``."""
    work = np.empty((2, kv.PACKED))
    item = np.zeros(kv.PACKED)
    item[kv.KIND] = kv.POLYTOPE
    item[kv.FLAT] = flat
    dim = mins.shape[1]
    lo = mins.reshape(-1)
    hi = maxs.reshape(-1)
    item[kv.N_DIRS] = dim
    for j in range(dim):
        item[kv.DIRS + 4 * j] = 1.0
    for j in range(3):
        item[kv.PLANES + 8 * j + j] = 1.0
        item[kv.PLANES + 8 * j + 4 + j] = -1.0
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            return
        for i in range(first, stop):
            good, lx, ly, lz, hx, hy, hz = _box_row(lo, hi, dim, i, limit)
            if not good:
                out[i] = BAD_ROW
                continue
            for c in range(8):
                m = kv.VERTS + 3 * c
                item[m] = hx if c & 1 else lx
                item[m + 1] = hy if c & 2 else ly
                item[m + 2] = hz if c & 4 else lz
            item[kv.PLANES + 3], item[kv.PLANES + 7] = hx, -lx
            item[kv.PLANES + 11], item[kv.PLANES + 15] = hy, -ly
            item[kv.PLANES + 19], item[kv.PLANES + 23] = hz, -lz
            out[i] = kv.contains(a, item, tol, work)


@njit(cache=True, nogil=True)
def spheres_generic(a, flat, centers, radii, tol, limit, out, queue):
    """States of spheres against any packed ``a``, each packed and put through ``contains``."""
    work = np.empty((2, kv.PACKED))
    item = np.zeros(kv.PACKED)
    item[kv.KIND] = kv.ROUNDED
    item[kv.FLAT] = flat
    dim = centers.shape[1]
    c = centers.reshape(-1)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            return
        for i in range(first, stop):
            good, cx, cy, cz, r = _sphere_row(c, dim, radii, i, limit)
            if not good:
                out[i] = BAD_ROW
                continue
            item[kv.VERTS], item[kv.VERTS + 1], item[kv.VERTS + 2] = cx, cy, cz
            item[kv.VERTS + 3], item[kv.VERTS + 4], item[kv.VERTS + 5] = cx, cy, cz
            item[kv.RADIUS] = r
            out[i] = kv.contains(a, item, tol, work)
