"""Rigid poses of bodies, 2D and 3D alike: parsing, matrices, and the velocity between two.

A pose maps a body's own frame to the world: ``x_world = R x + position``.
In 2D ``R`` is the turn by ``angle`` (radians, counter-clockwise); in 3D it is
given as a unit quaternion ``(w, x, y, z)`` or a ``(3, 3)`` rotation matrix.
Poses are kept as ``(position (d,), R (d, d))`` in float64; the quaternion
is what :meth:`~sidestep.World3D.pose` gives back.

>>> import numpy as np
>>> from sidestep import poses
>>> R = poses.rotation((0.0, 0.0, 0.0, 1.0))      # half a turn about z
>>> np.round(R @ [1.0, 0.0, 0.0], 12).tolist()
[-1.0, 0.0, 0.0]
>>> np.round(poses.angular_velocity(np.eye(3), R, 2.0), 12).tolist()   # pi over 2 s
[0.0, 0.0, 1.570796326795]
"""
import math

import numpy as np

from . import validation
from .kernels3d.poses import quaternion_matrices
from ._types import FloatArray

#: How far from unit a quaternion's length, or from orthonormal a matrix, may be
#: (rounding in the caller's own maths); it is then normalised.
UNIT_TOLERANCE = 1e-6


def rotation(value: object, name: str = "rotation") -> FloatArray:
    """A 3D rotation as a ``(3, 3)`` matrix, from a unit quaternion ``(w, x, y, z)`` or a matrix.

    Raises ``ValueError`` naming ``name`` for a wrong shape, a non-finite
    value, a quaternion whose length is not 1 or a matrix that is not a
    rotation (both to :data:`UNIT_TOLERANCE`; within it they are normalised).
    """
    arr = validation.as_float_array(value, name)
    if arr.shape not in ((4,), (3, 3)):
        raise ValueError(f"{name} must be a unit quaternion (w, x, y, z) or a (3, 3) rotation "
                         f"matrix, got shape {arr.shape}")
    out: FloatArray = rotations(arr[None], 1, name)[0]
    return out


def rotations(value: object, k: int, name: str = "rotations") -> FloatArray:
    """``k`` 3D rotations as ``(k, 3, 3)`` matrices: :func:`rotation` for many at once.

    ``value``: ``(k, 4)`` unit quaternions ``(w, x, y, z)``, ``(k, 3, 3)``
    rotation matrices, or None (``k`` identities). The same checks and
    normalisation as :func:`rotation`, done on the whole array (no Python
    loop: a thousand bodies' poses are checked in microseconds). Matrices
    are made orthonormal by two Newton steps of the polar decomposition,
    ``R <- (3 R - R R^T R) / 2``, each squaring the error (from
    :data:`UNIT_TOLERANCE` to below rounding).
    """
    if value is None:
        return np.broadcast_to(np.eye(3), (k, 3, 3)).copy()
    arr = validation.as_float_array(value, name)
    if k == 0 and arr.size == 0:
        return np.zeros((0, 3, 3))
    if arr.shape not in ((k, 4), (k, 3, 3)):
        raise ValueError(f"{name} must hold {k} unit quaternions (w, x, y, z) as ({k}, 4) or "
                         f"{k} rotation matrices as ({k}, 3, 3), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    if arr.shape == (k, 4):
        out = np.empty((k, 3, 3))
        i = quaternion_matrices(np.ascontiguousarray(arr), UNIT_TOLERANCE, out)
        if i >= 0:
            raise ValueError(f"{_at(name, k, i)} must be a unit quaternion (w, x, y, z); its "
                             f"length is {np.linalg.norm(arr[i]):g}")
        return out
    gram = arr @ arr.transpose(0, 2, 1)
    off = np.abs(gram - np.eye(3)).reshape(k, 9).max(axis=1) > UNIT_TOLERANCE
    bad = off | (np.linalg.det(arr) <= 0) if k else off
    if np.any(bad):
        i = int(np.argmax(bad))
        raise ValueError(f"{_at(name, k, i)} must be a rotation matrix (orthonormal, "
                         "determinant +1)")
    out = arr
    for _ in range(2):
        out = 1.5 * out - 0.5 * (out @ out.transpose(0, 2, 1) @ out)
    return out


def _at(name: str, k: int, i: int) -> str:
    # The argument an error names: itself for one, its row i for many.
    return name if k == 1 else f"{name}[{i}]"


def quaternion(R: FloatArray) -> FloatArray:
    """The unit quaternion ``(w, x, y, z)`` of rotation matrix ``R``, with ``w >= 0``."""
    # Shepperd's method: take the largest of the four squared components first.
    t = np.trace(R)
    m = R
    if t > 0.0:
        s = 2.0 * math.sqrt(1.0 + t)
        q = np.array([0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s,
                      (m[1, 0] - m[0, 1]) / s])
    else:
        i = int(np.argmax(np.diag(m)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * math.sqrt(max(1.0 + m[i, i] - m[j, j] - m[k, k], 0.0))
        q = np.empty(4)
        q[0] = (m[k, j] - m[j, k]) / s
        q[1 + i] = 0.25 * s
        q[1 + j] = (m[j, i] + m[i, j]) / s
        q[1 + k] = (m[k, i] + m[i, k]) / s
    q /= np.linalg.norm(q)
    out: FloatArray = -q if q[0] < 0.0 else q
    return out


def angular_velocity(before: FloatArray, after: FloatArray, dt: float) -> FloatArray:
    """Angular velocity (rad/s) turning ``before`` into ``after`` over ``dt`` seconds.

    2D: the matrices are ``(2, 2)`` and the answer a ``(1,)`` array (the
    signed turn, the shorter way round); 3D: ``(3,)``, the axis times the
    angle of ``after @ before.T`` (at most pi) over ``dt``.
    """
    delta = after @ before.T
    if delta.shape == (2, 2):
        return np.array([math.atan2(delta[1, 0], delta[0, 0]) / dt])
    # Axis-angle of a rotation matrix: the axis from its skew part, the angle
    # from both the trace and the skew part's length (well conditioned near 0 and pi).
    skew = np.array([delta[2, 1] - delta[1, 2], delta[0, 2] - delta[2, 0],
                     delta[1, 0] - delta[0, 1]])
    sin2 = float(np.linalg.norm(skew))          # 2 sin(angle)
    cos2 = float(np.trace(delta) - 1.0)         # 2 cos(angle)
    angle = math.atan2(sin2, cos2)
    if sin2 > 1e-12:
        return skew * (angle / sin2) / dt
    if cos2 > 0.0:
        return np.zeros(3)
    # Half a turn: the axis is the column of delta + I of largest norm.
    plus = delta + np.eye(3)
    axis = plus[:, int(np.argmax(np.linalg.norm(plus, axis=0)))]
    return axis / np.linalg.norm(axis) * (math.pi / dt)
