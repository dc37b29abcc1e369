"""Local avoidance: the velocity each agent of a crowd asks for, chosen near its wish so that
it keeps clear of its neighbours' motions over a short horizon.

A crowd's step (:mod:`sidestep.kernels.crowd`, :mod:`sidestep.kernels3d.crowd`) keeps
agents apart exactly, but only within the step: agents walking into each other meet, press
and wait. With avoidance on, each agent's displacement is first turned aside so that,
were every neighbour to keep the motion it made last step, none of them would come within
reach of it within ``horizon`` steps. This is the reciprocal velocity obstacle of
van den Berg, Guy, Lin and Manocha ("Reciprocal n-body collision avoidance", 2011: ORCA):

1. For each of the ``neighbours`` nearest agents ``j`` within reach, the relative
   velocity ``v_k - v_j`` that leads to contact within the horizon lies in a truncated
   cone (the velocity obstacle). ``u`` is the smallest change of the relative velocity
   that leaves the cone; agent ``k`` takes its share of it (by weight, as the crowd
   shares a gap: half each for equals, none for an agent of infinite weight, all of it
   when the neighbour stands or is held) and the velocities beyond that
   change make a half-plane of allowed velocities.
2. The displacement asked for, tilted by up to ``lanes`` radians to one side (the same
   side for every agent, so groups meeting head-on keep to their own side of each other
   and form lanes) the more of the crowd ahead heads against it (:func:`flow_bins`) or
   stands in its way, and wholly while the agent waits in a queue (:data:`HELD_KEEP`: a
   crowd waiting at a door keeps to its own side of it), is the preferred velocity; the
   answer is the velocity nearest it, no longer than the displacement asked, in every
   half-plane (a two-dimensional linear program, one half-plane at a time, nearest
   neighbour first). When the half-planes leave no velocity, the answer keeps to the
   half-planes of the nearer neighbours it could meet and stops there.

An agent not waiting in a queue whose wish already keeps to every half-plane gets its
wish, to the bit: agents at rest with nothing coming stay at rest, and one walking in free
space walks as asked. An agent asking for nothing makes way for the walkers coming at it
(its share of the avoiding, as above, at most as fast as the fastest of them asks: a crowd
standing in a doorway or at its goals steps aside for those passing, as game crowds do)
and stands still again, to the bit, once standing keeps clear of them; an agent of
infinite weight never makes way.

Velocities are in world units per step (a step is one call of the crowd's ``step``);
positions and motions are the crowd's plane (the ground plane for :class:`~sidestep.Crowd3D`).
Each agent's answer depends only on the positions, radii, weights, last motions and wishes
(never on its row order nor the thread): the threads share the rows.
"""
import math

import numpy as np
from numba import njit

from .crowd import _share, grid_index, grid_window
from .row_queue import next_rows

