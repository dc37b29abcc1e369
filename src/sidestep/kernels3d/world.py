"""Queries over a whole 3D world: which obstacle is nearest, touched, or hit by a ray.

The 3D mirror of :mod:`sidestep.kernels.world`. A world reaches the kernels
as a :class:`Packed3D`: one row per **primitive** (``kind``, ``owner`` id,
``part``, ``PARAMS`` floats of parameters), the corner pool and index loop of
panels and mesh triangles, the obstacles' ``alive`` flags, and a bounding
volume hierarchy over the primitives' boxes. Primitives:

* ``PRIM_POLYGON``: a planar panel, or one triangle of a mesh (a 3-corner
  panel): ``[first, count, nx, ny, nz, edge_flags, front_only, ground,
  floor]``, its
  corners ``vertices[loop[first:first + count]]``, its unit normal (the
  front: corners counter-clockwise seen from it), the active-edge bits
  (:mod:`~sidestep.kernels3d.mesh`; -1 for a lone panel) and whether only
  its front blocks; for a triangle of ground (a heightfield, solid below),
  ``ground = up axis + 1`` (0 otherwise) and ``floor``, the coordinate along
  that axis down to which it is solid (:mod:`~sidestep.kernels3d.ground`);
* ``PRIM_BOX``: ``[minx, miny, minz, maxx, maxy, maxz, interior]``, solid;
  ``interior`` 1 for the merged boxes that stand for the inside of a voxel
  table, whose surface is its own front-only triangles: such a box answers
  only separations <= 0 (``inf`` outside), never stops a sweep, and stops a
  ray only at 0, from inside;
* ``PRIM_SPHERE``: ``[cx, cy, cz, radius]``, solid;
* ``PRIM_CYLINDER``: ``[bx, by, bz, axis, radius, height]``, solid, upright
  along coordinate ``axis`` from the centre of its base.

A box or cylinder in a rigid body (:mod:`sidestep.bodies`) keeps its
parameters in the body's own frame and names that frame in its last slot,
``S_FRAME``: the frame's first row in ``vertices`` plus one (0: the world's
axes). A frame is four rows of the corner pool, the rows of its rotation
``R`` then its position ``t`` (a point ``x`` of the body is at ``R x + t``);
a pose of the body rewrites those four rows, not the solids. Each kernel
below reads such a solid in its frame: it turns the query (core, motion,
ray) into the frame, calls the axis-aligned kernel and turns the normal and
point back (:func:`into_frame`, :func:`out_of_frame`), so a box in a turned
body is an oriented box and a cylinder a tilted one. Spheres, panels and
mesh triangles in a body are written in world coordinates at each pose.

The agent is a sphere or an upright capsule: to the kernels, a **core**
segment ``a -> b`` (``a == b`` for a sphere) and a radius.
"""
import math
from collections import namedtuple

import numpy as np
from numba import njit

from ..kernels.borrow import borrow
from ..kernels.row_queue import next_rows
from . import bvh as _bvh
from .box import ray_box, separation_capsule_box, sweep_capsule_box
from .cylinder import ray_cylinder, separation_capsule_cylinder, sweep_capsule_cylinder
from .ground import depth_below_triangle
from .polygon import TRIANGLE_ROW as _CORNERS_NORMAL_FRONT
from .polygon import (ray_polygon, ray_triangle, separation_capsule_polygon, sweep_capsule_polygon,
                      triangle_gap)
from .sphere import ray_sphere, separation_capsule_sphere, sweep_capsule_sphere

PRIM_POLYGON = 0
PRIM_BOX = 1
PRIM_SPHERE = 2
PRIM_CYLINDER = 3

#: Floats of parameters per primitive row.
PARAMS = 9
# Polygon rows.
P_FIRST, P_COUNT, P_NX, P_NY, P_NZ, P_EDGES, P_FRONT, P_GROUND, P_FLOOR = range(9)
# Box rows: the interior flag.
B_INTERIOR = 6
# Box and cylinder rows: their body's frame, its first row in `vertices` plus one (0: none).
S_FRAME = 8
#: Rows of the corner pool per body frame: R's three rows, then the position.
FRAME_ROWS = 4

#: Contact rows one query or slide pass handles at once.
MAX_PLANES = 32
#: Primitives a slide pass remembers as within reach of its motion (more: it asks the tree).
MAX_NEAR = 64

# flags[F_REMOVED]: 1 once an obstacle was removed (only then are alive flags read).
F_REMOVED = 0
# flags[F_TRIANGLES]: 1 when every primitive is a triangle (a mesh level): a batch of
# rays then tests leaves with a loop that holds no other family's code (which, never
# run, still slowed the loop by a quarter: W3, one thread, 0.96 -> 0.75 s).
F_TRIANGLES = 1

Packed3D = namedtuple("Packed3D", [
    "kind",       # (m,) int64 primitive kind
    "owner",      # (m,) int64 obstacle id
    "part",       # (m,) int64 part (mesh triangle index, -1 otherwise)
    "params",     # (m, PARAMS) float64
    "vertices",   # (v, 3) float64 corners of panels and mesh triangles, and body frames
    "loop",       # (l,) int64 corner indices, read from each polygon's first
    "alive",      # (ids,) uint8
    "flags",      # (2,) int64: F_REMOVED, F_TRIANGLES
    "tree",       # the bounding volume hierarchy over the primitives' boxes
    "triangles",  # (m, TRIANGLE_ROW) float64: row k, the triangle tree.order[k] (NaN: none)
])

# A row of Packed3D.triangles: what ray_triangle reads, then the triangle's
# obstacle id and part (so a hit reads nothing else from memory).
T_OWNER = _CORNERS_NORMAL_FRONT
T_PART = T_OWNER + 1
TRIANGLE_ROW = T_PART + 1

# Scratch per thread (or per agent): flat float and int buffers.
S_NORMALS = 0                       # floats, (MAX_PLANES, 3)
S_SEPARATIONS = 3 * MAX_PLANES      # floats, (MAX_PLANES,)
S_POINTS = 4 * MAX_PLANES           # floats, (MAX_PLANES, 3)
S_BOUNDS = 7 * MAX_PLANES           # floats, (MAX_PLANES,)
SCRATCH_FLOATS = 8 * MAX_PLANES
S_OWNERS = 0                        # ints, (MAX_PLANES,) obstacle id per contact row
S_PRIMS = MAX_PLANES                # ints, (MAX_PLANES,) primitive per contact row
S_PARTS = 2 * MAX_PLANES            # ints, (MAX_PLANES,) part per contact row
S_NEAR = 3 * MAX_PLANES             # ints, (MAX_NEAR,) primitives a slide pass may reach
SCRATCH_INTS = 3 * MAX_PLANES + MAX_NEAR


