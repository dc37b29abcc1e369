"""``Crowd``: agents that collide with each other as well as with a :class:`~sidestep.World2D`.

``World2D.move_many`` moves agents against the static world only: two agents
walk through each other. A crowd holds the agents, and each
:meth:`Crowd.step` moves all of them at once so that no two overlap, none
passes through another at any speed, none enters an obstacle, heavier agents
push lighter ones aside (sliding them along walls, never into them) and
agents at rest stay at rest. How: :mod:`sidestep.kernels.crowd`.
"""
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from . import layers, validation
from .avoidance import Avoidance, avoidance, avoided
from ._types import BoolArray, CrowdMode, FloatArray, Ids, IntArray, Numbers, Points2
from .kernels import carry as _carry
from .kernels import crowd as _kc
from .kernels import follow as _follow
from .kernels import push as _push
from .kernels import moves as _moves
from .kernels import world as _kw
from .kernels.row_queue import row_queue
from .storage import split_blob
from .threads import run_rows
from .world import _STOPS

if TYPE_CHECKING:
    from .world import World2D
    from .world3d import World3D

_T = TypeVar("_T", bound=np.generic)

#: Crowd modes: ``slide`` (agents slide round each other and the world),
#: ``block`` (an agent whose move would leave its share of the way stays),
#: ``ghost`` (agents ignore each other, as ``move_many``).
CROWD_MODES: tuple[CrowdMode, ...] = ("slide", "block", "ghost")
_MODE_CODES = {"slide": _moves.MODE_SLIDE, "block": _moves.MODE_BLOCK,
               "ghost": _moves.MODE_GHOST}
#: A step orders the agents' grid in about this many chunks of cells, shared by its threads.
CELL_CHUNKS = 64
_STOP_NAMES = np.array([_STOPS.get(code, "") for code in range(max(_STOPS) + 1)],
                       dtype=object)


@dataclass(frozen=True)
class CrowdStep:
    """What :meth:`Crowd.step` (or :meth:`Crowd3D.step`) did."""

    #: ``(n,) int64``: the agents' ids, in the order of the other fields (read-only).
    ids: IntArray
    #: ``(n, 2) float64`` (``(n, 3)`` from :meth:`Crowd3D.step`): where each agent ends
    #: (read-only).
    positions: FloatArray
    #: ``(n,) int64``: the first obstacle each one touched (-1: none) (read-only).
    obstacle: IntArray
    #: ``(n,) bool``: the agents at rest, not worked out again: each did not move last
    #: step, asked the same and had the same pressure, and so did every agent near it, in
    #: the same world and with the same step figures; so its answers (end, stop, obstacle)
    #: are the last step's, which working it out again would give to the bit (read-only).
    resting: BoolArray
    _stops: IntArray = field(repr=False)
    _radii: FloatArray | None = field(repr=False, default=None)
    _gap: float = field(repr=False, default=0.0)

    @cached_property
    def stop(self) -> NDArray[np.object_]:
        """``(n,)`` str (an object array): why each one's move ended, as
        :attr:`sidestep.Move.stop`; ``"blocked"`` also when its neighbours left it no way
        (named on first read)."""
        names: NDArray[np.object_] = _STOP_NAMES[self._stops]
        return names

    @cached_property
    def touching(self) -> IntArray:
        """``(m, 2) int64``: ids of the pairs of agents touching at the end (within two
        skins), each pair once, lower index first; worked out on first read."""
        if not len(self.ids):
            return np.empty((0, 2), dtype=np.int64)
        radii = cast(FloatArray, self._radii)        # Crowd.step always gives them
        # A writable copy: the kernels are compiled for writable arrays only.
        ends = self.positions.copy()
        grid = _kc.grid_agents(ends, 2.0 * float(radii.max()) + self._gap)
        pairs: IntArray = self.ids[_kc.touching_pairs(ends, radii, *grid, self._gap)]
        return pairs


