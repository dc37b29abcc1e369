"""Following: an agent may close in on a neighbour that walks away, as far as that
neighbour asked to go, and a step keeps that only once the neighbour went.

A crowd's step (:mod:`sidestep.kernels.crowd`, :mod:`sidestep.kernels3d.crowd`) gives each
agent a cell: against each neighbour ``j`` (``n`` the unit vector from the agent to it,
``g`` their gap) the agent may advance along ``n`` by its share ``s g`` of the gap, so that
two agents never meet whatever either does. Alone, that rule lets a packed queue advance by
half a gap a step: the agent behind one walking away waits for the gap to open. So each
bound is widened by what the neighbour asked to go away, ``max(0, d_j . n)``: a queue walks
on as one, a packed crowd can shear, and a push travels ahead.

A widened bound is a promise the neighbour may not keep (a wall, or its own neighbours,
may stop it). So the step notes, for every agent that went past its own share against a
neighbour, the pair's ``n`` and ``g`` (:data:`FOLLOWS` at most; one that follows more is
worked out again, below), and
:func:`failing_follows` checks each pair once every agent has moved: the pair stays
apart, along ``n`` and so everywhere on the way (both motions are straight chords, and the distance along
``n`` is at least the sum of the radii at both ends), when

    ``(m_i - m_j) . n <= max(g, 0) + 2 a``,

``m`` their motions and ``a`` the allowance a cell gives each agent
(:func:`~sidestep.kernels.crowd._inside_cell`). An agent whose pair fails is worked out
again within its own cell, and so is every agent following it (and every agent following
those): then each follow left was checked with the motions both agents end with, and a
pair where neither follows the other is two cells, apart as before. All at once, so the
answer does not depend on the agents' order nor on the threads.
"""
import numpy as np
from numba import njit


#: Pairs an agent may follow past its share in one step; one that follows more is worked
#: out again within its own cell.
FOLLOWS = 4
#: A follow record: the neighbour's index, ``n`` (3 components; 2D: the last is 0) and the
#: gap.
FIELDS = 5


@njit(cache=True, forceinline=True)
def allowance(gap, tolerance, rounding):
    """What a cell lets an agent go beyond its bound against a neighbour at ``gap``
    (as :func:`~sidestep.kernels.crowd._inside_cell`): ``tolerance`` shrinking as the gap
    closes below zero, never below ``rounding``."""
    return max(rounding, tolerance + min(gap, 0.0))


@njit(cache=True, forceinline=True)
def note_follows(counts, records, k, dim, mx, my, mz, pairs, count, n0, gap_at, share_at,
                 items, neighbours, tolerance, rounding):
    """Note agent ``k``'s follows into ``counts[k]`` (-1: more than :data:`FOLLOWS`) and
    ``records[k]``: the pairs of ``pairs[:count]`` its motion ``m`` goes past its share
    against (the unit vector in columns ``n0..n0 + dim``, the gap in ``gap_at``, its share's
    bound in ``share_at``; pair ``t`` is the agent ``items[neighbours[t]]``)."""
    found = 0
    for t in range(count):
        toward = mx * pairs[t, n0] + my * pairs[t, n0 + 1]
        if dim == 3:
            toward += mz * pairs[t, n0 + 2]
        gap = pairs[t, gap_at]
        if toward > pairs[t, share_at] + allowance(gap, tolerance, rounding):
            if found == FOLLOWS:
                counts[k] = -1
                return
            records[k, found, 0] = items[neighbours[t]]
            records[k, found, 1] = pairs[t, n0]
            records[k, found, 2] = pairs[t, n0 + 1]
            records[k, found, 3] = pairs[t, n0 + 2] if dim == 3 else 0.0
            records[k, found, 4] = gap
            found += 1
    counts[k] = found


@njit(cache=True, inline="always")
def widened(share, gap, asked, went):
    """An agent's bound against a neighbour when it may follow it (see the module): its
    ``share`` of their ``gap`` and what the neighbour asked to go away (``asked``, along
    the line to it), as far as it went away last step (``went``). A pair that overlaps
    (``gap < 0``: a body carried one into the other) follows only once the neighbour's
    going away has undone the overlap: the overlap is not kept."""
    return share + max(min(asked, went) + min(gap, 0.0), 0.0)


@njit(cache=True, forceinline=True)
def _breaks(starts, out, records, k, a, dim, tolerance, rounding):
    """Whether agent ``k``'s follow record ``a`` fails with the motions in ``out``."""
    j = int(records[k, a, 0])
    closing = 0.0
    for c in range(dim):
        closing += ((out[k, c] - starts[k, c]) - (out[j, c] - starts[j, c])) * records[k, a, 1 + c]
    gap = records[k, a, 4]
    return closing > max(gap, 0.0) + 2.0 * allowance(gap, tolerance, rounding)


@njit(cache=True)
def failing_follows(starts, out, counts, records, tolerance, rounding, items):
    """The agents to work out again within their own cells: ``(m,) int64``, their rows of
    the step's agent order ``items`` (agent ``items[row]``), each once, in row order.

    Those whose follow fails with the motions in ``out`` (see the module), and every agent
    that follows one of them, and so on: once those are worked out again, every follow
    left holds with the motions the agents end with (the agents it follows keep theirs),
    and no agent worked out again is followed. All at once: the answer does not depend on
    the agents' order.

    Parameters
    ----------
    starts, out : (n, dim) float64
        The agents' positions at the step's start and their ends.
    counts : (n,) int64
        Per agent: its count of records (0: follows none, as the agents not worked out
        this step; -1: it followed more than :data:`FOLLOWS`).
    records : (n, FOLLOWS, FIELDS) float64
    tolerance, rounding : float
        A cell's allowance (:func:`allowance`).
    items : (n,) int64
        The step's agent order (:func:`~sidestep.kernels.crowd.grid_agents`).
    """
    n, dim = starts.shape
    back = np.zeros(n, dtype=np.uint8)
    following = np.empty(n, dtype=np.int64)
    m = 0
    failed = 0
    for k in range(n):
        if counts[k] > 0:
            following[m] = k
            m += 1
        elif counts[k] < 0:
            back[k] = 1
            failed += 1
    for q in range(m):
        k = following[q]
        for a in range(counts[k]):
            if _breaks(starts, out, records, k, a, dim, tolerance, rounding):
                back[k] = 1
                failed += 1
                break
    # Whoever follows an agent sent back goes back too, and so on: a walk over the follows
    # turned round (each agent's followers, in a compressed table).
    if failed:
        first = np.zeros(n + 1, dtype=np.int64)
        for q in range(m):
            k = following[q]
            for a in range(counts[k]):
                first[int(records[k, a, 0]) + 1] += 1
        for j in range(n):
            first[j + 1] += first[j]
        fill = first[:-1].copy()
        followers = np.empty(first[n], dtype=np.int64)
        for q in range(m):
            k = following[q]
            for a in range(counts[k]):
                j = int(records[k, a, 0])
                followers[fill[j]] = k
                fill[j] += 1
        todo = np.empty(n, dtype=np.int64)
        top = failed
        todo[:top] = np.flatnonzero(back)
        while top > 0:
            top -= 1
            j = todo[top]
            for t in range(first[j], first[j + 1]):
                k = followers[t]
                if not back[k]:
                    back[k] = 1
                    failed += 1
                    todo[top] = k
                    top += 1
    rows = np.empty(failed, dtype=np.int64)
    m = 0
    for row in range(n):
        if back[items[row]]:
            rows[m] = row
            m += 1
    return rows
