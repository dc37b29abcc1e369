"""Writing the poses of 2D bodies into a world's obstacle arrays.

A body's parts are kept in the body's own frame (as they were added, pose
identity); :func:`pose_bodies_2d` writes ``x_world = R(angle) x + position``
for the parts of the bodies given, into the store's arrays and, when the
world is packed, into the packed buffer: capsule ends, polygon corners,
grid frames (origin and turn), and the bounding boxes of the areas those
make. Its cost is the bodies' parts, never the world's.

Parts of body ``b`` are rows ``first[b]:first[b + 1]`` of each ``*_local``
array, with their rows in the store (``*_store``) and, for items, in the
packed buffer (``item_packed``, -1 when not packed).
"""
import math

from numba import njit

from .world import M_REACH


#: What :func:`check_poses` finds first.
POSES_OK = 0
NO_BODY = 1
TWICE = 2
BAD_POSITION = 3


@njit(cache=True)
def check_poses(bodies, count, positions, limit, seen):
    """The first fault of a ``set_poses`` call, in the order the API reports them.

    ``bodies (k,)`` must each be a body (``0 <= b < count``: else
    ``(NO_BODY, t)``, ``t`` the first such entry), named once (else ``(TWICE,
    t)``, the entry naming one a second time); then every coordinate of
    ``positions (k, dim)`` (``(0, dim)``: none checked) must be finite and within
    ``limit`` of 0 (else ``(BAD_POSITION, row)``). ``(POSES_OK, -1)`` when
    none; ``seen (count,)``, zeros, is left zeros.
    """
    for t in range(bodies.shape[0]):
        if bodies[t] < 0 or bodies[t] >= count:
            return NO_BODY, t
    fault = POSES_OK
    at = -1
    for t in range(bodies.shape[0]):
        if seen[bodies[t]] != 0:
            fault = TWICE
            at = t
            break
        seen[bodies[t]] = 1
    for t in range(bodies.shape[0]):
        seen[bodies[t]] = 0
    if fault != POSES_OK:
        return fault, at
    for t in range(positions.shape[0]):
        for a in range(positions.shape[1]):
            if not abs(positions[t, a]) <= limit:
                return BAD_POSITION, t
    return POSES_OK, -1


@njit(cache=True, inline="always")
def _turn(c, s, tx, ty, x, y):
    # x_world = R x + t, R the turn (c, s) = (cos a, sin a).
    return c * x - s * y + tx, s * x + c * y + ty


@njit(cache=True)
def record_poses_2d(bodies, positions, angles, dt, stamp, pose, motion, extent, position,
                    rotation, previous_position, previous_rotation, body_dt, body_stamp, floats,
                    off_motions, packed):
    """Record new poses of ``bodies``: ``pose (bodies, 4)`` [cos, sin, x, y], the motion
    from the pose before (``motion (bodies, MOTION)``: both poses, the turn the shorter
    way, how far the body's material moved at most, ``stamp``) and the
    :class:`~sidestep.bodies.Bodies` arrays (positions, ``(2, 2)`` rotations, the ones
    before, ``dt``, ``stamp``). The motion rows also go to the packed world when ``packed``.
    Returns the largest reach (``motion[:, M_REACH]``) of all the bodies, 0 for none."""
    for t in range(bodies.shape[0]):
        b = bodies[t]
        c1 = math.cos(angles[t])
        s1 = math.sin(angles[t])
        x1 = positions[t, 0]
        y1 = positions[t, 1]
        c0, s0, x0, y0 = pose[b, 0], pose[b, 1], pose[b, 2], pose[b, 3]
        turn = math.atan2(s1 * c0 - c1 * s0, c1 * c0 + s1 * s0)
        row = (c0, s0, x0, y0, c1, s1, x1, y1, turn,
               math.hypot(x1 - x0, y1 - y0) + abs(turn) * extent[b], float(stamp))
        for k in range(11):
            motion[b, k] = row[k]
            if packed:
                floats[off_motions + 11 * b + k] = row[k]
        pose[b, 0] = c1
        pose[b, 1] = s1
        pose[b, 2] = x1
        pose[b, 3] = y1
        for i in range(2):
            previous_position[b, i] = position[b, i]
            for j in range(2):
                previous_rotation[b, i, j] = rotation[b, i, j]
        position[b, 0] = x1
        position[b, 1] = y1
        rotation[b, 0, 0] = c1
        rotation[b, 0, 1] = -s1
        rotation[b, 1, 0] = s1
        rotation[b, 1, 1] = c1
        body_dt[b] = dt
        body_stamp[b] = stamp
    top = motion[0, M_REACH] if motion.shape[0] else 0.0
    for b in range(1, motion.shape[0]):
        top = max(top, motion[b, M_REACH])
    return top