def scratch():
    """Fresh scratch buffers ``(floats, ints)`` for one agent."""
    return np.zeros(SCRATCH_FLOATS), np.zeros(SCRATCH_INTS, dtype=np.int64)


@njit(cache=True, inline="always")
def borrowed(world):
    """``world`` with every array borrowed (:mod:`sidestep.kernels.borrow`).

    Each primitive a kernel reads takes a view of a parameter row; views of
    borrowed arrays are not reference counted, which spares two atomic
    operations per view (on one cache line all threads share). Every kernel
    that takes a world and is not inlined calls this first, entry kernel or
    not: a compiled callee cannot see that its caller's arrays are borrowed,
    so without it each view it takes is counted again (a character's frame
    spent a third of its time on that: W5, 15 -> 9.5 us a frame). Its caller
    keeps the packed world alive for the call; nothing borrowed is returned.
    """
    t = world.tree
    tree = _bvh.BVH(borrow(t.boxes), borrow(t.links), borrow(t.parents), borrow(t.order),
                    borrow(t.leaf_of), t.depth, t.leaves)
    return Packed3D(borrow(world.kind), borrow(world.owner), borrow(world.part),
                    borrow(world.params), borrow(world.vertices), borrow(world.loop),
                    borrow(world.alive), borrow(world.flags), tree, borrow(world.triangles))


@njit(cache=True, inline="always")
def frame_of(p):
    """The first row in ``vertices`` of the frame a box's or cylinder's row ``p`` is read in
    (-1: the world's axes)."""
    return int(p[S_FRAME]) - 1


@njit(cache=True, inline="always")
def turn_into(v, f, x, y, z):
    """``R^T x``: direction ``x`` in frame ``f`` (rows ``f..f+3`` of ``v``)."""
    return (v[f, 0] * x + v[f + 1, 0] * y + v[f + 2, 0] * z,
            v[f, 1] * x + v[f + 1, 1] * y + v[f + 2, 1] * z,
            v[f, 2] * x + v[f + 1, 2] * y + v[f + 2, 2] * z)


@njit(cache=True, inline="always")
def into_frame(v, f, x, y, z):
    """``R^T (x - t)``: world point ``x`` in frame ``f``."""
    return turn_into(v, f, x - v[f + 3, 0], y - v[f + 3, 1], z - v[f + 3, 2])


@njit(cache=True, inline="always")
def turn_out(v, f, x, y, z):
    """``R x``: direction ``x`` of frame ``f`` in the world."""
    return (v[f, 0] * x + v[f, 1] * y + v[f, 2] * z,
            v[f + 1, 0] * x + v[f + 1, 1] * y + v[f + 1, 2] * z,
            v[f + 2, 0] * x + v[f + 2, 1] * y + v[f + 2, 2] * z)


@njit(cache=True, inline="always")
def out_of_frame(v, f, x, y, z):
    """``R x + t``: point ``x`` of frame ``f`` in the world."""
    wx, wy, wz = turn_out(v, f, x, y, z)
    return wx + v[f + 3, 0], wy + v[f + 3, 1], wz + v[f + 3, 2]


@njit(cache=True, inline="always")
def _solid_box(k, p):
    # A box's or cylinder's bounding box in its own frame.
    if k == PRIM_BOX:
        return p[0], p[1], p[2], p[3], p[4], p[5]
    axis = int(p[3])
    r = p[4]
    lox, loy, loz, hix, hiy, hiz = p[0] - r, p[1] - r, p[2] - r, p[0] + r, p[1] + r, p[2] + r
    if axis == 0:
        lox, hix = p[0], p[0] + p[5]
    elif axis == 1:
        loy, hiy = p[1], p[1] + p[5]
    else:
        loz, hiz = p[2], p[2] + p[5]
    return lox, loy, loz, hix, hiy, hiz


@njit(cache=True, inline="always")
def _framed_box(v, f, lox, loy, loz, hix, hiy, hiz):
    # The world box around box lo..hi of frame f: its centre turned, and
    # half extents |R| h (Ericson 4.2.6, an AABB of a rotated AABB).
    cx, cy, cz = out_of_frame(v, f, 0.5 * (lox + hix), 0.5 * (loy + hiy), 0.5 * (loz + hiz))
    hx = 0.5 * (hix - lox)
    hy = 0.5 * (hiy - loy)
    hz = 0.5 * (hiz - loz)
    ex = abs(v[f, 0]) * hx + abs(v[f, 1]) * hy + abs(v[f, 2]) * hz
    ey = abs(v[f + 1, 0]) * hx + abs(v[f + 1, 1]) * hy + abs(v[f + 1, 2]) * hz
    ez = abs(v[f + 2, 0]) * hx + abs(v[f + 2, 1]) * hy + abs(v[f + 2, 2]) * hz
    return cx - ex, cy - ey, cz - ez, cx + ex, cy + ey, cz + ez


@njit(cache=True, inline="always")
def core(px, py, pz, half, up):
    """The agent's core segment: ``p -+ half`` along axis ``up`` (``a == b`` for a sphere)."""
    ax = px
    ay = py
    az = pz
    bx = px
    by = py
    bz = pz
    if half > 0.0:
        if up == 0:
            ax -= half
            bx += half
        elif up == 1:
            ay -= half
            by += half
        else:
            az -= half
            bz += half
    return ax, ay, az, bx, by, bz


@njit(cache=True, inline="always")
def prim_alive(world, e):
    """Whether primitive ``e`` belongs to an obstacle still in the world."""
    return world.flags[F_REMOVED] == 0 or world.alive[world.owner[e]] != 0


@njit(cache=True, inline="always")
def _box_gap(ax, ay, az, bx, by, bz, lox, loy, loz, hix, hiy, hiz):
    # The largest gap along an axis between the core's box and the box lo..hi:
    # a lower bound of their distance (0 where the boxes overlap).
    return max(lox - max(ax, bx), min(ax, bx) - hix,
               loy - max(ay, by), min(ay, by) - hiy,
               loz - max(az, bz), min(az, bz) - hiz, 0.0)