#: Half-plane fields: ``nx, ny, bound`` (allowed: ``n . v <= bound``), and the line's point.
_FIELDS = 5
#: Below this speed (a fraction of the agent's own wish), a neighbour counts as standing
#: still: the agent takes the whole of the avoiding.
_STILL = 1e-9
#: A neighbour that went less than this part of what it asks is held (by the world or
#: its own neighbours): it makes no way, and the agent takes the whole of the avoiding.
_HELD = 0.25
LANE_MAX = 1.0
#: The default horizon (:class:`sidestep.avoidance.Avoidance`): the steps the crowd's
#: fastest walker takes to cover this many times the agents' median radius. A horizon in
#: steps alone looks half as far at 20 frames a second as at 10; this one looks as far.
#: What it decides most is how far the lanes look (:data:`LANE_LOOK` horizons' walks).
#: Measured (2026-11-29; ``benchmarks/crowd_hall.py``'s scenes, 1,500 steps, seeds 7, 2,
#: 1; the test suite's two groups of 200 through one 3 m door, 1,200 steps, seeds 1, 3,
#: 5): with 8.5, the counterflow hall (radius 0.25, 0.08 a step: 27 steps) 1,305, 1,348,
#: 1,367 across (20 steps, the default before: 849, 889, 609), the project's hall (0.3,
#: 0.14: 18 steps; seed 7) 1,184 of 10,000 (1,195), the 3 m door 81.5, 81.5, 76.7% (81.2,
#: 80.7, 82.8%). With 9.0 and 9.5: 1,358 and 1,431 across the counterflow hall on average,
#: 79.8% and 75.2% through the 3 m door (the smaller scene wants a shorter look, the
#: larger a longer). Two groups meeting head-on in a corridor two agents wide pass at most
#: horizons but lock at about one in five (each lane held by one agent of the other group
#: that could not merge: 21, 28.125 and 31 steps lock, 20, 26.6 and 28 pass).
HORIZON_RADII = 8.5
#: How far ahead (in horizons' walks) an agent looks for oncoming company (lanes).
LANE_LOOK = 2.0
#: The cells of :func:`flow_bins`, in lane looks (the farthest an agent looks for oncoming
#: company): an agent reads the 3 by 3 cells round it. Half a look (5 by 5 cells) sees
#: the flow finer but not better, at twice the time: the counterflow hall
#: (``benchmarks/crowd_hall.py --scene doors3 --seed 1``, 2, 7; 6 neighbours each) gets
#: 755, 716, 589 across with cells of a look, 497, 690, 440 with half a look, 489, 576,
#: 544 with three quarters, 374, 308, 521 with 1.25 looks and 24, 37, 24 with 1.5.
FLOW_CELL = 1.0
#: Agents keep this many times the sum of their radii apart over the horizon (a little
#: room to pass each other: a crowd that packs itself tight cannot part).
SPACE = 1.2
#: An agent held (it went less than :data:`_HELD` of what it asks) keeps only this many
#: times the sum of their radii from a neighbour that is held too and heads its way: a
#: waiting crowd presses closer and leaves room for the agents coming out of a door against
#: it. The counterflow hall (``benchmarks/crowd_hall.py --scene doors3``, 1,500 steps, three
#: seeds of the starts): 258, 262, 200 across with :data:`SPACE` there, 440, 497, 690 with
#: this; two groups of 200 through one 3 m door: 84-89% either way.
HELD_SPACE = 1.1
#: Steps ahead, at most, an agent keeps clear of a neighbour that stands or is held: it
#: closes up behind a queue and creeps past a crowd that waits, where the whole horizon
#: would keep it (and everyone behind it) far back and still.
STAND_HORIZON = 3.0
#: An agent held in a queue (it went less than :data:`_HELD` of what it asks, but some
#: way, and none of its nearest neighbours heads against it) keeps to the lanes' side as if
#: this much of the crowd ahead came against it (1: the whole tilt): a crowd held at a
#: doorway gathers on its own side of the way in and leaves the other side to those coming
#: out against it, before they are in sight. An agent that did not move at all walks off
#: straight (a crowd's first step, one starting from rest), and one meeting another head-on
#: tilts as much as the oncoming crowd says (a corridor two agents wide would jam were the
#: agents at its front tilted wholly). The counterflow hall (``benchmarks/crowd_hall.py
#: --scene doors3``, 1,500 steps, seeds 7, 2, 1, 3, 4, 5 of the starts): 849, 889, 609,
#: 951, 800, 659 across (mean 793) against 460, 732, 742, 598, 669, 698 (mean 650)
#: without; the project's hall 1,195 of 10,000 against 1,018; two groups of 200 through one
#: 3 m door (seeds 1, 3, 5, 7): 80.2-82.8% against 85.8-88.2%. Tilting every held agent
#: that moved: mean 804, but the corridor jams; half the tilt: mean 670.
HELD_KEEP = 1.0


