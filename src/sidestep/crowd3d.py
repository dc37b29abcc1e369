"""``Crowd3D``: upright capsule agents that collide with each other as well as with a
:class:`~sidestep.World3D`.

The 3D mirror of :mod:`sidestep.crowd`: ``World3D.move_many`` moves agents
against the static world only; a crowd holds the agents, and each
:meth:`Crowd3D.step` moves all of them at once so that no two overlap, none
passes through another at any speed, none enters an obstacle, heavier agents
push lighter ones aside (sliding them along the world, never into it) and
agents at rest stay at rest. How: :mod:`sidestep.kernels3d.crowd`.
"""
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, cast

import numpy as np

from . import carry3d as _carry3d
from . import validation
from .avoidance import Avoidance
from .layers import ALL
from ._types import CrowdMode, FloatArray, IntArray, Numbers, Points3
from .crowd import CrowdStep, _Agents, _cells, _read_only
from .kernels import crowd as _kc
from .kernels import moves as _moves
from .kernels3d import moves as _moves3d
from .kernels3d import crowd as _kc3
from .threads import run_rows

if TYPE_CHECKING:
    from .world3d import World3D


@dataclass(frozen=True)
class _CrowdStep3D(CrowdStep):
    """What :meth:`Crowd3D.step` did: a :class:`~sidestep.CrowdStep` with ``(n, 3)``
    positions, whose :attr:`touching` measures between the capsules' cores."""

    _halves: FloatArray | None = field(repr=False, default=None)
    _up: int = field(repr=False, default=1)

    @cached_property
    def touching(self) -> IntArray:
        """``(m, 2) int64``: ids of the pairs of agents touching at the end (their capsules
        within two skins), each pair once, lower index first; worked out on first read."""
        if not len(self.ids):
            return np.empty((0, 2), dtype=np.int64)
        radii = cast(FloatArray, self._radii)        # Crowd3D.step always gives them
        halves = cast(FloatArray, self._halves)
        pairs: IntArray = self.ids[touching_pairs(self.positions, radii, halves, self._up,
                                                  self._gap)]
        return pairs


def touching_pairs(positions: FloatArray, radii: FloatArray, halves: FloatArray, up: int,
                   gap: float) -> IntArray:
    """``(m, 2) int64``: index pairs ``i < j`` of upright capsules whose cores are closer
    than ``r_i + r_j + gap`` (``gap < 0``: overlapping by more than ``-gap``).

    ``positions (n, 3)`` their centres, ``radii``, ``halves (n,)`` their cores' half
    lengths along axis ``up`` (0, 1 or 2).
    """
    if not len(positions):
        return np.empty((0, 2), dtype=np.int64)
    # Writable copies: the kernels are compiled for writable arrays only.
    ends = np.array(positions, dtype=np.float64)
    flat = np.ascontiguousarray(ends[:, [(up + 1) % 3, (up + 2) % 3]])
    grid = _kc.grid_agents(flat, max(2.0 * float(radii.max()) + gap, 1e-9))
    found: IntArray = _kc3.touching_pairs(ends, np.ascontiguousarray(radii, dtype=np.float64),
                                          np.ascontiguousarray(halves, dtype=np.float64), up,
                                          *grid, gap)
    return found