@njit(cache=True, inline="always")
def beyond_prim(world, e, ax, ay, az, bx, by, bz, reach):
    """Whether primitive ``e``'s surface is surely farther than ``reach`` from the core ``a -> b``.

    A cheap filter for the exact :func:`separation_prim`: True only when a
    lower bound of the separation (a gap between bounding boxes; for a
    panel the heights of the core's ends over its plane, both on one side;
    for a triangle :func:`~sidestep.kernels3d.polygon.triangle_gap`)
    exceeds ``reach`` by more than rounding (``1e-9`` of the coordinates), so
    a primitive it passes over would have been farther than ``reach`` by the
    exact test too. Ground triangles (solid below) are only passed over
    from above.
    """
    slack = reach + 1e-9 * (1.0 + abs(ax) + abs(ay) + abs(az) + abs(bx - ax) + abs(by - ay)
                            + abs(bz - az))
    k = world.kind[e]
    p = world.params[e]
    if k == PRIM_POLYGON:
        first = int(p[P_FIRST])
        v = world.vertices
        c0 = world.loop[first]
        nx = p[P_NX]
        ny = p[P_NY]
        nz = p[P_NZ]
        ha = nx * (ax - v[c0, 0]) + ny * (ay - v[c0, 1]) + nz * (az - v[c0, 2])
        hb = nx * (bx - v[c0, 0]) + ny * (by - v[c0, 1]) + nz * (bz - v[c0, 2])
        if min(ha, hb) > slack:
            return True
        if p[P_GROUND] != 0.0:
            return False
        if max(ha, hb) < -slack:
            return True
    lox, loy, loz, hix, hiy, hiz = prim_box(k, p, world.vertices, world.loop)
    if _box_gap(ax, ay, az, bx, by, bz, lox, loy, loz, hix, hiy, hiz) > slack:
        return True
    if k == PRIM_POLYGON and p[P_COUNT] == 3.0:
        a = (ax, ay, az)
        b = (bx, by, bz)
        return triangle_gap(world.vertices, world.loop, int(p[P_FIRST]), (p[P_NX], p[P_NY],
                                                                          p[P_NZ]), a, b, a, b) \
            > slack
    return False


@njit(cache=True)
def separation_prim(world, e, ax, ay, az, bx, by, bz):
    """Signed distance from the core ``a -> b`` to primitive ``e``'s surface.

    Returns ``(separation, nx, ny, nz, qx, qy, qz)``: the normal from the
    surface towards the core, and the surface point nearest it. A panel seen
    from behind when only its front blocks is ``inf``; a core under a ground
    triangle is minus its depth, with the normal pointing up out of the ground.
    """
    world = borrowed(world)
    k = world.kind[e]
    p = world.params[e]
    if k == PRIM_POLYGON:
        if p[P_GROUND] != 0.0:
            depth, nx, ny, nz, qx, qy, qz = depth_below_triangle(
                ax, ay, az, bx, by, bz, world.vertices, world.loop, int(p[P_FIRST]), p[P_NX],
                p[P_NY], p[P_NZ], int(p[P_GROUND]) - 1, p[P_FLOOR])
            if depth > 0.0:
                return -depth, nx, ny, nz, qx, qy, qz
        return separation_capsule_polygon(ax, ay, az, bx, by, bz, world.vertices, world.loop,
                                          int(p[P_FIRST]), int(p[P_COUNT]), p[P_NX], p[P_NY],
                                          p[P_NZ], int(p[P_EDGES]), p[P_FRONT] != 0.0)
    if k == PRIM_SPHERE:
        return separation_capsule_sphere(ax, ay, az, bx, by, bz, p[0], p[1], p[2], p[3])
    v = world.vertices
    f = frame_of(p)
    if f >= 0:
        # A solid in a turned body: the core in the body's frame, the answer back.
        ax, ay, az = into_frame(v, f, ax, ay, az)
        bx, by, bz = into_frame(v, f, bx, by, bz)
    if k == PRIM_BOX:
        sep, nx, ny, nz, qx, qy, qz = separation_capsule_box(ax, ay, az, bx, by, bz, p[0], p[1],
                                                             p[2], p[3], p[4], p[5])
        if sep > 0.0 and p[B_INTERIOR] != 0.0:
            return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    else:
        sep, nx, ny, nz, qx, qy, qz = separation_capsule_cylinder(
            ax, ay, az, bx, by, bz, p[0], p[1], p[2], int(p[3]), p[4], p[5])
    if f >= 0:
        nx, ny, nz = turn_out(v, f, nx, ny, nz)
        qx, qy, qz = out_of_frame(v, f, qx, qy, qz)
    return sep, nx, ny, nz, qx, qy, qz


@njit(cache=True)
def surface_normal_prim(world, e, qx, qy, qz, nx, ny, nz, up):
    """The unit normal of the most upright face of primitive ``e`` through its point ``q``.

    Facing the agent, whose contact normal there is ``n``: on a face, the
    face's own normal; on the edge of a box's or an upright cylinder's top
    (axis ``up``), the top's; elsewhere (a rounded surface, a box's other
    edges), ``n``. A character standing on the nose of a step touches it at
    an edge, with a slanted contact normal; this is the step's top.
    """
    world = borrowed(world)
    k = world.kind[e]
    p = world.params[e]
    q = qx if up == 0 else (qy if up == 1 else qz)
    if k == PRIM_POLYGON:
        fx = p[P_NX]
        fy = p[P_NY]
        fz = p[P_NZ]
        if fx * nx + fy * ny + fz * nz < 0.0:
            return -fx, -fy, -fz
        return fx, fy, fz
    f = frame_of(p)
    if f >= 0 and k != PRIM_SPHERE:
        return _framed_surface_normal(world.vertices, f, k, p, qx, qy, qz, nx, ny, nz, up)
    top = math.inf
    if k == PRIM_BOX:
        top = p[3 + up]
    elif k == PRIM_CYLINDER and int(p[3]) == up:
        top = p[up] + p[5]
    if q >= top - 1e-9 * max(1.0, abs(top)):
        return (1.0 if up == 0 else 0.0), (1.0 if up == 1 else 0.0), (1.0 if up == 2 else 0.0)
    return nx, ny, nz


