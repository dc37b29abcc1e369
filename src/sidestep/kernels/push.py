"""Pushes that travel: the way agents ahead of a heavy agent make, worked out before the
step, as far as it must go.

In a crowd's step (:mod:`sidestep.kernels.crowd`) an agent makes way for a neighbour that
heads into it; its neighbours only learn of that the next step, and each passes on about
half of what it was given (equal weights share a gap): a heavy agent walking into a
packed block moved the first agents, hardly the next, and stopped. So before the step a
push is sent on through the crowd, from every agent of infinite weight that walks:

- an agent that a heavier one (or one carrying a push) heads into beyond the part of
  their gap the step lets the other take (its share by the weights the two carry) is
  given that part of the other's motion, along the line between them, as a displacement
  of its own (with what it asked to walk into the pusher taken back; summed over its
  pushers, at most the step's largest displacement), and
- carries half of the pusher's weight for the step (at most half of :data:`BIG`), so that
  the agent it heads into in turn gives way to it whole, not by half;

round after round (all agents at once, so the answer does not depend on their order),
until nothing changes or :data:`ROUNDS` rounds.

A moving body (:mod:`sidestep.kernels.carry`) pushes too: it carries the agents it sweeps
past out of its way before the step, each alone, and an agent carried into a neighbour
would start the step overlapping it (the step keeps such pairs from closing, no more). So
each overlap a carry made (the part beyond what the two had before it) is given to the
neighbour as a displacement away from the carried agent along the line between them, with
half of :data:`BIG` lent (the body behind it does not give way), and sent on by the
agents so pushed (with their pushes, not their walks); two agents the bodies both carried
into each other share it by weight. These pushes are moves of their own, made before the
step as the carry is (``whole``: a pusher takes the whole gap ahead of it), so that the
step's neighbour search stays as narrow as the crowd's walk. Only agents whose extents
along ``up`` meet push each other (:class:`~sidestep.Crowd3D`: one floor does not push
the agents of the floor below). Each part given is rounded to a fine grain
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

from .crowd import _share, grain_below, grid_window, on_grain

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
               items, before, lows, highs, whole, plans, carried):
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
    before : (n, 2) float64
        The positions before the bodies' carry (``positions`` where none carried an
        agent): an agent whose row differs was carried.
    lows, highs : (n,) float64
        Each agent's extent along ``up`` (3D; zeros in 2D): two agents push each other only
        where these meet.
    whole : bool
        Whether a pusher takes the whole gap ahead of it: pushes made as moves of their
        own (a body's, before the step), not within the step's shares.
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
    sources = 0
    for k in range(n):
        if math.isinf(weights[k]) and (displacements[k, 0] != 0.0 or displacements[k, 1] != 0.0):
            active[sources] = k
            sources += 1
    count = sources
    grain = grain_below(dmax, GRAIN)
    seed = np.empty((n, 2))
    seeded = _carry_seeds(positions, radii, weights, before, lows, highs, rmax, ox, oy,
                          inverse, nx, ny, start, items, grain, seed)
    if count == 0 and seeded.shape[0] == 0:
        return 0
    # Only the agents a round reaches are read or written (no pass over the whole crowd a
    # round): ``listed`` this round's, ``planned`` the last round's.
    given = np.empty((n, 2))
    lent = np.empty(n)
    touched = np.zeros(n, dtype=np.uint8)
    listed = np.empty(n, dtype=np.int64)
    planned = np.empty(n, dtype=np.int64)
    n_planned = 0
    rounds = 0
    while rounds < ROUNDS:
        rounds += 1
        # The carries' parts, the same every round; then this round's pushers'.
        m = seeded.shape[0]
        for q in range(m):
            k = seeded[q]
            touched[k] = 1
            given[k, 0] = seed[k, 0]
            given[k, 1] = seed[k, 1]
            lent[k] = max(weights[k], 0.5 * BIG)
            listed[q] = k
        for q in range(count):
            j = active[q]
            # An agent of infinite weight pushes with its walk, a pushed one with its push.
            tx = displacements[j, 0] if math.isinf(weights[j]) else plans[j, 0]
            ty = displacements[j, 1] if math.isinf(weights[j]) else plans[j, 1]
            reach = radii[j] + rmax + math.sqrt(tx * tx + ty * ty)
            i0, i1, j0, j1 = grid_window(positions[j, 0], positions[j, 1], reach, ox, oy,
                                         inverse, nx, ny)
            for cj in range(j0, j1 + 1):
                for ci in range(i0, i1 + 1):
                    c = cj * nx + ci
                    for t in range(start[c], start[c + 1]):
                        k = items[t]
                        if k == j or math.isinf(weights[k]) or not carried[j] > weights[k] \
                                or _other_level(lows, highs, j, k):
                            continue
                        ex = positions[k, 0] - positions[j, 0]
                        ey = positions[k, 1] - positions[j, 1]
                        dist = math.sqrt(ex * ex + ey * ey)
                        if dist == 0.0:
                            continue
                        ux = ex / dist
                        uy = ey / dist
                        # Beyond the part of the gap the pusher may take in the step (its
                        # share against the weight it lends: all of it for an agent of
                        # infinite weight, two thirds down a chain of pushed agents).
                        lend = max(weights[k], 0.5 * min(carried[j], BIG))
                        part = 1.0 if whole else _share(carried[j], lend)
                        into = tx * ux + ty * uy - part * max(dist - radii[j] - radii[k], 0.0)
                        if into <= 0.0:
                            continue
                        # And what it asked to walk into the pusher (the step stops that).
                        into += _against(displacements, k, ux, uy)
                        if not touched[k]:
                            touched[k] = 1
                            given[k, 0] = 0.0
                            given[k, 1] = 0.0
                            lent[k] = weights[k]
                            listed[m] = k
                            m += 1
                        given[k, 0] += on_grain(into * ux, grain)
                        given[k, 1] += on_grain(into * uy, grain)
                        lent[k] = max(lent[k], lend)
        # All at once: this round's pushes replace the last round's.
        changed = False
        for q in range(n_planned):
            k = planned[q]
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
        for q in range(m):
            planned[q] = listed[q]
            active[sources + q] = listed[q]
        n_planned = m
        count = sources + m
    return rounds


@njit(cache=True)
def _carry_seeds(positions, radii, weights, before, lows, highs, rmax, ox, oy, inverse, nx,
                 ny, start, items, grain, seed):
    """The overlaps the bodies' carry made, as pushes (see the module): writes to ``seed
    (n, 2)`` each neighbour's parts summed, away from the carried agents (rows of the
    agents given none are left as they were), and returns the agents given one (``(m,)
    int64``, ascending)."""
    n = positions.shape[0]
    mark = np.zeros(n, dtype=np.uint8)
    for j in range(n):
        if positions[j, 0] == before[j, 0] and positions[j, 1] == before[j, 1]:
            continue
        i0, i1, j0, j1 = grid_window(positions[j, 0], positions[j, 1], radii[j] + rmax, ox,
                                     oy, inverse, nx, ny)
        for cj in range(j0, j1 + 1):
            for ci in range(i0, i1 + 1):
                c = cj * nx + ci
                for t in range(start[c], start[c + 1]):
                    k = items[t]
                    if k == j or math.isinf(weights[k]) or _other_level(lows, highs, j, k):
                        continue
                    ex = positions[k, 0] - positions[j, 0]
                    ey = positions[k, 1] - positions[j, 1]
                    dist = math.sqrt(ex * ex + ey * ey)
                    touch = radii[j] + radii[k]
                    if dist == 0.0 or dist >= touch:
                        continue
                    bx = before[k, 0] - before[j, 0]
                    by = before[k, 1] - before[j, 1]
                    # The overlap now less the one the two had before the carry.
                    into = (touch - dist) - max(touch - math.sqrt(bx * bx + by * by), 0.0)
                    if into <= 0.0:
                        continue
                    if positions[k, 0] != before[k, 0] or positions[k, 1] != before[k, 1]:
                        into *= _share(weights[j], weights[k])      # carried both: shared
                    if not mark[k]:
                        mark[k] = 1
                        seed[k, 0] = 0.0
                        seed[k, 1] = 0.0
                    seed[k, 0] += on_grain(into * ex / dist, grain)
                    seed[k, 1] += on_grain(into * ey / dist, grain)
    return np.flatnonzero(mark)


@njit(cache=True, inline="always")
def _against(displacements, k, ux, uy):
    """How far agent ``k``'s own displacement heads against the unit ``u`` (0 if not)."""
    return max(-(displacements[k, 0] * ux + displacements[k, 1] * uy), 0.0)


@njit(cache=True)
def pushed_rows(plans):
    """The rows of ``plans (n, 2)`` (:func:`push_plans`) that push: ``(m,) int64``."""
    rows = np.empty(plans.shape[0], dtype=np.int64)
    m = 0
    for k in range(plans.shape[0]):
        if plans[k, 0] != 0.0 or plans[k, 1] != 0.0:
            rows[m] = k
            m += 1
    return rows[:m].copy()


@njit(cache=True, inline="always")
def _other_level(lows, highs, j, k):
    """Whether agents ``j`` and ``k`` lie wholly apart along ``up`` (they never push)."""
    return lows[k] > highs[j] or lows[j] > highs[k]