@njit(cache=True, forceinline=True)
def _half_plane(pvx, pvy, rx, ry, rvx, rvy, reach, horizon, share, out, row):
    """The half-plane of agent velocities that avoid a neighbour at ``rel = (rx, ry)``
    (from the agent to it) with relative velocity ``rel_v = (rvx, rvy)`` (the agent's
    last motion less the neighbour's) within ``horizon`` steps, ``reach`` the sum of their
    radii, of which the agent takes ``share`` (``pvx, pvy``: the agent's own last motion).
    Writes row ``row`` of ``out``: the outward normal ``n``, the bound ``b`` (allowed:
    ``n . v <= b``) and the line's point."""
    dist2 = rx * rx + ry * ry
    r2 = reach * reach
    if dist2 > r2:
        # w: the relative velocity seen from the centre of the cone's cut-off disc.
        wx = rvx - rx / horizon
        wy = rvy - ry / horizon
        w2 = wx * wx + wy * wy
        along = wx * rx + wy * ry
        if along < 0.0 and along * along > r2 * w2:
            # Nearest the cut-off disc: leave it along w.
            wl = math.sqrt(w2)
            ux = wx / wl
            uy = wy / wl
            cut = reach / horizon - wl
            du_x = cut * ux
            du_y = cut * uy
            nx = -ux
            ny = -uy
        else:
            # Nearest one of the cone's legs: project the relative velocity onto it.
            leg = math.sqrt(dist2 - r2)
            if rx * wy - ry * wx > 0.0:
                dx = (rx * leg - ry * reach) / dist2
                dy = (rx * reach + ry * leg) / dist2
            else:
                dx = -(rx * leg + ry * reach) / dist2
                dy = -(-rx * reach + ry * leg) / dist2
            t = rvx * dx + rvy * dy
            du_x = t * dx - rvx
            du_y = t * dy - rvy
            # Into the cone (towards rel) across the leg: the side not allowed.
            nx = dy
            ny = -dx
            if nx * rx + ny * ry < 0.0:
                nx = -nx
                ny = -ny
    else:
        # Already within reach: leave it within one step.
        wx = rvx - rx
        wy = rvy - ry
        wl = math.sqrt(wx * wx + wy * wy)
        if wl > 0.0:
            ux = wx / wl
            uy = wy / wl
        else:
            d = math.sqrt(dist2)
            ux = -rx / d if d > 0.0 else 1.0
            uy = -ry / d if d > 0.0 else 0.0
        cut = reach - wl
        du_x = cut * ux
        du_y = cut * uy
        nx = -ux
        ny = -uy
    qx = pvx + share * du_x
    qy = pvy + share * du_y
    out[row, 0] = nx
    out[row, 1] = ny
    out[row, 2] = nx * qx + ny * qy
    out[row, 3] = qx
    out[row, 4] = qy


@njit(cache=True, forceinline=True)
def _on_line(lines, row, vmax, prefer_x, prefer_y):
    """The point of line ``row`` (of ``lines``) nearest ``prefer`` within the disc
    ``|v| <= vmax`` and the half-planes of the rows before it: ``(vx, vy, ok)``."""
    nx = lines[row, 0]
    ny = lines[row, 1]
    qx = lines[row, 3]
    qy = lines[row, 4]
    # The line: q + t * (dx, dy), along it.
    dx = -ny
    dy = nx
    b = qx * dx + qy * dy
    c = qx * qx + qy * qy - vmax * vmax
    disc = b * b - c
    if disc < 0.0:
        return 0.0, 0.0, False
    root = math.sqrt(disc)
    lo = -b - root
    hi = -b + root
    for a in range(row):
        mx = lines[a, 0]
        my = lines[a, 1]
        toward = mx * dx + my * dy
        room = lines[a, 2] - (mx * qx + my * qy)
        if abs(toward) < 1e-12:
            if room < 0.0:
                return 0.0, 0.0, False
            continue
        t = room / toward
        if toward > 0.0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
        if lo > hi:
            return 0.0, 0.0, False
    t = (prefer_x - qx) * dx + (prefer_y - qy) * dy
    t = min(max(t, lo), hi)
    return qx + t * dx, qy + t * dy, True


@njit(cache=True)
def _choose(lines, count, vmax, prefer_x, prefer_y):
    """The velocity nearest ``prefer`` with ``|v| <= vmax`` in every half-plane of
    ``lines[:count]``, added in their order; where they leave none, the answer for the
    half-planes before the first that could not be met."""
    vx = prefer_x
    vy = prefer_y
    speed2 = vx * vx + vy * vy
    if speed2 > vmax * vmax:
        f = vmax / math.sqrt(speed2)
        vx *= f
        vy *= f
    for row in range(count):
        if lines[row, 0] * vx + lines[row, 1] * vy > lines[row, 2]:
            ax, ay, ok = _on_line(lines, row, vmax, prefer_x, prefer_y)
            if not ok:
                return vx, vy
            vx = ax
            vy = ay
    return vx, vy