@njit(cache=True)
def _framed_surface_normal(v, f, k, p, qx, qy, qz, nx, ny, nz, up):
    # surface_normal_prim for a box or cylinder of frame f: of its flat faces
    # through q (a box's six, a cylinder's two caps, read in the frame), the
    # one whose world normal rises most, if it rises (by more than rounding)
    # and more than n; else n. In the world's axes this is the top face
    # (the other faces rise by 0), as for a solid read without a frame.
    lx, ly, lz = into_frame(v, f, qx, qy, qz)
    lo0, lo1, lo2, hi0, hi1, hi2 = _solid_box(k, p)
    best = max(nx if up == 0 else (ny if up == 1 else nz), 1e-6)
    bx = nx
    by = ny
    bz = nz
    for face in range(6):
        axis = face // 2
        if k == PRIM_CYLINDER and axis != int(p[3]):
            continue
        upper = face % 2 == 1
        if axis == 0:
            plane = hi0 if upper else lo0
            x = lx
        elif axis == 1:
            plane = hi1 if upper else lo1
            x = ly
        else:
            plane = hi2 if upper else lo2
            x = lz
        if abs(x - plane) > 1e-9 * max(1.0, abs(plane)):
            continue
        s = 1.0 if upper else -1.0
        mx, my, mz = turn_out(v, f, s if axis == 0 else 0.0, s if axis == 1 else 0.0,
                              s if axis == 2 else 0.0)
        rise = mx if up == 0 else (my if up == 1 else mz)
        if rise > best:
            best = rise
            bx = mx
            by = my
            bz = mz
    return bx, by, bz


@njit(cache=True)
def sweep_prim(world, e, ax, ay, az, bx, by, bz, dx, dy, dz, radius, tolerance, level):
    """First touch of the core grown by ``radius`` moving by ``d`` against primitive ``e``.

    Returns ``(fraction, nx, ny, nz)``; ``inf`` for a miss. ``tolerance``
    (world units) is how far outside the contact a searched sweep (the
    cylinder's) may stop. ``level`` (world units, at most ``radius``) is how
    high over a panel's or triangle's face a core gliding along it stays
    (:func:`~.polygon.sweep_capsule_polygon`).
    """
    world = borrowed(world)
    k = world.kind[e]
    p = world.params[e]
    if k == PRIM_POLYGON:
        f, nx, ny, nz, _, _, _ = sweep_capsule_polygon(
            ax, ay, az, bx, by, bz, dx, dy, dz, radius, world.vertices, world.loop,
            int(p[P_FIRST]), int(p[P_COUNT]), p[P_NX], p[P_NY], p[P_NZ], int(p[P_EDGES]),
            p[P_FRONT] != 0.0, level)
    elif k == PRIM_SPHERE:
        f, nx, ny, nz, _, _, _ = sweep_capsule_sphere(ax, ay, az, bx, by, bz, dx, dy, dz,
                                                      radius, p[0], p[1], p[2], p[3])
    else:
        if k == PRIM_BOX and p[B_INTERIOR] != 0.0:
            return math.inf, 0.0, 0.0, 0.0
        v = world.vertices
        frame = frame_of(p)
        if frame >= 0:
            # A solid in a turned body: core and motion in the body's frame.
            ax, ay, az = into_frame(v, frame, ax, ay, az)
            bx, by, bz = into_frame(v, frame, bx, by, bz)
            dx, dy, dz = turn_into(v, frame, dx, dy, dz)
        if k == PRIM_BOX:
            f, nx, ny, nz, _, _, _ = sweep_capsule_box(ax, ay, az, bx, by, bz, dx, dy, dz,
                                                       radius, p[0], p[1], p[2], p[3], p[4],
                                                       p[5])
        else:
            f, nx, ny, nz, _, _, _ = sweep_capsule_cylinder(ax, ay, az, bx, by, bz, dx, dy, dz,
                                                            radius, p[0], p[1], p[2], int(p[3]),
                                                            p[4], p[5], tolerance)
        if frame >= 0:
            nx, ny, nz = turn_out(v, frame, nx, ny, nz)
    return f, nx, ny, nz


@njit(cache=True)
def ray_prim(world, e, ox, oy, oz, ux, uy, uz, max_distance, cull):
    """First hit of the ray ``o + t u`` (``u`` unit, ``0 <= t <= max_distance``) on primitive ``e``.

    ``cull`` culls back faces of every panel and mesh triangle. Returns
    ``(t, nx, ny, nz)``, ``t = inf`` for a miss; the normal faces the ray.
    """
    world = borrowed(world)
    k = world.kind[e]
    p = world.params[e]
    if k == PRIM_POLYGON:
        return ray_polygon(ox, oy, oz, ux, uy, uz, max_distance, world.vertices, world.loop,
                           int(p[P_FIRST]), int(p[P_COUNT]), p[P_NX], p[P_NY], p[P_NZ],
                           cull != 0 or p[P_FRONT] != 0.0)
    if k == PRIM_SPHERE:
        return ray_sphere(ox, oy, oz, ux, uy, uz, max_distance, p[0], p[1], p[2], p[3])
    v = world.vertices
    f = frame_of(p)
    if f >= 0:
        # A solid in a turned body: the ray in the body's frame (distances
        # along it are the same there), the normal back.
        ox, oy, oz = into_frame(v, f, ox, oy, oz)
        ux, uy, uz = turn_into(v, f, ux, uy, uz)
    if k == PRIM_BOX:
        t, nx, ny, nz = ray_box(ox, oy, oz, ux, uy, uz, max_distance, p[0], p[1], p[2], p[3],
                                p[4], p[5])
        if t > 0.0 and p[B_INTERIOR] != 0.0:
            return math.inf, 0.0, 0.0, 0.0
    else:
        t, nx, ny, nz = ray_cylinder(ox, oy, oz, ux, uy, uz, max_distance, p[0], p[1], p[2],
                                     int(p[3]), p[4], p[5])
    if f >= 0:
        nx, ny, nz = turn_out(v, f, nx, ny, nz)
    return t, nx, ny, nz


