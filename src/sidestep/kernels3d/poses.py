"""Writing the poses of 3D bodies into a world's primitive arrays.

The 3D mirror of :mod:`sidestep.kernels.poses`. A body's parts are kept in
the body's own frame (as they were when it was made, pose identity), and
:func:`pose_bodies_3d` writes ``x_world = R x + position`` for the parts of
the bodies given: the body's frame (four rows of the corner pool, which its
boxes and cylinders are read in: :mod:`sidestep.kernels3d.world`), the
corners of its panels and mesh triangles, their normals (and a ground
triangle's floor), its spheres' centres. The store's arrays and the packed
world's copies go through it alike; :func:`pose_packed` then writes the
moved primitives' boxes and triangle rows and refits the hierarchy above
them. Its cost is the bodies' parts, never the world's.

Parts of body ``b`` are rows ``first[b]:first[b + 1]`` of each ``*_local``
array, with their rows in the world's arrays (``*_row``).
"""
import math

import numpy as np
from numba import njit

from . import bvh as _bvh
from .world import (P_COUNT, P_FIRST, P_FLOOR, P_FRONT, P_GROUND, P_NX, PRIM_POLYGON, PRIM_SPHERE,
                    T_OWNER, T_PART, prim_box)


@njit(cache=True)
def quaternion_matrices(q, tolerance, out):
    """Rotation matrices ``out (k, 3, 3)`` of quaternions ``q (k, 4)`` ``(w, x, y, z)``.

    Each is normalised first; returns the first row whose length is farther
    than ``tolerance`` from 1 (then ``out`` is partly written), or -1.
    """
    for i in range(q.shape[0]):
        length = math.sqrt(q[i, 0] ** 2 + q[i, 1] ** 2 + q[i, 2] ** 2 + q[i, 3] ** 2)
        if not abs(length - 1.0) <= tolerance:
            return i
        w = q[i, 0] / length
        x = q[i, 1] / length
        y = q[i, 2] / length
        z = q[i, 3] / length
        out[i, 0, 0] = 1 - 2 * (y * y + z * z)
        out[i, 0, 1] = 2 * (x * y - w * z)
        out[i, 0, 2] = 2 * (x * z + w * y)
        out[i, 1, 0] = 2 * (x * y + w * z)
        out[i, 1, 1] = 1 - 2 * (x * x + z * z)
        out[i, 1, 2] = 2 * (y * z - w * x)
        out[i, 2, 0] = 2 * (x * z - w * y)
        out[i, 2, 1] = 2 * (y * z + w * x)
        out[i, 2, 2] = 1 - 2 * (x * x + y * y)
    return -1


@njit(cache=True, inline="always")
def _apply(R, t, b, x, y, z):
    # R[b] (x, y, z) + t[b].
    return (R[b, 0, 0] * x + R[b, 0, 1] * y + R[b, 0, 2] * z + t[b, 0],
            R[b, 1, 0] * x + R[b, 1, 1] * y + R[b, 1, 2] * z + t[b, 1],
            R[b, 2, 0] * x + R[b, 2, 1] * y + R[b, 2, 2] * z + t[b, 2])


@njit(cache=True)
def pose_bodies_3d(bodies, rotations, positions, frame_row, prim_first, prim_row, prim_kind,
                   prim_local, vertex_first, vertex_row, vertex_local, params, vertices):
    """Write body ``bodies[i]`` at rotation ``rotations[i] (3, 3)``, ``positions[i] (3,)``.

    ``frame_row (bodies,)``: each body's frame's first row in ``vertices``;
    ``prim_local (p, PARAMS)``: its primitives' parameter rows in its frame
    (``prim_row`` their rows of ``params``, ``prim_kind`` their kinds);
    ``vertex_local (v, 3)``: its corners in its frame (``vertex_row`` their
    rows of ``vertices``). A
    ground triangle's floor moves with the position along its up axis (the
    caller has checked that the turn keeps that axis).
    """
    for i in range(bodies.shape[0]):
        b = bodies[i]
        f = frame_row[b]
        for a in range(3):
            for c in range(3):
                vertices[f + a, c] = rotations[i, a, c]
            vertices[f + 3, a] = positions[i, a]
        for r in range(vertex_first[b], vertex_first[b + 1]):
            x, y, z = _apply(rotations, positions, i, vertex_local[r, 0], vertex_local[r, 1],
                             vertex_local[r, 2])
            row = vertex_row[r]
            vertices[row, 0] = x
            vertices[row, 1] = y
            vertices[row, 2] = z
        for r in range(prim_first[b], prim_first[b + 1]):
            e = prim_row[r]
            p = prim_local[r]
            k = prim_kind[r]
            if k == PRIM_POLYGON:
                for a in range(3):
                    params[e, P_NX + a] = rotations[i, a, 0] * p[P_NX] + \
                        rotations[i, a, 1] * p[P_NX + 1] + rotations[i, a, 2] * p[P_NX + 2]
                if p[P_GROUND] != 0.0:
                    params[e, P_FLOOR] = p[P_FLOOR] + positions[i, int(p[P_GROUND]) - 1]
            elif k == PRIM_SPHERE:
                x, y, z = _apply(rotations, positions, i, p[0], p[1], p[2])
                params[e, 0] = x
                params[e, 1] = y
                params[e, 2] = z