class _Agents:
    """The agents of a crowd and what both crowds do with them alike (:class:`Crowd`,
    :class:`~sidestep.Crowd3D`): ids never reused, per-agent arrays replaced and never
    written in place (so views of them stay true), read-only views, removal, and the
    figures every step works out first."""

    __slots__ = ("_mask", "_since", "_positions", "_radii", "_weights", "_ids", "_next_id",
                 "_separation", "_pressure", "_history", "_motions")

    #: Coordinates of a position.
    _DIM = 2
    #: The per-agent arrays, row ``k`` for the agent ``_ids[k]``.
    _ROWS: tuple[str, ...] = ("_positions", "_radii", "_weights", "_ids", "_pressure",
                              "_motions")

    _positions: FloatArray
    _radii: FloatArray
    _weights: FloatArray
    _ids: IntArray
    _next_id: int
    _separation: float | None
    _pressure: FloatArray
    _history: "_History | None"
    #: ``(n, dim)``: each agent's motion in the last step (avoidance, following).
    _motions: FloatArray

    def _start(self, separation: float | None, mask: int) -> None:
        self._positions = np.empty((0, self._DIM))
        self._radii = np.empty(0)
        self._weights = np.empty(0)
        self._ids = np.empty(0, dtype=np.int64)
        self._pressure = np.empty((0, self._DIM))
        self._motions = np.empty((0, self._DIM))
        self._next_id = 0
        self._history = None
        self._separation = None if separation is None else validation.length(
            separation, "separation")
        self._mask = layers.mask(mask)
        self._since = 0

    def _append(self, positions: FloatArray, radii: FloatArray, weights: Numbers | None,
                **more: FloatArray) -> IntArray:
        """Append validated rows (``more``: other per-agent arrays by attribute name);
        returns the new agents' ids."""
        k = len(positions)
        w = np.ones(k) if weights is None else _weights(weights, k)
        ids = np.arange(self._next_id, self._next_id + k, dtype=np.int64)
        rows = {"_positions": positions, "_radii": radii, "_weights": w, "_ids": ids,
                "_pressure": np.zeros((k, self._DIM)), "_motions": np.zeros((k, self._DIM)), **more}
        for name in self._ROWS:
            setattr(self, name, np.concatenate([getattr(self, name), rows[name]]))
        self._next_id += k
        self._history = None
        return ids

    def remove(self, ids: Ids) -> None:
        """Remove agents by id (unknown ids raise ``KeyError``; then none is removed)."""
        arr = validation.ids(ids, "ids")
        keep = ~np.isin(self._ids, arr)
        missing = np.setdiff1d(arr, self._ids)
        if len(missing):
            raise KeyError(f"no agent with id {int(missing[0])} in this crowd")
        for name in self._ROWS:
            setattr(self, name, getattr(self, name)[keep])
        self._history = None

    def __len__(self) -> int:
        return len(self._ids)

    @property
    def ids(self) -> IntArray:
        """``(n,) int64``: the agents' ids, in the order of :attr:`positions` (read-only)."""
        return _read_only(self._ids)

    @property
    def positions(self) -> FloatArray:
        """``(n, 2) float64`` (a :class:`~sidestep.Crowd3D`: ``(n, 3)``, the capsules'
        centres), read-only."""
        return _read_only(self._positions)

    @property
    def radii(self) -> FloatArray:
        """``(n,) float64``, read-only."""
        return _read_only(self._radii)

    @property
    def weights(self) -> FloatArray:
        """``(n,) float64``, read-only."""
        return _read_only(self._weights)

    def _plane(self) -> list[int]:
        """The columns of a position in the crowd's plane (where agents avoid each other)."""
        return [0, 1]

    def _flat(self, values: FloatArray) -> FloatArray:
        """``values (n, dim)`` in the crowd's plane ``(n, 2)``, C-contiguous (``values``
        itself where that is every column: no copy in 2D)."""
        plane = self._plane()
        if len(plane) == values.shape[1] and values.flags.c_contiguous:
            return values
        return np.ascontiguousarray(values[:, plane])

    def _prelude(self, displacements: object, mode: str, skin: float, avoid: object
                 ) -> tuple[FloatArray, int, FloatArray, float, float, float, float, FloatArray,
                            BoolArray | IntArray | None, FloatArray]:
        """A step's checked input and first figures: ``(d, mode code, intents, rmax, dmax,
        separation, cell, weights, squeezed, leads)`` (see
        :func:`sidestep.kernels.crowd.crowd_step`; ``leads`` are the motions the step reads
        as the agents' last, :meth:`_pushed`). Once the input is checked, the bodies
        that moved since the last step sweep past the agents (:meth:`_carried`) and the
        agents they carried into their neighbours push them on (:meth:`_made_way`; the
        agents squeezed by either, the ninth answer: None when no body moved); ``d`` is
        then turned aside from the neighbours when ``avoid`` (:mod:`sidestep.avoidance`),
        and holds the pushes of agents of infinite weight sent on through the crowd, as
        the weights they lend (:mod:`sidestep.kernels.push`); ``cell`` is the least cell
        of the agents' grid: two agents' reach (each its radius and the most an agent
        moves, ``dmax + separation``)."""
        n = len(self._ids)
        d, _ = validation.points(displacements, "displacements", dim=self._DIM)
        if d.shape != (n, self._DIM):
            raise ValueError(f"displacements must have shape ({n}, {self._DIM}), got {d.shape}")
        if not d.flags.writeable:
            # The kernels are compiled (and warmed up) for writable arrays: a read-only one
            # would compile another version of each on first use, for seconds.
            d = d.copy()
        code = _MODE_CODES[validation.choice(mode, "mode", CROWD_MODES)]
        settings = avoidance(avoid)
        before = self._positions
        squeezed = self._carried()
        if self._positions is not before:
            short = self._made_way(before, skin)
            if len(short):
                held = np.zeros(n, dtype=bool)
                if squeezed is not None:
                    held[squeezed] = True
                held[short] = True
                squeezed = held
        if settings is not None and n:
            turned = avoided(settings, self._flat(self._positions), self._radii,
                             self._weights, self._flat(self._motions), self._flat(d))
            if turned.shape[1] == self._DIM:
                d = turned                          # a new array: d is the caller's
            else:
                d = d.copy()
                d[:, self._plane()] = turned
        d, weights, bound, leads = self._pushed(d)
        intents, dmax, rmax = _kc.step_figures(d, self._pressure, self._radii)
        # Pushes never lengthen a displacement past the largest asked (_pushed's bound),
        # but that cap's rounding may leave one an ulp over it, which would round the
        # step's figure up a whole sixteenth, for some orders of the agents only.
        dmax = min(dmax, bound)
        # Rounded up a little, so that it stays the same from step to step (agents at rest).
        dmax = _round_up(dmax)
        separation = self._separation if self._separation is not None else 0.25 * rmax
        cell = max(2.0 * (rmax + separation + dmax) + skin, 1e-9)
        return d, code, intents, rmax, dmax, separation, cell, weights, squeezed, leads

    def _carried(self) -> BoolArray | IntArray | None:
        """Let the bodies that moved since the last step sweep past the agents (their
        positions replaced); returns which ones were squeezed (a mask or rows; None: no
        body moved)."""
        raise NotImplementedError

    def _levels(self) -> tuple[FloatArray, FloatArray]:
        """Each agent's extent along ``up``, ``(lows, highs)`` (zeros in 2D): agents whose
        extents do not meet never push each other (:mod:`sidestep.kernels.push`)."""
        flat = np.zeros(len(self._ids))
        return flat, flat

    def _pushed(self, d: FloatArray) -> tuple[FloatArray, FloatArray, float, FloatArray]:
        """``d`` with the pushes of walking agents of infinite weight sent on through the
        crowd, and the weights they lend for the step
        (:func:`sidestep.kernels.push.push_plans`); ``d`` and the crowd's weights as they
        are when no such agent walks. No agent's displacement grows past the step's
        largest asked, the third answer (up to the cap's rounding; ``inf`` when nothing was
        pushed). The fourth: the motions the step reads as each agent's last (how far a
        neighbour may follow it, :mod:`sidestep.kernels.follow`): a pushed agent's
        displacement for this step, so that the agents behind it close up as far as it is
        pushed (a push goes on through a crowd at rest within the step), else the motion it
        made last step."""
        weights = self._weights
        heavy = np.isinf(weights)
        if not heavy.any() or not np.any(d[heavy]):
            return d, weights, math.inf, self._motions
        plane = self._plane()
        flat = self._flat(self._positions)
        asked = self._flat(d)
        length = np.sqrt(np.einsum("ij,ij->i", d, d))
        dmax = float(length.max())
        plans, carried = self._plans(flat, asked, dmax, flat, False)
        if plans is None:
            return d, weights, math.inf, self._motions
        pushed = d.copy()
        pushed[:, plane] += plans
        # At most the largest displacement asked (the step's bound on every motion).
        total = np.sqrt(np.einsum("ij,ij->i", pushed, pushed))
        over = total > dmax
        pushed[over] *= (dmax / total[over])[:, None]
        leads = self._motions.copy()
        given = _push.pushed_rows(plans)
        leads[given] = pushed[given]
        return pushed, carried, dmax, leads

    def _plans(self, flat: FloatArray, asked: FloatArray, dmax: float, before: FloatArray,
               whole: bool) -> tuple[FloatArray | None, FloatArray]:
        """:func:`sidestep.kernels.push.push_plans` for the agents at ``flat`` (the crowd's
        plane) asking ``asked``: the plans (None when nothing pushed) and the weights lent."""
        lows, highs = self._levels()
        grid = _kc.grid_agents(flat, 2.0 * float(self._radii.max()) + 2.0 * dmax)
        plans = np.empty_like(flat)
        carried = np.empty(len(flat))
        if not _push.push_plans(flat, self._radii, self._weights, asked, dmax, *grid, before,
                                lows, highs, whole, plans, carried):
            return None, carried
        return plans, carried

    def _made_way(self, before: FloatArray, skin: float) -> IntArray:
        """Agents carried into their neighbours by the bodies push them out of the way, and
        those push on (:mod:`sidestep.kernels.push`): moves of their own, through the world
        (never into an obstacle), before the step, from the positions ``before`` the carry
        to the crowd's now. Returns the rows of the agents an obstacle stopped short of
        their push by more than ``skin``: squeezed (they may be left overlapping)."""
        flat = self._flat(self._positions)
        dmax = _kc.longest(flat - self._flat(before))
        none = np.zeros(0, dtype=np.int64)
        if dmax == 0.0:
            return none
        plans, _ = self._plans(flat, np.zeros_like(flat), dmax, self._flat(before), True)
        if plans is None:
            return none
        rows = _push.pushed_rows(plans)
        d = np.zeros((len(rows), self._DIM))
        d[:, self._plane()] = plans[rows]
        positions = self._positions.copy()
        positions[rows] = self._slid(rows, d)
        went = np.linalg.norm(positions[rows] - self._positions[rows], axis=1)
        self._positions = positions
        short: IntArray = rows[went < np.linalg.norm(d, axis=1) - skin]
        return short

    def _slid(self, rows: IntArray, d: FloatArray) -> FloatArray:
        """The agents of ``rows`` moved by ``d (m, dim)`` through the world (a slide)."""
        raise NotImplementedError

    @staticmethod
    def _params(world: "World2D | World3D", figures: tuple[object, ...],
                grid: tuple[float, float, float, int, int],
                *more: object) -> tuple[object, ...]:
        """Every figure a step depends on besides the agents' own: the step's ``figures``
        (mode, largest radius, largest displacement, separation), the world's tolerances and
        version, the grid ``(ox, oy, size, nx, ny)`` and ``more`` (see :meth:`_buffers`)."""
        return (*figures, *world._tolerances(), world._max_iterations, world._store.version,
                *grid, *more)

    def _buffers(self, params: tuple[object, ...], grid: tuple[float, float, float, int, int],
                 still_params: tuple[object, ...] | None = None
                 ) -> tuple[tuple[object, ...], FloatArray, NDArray[np.uint8],
                            NDArray[np.uint8], NDArray[np.uint8], FloatArray, IntArray,
                            IntArray, FloatArray]:
        """What a step's kernel takes about the last step, and the step's outputs:
        ``(last, last_flat, still, busy, open_cells, out, stops, obstacles, pressure)``.

        ``params`` are every figure the step depends on besides the agents' own (mode,
        tolerances, the world's version, the grid ``(ox, oy, size, nx, ny)``): only when
        they are the last step's can an agent be at rest. ``last`` is then ``(1, the
        pressure now, the last step's positions, displacements, pressure, stop codes,
        obstacles)`` and ``last_flat`` its grid coordinates, else 0 and empty arrays;
        ``still`` and ``busy``: zeros (see :func:`sidestep.kernels.crowd.still_rows`);
        ``open_cells (2 * nx * ny,)``: the grid's cells with no obstacle near, as the last
        step told them (:func:`sidestep.kernels.crowd.open_cell`), else zeros (none told):
        the first half, against what never moves, while ``still_params`` (``params`` with
        the count of the world's changes but the bodies' poses, and the crowd's mask, for
        the world's version) are the last step's; the second, against the bodies, while
        ``params`` are too.
        """
        n = len(self._ids)
        dim = self._DIM
        outputs = (np.empty((n, dim)), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                   np.empty((n, dim)))
        past = self._history
        cells = grid[3] * grid[4]
        if past is not None and still_params is not None and \
                past.still_params == still_params:
            open_cells = past.open_cells            # handed on: the last step's record goes
            if past.params != params:
                open_cells[cells:] = 0              # the bodies moved
        else:
            open_cells = np.zeros(2 * cells, dtype=np.uint8)
        if past is None or past.params != params:
            none = np.empty((0, dim))
            last: tuple[object, ...] = (0, self._pressure, none, none, none,
                                        np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64))
            return (last, np.empty((0, 2)), np.zeros(n, dtype=np.uint8),
                    np.zeros(1, dtype=np.uint8), open_cells, *outputs)
        last = (1, self._pressure, past.positions, past.displacements, past.pressure,
                past.stops, past.obstacles)
        return (last, past.flat, np.zeros(n, dtype=np.uint8),
                np.zeros(_kc.BUSY_SPLIT ** 2 * cells, dtype=np.uint8), open_cells, *outputs)

    @staticmethod
    def _follow_buffers(n: int) -> tuple[IntArray, FloatArray]:
        """A step's follow notes (:mod:`sidestep.kernels.follow`): counts ``(n,)`` zeros
        and records ``(n, FOLLOWS, FIELDS)``."""
        return (np.zeros(n, dtype=np.int64),
                np.empty((n, _follow.FOLLOWS, _follow.FIELDS)))

    @staticmethod
    def _sent_back(start: FloatArray, out: FloatArray, counts: IntArray, records: FloatArray,
                   items: IntArray, skin: float, scale: float) -> IntArray:
        """The rows (of the step's agent order ``items``) of the agents to work out again
        within their own cells (:func:`sidestep.kernels.follow.failing_follows`)."""
        rows: IntArray = _follow.failing_follows(start, out, counts, records, 0.25 * skin,
                                                 _kc.ROUNDING * scale, items)
        return rows

    def _finish(self, params: tuple[object, ...], d: FloatArray, flat: FloatArray,
                out: FloatArray, stops: IntArray, obstacles: IntArray,
                pressure: FloatArray, open_cells: NDArray[np.uint8],
                still_params: tuple[object, ...] | None = None) -> None:
        """Keep what the next step needs to tell the agents at rest (and the open cells,
        see :meth:`_buffers`), then take the ends and the pressure."""
        self._history = _History(params, self._positions, flat, d.copy(), self._pressure,
                                 stops, obstacles, open_cells, still_params)
        self._motions = out - self._positions
        self._positions = out
        self._pressure = pressure