@njit(cache=True)
def penetrations(world, px, py, pz, half, up, radius, reach, per_primitive, wf, wi, cand):
    """Per obstacle (or per primitive), how the agent at ``p`` stands against it.

    For every live obstacle whose surface comes within ``radius + reach`` of
    the agent's core, one contact row in the scratch buffers, from its nearest
    primitive (with ``per_primitive``, one row per primitive instead: the
    recovery must leave every triangle of a mesh, not only the nearest): its id (``wi[S_OWNERS + row]``), primitive and part, the signed
    separation minus ``radius`` (``wf[S_SEPARATIONS + row]``, negative:
    overlapping by that much), the unit normal towards the agent
    (``S_NORMALS``) and the surface point (``S_POINTS``). Fills at most
    ``MAX_PLANES`` rows and returns their count.
    """
    world = borrowed(world)
    ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
    n = candidates(world, ax, ay, az, bx, by, bz, 0.0, 0.0, 0.0, radius + reach, cand)
    if n > cand.shape[0]:
        cand = np.empty(2 * n, dtype=np.int64)
        n = candidates(world, ax, ay, az, bx, by, bz, 0.0, 0.0, 0.0, radius + reach, cand)
    count = 0
    for k in range(n):
        e = cand[k]
        if not prim_alive(world, e) or beyond_prim(world, e, ax, ay, az, bx, by, bz,
                                                   radius + reach):
            continue
        sep, nx, ny, nz, qx, qy, qz = separation_prim(world, e, ax, ay, az, bx, by, bz)
        sep -= radius
        if sep > reach:
            continue
        owner = world.owner[e]
        row = -1
        if not per_primitive:
            for t in range(count):
                if wi[S_OWNERS + t] == owner:
                    row = t
                    break
        if row < 0:
            if count == MAX_PLANES:
                continue
            row = count
            count += 1
        elif wf[S_SEPARATIONS + row] <= sep:
            continue
        wi[S_OWNERS + row] = owner
        wi[S_PRIMS + row] = e
        wi[S_PARTS + row] = world.part[e]
        wf[S_SEPARATIONS + row] = sep
        wf[S_NORMALS + 3 * row] = nx
        wf[S_NORMALS + 3 * row + 1] = ny
        wf[S_NORMALS + 3 * row + 2] = nz
        wf[S_POINTS + 3 * row] = qx
        wf[S_POINTS + 3 * row + 1] = qy
        wf[S_POINTS + 3 * row + 2] = qz
    return count


@njit(cache=True, inline="always")
def prim_box(k, p, vertices, loop):
    """The bounding box ``(minx, miny, minz, maxx, maxy, maxz)`` of a primitive of kind
    ``k`` and parameter row ``p`` (a ground triangle's reaches down to its floor)."""
    if k == PRIM_POLYGON:
        first = int(p[P_FIRST])
        c = loop[first]
        lox = hix = vertices[c, 0]
        loy = hiy = vertices[c, 1]
        loz = hiz = vertices[c, 2]
        for t in range(first + 1, first + int(p[P_COUNT])):
            c = loop[t]
            lox = min(lox, vertices[c, 0])
            hix = max(hix, vertices[c, 0])
            loy = min(loy, vertices[c, 1])
            hiy = max(hiy, vertices[c, 1])
            loz = min(loz, vertices[c, 2])
            hiz = max(hiz, vertices[c, 2])
        if p[P_GROUND] != 0.0:
            axis = int(p[P_GROUND]) - 1
            if axis == 0:
                lox = min(lox, p[P_FLOOR])
            elif axis == 1:
                loy = min(loy, p[P_FLOOR])
            else:
                loz = min(loz, p[P_FLOOR])
        return lox, loy, loz, hix, hiy, hiz
    if k == PRIM_SPHERE:
        return p[0] - p[3], p[1] - p[3], p[2] - p[3], p[0] + p[3], p[1] + p[3], p[2] + p[3]
    lox, loy, loz, hix, hiy, hiz = _solid_box(k, p)
    f = frame_of(p)
    if f < 0:
        return lox, loy, loz, hix, hiy, hiz
    lox, loy, loz, hix, hiy, hiz = _framed_box(vertices, f, lox, loy, loz, hix, hiy, hiz)
    # Grown by more than the rounding of a corner turned into the world, so
    # that the hierarchy never drops a solid a query's box just touches.
    m = 1e-12 * (1.0 + max(abs(lox), abs(loy), abs(loz), abs(hix), abs(hiy), abs(hiz)))
    return lox - m, loy - m, loz - m, hix + m, hiy + m, hiz + m


@njit(cache=True)
def primitive_boxes(kind, params, vertices, loop):
    """``(m, 6)`` bounding boxes ``[min (3), max (3)]`` of every primitive's surface
    (a ground triangle's box reaches down to its floor)."""
    m = kind.shape[0]
    out = np.empty((m, 6))
    for e in range(m):
        box = prim_box(kind[e], params[e], vertices, loop)
        for a in range(6):
            out[e, a] = box[a]
    return out


@njit(cache=True)
def translate_primitives(params, vertices, prims, kinds, ranges, offset):
    """Move primitives ``prims`` (of ``kinds``) by ``offset (3,)``, in place.

    Solids move their parameters (a ground triangle its floor); panels and
    mesh triangles move with their corners, the ``ranges (k, 2)`` ``[first,
    count]`` of ``vertices`` their obstacles own (shared by a mesh's triangles).
    The store and its packed copy both move through here, with the same
    arithmetic.
    """
    for t in range(prims.shape[0]):
        e = prims[t]
        k = kinds[t]
        if k == PRIM_POLYGON:
            if params[e, P_GROUND] != 0.0:
                params[e, P_FLOOR] += offset[int(params[e, P_GROUND]) - 1]
        elif k == PRIM_BOX:
            for a in range(3):
                params[e, a] += offset[a]
                params[e, 3 + a] += offset[a]
        else:
            for a in range(3):
                params[e, a] += offset[a]
    for r in range(ranges.shape[0]):
        for i in range(ranges[r, 0], ranges[r, 0] + ranges[r, 1]):
            for a in range(3):
                vertices[i, a] += offset[a]


@njit(cache=True, inline="always")
def candidates(world, ax, ay, az, bx, by, bz, dx, dy, dz, reach, out):
    """Primitives whose box comes within ``reach`` of the core ``a -> b`` swept by ``d``.

    Writes their indices to ``out`` and returns how many there are; when that
    is more than ``out`` holds, only the first ``len(out)`` are written and the
    caller asks again with a larger buffer. A conservative filter (box against
    box): the exact tests follow. The hierarchy's leaves come from
    :func:`~sidestep.kernels3d.bvh.primitives_in_box` (inlined here, so the
    call passes the tree alone, not the whole world).
    """
    lo_x = min(ax, bx, ax + dx, bx + dx) - reach
    lo_y = min(ay, by, ay + dy, by + dy) - reach
    lo_z = min(az, bz, az + dz, bz + dz) - reach
    hi_x = max(ax, bx, ax + dx, bx + dx) + reach
    hi_y = max(ay, by, ay + dy, by + dy) + reach
    hi_z = max(az, bz, az + dz, bz + dz) + reach
    return _bvh.primitives_in_box(world.tree, lo_x, lo_y, lo_z, hi_x, hi_y, hi_z, out)


@njit(cache=True)
def world_radius(world, px, py, pz):
    """Distance from ``p`` to the farthest corner of the box around every primitive."""
    world = borrowed(world)
    b = world.tree.boxes
    if b.shape[0] == 0:
        return 0.0
    fx = max(abs(px - b[0, 0]), abs(px - b[0, 3]))
    fy = max(abs(py - b[0, 1]), abs(py - b[0, 4]))
    fz = max(abs(pz - b[0, 2]), abs(pz - b[0, 5]))
    return math.sqrt(fx * fx + fy * fy + fz * fz)


