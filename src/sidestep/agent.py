"""``Agent``: one character or camera that keeps its own position, for per-frame game loops.

``World2D.move`` answers with a full :class:`~sidestep.Move` record; a game
loop that calls it sixty times a second for each character mostly wants the
new position. ``Agent.step`` runs the same kernel with the agent's own scratch
buffers and returns two floats, three to four times cheaper per call.
"""
from typing import TYPE_CHECKING

import numpy as np

from . import layers, validation
from ._types import FloatArray, Mode, Point2, Stop
from .kernels import carry as _carry
from .kernels import moves as _moves
from .tolerances import MAX_COORDINATE

if TYPE_CHECKING:
    from .results import Contact
    from .storage import Store
    from .world import World2D


class Agent:
    """A disc (radius 0: a point camera) that moves through a :class:`~sidestep.World2D`.

    Parameters
    ----------
    world : World2D
        The world it moves in; obstacles added or removed later are seen at
        the next step.
    position : (2,) float64
    radius : float >= 0
    mode : {"slide", "push", "block", "ghost"}
    mask : int
        The layers it collides with (default all; :mod:`sidestep.layers`).

    Examples
    --------
    >>> import sidestep
    >>> world = sidestep.World2D()
    >>> _ = world.add_walls([(-5.0, 0.0)], [(5.0, 0.0)])
    >>> hero = sidestep.Agent(world, (0.0, 1.0), radius=0.5)
    >>> x, y = hero.step(1.0, -2.0)             # a hit: slides along the wall
    >>> round(x, 6), y >= 0.5, hero.stop
    (1.0, True, 'slid')
    >>> hero.step(0.0, 3.0)                      # a miss: moves freely
    (1.0, 3.5000005)
    >>> hero.step(0.0, 0.0)                      # degenerate: stays
    (1.0, 3.5000005)
    """

    __slots__ = ("_store", "_x", "_y", "_radius", "_work", "_mask", "_since", "_squeezed")

    _store: "Store"
    _x: float
    _y: float
    _radius: float
    _work: FloatArray
    _mask: int
    _since: int          # the pose number of the bodies it has seen (see kernels.carry)
    _squeezed: bool

    def __init__(self, world: "World2D", position: Point2, radius: float = 0.0,
                 mode: Mode = "slide", mask: int = layers.ALL) -> None:
        from .world import _MODE_CODES, MODES
        p = validation.point(position, "position")
        self._store = world._store
        self._x = float(p[0])
        self._y = float(p[1])
        self._radius = validation.length(radius, "radius")
        code = _MODE_CODES[validation.choice(mode, "mode", MODES)]
        self._mask = layers.mask(mask)
        self._since = world._store.bodies.count
        self._squeezed = False
        self._work = np.zeros(_moves.WORK_SIZE)
        self._work[_moves.W_PARAMS:_moves.W_OUT] = (self._radius, code, *world._tolerances(),
                                                     world._max_iterations)

    def step(self, dx: float, dy: float) -> tuple[float, float]:
        """Move by ``(dx, dy)`` in the agent's mode; returns the new ``(x, y)`` as floats."""
        if not (type(dx) is float and type(dy) is float
                and -MAX_COORDINATE <= dx <= MAX_COORDINATE
                and -MAX_COORDINATE <= dy <= MAX_COORDINATE):    # NaN fails it too
            dx = validation.number(dx, "displacement")
            dy = validation.number(dy, "displacement")
        store = self._store
        blob = store.pack()
        live = store.live(self._mask)
        stamp = store.bodies.count
        if stamp > self._since:
            # Bodies moved since the last step: their motion sweeps past the agent first.
            met = _carry.carry_packed_direct()(blob, live, self._work, self._x, self._y,
                                               float(self._since))
            self._since = stamp
            self._squeezed = met == 2
            if met:
                self._x, self._y = self._work[_moves.W_OUT + _moves.O_X:
                                              _moves.W_OUT + _moves.O_Y + 1].tolist()
        else:
            self._squeezed = False
        x, y = _moves.move_packed_direct()(blob, live, self._work, self._x, self._y, dx, dy)
        self._x = x
        self._y = y
        return x, y

    @property
    def position(self) -> FloatArray:
        """``(2,) float64``: where the agent is."""
        return np.array([self._x, self._y])

    @position.setter
    def position(self, value: Point2) -> None:
        p = validation.point(value, "position")
        self._x = float(p[0])
        self._y = float(p[1])

    @property
    def radius(self) -> float:
        """The agent's radius (world units)."""
        return self._radius

    @property
    def stop(self) -> Stop:
        """Why the last step ended (see :attr:`sidestep.Move.stop`); ``"squeezed"`` when a
        moving body pushed the agent against something else before it moved."""
        from .world import _STOPS
        if self._squeezed:
            return "squeezed"
        return _STOPS[int(self._work[_moves.W_OUT + _moves.O_STOP])]

    @property
    def contacts(self) -> "tuple[Contact, ...]":
        """The :class:`~sidestep.Contact` records of the last step."""
        from .world import contacts_from
        return contacts_from(self._work, int(self._work[_moves.W_OUT + _moves.O_CONTACTS]))