class Crowd(_Agents):
    """Agents (discs) in a :class:`~sidestep.World2D` that collide with each other.

    Parameters
    ----------
    world : World2D
    positions : (n, 2) float64
    radii : float or (n,) float64, > 0
    weights : float or (n,) float64, > 0, optional
        How hard each agent pushes (1 by default); ``inf``: never pushed
        (a player parting a crowd, a closing door).
    separation : float >= 0, optional
        How far (world units) a step moves an agent to separate it from
        agents it overlaps (spawned on top of each other); a quarter of the
        largest radius by default. No agent moves more than the step's largest
        displacement plus this in a step (making way included).
    mask : int
        The layers of the world's obstacles the agents collide with (default
        all; :mod:`sidestep.layers`).

    Examples
    --------
    >>> import sidestep
    >>> world = sidestep.World2D()
    >>> crowd = sidestep.Crowd(world, [(-1.0, 0.0), (1.0, 0.0)], radii=0.4)
    >>> for _ in range(20):                    # head on, 0.3 a step
    ...     done = crowd.step([(0.3, 0.0), (-0.3, 0.0)])
    >>> bool(crowd.positions[0, 0] < crowd.positions[1, 0])   # never passed each other
    True
    >>> float(round(crowd.positions[1, 0] - crowd.positions[0, 0], 6))   # touching
    0.8
    """

    __slots__ = ("_world",)

    _world: "World2D"

    def __init__(self, world: "World2D", positions: Points2, radii: Numbers,
                 weights: Numbers | None = None, *, separation: float | None = None,
                 mask: int = layers.ALL) -> None:
        from .world import World2D
        if not isinstance(world, World2D):
            raise TypeError(f"world must be a World2D, got {type(world).__name__}")
        self._world = world
        self._start(separation, mask)
        self._since = world._store.bodies.count     # bodies' poses from here on sweep past it
        self.add(positions, radii, weights)

    # ------------------------------------------------------------- agents
    def add(self, positions: Points2, radii: Numbers, weights: Numbers | None = None) -> IntArray:
        """Add agents; returns their ids ``(k,) int64`` (never reused after a removal)."""
        p, _ = validation.points(positions, "positions")
        r = validation.lengths(radii, "radii", len(p), allow_zero=False)
        return self._append(p, r, weights)

    # --------------------------------------------------------------- step
    def _slid(self, rows: IntArray, d: FloatArray) -> FloatArray:
        world = self._world
        out = np.empty((len(rows), 2))
        run_rows(_moves.move_agents, len(rows), world._store.pack(),
                 world._store.live(self._mask), self._positions[rows], d, self._radii[rows],
                 _moves.MODE_SLIDE, *world._tolerances(), world._max_iterations, out)
        return out

    def _carried(self) -> BoolArray | None:
        """Let the bodies that moved since the last step sweep past the agents
        (:mod:`sidestep.kernels.carry`); returns which ones were squeezed (None: no body
        moved)."""
        world = self._world
        skin, margin, slack, min_motion = world._tolerances()
        store = world._store
        stamp = store.bodies.count
        n = len(self._ids)
        if stamp <= self._since or n == 0:
            self._since = stamp
            return None
        carried = np.empty_like(self._positions)
        flags = np.zeros(n, dtype=np.uint8)
        blob = store.pack()
        seen = store.live(self._mask)
        # The cells near no body that moved: their agents are left at once.
        cells = split_blob(blob)[0][[_kw.H_MOVING_NX, _kw.H_MOVING_NY]]
        hot = np.zeros(_carry.HOT_SPLIT ** 2 * int(cells[0]) * int(cells[1]), dtype=np.uint8)
        if not _carry.hot_cells(blob, seen, float(self._since), float(self._radii.max()), skin,
                                margin, hot):
            hot = hot[:0]
        run_rows(_carry.carry_agents, n, blob, seen, self._positions, self._radii,
                 float(self._since), skin, margin, slack, min_motion, world._max_iterations,
                 hot, carried, flags)
        self._since = stamp
        self._positions = carried
        squeezed: BoolArray = flags == 2
        return squeezed

    def step(self, displacements: Points2, mode: CrowdMode = "slide", *,
             avoid: bool | Avoidance = False) -> CrowdStep:
        """Move every agent at once by its displacement.

        Parameters
        ----------
        displacements : (n, 2) float64
            In the order of :attr:`ids`.
        mode : {"slide", "block", "ghost"}
        avoid : bool or Avoidance
            Local avoidance (:mod:`sidestep.avoidance`): each displacement is first
            turned aside from the neighbours' motions (``True``: the default
            :class:`~sidestep.avoidance.Avoidance`). Agents then pass each other, form
            lanes in counterflow and drain through doors instead of pressing and
            waiting; the promise below holds either way.

        Returns
        -------
        CrowdStep

        Notes
        -----
        The promise, after every step: no agent is inside an obstacle, and no
        two agents are closer than the sum of their radii minus the world's
        skin, where the step started that way; an agent never passes through
        another; no agent moves more than the largest displacement (rounded up
        by at most a sixteenth) plus ``separation``, but one leaving an
        obstacle it started in; the ends do not depend on the agents' order (to
        rounding, 1e-9) nor on the number of threads (exactly). Bodies that
        moved since the last step come first: they carry the agents they sweep
        past out of their way, and an agent carried into a neighbour pushes it
        on (:mod:`sidestep.kernels.push`), so the step starts with the crowd
        apart but where a body squeezed an agent against something that does
        not give way.
        """
        n = len(self._ids)
        world = self._world
        skin, margin, slack, min_motion = world._tolerances()
        d, code, intents, rmax, dmax, separation, cell, weights, squeezed, leads = self._prelude(
            displacements, mode, skin, avoid)
        p = self._positions
        grid = _kc.grid_agents(p, cell)
        ox, oy, size, nx, ny, start, items = grid
        blob = world._store.pack()
        seen = world._store.live(self._mask)
        figures = (code, rmax, dmax, separation)
        params = self._params(world, figures, grid[:5])
        # What the open cells against what never moves depend on: not the bodies' poses.
        still_params = (*figures, *world._tolerances(), world._store.shapes, self._mask,
                        *grid[:5])
        last, _, still, busy, open_cells, out, stops, obstacles, pressure = self._buffers(
            params, grid[:5], still_params)
        _kc.open_to_bodies(blob, seen, open_cells, ox, oy, size, nx, ny, rmax, dmax, separation,
                           skin, margin)
        counts, records = self._follow_buffers(n)
        packed, rest = np.empty((n, 3)), np.empty((n, 5))
        run_rows(_kc.crowd_step, n, blob, seen, p, self._radii, weights, d, intents,
                 packed, rest, items, start, ox, oy, size, nx, ny,
                 rmax, dmax, code, separation, skin, margin, slack, min_motion,
                 world._max_iterations, *last, still, busy, open_cells, out, stops, obstacles,
                 pressure, leads, counts, records, *_cells(nx * ny, n), join=False)
        back = self._sent_back(p, out, counts, records, items, skin, max(
            1.0, abs(ox), abs(oy), abs(ox + nx * size), abs(oy + ny * size)))
        if len(back):
            run_rows(_kc.redo_rows, len(back), blob, seen, packed, rest, items, start, ox, oy,
                     size, nx, ny, rmax, dmax, code, separation, skin, margin, slack,
                     min_motion, world._max_iterations, still, busy, open_cells, out, stops,
                     obstacles, pressure, leads, counts, records, back,
                     np.zeros(1, dtype=np.int64), join=False)
        self._finish(params, d, p, out, stops, obstacles, pressure, open_cells, still_params)
        if squeezed is not None:
            stops[squeezed] = _moves.STOP_SQUEEZED
        # The crowd's arrays are replaced, never written in place (each step makes a new
        # ``out``; add and remove make new arrays): the record holds read-only views of
        # them instead of copies (a tenth of a millisecond a step for 10,000 agents).
        return CrowdStep(_read_only(self._ids), _read_only(out), _read_only(obstacles),
                         _read_only(still.view(np.bool_)), stops, self._radii, 2.0 * skin)