@njit(cache=True)
def flow_bins(positions, wishes, ox, oy, size, nx, ny):
    """Where the crowd is heading, cell by cell: ``(nx * ny, 4)`` sums of the agents' unit
    wishes split into their ``+x, -x, +y, -y`` parts, over a grid of ``nx`` by ``ny``
    cells ``size`` wide from ``(ox, oy)`` (agents asking nothing count in none). What the
    lanes read (:func:`avoid_rows`): counted by heading, two groups mixed in one cell do
    not cancel out."""
    bins = np.zeros((nx * ny, 4))
    inverse = 1.0 / size
    for k in range(positions.shape[0]):
        wx = wishes[k, 0]
        wy = wishes[k, 1]
        speed = math.sqrt(wx * wx + wy * wy)
        if speed == 0.0:
            continue
        c = grid_index(positions[k, 1], oy, inverse, ny) * nx + \
            grid_index(positions[k, 0], ox, inverse, nx)
        ux = wx / speed
        uy = wy / speed
        bins[c, 0] += max(ux, 0.0)
        bins[c, 1] += max(-ux, 0.0)
        bins[c, 2] += max(uy, 0.0)
        bins[c, 3] += max(-uy, 0.0)
    return bins


@njit(cache=True, forceinline=True)
def _oncoming(bins, px, py, ux, uy, look, ox, oy, size, nx, ny):
    """How much of the crowd ahead of an agent at ``p`` heading ``u`` (unit) within
    ``look`` heads against it: each cell of ``bins`` (:func:`flow_bins`) whose centre lies
    ahead, its heading parts against ``u``, the more the nearer."""
    oncoming = 0.0
    i0, i1, j0, j1 = grid_window(px, py, look, ox, oy, 1.0 / size, nx, ny)
    against_x = 1 if ux > 0.0 else 0          # the -x part heads against +x
    against_y = 3 if uy > 0.0 else 2
    for cj in range(j0, j1 + 1):
        cy = oy + (cj + 0.5) * size - py
        for ci in range(i0, i1 + 1):
            cx = ox + (ci + 0.5) * size - px
            if cx * ux + cy * uy <= 0.0:
                continue
            d = math.sqrt(cx * cx + cy * cy)
            if d >= look:
                continue
            c = cj * nx + ci
            oncoming += (bins[c, against_x] * abs(ux) + bins[c, against_y] * abs(uy)) * \
                (1.0 - d / look)
    return oncoming


@njit(cache=True, forceinline=True)
def _nearest(positions, k, px, py, reach, ox, oy, size, nx, ny, start, items, near, near_d):
    """The agents nearest agent ``k`` (at ``p``) within ``reach``, nearest first, into
    ``near`` and ``near_d`` (squared distances; at most ``len(near)``); returns their
    count. The rings of cells round the agent's are read until the rings left lie farther
    than the farthest kept."""
    inverse = 1.0 / size
    count = 0
    ci = grid_index(px, ox, inverse, nx)
    cj = grid_index(py, oy, inverse, ny)
    ring = 0
    while True:
        i0 = max(ci - ring, 0)
        i1 = min(ci + ring, nx - 1)
        for rj in range(max(cj - ring, 0), min(cj + ring, ny - 1) + 1):
            row = rj * nx
            if rj == cj - ring or rj == cj + ring:
                # The ring's edge rows whole: one run of the grid's slots.
                count = _keep_run(positions, k, px, py, reach, items, start[row + i0],
                                  start[row + i1 + 1], near, near_d, count)
            else:
                # The rows between only at the ring's two ends.
                if ci - ring >= 0:
                    c = row + ci - ring
                    count = _keep_run(positions, k, px, py, reach, items, start[c],
                                      start[c + 1], near, near_d, count)
                if ci + ring < nx:
                    c = row + ci + ring
                    count = _keep_run(positions, k, px, py, reach, items, start[c],
                                      start[c + 1], near, near_d, count)
        # Whatever is left lies outside the square of cells read so far: at least as far
        # as its nearest side that is not the grid's own edge (less a rounding's room, as
        # an agent on a cell border may be filed in the cell beyond it). Once that is
        # beyond reach, nothing left counts, however few were found (an agent alone reads
        # only the cells within its reach, not the grid out to its edge).
        done = math.inf
        if ci - ring > 0:
            done = min(done, px - (ox + (ci - ring) * size))
        if ci + ring < nx - 1:
            done = min(done, ox + (ci + ring + 1) * size - px)
        if cj - ring > 0:
            done = min(done, py - (oy + (cj - ring) * size))
        if cj + ring < ny - 1:
            done = min(done, oy + (cj + ring + 1) * size - py)
        done = max(done - 1e-9 * (1.0 + abs(px) + abs(py) + size), 0.0)
        if done >= reach or (count == near.shape[0] and near_d[count - 1] <= done * done):
            return count
        if ci - ring <= 0 and cj - ring <= 0 and ci + ring >= nx - 1 and cj + ring >= ny - 1:
            return count
        ring += 1


