"""What the bodies moved since an agent's last step do to it, in 3D (Character, Crowd3D).

The 3D side of agents on a moving level (the 2D side is one kernel,
:mod:`sidestep.kernels.carry`). For each body moved since the agent last
looked (:attr:`sidestep.bodies.Bodies.stamp`), :func:`swept` slides the
agent's sphere or capsule along the body's motion reversed, against the
body alone (:func:`sidestep.kernels3d.carry.sweep_past`): where it meets
the body, the end of that slide is where the body leaves the agent.
:func:`nearby` finds the bodies whose material near an agent moved far
enough to reach it, so that the far ones cost nothing.
"""
from typing import Any

import numpy as np

from ._types import FloatArray, IntArray
from .bodies import Bodies
from .kernels3d import carry as _kcarry
from .kernels3d import world as _kw

_CONTACT_FIELDS = 9      # kernels3d.moves.CONTACT_FIELDS


def alone(packed: Any, members: IntArray) -> Any:
    """``packed`` as a query that sees obstacles ``members`` only (as it sees them)."""
    seen = np.zeros_like(packed.alive)
    seen[members] = packed.alive[members]
    flags = packed.flags.copy()
    flags[_kw.F_REMOVED] = 1
    return packed._replace(alive=seen, flags=flags)


def without(packed: Any, members: IntArray) -> Any:
    """``packed`` as a query that does not see obstacles ``members``."""
    seen = packed.alive.copy()
    seen[members] = 0
    flags = packed.flags.copy()
    flags[_kw.F_REMOVED] = 1
    return packed._replace(alive=seen, flags=flags)


def turn_of(bodies: Bodies, b: int) -> tuple[FloatArray, float]:
    """``(axis (3,), angle)`` of body ``b``'s last turn (``R1 R0^T``, the shorter way)."""
    axes, angles = bodies.turns()
    return axes[b], float(angles[b])


def reach(bodies: Bodies, moved: IntArray, centres: FloatArray, size: FloatArray) -> FloatArray:
    """``(m, n)``: how far the material of each moved body within ``size (n,)`` of each
    centre ``(n, 3)`` moved at most (its shift plus its turn times the distance from its
    origin)."""
    t0 = bodies.previous_position[moved]
    t1 = bodies.position[moved]
    spin = bodies.turns()[1][moved]
    far = np.linalg.norm(centres[None, :, :] - t1[:, None, :], axis=2) + size[None, :]
    out: FloatArray = np.linalg.norm(t1 - t0, axis=1)[:, None] + spin[:, None] * far
    return out


def swept(packed: Any, bodies: Bodies, b: int, centre: FloatArray, radius: float, half: float,
          up: int, tolerances: tuple[float, float, float, float], max_iterations: int,
          scratch: tuple[FloatArray, FloatArray]) -> tuple[FloatArray, bool]:
    """Where body ``b``'s last motion leaves the agent centred at ``centre``, and whether
    it met it at all."""
    axis, angle = turn_of(bodies, b)
    x, y, z, met = _kcarry.sweep_past(
        alone(packed, bodies.members[b]), np.ascontiguousarray(bodies.previous_rotation[b]),
        np.ascontiguousarray(bodies.previous_position[b]),
        np.ascontiguousarray(bodies.position[b]), axis, angle, float(centre[0]),
        float(centre[1]), float(centre[2]), radius, half, up, *tolerances, max_iterations,
        *scratch, np.zeros((1, _CONTACT_FIELDS)))
    return np.array([x, y, z]), bool(met)


def body_box(store: Any, b: int) -> FloatArray:
    """``(6,)``: the world box ``[min (3), max (3)]`` of body ``b``'s primitives now."""
    parts = store._parts
    prims = parts.prim_row[parts.prim_first[b]:parts.prim_first[b + 1]]
    boxes = _kw.primitive_boxes(store.kind.view()[prims], store.params.view()[prims],
                                store.vertices.view(), store.loop.view())
    return np.concatenate([boxes[:, 0:3].min(axis=0), boxes[:, 3:6].max(axis=0)])