@dataclass(frozen=True)
class _History:
    """What a crowd's last step started from and answered, to tell agents at rest."""

    params: tuple[object, ...]
    positions: FloatArray
    flat: FloatArray
    displacements: FloatArray
    pressure: FloatArray
    stops: IntArray
    obstacles: IntArray
    open_cells: NDArray[np.uint8]
    #: What the open cells' first half depends on (see :meth:`_Agents._buffers`).
    still_params: tuple[object, ...] | None = None


def _cells(count: int, n: int) -> tuple[IntArray, IntArray]:
    """A step's queues ``(2, 3)`` of the agents' grid cells and of its ``n`` agents
    (:func:`sidestep.kernels.crowd.cell_order`) and the count of rows done: the threads of
    a step share the ordering and the test for agents at rest."""
    queues = np.array([row_queue(0, count, max(1, count // CELL_CHUNKS)),
                       row_queue(0, n, max(1, n // CELL_CHUNKS))])
    return queues, np.zeros(1, dtype=np.int64)


def _round_up(value: float) -> float:
    """``value`` (>= 0) rounded up to a sixteenth of its power of two: the figures a step
    takes from all its agents (the largest displacement) then stays the same while the
    agents' own values wobble by a rounding, so that agents at rest can be
    told to be (:func:`sidestep.kernels.crowd.still_rows`)."""
    if value <= 0.0 or not math.isfinite(value):
        return value
    unit = 2.0 ** (math.floor(math.log2(value)) - 4)
    return float(math.ceil(value / unit) * unit)


def _weights(value: Numbers, n: int) -> FloatArray:
    w = validation.as_float_array(value, "weights")
    if w.ndim == 0:
        w = np.full(n, float(w))
    if w.shape != (n,):
        raise ValueError(f"weights must be a number or have shape ({n},), got {w.shape}")
    if np.any(np.isnan(w)) or np.any(w <= 0):
        raise ValueError("weights must be > 0 (inf allowed), not NaN")
    return w


def _read_only(array: NDArray[_T]) -> NDArray[_T]:
    view = array.view()
    view.flags.writeable = False
    return view
