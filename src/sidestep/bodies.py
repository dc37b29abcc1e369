"""Rigid bodies: obstacles that move and turn as one, 2D and 3D alike.

``world.add_body(ids)`` makes already-added obstacles one body: their
coordinates at that moment are the body's own frame (pose identity).
``set_pose`` puts the body at a new pose; ``pose`` and ``velocity`` read it
back. This module keeps the bookkeeping both worlds share (which obstacles
a body holds, its pose before and after the last ``set_pose``, the time
between them); writing a pose into the packed obstacles is the store's job
(:meth:`sidestep.storage.Store.pose_bodies`,
:meth:`sidestep.storage3d.Store3D.pose_bodies`), in proportion to the body's
obstacles, never a rebuild of the world.
"""
import numpy as np

from . import poses, validation
from ._types import FloatArray, Ids, IntArray
from .tolerances import MAX_COORDINATE


class Bodies:
    """Bodies of one world: members, poses, and the motion of the last ``set_pose``.

    Parameters
    ----------
    dim : int
        2 or 3.
    """

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.members: list[IntArray] = []
        #: ``(bodies, dim)`` and ``(bodies, dim, dim)``: each body's pose now...
        self.position = np.zeros((0, dim))
        self.rotation = np.zeros((0, dim, dim))
        #: ... and before its last ``set_pose`` (equal to it until then).
        self.previous_position = np.zeros((0, dim))
        self.previous_rotation = np.zeros((0, dim, dim))
        #: ``(bodies,)``: seconds between those two poses.
        self.dt = np.zeros(0)
        #: How many pose changes there were (each ``set_poses`` call counts one), and
        #: ``(bodies,)`` the number of the one that last moved each body: an agent that
        #: remembers the count at its last step knows which bodies moved since.
        self.count = 0
        self.stamp = np.zeros(0, dtype=np.int64)
        #: obstacle id -> body (-1: none), as long as the ids ever handed out.
        self.body_of = np.zeros(0, dtype=np.int64)
        self._seen = np.zeros(0, dtype=np.uint8)   # check_poses' marks, zeros

    def __len__(self) -> int:
        return len(self.members)

    def add(self, ids: IntArray, n_ids: int) -> int:
        """A new body of obstacles ``ids`` (known, live, in no other body); returns its id."""
        if len(ids) == 0:
            raise ValueError("ids must name at least one obstacle for a body")
        if len(self.body_of) < n_ids:
            self.body_of = np.concatenate([self.body_of,
                                           np.full(n_ids - len(self.body_of), -1, np.int64)])
        taken = self.body_of[ids] >= 0
        if np.any(taken):
            i = int(ids[np.argmax(taken)])
            raise ValueError(f"obstacle {i} is already in body {int(self.body_of[i])}")
        if len(np.unique(ids)) != len(ids):
            raise ValueError("ids must not repeat an obstacle")
        body = len(self.members)
        self.members.append(np.sort(ids))
        self.body_of[ids] = body
        eye = np.eye(self.dim)[None]
        self.position = np.concatenate([self.position, np.zeros((1, self.dim))])
        self.previous_position = np.concatenate([self.previous_position,
                                                 np.zeros((1, self.dim))])
        self.rotation = np.concatenate([self.rotation, eye])
        self.previous_rotation = np.concatenate([self.previous_rotation, eye])
        self.dt = np.concatenate([self.dt, [1.0]])
        self.stamp = np.append(self.stamp, 0)
        return body

    def known(self, bodies: Ids, name: str = "body") -> IntArray:
        """``bodies`` as ``(k,) int64``, each an existing body (else ``KeyError``)."""
        arr = validation.ids(bodies, name)
        bad = (arr < 0) | (arr >= len(self.members))
        if np.any(bad):
            raise KeyError(f"no body with id {int(arr[np.argmax(bad)])} in this world")
        return arr

    def refuse_members(self, ids: IntArray, action: str) -> None:
        """``ValueError`` if one of obstacles ``ids`` is in a body: ``action`` (say
        ``"translate"``) would move it apart from its body; ``set_pose`` moves it."""
        n = len(self.body_of)
        inside = ids[ids < n][self.body_of[ids[ids < n]] >= 0]
        if len(inside):
            i = int(inside[0])
            raise ValueError(f"ids: obstacle {i} is in body {int(self.body_of[i])}; it moves "
                             f"with its body (set_pose), not by {action}")

    def checked(self, bodies: Ids, positions: object) -> tuple[IntArray, FloatArray]:
        """The arguments of ``set_poses``, checked before anything is written.

        Returns ``bodies`` as ``(k,) int64``, each an existing body
        (``KeyError``) named once (``ValueError``), and ``positions`` as
        ``(k, dim) float64``, finite (``ValueError`` naming ``positions``).
        """
        b = validation.ids(bodies, "bodies")
        try:
            p = validation.as_float_array(positions, "positions")
            if p.shape == (self.dim,) and len(b) == 1:
                p = p[None]
            elif p.size == 0 and len(b) == 0:
                p = p.reshape(0, self.dim)        # no bodies, no positions: nothing to do
            if p.shape != (len(b), self.dim):
                raise ValueError(f"positions must hold one ({self.dim},) position per body, "
                                 f"as ({len(b)}, {self.dim}); got shape {p.shape}")
        except (TypeError, ValueError):
            self._fault(b, np.zeros((0, self.dim)))      # a bad body is told first
            raise
        p = np.ascontiguousarray(p)
        self._fault(b, p)
        return b, p

    def _fault(self, bodies: IntArray, positions: FloatArray) -> None:
        # The first fault check_poses finds, raised as the API tells it.
        from .kernels.poses import BAD_POSITION, NO_BODY, TWICE, check_poses
        if len(self._seen) != len(self.members):
            self._seen = np.zeros(len(self.members), dtype=np.uint8)
        fault, at = check_poses(bodies, len(self.members), positions, MAX_COORDINATE,
                                self._seen)
        if fault == NO_BODY:
            raise KeyError(f"no body with id {int(bodies[at])} in this world")
        if fault == TWICE:
            raise ValueError("bodies must not name a body twice")
        if fault == BAD_POSITION:
            raise ValueError(f"positions must be finite and within {MAX_COORDINATE:g} of the "
                             "origin")

    def set(self, bodies: IntArray, positions: FloatArray, rotations: FloatArray,
            dt: float, distinct: bool = False) -> None:
        """Record new poses: the ones they replace become the previous poses.

        With ``distinct`` (no body named twice) and every body named, the
        current and previous arrays swap instead of copying (a frame that
        poses every body).
        """
        self.count += 1
        self.stamp[bodies] = self.count
        if distinct and len(bodies) == len(self.members):
            self.previous_position, self.position = self.position, self.previous_position
            self.previous_rotation, self.rotation = self.rotation, self.previous_rotation
        else:
            self.previous_position[bodies] = self.position[bodies]
            self.previous_rotation[bodies] = self.rotation[bodies]
        self.position[bodies] = positions
        self.rotation[bodies] = rotations
        self.dt[bodies] = dt

    def turns(self) -> tuple[FloatArray, FloatArray]:
        """Every body's last turn ``R R_previous^T`` as ``(axes (bodies, 3), angles
        (bodies,))`` (3D; the shorter way; axis x for no turn), worked out once per pose
        change."""
        held = getattr(self, "_turns", None)
        if held is not None and held[0] == self.count:
            return held[1], held[2]
        from .kernels3d.poses import turns
        axes, angles = turns(np.ascontiguousarray(self.rotation),
                             np.ascontiguousarray(self.previous_rotation))
        self._turns = (self.count, axes, angles)
        return axes, angles

    def velocity(self, body: int) -> tuple[FloatArray, FloatArray]:
        """Linear (units/s) and angular (rad/s) velocity over the last ``set_pose``.

        The angular part is ``(1,)`` in 2D (counter-clockwise positive) and
        ``(3,)`` in 3D (axis times rate); both are zero before any ``set_pose``.
        """
        dt = float(self.dt[body])
        linear = (self.position[body] - self.previous_position[body]) / dt
        angular = poses.angular_velocity(self.previous_rotation[body], self.rotation[body], dt)
        return linear, angular