@njit(cache=True)
def _keep_run(positions, k, px, py, reach, items, first, stop, near, near_d, count):
    """:func:`_keep_nearest` for the agents of the grid's slots ``[first, stop)`` within
    ``reach`` of ``p`` (agent ``k`` itself left out); returns the new count. Not inlined:
    inlined in :func:`avoid_rows`, the whole took about 15% longer."""
    for t in range(first, stop):
        j = items[t]
        if j == k:
            continue
        ex = positions[j, 0] - px
        ey = positions[j, 1] - py
        d2 = ex * ex + ey * ey
        if d2 < reach * reach:
            count = _keep_nearest(near, near_d, count, j, d2)
    return count


@njit(cache=True, forceinline=True)
def _keep_nearest(near, near_d, count, j, d2):
    """Keep agent ``j`` at squared distance ``d2`` among the nearest ``len(near)`` so far
    (``near``, ``near_d``: the first ``count``, nearest first; ties by index, so that the
    order the agents are met in never decides); returns the new count."""
    size = near.shape[0]
    if count == size and (d2 > near_d[size - 1] or
                          (d2 == near_d[size - 1] and j > near[size - 1])):
        return count
    at = count if count < size else size - 1
    while at > 0 and (near_d[at - 1] > d2 or (near_d[at - 1] == d2 and near[at - 1] > j)):
        near_d[at] = near_d[at - 1]
        near[at] = near[at - 1]
        at -= 1
    near_d[at] = d2
    near[at] = j
    return min(count + 1, size)


@njit(cache=True, forceinline=True)
def _keeps(lines, count, vx, vy):
    for row in range(count):
        if lines[row, 0] * vx + lines[row, 1] * vy > lines[row, 2]:
            return False
    return True


@njit(cache=True)
def _make_way(positions, weights, motions, wishes, k, near, count, horizon, radii, lines):
    """The velocity of agent ``k``, which asks for none, that makes way for the walking
    neighbours of ``near[:count]`` coming at it: the one nearest standing still that keeps
    its share of clear of each (as :func:`avoid_rows`), at most as fast as the fastest of
    them asks; ``(0, 0)`` exactly where standing still keeps clear of them all."""
    px = positions[k, 0]
    py = positions[k, 1]
    rows = 0
    fastest = 0.0
    for a in range(count):
        j = near[a]
        wj2 = wishes[j, 0] ** 2 + wishes[j, 1] ** 2
        if wj2 == 0.0:
            continue            # another agent at rest: neither makes way for the other
        _half_plane(motions[k, 0], motions[k, 1], positions[j, 0] - px,
                    positions[j, 1] - py, motions[k, 0] - motions[j, 0],
                    motions[k, 1] - motions[j, 1], SPACE * (radii[k] + radii[j]), horizon,
                    _share(weights[j], weights[k]), lines, rows)
        rows += 1
        fastest = max(fastest, math.sqrt(wj2))
    if rows == 0 or _keeps(lines, rows, 0.0, 0.0):
        return 0.0, 0.0
    return _choose(lines, rows, fastest, 0.0, 0.0)


