"""Pushes that travel: the way agents ahead of a heavy agent make, worked out before the
step, as far as it must go.

In a crowd's step (:mod:`sidestep.kernels.crowd`) an agent makes way for a neighbour that
heads into it; its neighbours only learn of that the next step, and each passes on about
half of what it was given (equal weights share a gap): a heavy agent walking into a
packed block moved the first agents, hardly the next, and stopped. So before the step a
push is sent on through the crowd, from every agent of infinite weight that walks:

- an agent that a heavier one (or one carrying a push) heads into beyond their gap is
  given that part of the other's motion, along the line between them, as a displacement
  of its own (summed over its pushers, at most the step's largest displacement), and
- carries half of the pusher's weight for the step (at most half of :data:`BIG`), so that
  the agent it heads into in turn gives way to it whole, not by half;

round after round (all agents at once, so the answer does not depend on their order),
until nothing changes or :data:`ROUNDS` rounds. Each part given is rounded to a fine grain
(:data:`GRAIN`), so that an agent's sum over its pushers is exact: the same in any order of
the agents, to the bit. The step then moves everyone with these
displacements and weights and keeps its promise as with any others (a weight is only how
the gap between two agents is shared, the same for both of them).

Positions and displacements are in the crowd's plane (the ground plane for
:class:`~sidestep.Crowd3D`), world units.
"""
import math

import numpy as np
from numba import njit

from .crowd import grain_below, grid_window, on_grain

#: The largest weight a pushed agent carries: a pushed agent halves its pusher's, so a push
#: goes this many halvings (40) deep before the agents it meets are as light as they are.
BIG = 2.0 ** 40
#: Rounds of sending pushes on, at most: how many agents deep a push goes in a step.
ROUNDS = 32
#: The grain a push's parts are rounded to, as a power of two below the step's largest
#: displacement's (``2**-40`` of it, about 1e-12): sums of such parts are exact while they
#: stay below ``2**13`` largest displacements, so they do not depend on the order they are
#: added in.
GRAIN = 40


@njit(cache=True)
def push_plans(positions, radii, weights, displacements, dmax, ox, oy, size, nx, ny, start,
               items, plans, carried):
    """The displacements pushes give and the weights they lend (see the module).

    Parameters
    ----------
    positions, displacements : (n, 2) float64
        Positions and the displacements asked for, in the crowd's plane.
    radii, weights : (n,) float64
    dmax : float
        The step's largest displacement: a push gives at most this.
    ox, oy, size, nx, ny, start, items
        :func:`~sidestep.kernels.crowd.grid_agents` over ``positions`` (cells of at
        least two radii and twice ``dmax``).
    plans : (n, 2) float64
        Receives each agent's displacement from pushes (zero for most).
    carried : (n,) float64
        Receives each agent's weight for the step (its own, or half its heaviest pusher's).

    Returns
    -------
    int
        The rounds it took.
    """
    n = positions.shape[0]
    inverse = 1.0 / size
    rmax = 0.0
    for k in range(n):
        rmax = max(rmax, radii[k])
        plans[k, 0] = 0.0
        plans[k, 1] = 0.0
        carried[k] = weights[k]
    # Pushers this round: agents of infinite weight that walk, then whoever was pushed.
    active = np.empty(n, dtype=np.int64)
    count = 0
    for k in range(n):
        if math.isinf(weights[k]) and (displacements[k, 0] != 0.0 or displacements[k, 1] != 0.0):
            active[count] = k
            count += 1
    if count == 0:
        return 0
    given = np.zeros((n, 2))
    lent = np.empty(n)
    grain = grain_below(dmax, GRAIN)
    touched = np.zeros(n, dtype=np.uint8)
    listed = np.empty(n, dtype=np.int64)
    rounds = 0
    while rounds < ROUNDS:
        rounds += 1
        m = 0
        for q in range(count):
            j = active[q]
            tx = displacements[j, 0] + plans[j, 0]
            ty = displacements[j, 1] + plans[j, 1]
            reach = radii[j] + rmax + math.sqrt(tx * tx + ty * ty)
            i0, i1, j0, j1 = grid_window(positions[j, 0], positions[j, 1], reach, ox, oy,
                                         inverse, nx, ny)
            for cj in range(j0, j1 + 1):
                for ci in range(i0, i1 + 1):
                    c = cj * nx + ci
                    for t in range(start[c], start[c + 1]):
                        k = items[t]
                        if k == j or math.isinf(weights[k]) or not carried[j] > weights[k]:
                            continue
                        ex = positions[k, 0] - positions[j, 0]
                        ey = positions[k, 1] - positions[j, 1]
                        dist = math.sqrt(ex * ex + ey * ey)
                        if dist == 0.0:
                            continue
                        ux = ex / dist
                        uy = ey / dist
                        into = tx * ux + ty * uy - max(dist - radii[j] - radii[k], 0.0)
                        if into <= 0.0:
                            continue
                        if not touched[k]:
                            touched[k] = 1
                            given[k, 0] = 0.0
                            given[k, 1] = 0.0
                            lent[k] = weights[k]
                            listed[m] = k
                            m += 1
                        given[k, 0] += on_grain(into * ux, grain)
                        given[k, 1] += on_grain(into * uy, grain)
                        lent[k] = max(lent[k], 0.5 * min(carried[j], BIG))
        # All at once: this round's pushes replace the last round's.
        changed = False
        for k in range(n):
            if touched[k] == 0 and (plans[k, 0] != 0.0 or plans[k, 1] != 0.0):
                plans[k, 0] = 0.0
                plans[k, 1] = 0.0
                carried[k] = weights[k]
                changed = True
        for q in range(m):
            k = listed[q]
            gx = given[k, 0]
            gy = given[k, 1]
            length = math.sqrt(gx * gx + gy * gy)
            if length > dmax:
                gx *= dmax / length
                gy *= dmax / length
            if gx != plans[k, 0] or gy != plans[k, 1] or lent[k] != carried[k]:
                changed = True
            plans[k, 0] = gx
            plans[k, 1] = gy
            carried[k] = lent[k]
            touched[k] = 0
        if not changed:
            break
        # Next round's pushers: the sources and everyone pushed.
        count = 0
        for k in range(n):
            if (math.isinf(weights[k]) and (displacements[k, 0] != 0.0 or
                                            displacements[k, 1] != 0.0)) or \
                    plans[k, 0] != 0.0 or plans[k, 1] != 0.0:
                active[count] = k
                count += 1
    return rounds