@njit(cache=True)
def nearest_point(world, px, py, pz, nodes, keys, state):
    """Nearest obstacle surface to ``p``, however far.

    Returns ``(owner, part, separation, nx, ny, nz, qx, qy, qz)``; ``owner``
    -1 and ``inf`` in an empty world. Leaves come nearest box first; once a
    leaf's box is farther than the best surface found, nothing nearer is
    left. ``nodes``, ``keys``, ``state`` are the hierarchy's cursor scratch.
    """
    world = borrowed(world)
    bo = -1
    bp = -1
    best = math.inf
    bnx = bny = bnz = bqx = bqy = bqz = 0.0
    tree = world.tree
    if tree.order.shape[0] == 0:
        return bo, bp, best, bnx, bny, bnz, bqx, bqy, bqz
    _bvh.start_nearest(tree, nodes, keys, state, px, py, pz, math.inf)
    while True:
        # A point inside a solid has a negative separation; its box holds the
        # point (distance 0), so it comes before any box farther than 0.
        first, count, d_box = _bvh.next_leaf_nearest(tree, nodes, keys, state, px, py, pz,
                                                     max(best, 0.0))
        if count == 0:
            break
        for k in range(first, first + count):
            e = tree.order[k]
            if not prim_alive(world, e):
                continue
            sep, nx, ny, nz, qx, qy, qz = separation_prim(world, e, px, py, pz, px, py, pz)
            if sep < best:
                best = sep
                bo = world.owner[e]
                bp = world.part[e]
                bnx, bny, bnz, bqx, bqy, bqz = nx, ny, nz, qx, qy, qz
    return bo, bp, best, bnx, bny, bnz, bqx, bqy, bqz


@njit(cache=True, forceinline=True)
def raycast_point(world, ox, oy, oz, ux, uy, uz, max_distance, cull, nodes, keys, state):
    """First obstacle surface along the ray ``o + t u`` (``u`` unit, ``t <= max_distance``).

    Returns ``(owner, part, t, nx, ny, nz)``; ``owner`` -1 and ``inf`` on a
    miss. A ray that starts inside a solid (or on any surface) hits it at 0,
    with the surface's normal. The walk never opens a subtree the ray enters
    beyond the nearest hit found so far.
    """
    bo = -1
    bp = -1
    best = math.inf
    bnx = bny = bnz = 0.0
    tree = world.tree
    if tree.order.shape[0] == 0:
        return bo, bp, best, bnx, bny, bnz
    ix = _bvh.inverse(ux)
    iy = _bvh.inverse(uy)
    iz = _bvh.inverse(uz)
    limit = max_distance
    _bvh.start_ray(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, limit)
    while True:
        first, count, t_enter = _bvh.next_leaf_ray(tree, nodes, keys, state, ox, oy, oz, ix,
                                                   iy, iz, limit)
        if count == 0:
            break
        rows = world.triangles
        for k in range(first, first + count):
            if rows[k, 0] == rows[k, 0]:
                # A triangle (not NaN): everything about it is in this row,
                # the leaf's rows one after the other.
                o = int(rows[k, T_OWNER])
                if world.flags[F_REMOVED] != 0 and world.alive[o] == 0:
                    continue
                t, nx, ny, nz = ray_triangle(ox, oy, oz, ux, uy, uz, limit, rows, k,
                                             cull != 0 or rows[k, 12] != 0.0)
                if t < best:
                    best = t
                    limit = t
                    bo = o
                    bp = int(rows[k, T_PART])
                    bnx, bny, bnz = nx, ny, nz
                continue
            e = tree.order[k]
            if not prim_alive(world, e):
                continue
            if t_enter == 0.0 and world.kind[e] != PRIM_POLYGON:
                # The origin may be inside this solid: then the ray is blocked at once.
                sep, nx, ny, nz, _, _, _ = separation_prim(world, e, ox, oy, oz, ox, oy, oz)
                if sep <= 0.0:
                    return world.owner[e], world.part[e], 0.0, nx, ny, nz
            t, nx, ny, nz = ray_prim(world, e, ox, oy, oz, ux, uy, uz, limit, cull)
            if t < best:
                best = t
                limit = t
                bo = world.owner[e]
                bp = world.part[e]
                bnx, bny, bnz = nx, ny, nz
    if best > max_distance:
        return -1, -1, math.inf, 0.0, 0.0, 0.0
    return bo, bp, best, bnx, bny, bnz


@njit(cache=True, forceinline=True)
def raycast_triangles(world, ox, oy, oz, ux, uy, uz, max_distance, cull, nodes, keys, state):
    """:func:`raycast_point` for a world whose primitives are all triangles (``F_TRIANGLES``).

    The same walk and the same triangle test, so the same answer bit for
    bit; the leaf loop reads only :attr:`Packed3D.triangles` rows.
    """
    bo = -1
    bp = -1
    best = math.inf
    bnx = bny = bnz = 0.0
    tree = world.tree
    if tree.order.shape[0] == 0:
        return bo, bp, best, bnx, bny, bnz
    ix = _bvh.inverse(ux)
    iy = _bvh.inverse(uy)
    iz = _bvh.inverse(uz)
    limit = max_distance
    rows = world.triangles
    removed = world.flags[F_REMOVED] != 0
    _bvh.start_ray(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, limit)
    while True:
        first, count, _ = _bvh.next_leaf_ray(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz,
                                             limit)
        if count == 0:
            break
        for k in range(first, first + count):
            o = int(rows[k, T_OWNER])
            if removed and world.alive[o] == 0:
                continue
            t, nx, ny, nz = ray_triangle(ox, oy, oz, ux, uy, uz, limit, rows, k,
                                         cull != 0 or rows[k, 12] != 0.0)
            if t < best:
                best = t
                limit = t
                bo = o
                bp = int(rows[k, T_PART])
                bnx, bny, bnz = nx, ny, nz
    if best > max_distance:
        return -1, -1, math.inf, 0.0, 0.0, 0.0
    return bo, bp, best, bnx, bny, bnz


@njit(cache=True)
def _cursor(tree):
    # Scratch for one best-first cursor over ``tree`` (see bvh.cursor_size).
    k = max(tree.leaves, 1) + 1
    return np.empty(k, dtype=np.int32), np.empty(k), np.zeros(1, dtype=np.int64)