@njit(cache=True)
def pose_bodies_2d(bodies, pose, item_first, item_local, item_store, item_packed,
                   vertex_first, vertex_local, vertex_store,
                   grid_first, grid_local, grid_store,
                   area_first, area_store, area_kind, area_ref, area_grid, area_span,
                   geometry, vertices, frame, bounds,
                   floats, off_geometry, off_vertices, off_frame, off_bounds, item_width,
                   packed):
    """Write the pose ``pose[b] = (cos, sin, x, y)`` of each body ``b`` in ``bodies``.

    ``item_local (k, 4)`` the capsules' ends; ``vertex_local (v, 2)`` polygon
    corners; ``grid_local (g, 2)`` grid origins; areas are polygons
    (``area_kind`` 1, corners ``area_ref (a, 2)``: first, count) or grids (2,
    grid ``area_grid``, width and height ``area_span (a, 2)``). Store arrays:
    ``geometry (n, 6)``, ``vertices (m, 2)``, ``frame (grids, 5)`` [cell,
    ox, oy, cos, sin], ``bounds (areas, 4)``. When ``packed``, the same
    values go into ``floats`` (the packed buffer's floats) at the offsets
    given (``item_width`` floats per packed item).
    """
    for t in range(bodies.shape[0]):
        b = bodies[t]
        c = pose[b, 0]
        s = pose[b, 1]
        tx = pose[b, 2]
        ty = pose[b, 3]
        for r in range(item_first[b], item_first[b + 1]):
            ax, ay = _turn(c, s, tx, ty, item_local[r, 0], item_local[r, 1])
            bx, by = _turn(c, s, tx, ty, item_local[r, 2], item_local[r, 3])
            e = item_store[r]
            geometry[e, 0] = ax
            geometry[e, 1] = ay
            geometry[e, 2] = bx
            geometry[e, 3] = by
            if packed:
                o = off_geometry + item_width * item_packed[r]
                floats[o] = ax
                floats[o + 1] = ay
                floats[o + 2] = bx
                floats[o + 3] = by
        for r in range(vertex_first[b], vertex_first[b + 1]):
            x, y = _turn(c, s, tx, ty, vertex_local[r, 0], vertex_local[r, 1])
            v = vertex_store[r]
            vertices[v, 0] = x
            vertices[v, 1] = y
            if packed:
                floats[off_vertices + 2 * v] = x
                floats[off_vertices + 2 * v + 1] = y
        for r in range(grid_first[b], grid_first[b + 1]):
            x, y = _turn(c, s, tx, ty, grid_local[r, 0], grid_local[r, 1])
            g = grid_store[r]
            frame[g, 1] = x
            frame[g, 2] = y
            frame[g, 3] = c
            frame[g, 4] = s
            if packed:
                for k in range(1, 5):
                    floats[off_frame + 5 * g + k] = frame[g, k]
        for r in range(area_first[b], area_first[b + 1]):
            a = area_store[r]
            lox = loy = math.inf
            hix = hiy = -math.inf
            if area_kind[r] == 1:
                for v in range(area_ref[r, 0], area_ref[r, 0] + area_ref[r, 1]):
                    lox = min(lox, vertices[v, 0])
                    hix = max(hix, vertices[v, 0])
                    loy = min(loy, vertices[v, 1])
                    hiy = max(hiy, vertices[v, 1])
            else:
                g = area_grid[r]
                for corner in range(4):
                    u = area_span[r, 0] if corner & 1 else 0.0
                    w = area_span[r, 1] if corner & 2 else 0.0
                    x = frame[g, 1] + c * u - s * w
                    y = frame[g, 2] + s * u + c * w
                    lox = min(lox, x)
                    hix = max(hix, x)
                    loy = min(loy, y)
                    hiy = max(hiy, y)
            bounds[a, 0] = lox
            bounds[a, 1] = loy
            bounds[a, 2] = hix
            bounds[a, 3] = hiy
            if packed:
                floats[off_bounds + 4 * a] = lox
                floats[off_bounds + 4 * a + 1] = loy
                floats[off_bounds + 4 * a + 2] = hix
                floats[off_bounds + 4 * a + 3] = hiy
