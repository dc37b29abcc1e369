"""Local avoidance for crowds: :class:`Avoidance`, the option of :meth:`Crowd.step
<sidestep.Crowd.step>` and :meth:`Crowd3D.step <sidestep.Crowd3D.step>` that turns each
agent's displacement aside from its neighbours' motions before the step keeps them apart.

The step alone never lets agents overlap, but agents walking into each other meet, press
and wait; with avoidance they see each other coming, pass on one side and form lanes.
One implementation for both crowds (:mod:`sidestep.kernels.avoid`, in the crowd's plane:
the ground plane of a :class:`~sidestep.Crowd3D`).

>>> import sidestep
>>> crowd = sidestep.Crowd(sidestep.World2D(), [(-3.0, 0.0), (3.0, 0.0)], radii=0.4)
>>> for _ in range(40):                     # head on, 0.2 a step, avoiding
...     done = crowd.step([(0.2, 0.0), (-0.2, 0.0)], avoid=True)
>>> bool(crowd.positions[0, 0] > crowd.positions[1, 0])   # they passed each other
True
"""
from dataclasses import dataclass

import numpy as np

from . import validation
from ._types import FloatArray
from .kernels import avoid as _kernel
from .kernels import crowd as _kc
from .threads import run_rows


@dataclass(frozen=True)
class Avoidance:
    """How a crowd's agents avoid each other (``avoid=`` of a crowd's ``step``).

    Parameters
    ----------
    horizon : float > 0 or None
        Steps ahead an agent keeps clear of its neighbours' motions. Longer: agents turn
        aside earlier and more. None (the default): the steps the crowd's fastest walker
        takes to cover :data:`~sidestep.kernels.avoid.HORIZON_RADII` (8.5) times the
        agents' median radius, worked out at each step (18 steps for agents of 0.3 walking
        0.14 a step, 27 for agents of 0.25 walking 0.08): agents look as far ahead at 60
        frames a second as at 10, and a crowd of any size of agent avoids alike.
    lanes : float >= 0
        Radians an agent turns its wish to one side (the same for every agent) while an
        oncoming agent is near ahead: groups meeting head-on keep to their own sides and
        form lanes (1.2 by default, all of it once the crowd ahead comes the other way; 0:
        plain reciprocal avoidance). A crowd walking one way wants 0: agents funnelling
        into a doorway from both sides read each other as oncoming and tilt (group A
        alone through the counterflow hall's doorways: 2,500 of 2,500 across with 0,
        1,807 with 1.2; the crowds page).
    neighbours : int >= 1
        Nearest agents each agent avoids, at most (4 by default: finding them is most of
        avoidance's time in a dense crowd; 6 takes the project's crowd hall from 5.2 to 5.8
        ms a step for about as many across). More than the crowd's other agents: all of
        them.
    """

    horizon: float | None = None
    lanes: float = 1.2
    neighbours: int = 4

    def __post_init__(self) -> None:
        if self.horizon is not None:
            validation.length(self.horizon, "horizon", allow_zero=False)
        validation.length(self.lanes, "lanes")
        if isinstance(self.neighbours, bool) or not isinstance(self.neighbours, (int, np.integer)) \
                or self.neighbours < 1:
            raise ValueError(f"neighbours must be a whole number >= 1, got {self.neighbours!r}")


def avoidance(value: object) -> Avoidance | None:
    """``avoid=`` of a crowd's step as an :class:`Avoidance` (None: off)."""
    if value is False or value is None:
        return None
    if value is True:
        return Avoidance()
    if isinstance(value, Avoidance):
        return value
    raise TypeError(f"avoid must be a bool or an Avoidance, got {type(value).__name__}")


def avoided(settings: Avoidance, positions: FloatArray, radii: FloatArray,
            weights: FloatArray, motions: FloatArray, wishes: FloatArray) -> FloatArray:
    """Each agent's displacement, turned aside from its neighbours.

    Parameters
    ----------
    settings : Avoidance
    positions, motions, wishes : (n, 2) float64
        In the crowd's plane: positions (world units), each agent's motion last step and
        the displacement it asks for (world units a step).
    radii, weights : (n,) float64

    Returns
    -------
    (n, 2) float64
        The displacements to step by (each no longer than the one asked).
    """
    n = len(positions)
    out = np.empty((n, 2))
    if n == 0:
        return out
    wish_max = _kc.longest(wishes)
    rmax = float(radii.max())
    if wish_max == 0.0:
        out[:] = wishes
        return out
    horizon = settings.horizon
    if horizon is None:
        # The median: the same whatever the agents' order (a mean's rounding is not).
        horizon = _kernel.HORIZON_RADII * float(np.median(radii)) / wish_max
    reach = 2.0 * rmax + horizon * (wish_max + _kc.longest(motions))
    # Cells of two radii: a dense crowd's nearest agents are a ring or two of cells away.
    grid = _kc.grid_agents(positions, 2.0 * rmax)
    # Where the crowd heads, over cells of the farthest a lane looks.
    look = rmax + _kernel.LANE_LOOK * horizon * wish_max
    flow = _kc.grid_frame(positions, max(_kernel.FLOW_CELL * look, 2.0 * rmax))
    bins = _kernel.flow_bins(positions, wishes, *flow)
    # No more than there are other agents: each thread's buffers hold that many.
    neighbours = int(min(settings.neighbours, max(n - 1, 1)))
    run_rows(_kernel.avoid_rows, n, positions, radii, weights, motions, wishes, *grid, bins,
             *flow, float(horizon), float(settings.lanes), neighbours,
             reach, out)
    return out