class Crowd3D(_Agents):
    """Upright capsule agents in a :class:`~sidestep.World3D` that collide with each other.

    Each agent is the capsule :meth:`World3D.move` moves: ``radius`` and
    ``height`` along the world's ``up`` axis, centred on its position (a
    sphere when ``height <= 2 * radius``).

    Parameters
    ----------
    world : World3D
    positions : (n, 3) float64
        The agents' centres (world units).
    radii : float or (n,) float64, > 0
    heights : float or (n,) float64, >= 0
        Each capsule's height in all, along ``up``.
    weights : float or (n,) float64, > 0, optional
        How hard each agent pushes (1 by default); ``inf``: never pushed.
    separation : float >= 0, optional
        How far (world units) a step moves an agent to separate it from
        agents it overlaps; a quarter of the largest radius by default. No
        agent moves more than the step's largest displacement plus this in a
        step (making way included).
    mask : int
        The layers of the world's obstacles the agents collide with (default
        all; :mod:`sidestep.layers`).

    Examples
    --------
    >>> import sidestep
    >>> world = sidestep.World3D()
    >>> floor = world.add_boxes([(-10, -1, -10)], [(10, 0, 10)])
    >>> crowd = sidestep.Crowd3D(world, [(-2, 0.91, 0), (2, 0.91, 0)], radii=0.4, heights=1.8)
    >>> for _ in range(20):                    # head on, 0.3 a step
    ...     done = crowd.step([(0.3, 0, 0), (-0.3, 0, 0)])
    >>> bool(crowd.positions[0, 0] < crowd.positions[1, 0])   # never passed each other
    True
    >>> float(round(crowd.positions[1, 0] - crowd.positions[0, 0], 6))   # touching
    0.8
    """

    __slots__ = ("_world", "_heights", "_halves")

    _DIM = 3
    _ROWS = _Agents._ROWS + ("_heights", "_halves")

    _world: "World3D"
    _heights: FloatArray
    _halves: FloatArray

    def __init__(self, world: "World3D", positions: Points3, radii: Numbers, heights: Numbers,
                 weights: Numbers | None = None, *, separation: float | None = None,
                 mask: int = ALL) -> None:
        from .world3d import World3D
        if not isinstance(world, World3D):
            raise TypeError(f"world must be a World3D, got {type(world).__name__}")
        self._world = world
        self._heights = np.empty(0)
        self._halves = np.empty(0)
        self._start(separation, mask)
        self._since = world._store.bodies.count     # bodies' poses from here on sweep past it
        self.add(positions, radii, heights, weights)

    # ------------------------------------------------------------- agents
    def add(self, positions: Points3, radii: Numbers, heights: Numbers,
            weights: Numbers | None = None) -> IntArray:
        """Add agents; returns their ids ``(k,) int64`` (never reused after a removal).

        Parameters as for :class:`Crowd3D`; ``positions (k, 3)``.
        """
        p, _ = validation.points(positions, "positions", dim=3)
        r = validation.lengths(radii, "radii", len(p), allow_zero=False)
        h = validation.lengths(heights, "heights", len(p))
        # As World3D._agent: a capsule's core is its height less both caps.
        return self._append(p, r, weights, _heights=h,
                            _halves=np.where(h > 2.0 * r, 0.5 * h - r, 0.0))

    @property
    def heights(self) -> FloatArray:
        """``(n,) float64``: each capsule's height in all, read-only."""
        return _read_only(self._heights)

    # --------------------------------------------------------------- step
    def _carried(self) -> IntArray | None:
        """Let the bodies that moved since the last step sweep past the agents
        (:func:`sidestep.carry3d.carry_agents`); returns the rows of those squeezed (None:
        no body moved)."""
        world = self._world
        bodies = world._store.bodies
        squeezed = None
        if bodies.count > self._since and len(self._ids):
            self._positions, _, squeezed = _carry3d.carry_agents(
                world, world._packed(self._mask), self._since, self._positions, self._radii,
                self._halves)
        self._since = bodies.count
        return squeezed

    def _slid(self, rows: IntArray, d: FloatArray) -> FloatArray:
        world = self._world
        out = np.empty((len(rows), 3))
        run_rows(_moves3d.move_agents, len(rows), world._packed(self._mask),
                 self._positions[rows], d, self._radii[rows], self._halves[rows], world._up,
                 _moves.MODE_SLIDE, *world._tolerances(), world._max_iterations, out)
        return out

    def _levels(self) -> tuple[FloatArray, FloatArray]:
        """Each capsule's extent along ``up`` (see :meth:`Crowd._levels`)."""
        height = self._positions[:, self._world._up]
        reach = self._halves + self._radii
        return height - reach, height + reach

    def _plane(self) -> list[int]:
        """The ground plane's columns (the horizontal axes: agents avoid each other in it)."""
        up = self._world._up
        return [(up + 1) % 3, (up + 2) % 3]

    def step(self, displacements: Points3, mode: CrowdMode = "slide", *,
             avoid: bool | Avoidance = False) -> CrowdStep:
        """Move every agent at once by its displacement.

        Parameters
        ----------
        displacements : (n, 3) float64
            World units, in the order of :attr:`ids` (gravity included, if any:
            an agent on a floor slides along it).
        mode : {"slide", "block", "ghost"}
            As :meth:`Crowd.step`; ``ghost`` is ``World3D.move_many`` in
            ``slide``.
        avoid : bool or Avoidance
            As :meth:`Crowd.step`: agents avoid each other in the ground plane.

        Returns
        -------
        CrowdStep
            ``positions (n, 3)``; ``touching`` measures between the capsules.

        Notes
        -----
        The promise, after every step: no agent is inside an obstacle, and no
        two agents' capsules are closer than the sum of their radii minus the
        world's skin, where the step started that way; an agent never passes
        through another; no agent moves more than the largest displacement
        (rounded up by at most a sixteenth) plus ``separation``, but one
        leaving an obstacle it started in; the ends do not depend on the
        agents' order (to rounding, 1e-9) nor on the number of threads
        (exactly). Bodies that moved since the last step come first, as in
        :meth:`Crowd.step`: their carry, and the pushes of agents carried into
        their neighbours (between agents whose capsules share heights).
        """
        n = len(self._ids)
        world = self._world
        up = world._up
        skin, margin, slack, min_motion = world._tolerances()
        d, code, intents, rmax, dmax, separation, cell, weights, squeezed, leads = self._prelude(
            displacements, mode, skin, avoid)
        p = self._positions
        # The largest coordinate (for rounding), rounded up to a power of two: it stays
        # the same from step to step (agents at rest, Crowd._buffers).
        scale = 2.0 ** math.ceil(math.log2(max(1.0, float(np.abs(p).max())))) if n else 1.0
        flat = np.ascontiguousarray(p[:, [(up + 1) % 3, (up + 2) % 3]])
        grid = _kc.grid_agents(flat, cell)
        ox, oy, size, nx, ny, start, items = grid
        blob = world._packed(self._mask)
        params = self._params(world, (code, rmax, dmax, separation), grid[:5], scale)
        # (The 3D world has no open cells yet: each move asks the world.)
        last, last_flat, still, busy, open_cells, out, stops, obstacles, pressure = \
            self._buffers(params, grid[:5])
        counts, records = self._follow_buffers(n)
        packed, rest = np.empty((n, _kc3.PACKED)), np.empty((n, 7))
        run_rows(_kc3.crowd_step, n, blob, p, self._radii, self._halves, weights,
                 d, intents, packed, rest, items, start, ox, oy,
                 size, nx, ny, up, rmax, dmax, code, separation, skin, margin, slack,
                 min_motion, world._max_iterations, scale, *last, flat, last_flat, still, busy,
                 out, stops, obstacles, pressure, leads, counts, records,
                 *_cells(nx * ny, n), join=False)
        back = self._sent_back(p, out, counts, records, items, skin, scale)
        if len(back):
            run_rows(_kc3.redo_rows, len(back), blob, packed, rest, items, start, ox, oy, size,
                     nx, ny, up, rmax, dmax, code, separation, skin, margin, slack, min_motion,
                     world._max_iterations, scale, still, busy, out, stops, obstacles, pressure,
                     leads, counts, records, back, np.zeros(1, dtype=np.int64),
                     join=False)
        self._finish(params, d, flat, out, stops, obstacles, pressure, open_cells)
        if squeezed is not None and len(squeezed):
            stops[squeezed] = _moves.STOP_SQUEEZED
        # Views, not copies, as Crowd.step: the crowd replaces its arrays, never writes them.
        return _CrowdStep3D(_read_only(self._ids), _read_only(out), _read_only(obstacles),
                            _read_only(still.view(np.bool_)), stops, self._radii, 2.0 * skin,
                            self._halves, up)