@njit(cache=True, nogil=True)
def nearest_points(world, points, owner, part, separation, normal, surface, queue):
    """:func:`nearest_point` for the rows of ``points (n, 3)`` taken from ``queue``."""
    world = borrowed(world)
    nodes, keys, state = _cursor(world.tree)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for p in range(first, stop):
            o, pt, sep, nx, ny, nz, qx, qy, qz = nearest_point(world, points[p, 0], points[p, 1],
                                                               points[p, 2], nodes, keys,
                                                               state)
            owner[p] = o
            part[p] = pt
            separation[p] = sep
            normal[p, 0] = nx
            normal[p, 1] = ny
            normal[p, 2] = nz
            surface[p, 0] = qx
            surface[p, 1] = qy
            surface[p, 2] = qz


#: Rays a thread gathers, casts and puts back at a time. Their copies and
#: answers (112 bytes a ray) stay in the thread's cache, instead of whole-batch
#: copies that a fresh process must first touch (about 100 MB for a million
#: rays, up to 2 ms per MB on a virtual machine) and that the cast reads back
#: from memory.
RAY_BLOCK = 2048


@njit(cache=True, inline="always")
def _ray_block(n):
    # Per-thread copies of a block of rays and their answers.
    return (np.empty((n, 3)), np.empty((n, 3)), np.empty(n), np.empty(n, dtype=np.int64),
            np.empty(n, dtype=np.int64), np.empty(n), np.empty((n, 3)))


@njit(cache=True, inline="always")
def _gather_rays(origins, directions, max_distance, order, first, stop, o, u, md, zero):
    # Rows first..stop of the cast order into the block's rows 0..: copies of
    # the rays order[r], their directions made unit (summed in the order
    # NumPy's (d * d).sum(axis=1) does). A zero direction sets zero[0] to its
    # input row (any one, over all threads) and the block casts it along +x,
    # an answer the caller throws away. max_distance holds one number
    # for every ray, or one per ray.
    per_ray = max_distance.shape[0] > 1
    for r in range(first, stop):
        i = order[r]
        k = r - first
        dx = directions[i, 0]
        dy = directions[i, 1]
        dz = directions[i, 2]
        norm = math.sqrt(dx * dx + dy * dy + dz * dz)
        if norm == 0.0:
            zero[0] = i         # the batch is refused; cast along +x meanwhile
            dx = norm = 1.0
        o[k, 0] = origins[i, 0]
        o[k, 1] = origins[i, 1]
        o[k, 2] = origins[i, 2]
        u[k, 0] = dx / norm
        u[k, 1] = dy / norm
        u[k, 2] = dz / norm
        md[k] = max_distance[i if per_ray else 0]


@njit(cache=True, inline="always")
def _answer(k, o, pt, t, nx, ny, nz, owner, part, distance, normal):
    # Row k of a block's answers.
    owner[k] = o
    part[k] = pt
    distance[k] = t
    normal[k, 0] = nx
    normal[k, 1] = ny
    normal[k, 2] = nz


@njit(cache=True, inline="always")
def _put_back_rays(order, first, stop, o, u, owner, part, distance, normal, out_owner,
                   out_part, out_distance, out_normal, out_point):
    # The block's answers into the callers' rows order[r], with the hit
    # points origin + distance * unit (NaN on a miss). Written here, in a loop
    # of their own, the scattered rows cost a quarter of what they did from
    # inside the cast.
    for r in range(first, stop):
        i = order[r]
        k = r - first
        out_owner[i] = owner[k]
        out_part[i] = part[k]
        out_distance[i] = distance[k]
        for a in range(3):
            out_normal[i, a] = normal[k, a]
            out_point[i, a] = (o[k, a] + distance[k] * u[k, a] if owner[k] >= 0
                               else math.nan)


@njit(cache=True, nogil=True)
def raycast_points(world, origins, directions, max_distance, order, cull, zero, out_owner,
                   out_part, out_distance, out_normal, out_point, queue):
    """:func:`raycast_point` for a batch of rays, cast in ``order`` (:func:`ray_order`).

    The rows ``r`` taken from ``queue`` are the rays ``order[r]`` of
    ``origins, directions (n, 3)`` (any length, not zero) and
    ``max_distance`` (``(1,)`` for all or ``(n,)``); their answers land in
    rows ``order[r]`` of ``out_owner, out_part, out_distance (n,)`` and
    ``out_normal, out_point (n, 3)``. A thread takes :data:`RAY_BLOCK` rays
    at a time: gathers unit copies of them, casts them, puts the answers
    back. A zero direction sets ``zero[0]`` to its row (the caller refuses
    the batch). A world of triangles only takes
    :func:`raycast_points_triangles` instead.
    """
    world = borrowed(world)
    nodes, keys, state = _cursor(world.tree)
    o, u, md, owner, part, distance, normal = _ray_block(min(RAY_BLOCK, order.shape[0]))
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for b in range(first, stop, RAY_BLOCK):
            e = min(b + RAY_BLOCK, stop)
            _gather_rays(origins, directions, max_distance, order, b, e, o, u, md, zero)
            for k in range(e - b):
                h, pt, t, nx, ny, nz = raycast_point(world, o[k, 0], o[k, 1], o[k, 2], u[k, 0],
                                                     u[k, 1], u[k, 2], md[k], cull, nodes,
                                                     keys, state)
                _answer(k, h, pt, t, nx, ny, nz, owner, part, distance, normal)
            _put_back_rays(order, b, e, o, u, owner, part, distance, normal, out_owner,
                           out_part, out_distance, out_normal, out_point)


@njit(cache=True, nogil=True)
def raycast_points_triangles(world, origins, directions, max_distance, order, cull, zero,
                             out_owner, out_part, out_distance, out_normal, out_point, queue):
    """:func:`raycast_points` for a world of triangles only (``flags[F_TRIANGLES]``), by
    :func:`raycast_triangles`: the same answers."""
    world = borrowed(world)
    nodes, keys, state = _cursor(world.tree)
    o, u, md, owner, part, distance, normal = _ray_block(min(RAY_BLOCK, order.shape[0]))
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for b in range(first, stop, RAY_BLOCK):
            e = min(b + RAY_BLOCK, stop)
            _gather_rays(origins, directions, max_distance, order, b, e, o, u, md, zero)
            for k in range(e - b):
                h, pt, t, nx, ny, nz = raycast_triangles(world, o[k, 0], o[k, 1], o[k, 2],
                                                         u[k, 0], u[k, 1], u[k, 2], md[k],
                                                         cull, nodes, keys, state)
                _answer(k, h, pt, t, nx, ny, nz, owner, part, distance, normal)
            _put_back_rays(order, b, e, o, u, owner, part, distance, normal, out_owner,
                           out_part, out_distance, out_normal, out_point)