@njit(cache=True, nogil=True)
def avoid_rows(positions, radii, weights, motions, wishes, ox, oy, size, nx, ny, start, items,
               bins, fox, foy, fsize, fnx, fny, horizon, lanes, neighbours, reach, out, queue):
    """Every agent's avoiding displacement, for the rows taken from ``queue``.

    Parameters
    ----------
    positions, motions, wishes : (n, 2) float64
        The agents' positions, last steps' motions and the displacements asked for, in the
        crowd's plane (world units; motions and wishes per step).
    radii, weights : (n,) float64
    ox, oy, size, nx, ny, start, items
        :func:`~sidestep.kernels.crowd.grid_agents` over ``positions`` (cells of about
        two radii: an agent's neighbours are searched ring by ring of cells).
    bins, fox, foy, fsize, fnx, fny
        :func:`flow_bins` and its grid (cells of about a lane's look).
    horizon : float > 0
        Steps ahead an agent keeps clear of its neighbours.
    lanes : float >= 0
        The preferred velocity's tilt (radians) while an oncoming agent is near ahead.
    neighbours : int >= 1
        Nearest agents an agent avoids, at most.
    reach : float
        Neighbours farther than this (centre to centre) are not seen.
    out : (n, 2) float64
        Each agent's displacement (row by agent index).
    queue : (3,) int64
        :mod:`~sidestep.kernels.row_queue`, over the slots of ``items``: the agents are
        worked out in the grid's order (a dense crowd's neighbour searches then read the
        cells the last one read; about 9% less time than in index order, the same answers).
    """
    lines = np.empty((neighbours, _FIELDS))
    near = np.empty(neighbours, dtype=np.int64)
    near_d = np.empty(neighbours)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for slot in range(first, stop):
            # In the grid's order: an agent's neighbours were just read for the last one.
            k = items[slot]
            px = positions[k, 0]
            py = positions[k, 1]
            wx = wishes[k, 0]
            wy = wishes[k, 1]
            speed = math.sqrt(wx * wx + wy * wy)
            out[k, 0] = wx
            out[k, 1] = wy
            if math.isinf(weights[k]):
                continue                # never gives way: the wish stands
            count = _nearest(positions, k, px, py, reach, ox, oy, size, nx, ny, start, items,
                             near, near_d)
            if count == 0:
                continue
            if speed == 0.0:
                vx, vy = _make_way(positions, weights, motions, wishes, k, near, count,
                                   horizon, radii, lines)
                out[k, 0] = vx
                out[k, 1] = vy
                continue
            # Lanes: tilt the wish to the same side while an oncoming agent is near ahead
            # or the agent waits in a queue.
            mvx = motions[k, 0]
            mvy = motions[k, 1]
            prefer_x = wx
            prefer_y = wy
            held = mvx * mvx + mvy * mvy <= _HELD * _HELD * speed * speed
            if lanes > 0.0:
                oncoming = _oncoming(bins, px, py, wx / speed, wy / speed,
                                     radii[k] + LANE_LOOK * horizon * speed, fox, foy, fsize,
                                     fnx, fny)
                # And whoever stands in the way, near (straight at one, the velocity
                # obstacle only slows one down).
                for a in range(count):
                    j = near[a]
                    ex = positions[j, 0] - px
                    ey = positions[j, 1] - py
                    if wishes[j, 0] == 0.0 and wishes[j, 1] == 0.0 and ex * wx + ey * wy > 0.0:
                        d = math.sqrt(near_d[a])
                        look = radii[k] + radii[j] + horizon * speed
                        if d < look:
                            oncoming += 1.0 - d / look
                if held and (mvx != 0.0 or mvy != 0.0) and oncoming < HELD_KEEP:
                    queued = True
                    for a in range(count):
                        j = near[a]
                        if wishes[j, 0] * wx + wishes[j, 1] * wy < 0.0:
                            queued = False
                            break
                    if queued:
                        oncoming = HELD_KEEP                # waiting: keep to its side
                if oncoming > 0.0:
                    angle = -lanes * min(LANE_MAX, oncoming)
                    cos = math.cos(angle)
                    sin = math.sin(angle)
                    prefer_x = wx * cos - wy * sin
                    prefer_y = wx * sin + wy * cos
            for a in range(count):
                j = near[a]
                mj2 = motions[j, 0] ** 2 + motions[j, 1] ** 2
                wj2 = wishes[j, 0] ** 2 + wishes[j, 1] ** 2
                standing = mj2 <= _HELD * _HELD * wj2 or \
                    (mj2 <= (_STILL * speed) ** 2 and wj2 == 0.0)
                share = 1.0 if standing else _share(weights[j], weights[k])
                # Held behind or beside one held too, heading its way: closer (HELD_SPACE).
                space = HELD_SPACE if held and standing and \
                    wishes[j, 0] * wx + wishes[j, 1] * wy > 0.0 else SPACE
                _half_plane(mvx, mvy, positions[j, 0] - px, positions[j, 1] - py,
                            mvx - motions[j, 0], mvy - motions[j, 1],
                            space * (radii[k] + radii[j]),
                            min(horizon, STAND_HORIZON) if standing else horizon, share, lines, a)
            if _keeps(lines, count, prefer_x, prefer_y) and prefer_x == wx and prefer_y == wy:
                continue
            vx, vy = _choose(lines, count, speed, prefer_x, prefer_y)
            out[k, 0] = vx
            out[k, 1] = vy