def carry_agents(world: Any, packed: Any, since: int, centres: FloatArray, radii: FloatArray,
                 halves: FloatArray) -> tuple[FloatArray, IntArray, IntArray]:
    """Agents ``centres (n, 3)`` (spheres or upright capsules) after the bodies moved since
    pose count ``since`` swept past them.

    Returns ``(centres (n, 3), touched, squeezed)`` (row indices). A pushed
    agent is carried to where the body leaves it through everything else; a
    wall in the way stops it short (squeezed) and it goes to the nearest spot
    clear of everything (:func:`sidestep.kernels3d.moves.recover`).
    """
    from .kernels3d import moves as _moves
    store = world._store
    bodies = store.bodies
    moved = np.flatnonzero(bodies.stamp > since)
    out = centres.copy()
    touched: list[int] = []
    squeezed: list[int] = []
    if not len(moved) or not len(centres):
        return out, np.array(touched, dtype=np.int64), np.array(squeezed, dtype=np.int64)
    up = world._up
    tol = world._tolerances()
    skin, _, slack, _ = tol
    scratch = _kw.scratch()
    size = radii + halves
    far = reach(bodies, moved, centres, size)
    for row, b in enumerate(moved):
        box = body_box(store, int(b))
        grow = far[row] + size + 2.0 * skin
        near = np.flatnonzero(np.all((centres >= box[0:3] - grow[:, None])
                                     & (centres <= box[3:6] + grow[:, None]), axis=1))
        for k in near:
            end, met = swept(packed, bodies, int(b), out[k], float(radii[k]), float(halves[k]),
                             up, tol, world._max_iterations, scratch)
            if not met:
                continue
            touched.append(int(k))
            d = end - out[k]
            x, y, z, _, _, _ = _moves.move_agent(
                without(packed, bodies.members[b]), *out[k].tolist(), *d.tolist(),
                float(radii[k]), float(halves[k]), up, _moves.MODE_SLIDE, *tol,
                world._max_iterations, *scratch, np.zeros((1, _CONTACT_FIELDS)))
            if np.linalg.norm(np.array([x, y, z]) - end) > skin:
                squeezed.append(int(k))
                x, y, z, _ = _moves.recover(packed, x, y, z, float(halves[k]), up,
                                            float(radii[k]), skin, slack, *scratch,
                                            np.empty(64, dtype=np.int64))
            out[k] = (x, y, z)
    return (out, np.unique(np.array(touched, dtype=np.int64)),
            np.unique(np.array(squeezed, dtype=np.int64)))