@njit(cache=True)
def drift(bodies, rotations, positions, centre, built):
    """How far the farthest of ``bodies`` would stand from where it stood at the build:
    the largest coordinate of ``R centre[b] + position - built[b]``."""
    out = 0.0
    for i in range(bodies.shape[0]):
        b = bodies[i]
        for a in range(3):
            c = rotations[i, a, 0] * centre[b, 0] + rotations[i, a, 1] * centre[b, 1] + \
                rotations[i, a, 2] * centre[b, 2] + positions[i, a]
            out = max(out, abs(c - built[b, a]))
    return out


@njit(cache=True)
def pose_packed(bodies, rotations, positions, frame_row, prim_first, prim_row, prim_kind,
                prim_local, vertex_first, vertex_row, vertex_local, world, boxes, row_of):
    """:func:`pose_bodies_3d` into a packed ``world``, then the moved primitives' ``boxes``
    (their rows ``row_of`` in leaf order give their triangle rows) and the hierarchy
    above them, in place.

    Each moved primitive's leaf is refitted and the walk goes up while a box
    changes (:func:`~sidestep.kernels3d.bvh.refit_primitives`), ``O(moved x
    depth)``; when that would visit more nodes than the tree has (many bodies
    at once) every node is refitted in one pass instead, ``O(nodes)``.
    """
    pose_bodies_3d(bodies, rotations, positions, frame_row, prim_first, prim_row, prim_kind,
                   prim_local, vertex_first, vertex_row, vertex_local, world.params,
                   world.vertices)
    v = world.vertices
    rows = world.triangles
    moved = 0
    for i in range(bodies.shape[0]):
        b = bodies[i]
        moved += prim_first[b + 1] - prim_first[b]
        for r in range(prim_first[b], prim_first[b + 1]):
            e = prim_row[r]
            k = world.kind[e]
            p = world.params[e]
            box = prim_box(k, p, v, world.loop)
            for a in range(6):
                boxes[e, a] = box[a]
            if k == PRIM_POLYGON and p[P_COUNT] == 3.0:
                # The ray's fast path reads the triangle's own row.
                row = row_of[e]
                first = int(p[P_FIRST])
                for c in range(3):
                    corner = world.loop[first + c]
                    for a in range(3):
                        rows[row, 3 * c + a] = v[corner, a]
                for a in range(3):
                    rows[row, 9 + a] = p[P_NX + a]
                rows[row, 12] = p[P_FRONT]
                rows[row, T_OWNER] = world.owner[e]
                rows[row, T_PART] = world.part[e]
    tree = world.tree
    if moved * max(tree.depth, 1) > tree.boxes.shape[0]:
        _bvh.refit(tree, boxes)
        return
    for i in range(bodies.shape[0]):
        b = bodies[i]
        _bvh.refit_primitives(tree, boxes, prim_row[prim_first[b]:prim_first[b + 1]])


@njit(cache=True)
def turns(rotations, previous):
    """Each body's last turn ``rotations[b] previous[b]^T`` as ``(axes (b, 3), angles (b,))``.

    The angle (radians, in ``[0, pi]``, the shorter way) from both the trace and the
    skew part's length (well conditioned near 0 and pi); the unit axis from the skew
    part, or for half a turn the column of ``delta + I`` of largest length; axis x for
    no turn.
    """
    n = rotations.shape[0]
    axes = np.zeros((n, 3))
    angles = np.empty(n)
    d = np.empty((3, 3))
    for b in range(n):
        for i in range(3):
            for k in range(3):
                d[i, k] = rotations[b, i, 0] * previous[b, k, 0] \
                    + rotations[b, i, 1] * previous[b, k, 1] \
                    + rotations[b, i, 2] * previous[b, k, 2]
        sx = d[2, 1] - d[1, 2]
        sy = d[0, 2] - d[2, 0]
        sz = d[1, 0] - d[0, 1]
        sin2 = math.sqrt(sx * sx + sy * sy + sz * sz)
        angle = math.atan2(sin2, d[0, 0] + d[1, 1] + d[2, 2] - 1.0)
        angles[b] = angle
        if sin2 > 1e-12:
            axes[b, 0] = sx / sin2
            axes[b, 1] = sy / sin2
            axes[b, 2] = sz / sin2
        elif angle > 1.0:
            # Half a turn: the axis is the column of delta + I of largest length.
            best = -1.0
            column = 0
            for c in range(3):
                length = math.sqrt((d[0, c] + (c == 0)) ** 2 + (d[1, c] + (c == 1)) ** 2
                                   + (d[2, c] + (c == 2)) ** 2)
                if length > best:
                    best = length
                    column = c
            for a in range(3):
                axes[b, a] = (d[a, column] + (a == column)) / best
        else:
            axes[b, 0] = 1.0
    return axes, angles