#: Bits per axis of the cells :func:`ray_order` sorts origins into: 64 cells
#: across the batch's extent on each axis (``_spread_bits`` spreads 6 bits).
ORDER_BITS = 6


@njit(cache=True, inline="always")
def _spread_bits(c):
    # Bit b of c (ORDER_BITS = 6 bits) to bit 3 b: one axis of a Morton code.
    c &= 0x3F
    c = (c | (c << 8)) & 0x300F
    c = (c | (c << 4)) & 0x30C3
    c = (c | (c << 2)) & 0x9249
    return c


@njit(cache=True)
def ray_order(origins):
    """The order to cast a batch of rays in: ``(n,) int64``, origins cell by cell.

    Each origin gets the Morton code of its cell on a grid of
    ``2**ORDER_BITS`` cells per axis spanning the batch's bounds, and a
    counting sort by that code (stable: rays of one cell keep their order)
    puts rays that start near each other one after the other, so that a ray
    finds the hierarchy's nodes its neighbour just walked in the cache. The
    answers do not depend on the order, only the time.
    """
    n = origins.shape[0]
    order = np.arange(n)
    if n == 0:
        return order
    lo = np.full(3, np.inf)
    hi = np.full(3, -np.inf)
    for r in range(n):                 # one pass over the rows, not two per column
        for a in range(3):
            lo[a] = min(lo[a], origins[r, a])
            hi[a] = max(hi[a], origins[r, a])
    per_unit = np.empty(3)
    cells = (1 << ORDER_BITS) - 1
    for a in range(3):
        span = hi[a] - lo[a]
        per_unit[a] = cells / span if span > 0.0 else 0.0
    codes = np.empty(n, dtype=np.int64)
    start = np.zeros((1 << (3 * ORDER_BITS)) + 1, dtype=np.int64)
    for r in range(n):
        code = 0
        for a in range(3):
            code |= _spread_bits(int((origins[r, a] - lo[a]) * per_unit[a])) << a
        codes[r] = code
        start[code + 1] += 1
    for k in range(1, start.shape[0]):
        start[k] += start[k - 1]
    for r in range(n):
        order[start[codes[r]]] = r
        start[codes[r]] += 1
    return order


@njit(cache=True)
def overlapping_owners(world, px, py, pz, radius, half, up):
    """Ids of the live obstacles within ``radius`` of the core at ``p`` (unsorted, no repeats)."""
    world = borrowed(world)
    ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
    cand = np.empty(64, dtype=np.int64)
    n = candidates(world, ax, ay, az, bx, by, bz, 0.0, 0.0, 0.0, radius, cand)
    if n > cand.shape[0]:
        cand = np.empty(2 * n, dtype=np.int64)
        n = candidates(world, ax, ay, az, bx, by, bz, 0.0, 0.0, 0.0, radius, cand)
    found = np.empty(n, dtype=np.int64)
    m = 0
    for k in range(n):
        e = cand[k]
        if not prim_alive(world, e):
            continue
        owner = world.owner[e]
        seen = False
        for t in range(m):
            if found[t] == owner:
                seen = True
                break
        if seen:
            continue
        sep, _, _, _, _, _, _ = separation_prim(world, e, ax, ay, az, bx, by, bz)
        if sep <= radius:
            found[m] = owner
            m += 1
    return found[:m].copy()


def pack(kind, owner, part, params, vertices, loop, alive, removed, boxes):
    """The world as the kernels read it: a :class:`Packed3D` with a fresh hierarchy
    over the primitives' ``boxes`` (:func:`primitive_boxes`)."""
    tree = _bvh.build_bvh(boxes)
    rows = triangle_rows(kind, owner, part, params, vertices, loop, tree.order)
    all_triangles = len(rows) > 0 and not np.isnan(rows[:, 0]).any()
    flags = np.array([1 if removed else 0, 1 if all_triangles else 0], dtype=np.int64)
    return Packed3D(kind.copy(), owner.copy(), part.copy(), params.copy(), vertices.copy(),
                    loop.copy(), alive.copy(), flags, tree, rows)


def translate_packed(world, boxes, row_of, prims, ranges, offset):
    """Move primitives ``prims`` of a packed ``world`` by ``offset (3,)``, in place.

    What :meth:`~sidestep.storage3d.Store3D.translate` does to the stored
    arrays, done to the packed copies with the same arithmetic (solids'
    parameters, the corner ``ranges (k, 2)`` ``[first, count]``), then the
    moved primitives' ``boxes`` and triangle rows (``row_of``: each
    primitive's row in leaf order) and the hierarchy's nodes above them
    (:func:`~sidestep.kernels3d.bvh.refit_primitives`): a kinematic
    platform moved every frame costs the size of the platform, not of the
    level. The hierarchy keeps its shape; the store rebuilds it once a
    moved obstacle has travelled far (see the store).
    """
    translate_primitives(world.params, world.vertices, prims, world.kind[prims], ranges, offset)
    boxes[prims] = primitive_boxes(world.kind[prims], world.params[prims], world.vertices,
                                   world.loop)
    rows = triangle_rows(world.kind, world.owner, world.part, world.params, world.vertices,
                         world.loop, prims)
    world.triangles[row_of[prims]] = rows
    _bvh.refit_primitives(world.tree, boxes, prims)


def triangle_rows(kind, owner, part, params, vertices, loop, order):
    """``(m, TRIANGLE_ROW)``: row ``k`` the corners, normal, front flag, obstacle id
    and part of the primitive ``order[k]`` if it is a triangle (a 3-corner
    panel or a mesh triangle), NaN otherwise
    (:func:`~sidestep.kernels3d.polygon.ray_triangle` reads the first 13).

    Rows follow the hierarchy's leaf order, so a ray testing a leaf's
    triangles reads consecutive rows and nothing else. 120 bytes per primitive.
    """
    rows = np.full((len(order), TRIANGLE_ROW), np.nan)
    if len(order) == 0:
        return rows
    p = params[order]
    tri = (kind[order] == PRIM_POLYGON) & (p[:, P_COUNT] == 3)
    first = p[tri, P_FIRST].astype(np.int64)
    for c in range(3):
        rows[tri, 3 * c:3 * c + 3] = vertices[loop[first + c]]
    rows[tri, 9:12] = p[tri, P_NX:P_NZ + 1]
    rows[tri, 12] = p[tri, P_FRONT]
    rows[tri, T_OWNER] = owner[order[tri]]
    rows[tri, T_PART] = part[order[tri]]
    return rows