class BodyTable:
    """What :func:`sidestep.kernels3d.carry.push_from_bodies` reads about a world's bodies,
    worked out once per pose change (shared by every agent of that frame), and the
    :class:`~sidestep.kernels3d.carry.BodyTableState` holding it."""

    def __init__(self) -> None:
        self.key: tuple[int, int, int] = (-1, -1, -1)
        self.values: tuple[Any, ...] = ()
        self.seen = np.zeros(0, dtype=np.uint8)
        self.flags = np.zeros(2, dtype=np.int64)
        self.met = np.zeros(0, dtype=np.int64)
        self.mark = np.zeros(0, dtype=np.uint8)
        self.reach = np.zeros((0, 7))
        self.stamp = np.zeros(0, dtype=np.int64)
        # The hierarchy of the packed world seen and flags were made for (a masked view
        # shares it: the same obstacles, the same flags but its alive flags).
        self.tree: Any = None
        self.state: Any = None      # kernels3d.carry.BodyTableState of all of these
        self.shape: tuple[Any, int, tuple[Any, ...]] = (None, -1, ())
        # The reach boxes binned in a grid (kernels3d.carry.reach_cells).
        self.grid = np.zeros(7)
        self.first = np.zeros(1, dtype=np.int64)
        self.items = np.zeros(0, dtype=np.int64)

    def near(self, store: Any, since: int, skip: int, x: float, y: float, z: float,
             size: float) -> bool:
        """Whether a body moved after pose count ``since`` (but ``skip``) may have swept
        within ``size`` of ``(x, y, z)`` (:func:`sidestep.kernels3d.carry.bodies_near`):
        False, and :meth:`push` would find nothing there."""
        key = self.key
        if store.bodies.count != key[0] or store.version != key[1]:
            self.arrays(store)
        return bool(_NEAR(self.stamp, self.reach, self.grid, self.first, self.items, since,
                          skip, x, y, z, size))

    def push(self, store: Any, packed: Any, state: Any, since: int, skip: int, rides: bool,
             x: float, y: float, z: float, size: float, radius: float, half: float, up: int,
             settings: tuple[float, float, float, float, int]
             ) -> tuple[float, float, float, IntArray | None]:
        """The push ``(dx, dy, dz)`` of the bodies moved after ``since`` (but ``skip``) on
        the agent centred at ``(x, y, z)``, and which bodies pushed it; the bodies None
        when it does not ride one (``rides`` False) and no reach box comes within
        ``size`` of it (:func:`sidestep.kernels3d.carry.push_character`, one call with
        the agent's frame ``state``, a ``FrameState`` of ``packed``). ``settings``:
        skin, margin, slack, minimum motion and iterations."""
        self.ready(store, packed)
        dx, dy, dz, n = _PUSH(state, self.state, since, skip, rides, x, y, z, size, radius,
                              half, up, *settings)
        if n < 0:
            return dx, dy, dz, None
        return dx, dy, dz, self.met[:n].copy() if n else _NONE

    def ride(self, store: Any, packed: Any, body: int, row: FloatArray, feet: int,
             facing: int, up: int) -> FloatArray:
        """What ``body``'s last pose change did to a character on it, whose state row
        ``row`` holds its feet at column ``feet`` and its facing at ``facing``: how far it
        carried the feet, ``(3,)``; the facing is turned in place, kept level about axis
        ``up`` (:func:`sidestep.kernels3d.carry.ride_row`)."""
        global _RIDE
        if _RIDE is None:
            _RIDE = _entry("ride_of")
        return np.array(_RIDE(self.ready(store, packed), body, row, feet, facing, up))

    def ready(self, store: Any, packed: Any) -> Any:
        """The :class:`~sidestep.kernels3d.carry.BodyTableState` of the bodies' last pose
        change, for ``packed`` (made anew when either changed)."""
        key = self.key
        if packed.tree is not self.tree or store.bodies.count != key[0] \
                or store.version != key[1]:
            self._prepare(store, packed)
        return self.state

    def _prepare(self, store: Any, packed: Any) -> None:
        # The arrays for this pose change and packed world, and the state holding them.
        global _PUSH
        if _PUSH is None:
            _PUSH = _entry("push_character")
        self.arrays(store)
        self.tree = packed.tree
        if len(self.seen) != len(packed.alive):
            self.seen = np.zeros(len(packed.alive), dtype=np.uint8)
        self.flags[_kw.F_TRIANGLES] = packed.flags[_kw.F_TRIANGLES]
        self.flags[_kw.F_REMOVED] = 1
        self.state = _kcarry.body_table_state(self.seen, self.flags, *self.values, _CONTACT,
                                              self.met)

    def arrays(self, store: Any) -> tuple[Any, ...]:
        global _NEAR
        if _NEAR is None:
            _NEAR = _entry("bodies_near")
        bodies = store.bodies
        key = (bodies.count, store.version, len(bodies))
        if key != self.key:
            self.key = key
            parts = store._parts
            if self.shape[0] is not parts.prim_first or self.shape[1] != len(bodies):
                # The bodies' obstacles and primitives: new only when bodies are added.
                members = bodies.members
                self.shape = (parts.prim_first, len(bodies), (
                    np.concatenate(members).astype(np.int64) if members
                    else np.zeros(0, np.int64),
                    np.concatenate([[0], np.cumsum([len(m) for m in members])]).astype(np.int64),
                    np.ascontiguousarray(parts.prim_row, dtype=np.int64),
                    np.ascontiguousarray(parts.prim_first, dtype=np.int64)))
                self.met = np.zeros(len(bodies), dtype=np.int64)
                self.mark = np.zeros(len(bodies), dtype=np.uint8)
            ids, id_first, prims, prim_first = self.shape[2]
            axes, angles = bodies.turns()
            angles = np.ascontiguousarray(angles)
            position = np.ascontiguousarray(bodies.position)
            before = np.ascontiguousarray(bodies.previous_position)
            self.reach = _kcarry.reach_boxes(store.kind.view(), store.params.view(),
                                             store.vertices.view(), store.loop.view(), prims,
                                             prim_first, before, position, angles)
            self.grid, self.first, self.items = _kcarry.reach_cells(self.reach)
            self.stamp = np.ascontiguousarray(bodies.stamp, dtype=np.int64)
            self.values = (
                self.stamp, self.reach, self.grid, self.first, self.items, self.mark, angles,
                np.ascontiguousarray(axes), np.ascontiguousarray(bodies.previous_rotation),
                before, position, ids, id_first, prims, prim_first)
        return self.values


#: One contact row push_from_bodies' sweeps write into (and nobody reads).
_CONTACT = np.zeros((1, _CONTACT_FIELDS))
_ENTRIES: dict[str, Any] = {}
_NEAR: Any = None       # bodies_near's and push_character's entry points (BodyTable sets
_PUSH: Any = None       # them)
_RIDE: Any = None       # ride_of's
# Writable (though empty): the move kernels are compiled for writable arrays only.
_NONE = np.zeros(0, dtype=np.int64)


def _entry(name: str) -> Any:
    # Kernel `name` of kernels3d.carry for its one registered signature, called without
    # the dispatcher (sidestep.kernels.direct): each character may ask it every frame
    # bodies moved.
    held = _ENTRIES.get(name)
    if held is None:
        from .kernels.direct import registered
        held = _ENTRIES[name] = registered("kernels3d.carry:" + name)
    return held


def table(store: Any) -> BodyTable:
    """The store's :class:`BodyTable` (made on first use)."""
    held = getattr(store, "_body_table", None)
    if held is None:
        held = store._body_table = BodyTable()
    return held
