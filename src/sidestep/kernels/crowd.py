"""Crowds: agents (discs) that collide with each other as well as with the world.

One step moves every agent at once, each from where all of them started
(so the answer does not depend on the agents' order or on the threads):

1. **Neighbours**: a uniform grid over the agents' start positions
   (:func:`grid_agents`); two agents are neighbours when they could touch
   during the step: each moves at most ``m``, the step's largest displacement
   plus ``separation`` (below), so ``|p_j - p_i| < r_i + r_j + 2 m + skin``.
   The step reads the agents in the grid's order (:func:`cell_order`): the
   cells of a row are one run of memory, a search reads the cells within
   reach of a row in one sweep, and an agent's neighbours lie near it in
   memory. (The run is read whole: each cell's agents stay in index order;
   sorting them by ``x``, which only a search that stops at the first agent
   beyond reach needs, as the 3D one, made the crowd hall's steps about 8%
   slower, seven alternating runs.) The threads of
   a step share this ordering, cell by cell, and wait for each other
   (:func:`~sidestep.kernels.row_queue.wait_rows`) before moving agents.
2. **Cells**: the gap ``g`` between two neighbours is shared between them by
   weight: agent ``i`` may advance towards ``j`` by at most ``w_i / (w_i +
   w_j)`` of it (half each for equal weights, all of it for an agent of
   infinite weight against a finite one). Each share is a half-plane
   ``(x - p_i) . n_ij <= b_ij`` (``n_ij`` the unit vector from ``i`` to ``j``);
   together they make the agent's cell, convex, holding ``p_i``, and the
   cells of two agents never overlap: if both end in their cells they are at
   least ``r_i + r_j`` apart and neither passed the other (no tunnelling at
   any speed). Overlapping pairs (spawned on top of each other) have
   ``b = 0``: they never come closer.
3. **Wish**: the displacement asked for, plus the way an agent makes for a
   heavier (or equal) neighbour heading into it beyond its share (the
   intrusion, times ``w_j / (w_i + w_j)``: pushed aside, half each for
   equals), plus the separation from overlapping neighbours (its part of the
   overlap, the heavier moving less), at most ``separation`` per step; the
   whole wish at most ``m``: an agent pushed while it walks goes no faster
   than the fastest agent plus ``separation``. (Each agent's motion was
   bounded by its own ``|d|`` plus ``m``, its neighbours searched for within
   ``r_i + r_j + |d_i| + |d_j| + 2 m + skin``: bounded by ``m``, the search is
   narrower by ``|d_i| + |d_j|``, and the crowd hall benchmark's steps take
   0.70 of the time, three alternating runs.) ``m`` is made of the largest
   displacement rounded up (by at most a sixteenth: agents at rest, below).
4. **Move**: the motion nearest the wish inside the cell (the cell's
   half-planes the wish breaks, added one at a time: the active set stays a
   handful however many neighbours there are, and each answer lies on the
   line of the half-plane added last), then
   the world move (``slide``: sliding along walls, never into them; an agent
   in a cell of the grid with no obstacle near, :func:`open_cell`, slides
   untouched without asking the world, as its slide would find). If
   sliding took the end out of the cell, the move is tried again along the
   chord it took, clipped to the cell; failing that (the clipped chord pressed
   into the world again: an agent pushing along a wall into a neighbour) along
   the chord itself, as far as the cell allows; failing that the agent stays
   (always inside its cell).

Agents at rest with nothing pressing on them have a zero wish and do not
move: resting groups never jiggle. An agent whose move was cut short (by its
neighbours or the world) to less than the world's skin stays where it is
(:func:`settles`): in a jam, agents pressed into each other otherwise crept on
by ever smaller parts of their last gaps, far below any contact's precision.

**At rest**: an agent that did not move last step, asks the same and has the
same pressure as then, with every agent within its neighbour search the same
too, in the same world and with the same step figures, would be worked out to
the very answers of last step: the step keeps those instead (:func:`still_rows`,
:func:`calm`). So that a jam does come to rest to the bit, the figures a step
takes from all its agents are rounded up a little (the largest
displacement), the grid lies on whole blocks of cells, and pressure is rounded to
a grain (:func:`pressure_grain`): unrounded, it went on changing in its last
digits for dozens of steps.
"""
import math

import numpy as np
from numba import njit

from .borrow import borrow
from .follow import note_follows, widened
from .moves import (CONTACT_FIELDS, MODE_BLOCK, MODE_GHOST, MODE_SLIDE, STOP_BLOCKED,
                    STOP_DONE, STOP_SLID, closes, move_agent, open_around)
from .planes import corner, solve_planes
from .row_queue import next_rows, resume_rows, rows_done, wait_rows
from .world import (SCRATCH_FLOATS, SCRATCH_INTS, borrowed, cell_span, item_geometry,
                    still_part, unpack_world)

#: Half-planes of a cell solved together at most (the active set).
ACTIVE = 16
#: Cells of the agents' grid per agent, at most, beyond a few blocks (the cell size grows
#: to keep to it).
CELLS_PER_AGENT = 4
#: The agents' grid covers whole blocks of this many cells a side (see grid_agents).
BLOCK = 16
#: Whether agents near an agent at rest changed is told on a grid this many times finer
#: than the agents' (still_rows, calm): a coarser one kept fewer agents at rest.
BUSY_SPLIT = 2
#: Rounding of a clipped motion's ``v . n`` (times the largest coordinate): what
#: :func:`_inside_cell` allows beyond a bound of 0 (an overlapping pair may close by
#: this much a step, far below :data:`~sidestep.tolerances.PROMISE`).
ROUNDING = 1e-12
#: Golden angle (radians): escape headings of agents standing at the very same point.
_GOLDEN = math.pi * (3.0 - math.sqrt(5.0))


@njit(cache=True, inline="always")
def grid_index(value, origin, inverse, count):
    """The column (or row), ``0 <= i < count``, of a grid of cells ``1 / inverse`` wide
    from ``origin`` that holds ``value``: the one formula the crowds' grids are read and
    filled with. A multiplication (by ``inverse``, worked out once), not a division: as
    monotonic, so a search reads every cell that holds an agent within its reach."""
    return min(max(int((value - origin) * inverse), 0), count - 1)


@njit(cache=True, inline="always")
def grid_window(x, y, r, ox, oy, inverse, nx, ny):
    """The columns ``i0..i1`` and rows ``j0..j1`` of a grid (:func:`grid_index`: ``nx`` by
    ``ny`` cells ``1 / inverse`` wide from ``(ox, oy)``) that the square within ``r`` of
    ``(x, y)`` touches: every search of the crowds' grids reads this window."""
    return (grid_index(x - r, ox, inverse, nx), grid_index(x + r, ox, inverse, nx),
            grid_index(y - r, oy, inverse, ny), grid_index(y + r, oy, inverse, ny))


@njit(cache=True)
def grid_frame(positions, cell):
    """The frame ``(ox, oy, size, nx, ny)`` of :func:`grid_agents` over ``positions (n,
    2)`` with cells of at least ``cell``, without filing the agents in it (a grid the
    caller fills itself, as :func:`sidestep.kernels.avoid.flow_bins`)."""
    n = positions.shape[0]
    ox = np.inf
    oy = np.inf
    mx = -np.inf
    my = -np.inf
    for k in range(n):
        ox = min(ox, positions[k, 0])
        oy = min(oy, positions[k, 1])
        mx = max(mx, positions[k, 0])
        my = max(my, positions[k, 1])
    if n == 0:
        ox = oy = mx = my = 0.0
    size = max(cell, 1e-9 * max(1.0, abs(ox), abs(oy), abs(mx), abs(my)))
    low_x = ox
    low_y = oy
    while True:
        # The grid on whole blocks of cells: it holds still while the agents at its edges
        # move within their blocks (see still_rows).
        block = BLOCK * size
        ox = math.floor(low_x / block) * block
        oy = math.floor(low_y / block) * block
        nx = BLOCK * (int((mx - ox) / block) + 1)
        ny = BLOCK * (int((my - oy) / block) + 1)
        if nx * ny <= CELLS_PER_AGENT * n + 4 * BLOCK * BLOCK:
            break
        size *= 2.0
    return ox, oy, size, nx, ny


@njit(cache=True)
def grid_agents(positions, cell):
    """A uniform grid over ``positions (n, 2)`` with cells of at least ``cell``.

    Returns ``(ox, oy, size, nx, ny, start, items)``: the grid's corner and
    cell size, its columns and rows, and the agents of cell ``c = row * nx +
    col`` as ``items[start[c]:start[c + 1]]`` (in index order). The grid
    covers whole blocks of :data:`BLOCK` cells a side, its corner on a
    multiple of the block: it stays the same from step to step unless the
    agents' extent crosses into another block.
    """
    n = positions.shape[0]
    ox, oy, size, nx, ny = grid_frame(positions, cell)
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    cell_of = np.empty(n, dtype=np.int64)
    inverse = 1.0 / size
    for k in range(n):
        cell_of[k] = grid_index(positions[k, 1], oy, inverse, ny) * nx + \
            grid_index(positions[k, 0], ox, inverse, nx)
        start[cell_of[k] + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    items = np.empty(n, dtype=np.int64)
    for k in range(n):
        items[fill[cell_of[k]]] = k
        fill[cell_of[k]] += 1
    return ox, oy, size, nx, ny, start, items


@njit(cache=True)
def step_figures(displacements, pressure, radii):
    """A step's first figures: ``(intents (n, dim), dmax, rmax)``: each agent's
    displacement plus pressure, the largest ``|d|`` (:func:`longest`) and the largest
    radius (0 for no agents). 2D or 3D (``dim`` columns)."""
    n, dim = displacements.shape
    intents = np.empty((n, dim))
    rmax = 0.0
    for k in range(n):
        for c in range(dim):
            intents[k, c] = displacements[k, c] + pressure[k, c]
        rmax = max(rmax, radii[k])
    return intents, longest(displacements), rmax


@njit(cache=True)
def longest(values):
    """The largest length of the rows of ``values (n, dim)`` (0 for none)."""
    square = 0.0
    for k in range(values.shape[0]):
        length = 0.0
        for c in range(values.shape[1]):
            length += values[k, c] * values[k, c]
        square = max(square, length)
    return math.sqrt(square)


@njit(cache=True, forceinline=True)
def still_rows(first, stop, positions, displacements, pressure_now, last_positions,
               last_displacements, last_pressure, flat, last_flat, last_stops, last_obstacles,
               ox, oy, size, nx, ny, spread, still, busy, out, stops, obstacles, pressure):
    """Which of the agents ``first <= k < stop`` are still, and which cells lie near none
    but such: marks ``still (n,) uint8`` (by agent index) and ``busy (BUSY_SPLIT**2 * nx *
    ny,) uint8`` (zeros before), the cells of the grid split :data:`BUSY_SPLIT` times
    along each axis; a cell is marked when an agent that is not still lies in a cell of
    the same row at most ``spread`` (:func:`busy_spread`) cells away; a still agent's
    outputs (``out``, ``stops``, ``obstacles``,
    ``pressure``) start as the last step's answers: its position, the last stop code
    and obstacle, its pressure now.

    An agent is still when its position (so it did not move last step), displacement
    and pressure are the very ones of the last step; a cell is busy when it holds an
    agent that is not, now or (``last_flat``) at the last step, spread along its row. An
    agent that is still
    and whose neighbour search reads no busy cell (:func:`calm`) has the same
    neighbours, with the same figures, as at the last step: its step comes out the same,
    to the bit, so the step keeps it (see :func:`crowd_step`). ``flat (n, 2)``: the
    grid's coordinates of the agents (the positions in 2D, the horizontal ones in 3D).
    :func:`cell_order` calls it, for the 2D and 3D steps.
    """
    fine = BUSY_SPLIT / size          # the inverse of the busy grid's cell
    mx = BUSY_SPLIT * nx
    for k in range(first, stop):
        keep = True
        for c in range(positions.shape[1]):
            if positions[k, c] != last_positions[k, c] or \
                    displacements[k, c] != last_displacements[k, c] or \
                    pressure_now[k, c] != last_pressure[k, c]:
                keep = False
        if keep:
            still[k] = 1
            for c in range(positions.shape[1]):
                out[k, c] = positions[k, c]
                pressure[k, c] = pressure_now[k, c]
            stops[k] = last_stops[k]
            obstacles[k] = last_obstacles[k]
        else:
            for x, y in ((flat[k, 0], flat[k, 1]), (last_flat[k, 0], last_flat[k, 1])):
                # As grid_agents (the last step's grid was this one).
                i = grid_index(x, ox, fine, mx)
                j = grid_index(y, oy, fine, BUSY_SPLIT * ny)
                for spot in range(max(i - spread, 0), min(i + spread, mx - 1) + 1):
                    busy[j * mx + spot] = 1


@njit(cache=True, forceinline=True)
def pressure_grain(dmax):
    """The power of two pressure is rounded to: ``2**-8`` of the largest displacement's
    power of two (0.2 to 0.4% of ``dmax``, half a millimetre for a 0.14 m step; 0: none).
    A crowd pressed into a jam then comes to rest to the bit in a few steps (pressure
    halves each step towards what the jam leaves it), where unrounded it went on changing
    in its last digits for dozens. Rounded to ``2**-13`` (about 1e-4 of ``dmax``), 66% of
    the agents of the crowd hall benchmark's jam were at rest over steps 300-1,000; to
    ``2**-8``, 76%."""
    return grain_below(dmax, 8)


@njit(cache=True, forceinline=True)
def grain_below(value, bits):
    """The power of two ``2**-bits`` of ``value``'s own power of two (``value > 0``; 0 for
    none): a grain to round figures of ``value``'s size to (:func:`on_grain`)."""
    if value <= 0.0:
        return 0.0
    return 2.0 ** (math.floor(math.log2(value)) - bits)


@njit(cache=True, forceinline=True)
def on_grain(value, grain):
    """``value`` rounded to a multiple of ``grain`` (a power of two; 0: as it is)."""
    if grain == 0.0:
        return value
    return math.floor(value / grain + 0.5) * grain


@njit(cache=True, inline="always")
def touch_base(rk, motion, most, skin):
    """An agent's part of the distance within which a neighbour could touch it during the
    step (radius ``rk``, moving at most ``motion``): a neighbour of radius ``r`` (moving
    at most ``most``, as every agent) is within ``touch_base + r``. Summed once per agent,
    not per neighbour (:func:`_neighbours`, and the 3D search)."""
    return rk + motion + most + skin


@njit(cache=True, inline="always")
def search_reach(rk, motion, rmax, most, skin):
    """How far from an agent (radius ``rk``, moving at most ``motion``) its neighbour
    search looks along each axis: no agent (each of radius at most ``rmax``, moving at
    most ``most``) beyond it can touch it during the step. The search
    (:func:`_neighbours`, and the 3D one) and the test for agents at rest (:func:`calm`)
    both look this far: :func:`touch_base` plus ``rmax``, so that no neighbour's touching
    distance exceeds it, rounding included."""
    return touch_base(rk, motion, most, skin) + rmax


@njit(cache=True, forceinline=True)
def busy_spread(rmax, most, skin, size):
    """How many cells of the busy grid (:func:`still_rows`) the widest neighbour search of
    a step spans on either side of an agent's own (:func:`search_reach` of an agent of
    radius ``rmax``): a busy cell is marked along its row this far, so that
    :func:`calm` reads one cell per row. The grid's cells are made as wide as that search
    from the same figures: one more cell for a rounding would mark half as much again,
    so a rounding is let off (:func:`calm` turns down the rare search wider than this)."""
    cells = search_reach(rmax, most, rmax, most, skin) / (size / BUSY_SPLIT)
    return max(int(math.ceil(cells - 1e-9)), 0)


@njit(cache=True, forceinline=True)
def calm(busy, px, py, r, ox, oy, size, nx, ny, spread):
    """Whether no cell of the busy grid (:func:`still_rows`, its marks spread ``spread``
    cells along their rows) lies within ``r`` of ``p`` (a neighbour search's reach) along
    both axes: the rows within reach, each at the agent's own column (a search wider than
    ``spread``, which :func:`busy_spread` rules out short of a rounding, is never calm)."""
    fine = BUSY_SPLIT / size          # the inverse of the busy grid's cell, as still_rows
    mx = BUSY_SPLIT * nx
    i0, i1, j0, j1 = grid_window(px, py, r, ox, oy, fine, mx, BUSY_SPLIT * ny)
    own = grid_index(px, ox, fine, mx)
    if i0 < own - spread or i1 > own + spread:
        return False
    for cj in range(j0, j1 + 1):
        if busy[cj * mx + own]:
            return False
    return True


@njit(cache=True, inline="always")
def capped(square, limit):
    """The factor (at most 1) that brings a vector of squared length ``square`` to at most
    ``limit`` long: the caps of an agent's wish and of its parts (the 2D and 3D crowd
    steps)."""
    if square > limit * limit:
        return limit / math.sqrt(square)
    return 1.0


@njit(cache=True, inline="always")
def settles(mode, code, moved_squared, skin):
    """Whether an agent whose move ended with stop ``code``, ``sqrt(moved_squared)`` from
    its start, stays where it is instead: a move cut short (slid or blocked, not
    a recovery out of an obstacle) to less than the world's ``skin`` (a step of
    ``mode`` ghost never settles: it moves as ``move_many`` does). Its neighbours then
    see it at rest, to the bit, and need not be worked out again (:func:`calm`). Both
    halves use it (the 2D and 3D crowd steps)."""
    return mode != MODE_GHOST and (code == STOP_SLID or code == STOP_BLOCKED) and \
        moved_squared < skin * skin


@njit(cache=True, forceinline=True)
def sort_cells(start, items, packed, c0, c1, axis, row):
    """Sorts the agents of each cell ``c0 <= c < c1`` of the agents' grid by
    ``packed[:, axis]`` (then index), their ``items`` and rows of ``packed`` together, in
    place; ``row``: scratch of ``packed.shape[1]`` floats (see :func:`cell_order`)."""
    width = packed.shape[1]
    for c in range(c0, c1):
        first = start[c]
        for t in range(first + 1, start[c + 1]):
            # Insertion: a cell holds a handful of agents.
            k = items[t]
            x = packed[t, axis]
            u = t
            while u > first and (packed[u - 1, axis] > x or (packed[u - 1, axis] == x
                                                               and items[u - 1] > k)):
                u -= 1
            if u < t:
                for f in range(width):
                    row[f] = packed[t, f]
                for v in range(t, u, -1):
                    items[v] = items[v - 1]
                    for f in range(width):
                        packed[v, f] = packed[v - 1, f]
                items[u] = k
                for f in range(width):
                    packed[u, f] = row[f]


@njit(cache=True)
def cell_order(start, items, positions, radii, halves, weights, displacements, intents, axis,
               packed, rest, known, pressure_now, last_positions, last_displacements,
               last_pressure, last_stops, last_obstacles, flat, last_flat, ox, oy, size, nx, ny,
               spread, still, busy, out, stops, obstacles, pressure, cells, done):
    """Sorts the agents of each cell of the grid taken from the queue ``cells[0]`` by their
    coordinate ``axis`` (then index) in ``items`` (in place; ``axis`` -1: left in index
    order) and writes them in that order: ``packed``, each one's position, radius and
    core half length (3D) (2D: ``(n, 3)`` ``x, y, r``; 3D: ``(n, 5)`` ``x, y, z, r,
    half``, with ``halves`` given, empty in 2D), and ``rest``, its weight, displacement
    and intent (2D: ``(n, 5)``, 3D: ``(n, 7)``); counts the agents written in ``done``
    (:func:`.row_queue.rows_done`) and returns only when every agent is (the threads
    wait for each other: :func:`.row_queue.wait_rows`). The cells of a row of the grid
    then make one run of memory, sorted along it if ``axis`` is given (a neighbour
    search reads the cells within reach in one sweep), and the neighbours of an agent
    lie near it in memory.
    The threads of the 2D and 3D ``crowd_step`` share the cells. When the step is
    ``known`` (the last one had the same figures: ``last_*``), tells the agents taken
    from the queue ``cells[1]`` (by index: each one's rows of the arrays read in one sweep,
    not in the grid's scattered order) that are still (:func:`still_rows`, ``pressure_now``
    their pressure now; ``flat``, ``last_flat`` their coordinates on the grid now and at
    the last step; ``spread``: :func:`busy_spread`); ``done`` counts both."""
    dim = positions.shape[1]
    width = packed.shape[1]
    row = np.empty(width)
    while True:
        c0, c1 = next_rows(cells[0])
        if c0 >= c1:
            break
        for t in range(start[c0], start[c1]):
            k = items[t]
            for c in range(dim):
                packed[t, c] = positions[k, c]
            packed[t, dim] = radii[k]
            if halves.shape[0]:
                packed[t, dim + 1] = halves[k]
        if axis >= 0:
            sort_cells(start, items, packed, c0, c1, axis, row)
        for t in range(start[c0], start[c1]):
            k = items[t]
            rest[t, 0] = weights[k]
            for c in range(dim):
                rest[t, 1 + c] = displacements[k, c]
                rest[t, 1 + dim + c] = intents[k, c]
        rows_done(done, start[c1] - start[c0])
    while known:
        # In the agents' own order: each one's rows of the arrays are read in one sweep.
        k0, k1 = next_rows(cells[1])
        if k0 >= k1:
            break
        still_rows(k0, k1, positions, displacements, pressure_now, last_positions,
                   last_displacements, last_pressure, flat, last_flat, last_stops,
                   last_obstacles, ox, oy, size, nx, ny, spread, still, busy, out, stops,
                   obstacles, pressure)
        rows_done(done, k1 - k0)
    ordered = (2 if known else 1) * items.shape[0]
    wait_rows(done, ordered)
    return ordered


@njit(cache=True, forceinline=True)
def _share(wi, wj):
    """The part of the gap between two agents the one of weight ``wi`` may take."""
    if wi == wj:
        return 0.5              # as wi / (wi + wj), exactly, without the division
    if math.isinf(wi):
        return 0.5 if math.isinf(wj) else 1.0
    if math.isinf(wj):
        return 0.0
    return wi / (wi + wj)


@njit(cache=True, forceinline=True)
def wish_terms(wk, wj, gap, toward_d, toward_i):
    """What a neighbour ``j`` (weight ``wj``) adds to the wish of agent ``k`` (weight
    ``wk``), as lengths to take times ``-n`` (``n`` the unit vector from ``k`` to ``j``,
    ``gap`` their gap): ``(apart, yielded, more)``.

    ``apart``: ``k``'s part of an overlap (the heavier moves less); ``yielded``: the way
    ``k`` makes for ``j`` heading into it beyond ``j``'s share of the gap
    (``toward_d = d_j . n``, ``j``'s displacement along ``n``); ``more``: the same for
    the pressure of what ``j`` did not get last step (``toward_i``, its intent along
    ``n``), beyond what its displacement already asked. Without branches (each test is a
    coin toss): a term that does not apply is zero. Both halves use it (the 2D and 3D
    crowd steps).
    """
    give = 1.0 - _share(wk, wj)
    allowed = _share(wj, wk) * max(gap, 0.0)
    into = max(-toward_d - allowed, 0.0)
    pressed = -toward_i - allowed
    return give * max(-gap, 0.0), into * give, max(pressed - into, 0.0) * give


@njit(cache=True, forceinline=False)
def _golden(k, j):
    """The unit vector from agent ``k`` to agent ``j`` at the very same point: each leaves
    along its own golden-angle heading, so it is fixed by their indices."""
    ex = math.cos(_GOLDEN * j) - math.cos(_GOLDEN * k)
    ey = math.sin(_GOLDEN * j) - math.sin(_GOLDEN * k)
    e = math.sqrt(ex * ex + ey * ey)
    return ex / e, ey / e


@njit(cache=True)
def _clip_to_cell(pairs, count, wx, wy, slack, qp):
    """The motion nearest ``w`` inside the agent's cell: ``(vx, vy, ok)``.

    ``pairs (count, 4)``: each neighbour's ``nx, ny, bound, gap`` (:func:`_cell`).
    Cutting planes: the half-plane ``w`` breaks most joins the active set
    (``qp``: normals at 0, bounds at ``2 * ACTIVE``, as ``-n . v >= -b``)
    and the set is solved again, until nothing is broken; with a full set
    or half-planes that cannot all be met, ``ok`` is False (stay).

    The answer of the set before breaks the half-plane that joins it, so the
    new answer lies on that half-plane's line (the problem is convex): it is
    the point of the line nearest ``w`` on the interval the set before leaves
    of it, found in one pass over the set. Only when the interval is empty
    (or nearly parallel lines disagree) does the contact-plane solver
    (:func:`~sidestep.kernels.planes.solve_planes`, which tries every
    corner) decide.
    """
    vx = wx
    vy = wy
    active = 0
    while True:
        worst = slack
        pick = -1
        for t in range(count):
            excess = vx * pairs[t, 0] + vy * pairs[t, 1] - pairs[t, 2]
            if excess > worst:
                worst = excess
                pick = t
        if pick < 0:
            return vx, vy, True
        if active == ACTIVE:
            return 0.0, 0.0, False
        mx = pairs[pick, 0]
        my = pairs[pick, 1]
        # Where w projects onto the new line, and the interval of the line (a + tau *
        # (-my, mx)) inside the half-planes before: n . v <= b gives tau * along <= room.
        shift = wx * mx + wy * my - pairs[pick, 2]
        ax = wx - shift * mx
        ay = wy - shift * my
        lo = -math.inf
        hi = math.inf
        lo_at = -1
        hi_at = -1
        for a in range(active):
            along = qp[2 * a] * my - qp[2 * a + 1] * mx
            room = qp[2 * a] * ax + qp[2 * a + 1] * ay - qp[2 * ACTIVE + a]
            if along > 1e-12:
                if room / along < hi:
                    hi = room / along
                    hi_at = a
            elif along < -1e-12:
                if room / along > lo:
                    lo = room / along
                    lo_at = a
            elif room < -slack:
                lo = math.inf        # parallel, and the line is outside
        qp[2 * active] = -mx
        qp[2 * active + 1] = -my
        qp[2 * ACTIVE + active] = -pairs[pick, 2]
        active += 1
        if lo <= hi:
            # The projection, or the corner with the half-plane that ends the interval,
            # worked out by the solver's own formula (to the bit: symmetric scenes stay so).
            at = lo_at if lo > 0.0 else (hi_at if hi < 0.0 else -1)
            if at < 0:
                vx = ax
                vy = ay
            else:
                # Not parallel: |along| > 1e-12 picked it.
                vx, vy, _ = corner(qp, 0, 2 * ACTIVE, at, active - 1)
        else:
            vx, vy, err = solve_planes(wx, wy, qp, 0, 2 * ACTIVE, active, slack)
            if err > slack:
                return 0.0, 0.0, False


@njit(cache=True, forceinline=True)
def _neighbours(packed, row, px, py, rk, motion, rmax, most, skin, ox, oy, size, nx, ny,
                start, out):
    """Agents that could touch the agent of ``packed[row]`` (at ``p``, radius ``rk``) if it
    moves ``motion`` and each of them ``most``: their count; the first
    ``len(out)`` of them (their rows of ``packed``) go to ``out`` (a larger count means
    ``out`` was too short: grow it and ask again). ``packed`` is :func:`cell_order`'s:
    the cells within reach of a row of the grid are one run of memory, read whole."""
    r = search_reach(rk, motion, rmax, most, skin)
    i0, i1, j0, j1 = grid_window(px, py, r, ox, oy, 1.0 / size, nx, ny)
    capacity = out.shape[0]
    count = 0
    own = touch_base(rk, motion, most, skin)
    for cj in range(j0, j1 + 1):
        first = start[cj * nx + i0]
        last = start[cj * nx + i1 + 1]
        roomy = count + last - first <= capacity
        # The whole run: stopping at the first agent beyond reach (and starting at the
        # first within, the cells sorted by x) cost a mispredicted branch each, more than
        # the distance test of the few agents of the end cells out of reach (the test
        # turns them down: ``within`` is at most ``r``).
        for t in range(first, last):
            ex = packed[t, 0] - px
            ey = packed[t, 1] - py
            within = own + packed[t, 2]
            near = ex * ex + ey * ey < within * within and t != row
            if roomy:
                # No branch on ``near`` (it is a coin toss): write, then count or not.
                out[count] = t
                count += np.int64(near)
            elif near:
                if count < capacity:
                    out[count] = t
                count += 1
    return count


@njit(cache=True, forceinline=True)
def _inside_cell(pairs, count, vx, vy, tolerance, rounding):
    """Whether the motion ``v`` keeps to the cell, give or take ``tolerance`` (the world's
    slide ends a rounding or a skin off the line it was asked for). The allowance
    shrinks as a gap closes below zero, down to ``rounding`` at ``-tolerance``, so steps
    never add it up: two agents are never closer than ``2 * tolerance`` short of
    touching. ``rounding`` (:data:`ROUNDING` times the largest coordinate) is the
    rounding of the plane solver's answer: without it, an overlapping pair's bound of 0
    refused a clipped motion for ``v . n = 2e-16``, and the agent stayed."""
    for t in range(count):
        allow = max(rounding, tolerance + min(pairs[t, 3], 0.0))
        if vx * pairs[t, 0] + vy * pairs[t, 1] > pairs[t, 2] + allow:
            return False
    return True


@njit(cache=True, inline="always")
def open_reach(size, motion, skin, margin):
    """How far from a cell's centre (:func:`cell_centre`) of the agents' grid (cells
    ``size`` wide) no obstacle may lie for the cell to be open (:func:`open_cell`): its
    half diagonal (rounded up), then ``motion``, ``skin`` and ``margin``."""
    return 0.7072 * size + motion + skin + margin


@njit(cache=True, inline="always")
def cell_centre(index, origin, size):
    """The centre of column (or row) ``index`` of a grid of cells ``size`` wide."""
    return origin + (index + 0.5) * size


@njit(cache=True, forceinline=True)
def open_cell(world, open_cells, px, py, ox, oy, size, nx, ny, motion, skin, margin):
    """Whether the agents' grid cell holding ``p`` has no obstacle near: every agent in it
    (radius plus motion at most ``motion``: the step's ``rmax + most``) slides untouched
    (:func:`~sidestep.kernels.moves.open_around` from the cell's centre, over
    :func:`open_reach`). ``open_cells (2 * nx * ny,)`` (0: not told yet, 1: open, 2:
    not): cell ``c`` at ``c`` against what never moves
    (:func:`~sidestep.kernels.world.still_part`; told here once, the threads may both
    tell a cell: they write the same; it stays told while the bodies move) and at
    ``nx * ny + c`` against the bodies (told for every cell at once before the step:
    :func:`open_to_bodies`). Open both ways is open: the world's test reads the two
    grids in turn, and finds nothing in either."""
    inverse = 1.0 / size
    i = grid_index(px, ox, inverse, nx)
    j = grid_index(py, oy, inverse, ny)
    c = j * nx + i
    if open_cells[c] == 0:
        seen = open_around(still_part(world), cell_centre(i, ox, size), cell_centre(j, oy, size),
                           open_reach(size, motion, skin, margin), skin, margin)
        open_cells[c] = 1 if seen else 2
    return open_cells[c] == 1 and open_cells[nx * ny + c] == 1


@njit(cache=True, nogil=True)
def open_to_bodies(blob, live, open_cells, ox, oy, size, nx, ny, rmax, dmax, separation, skin,
                   margin):
    """Tells the second half of ``open_cells (2 * nx * ny,) uint8`` (:func:`open_cell`), for
    every cell of the agents' grid at once, unless told already (its first entry is not
    0): 1 where no item of a body keeps the cell open, 2 where one does
    (:func:`~sidestep.kernels.moves.closes`, the test
    :func:`~sidestep.kernels.moves.open_around` makes of it). Item by item over the
    bodies' grid, each one's box widened by its reach: a few cells each, where asking
    each cell the bodies' grid cost a tenth of a crowd step. The step's figures
    (``rmax``, ``dmax``, ``separation``) as :func:`crowd_step` takes them."""
    cells = nx * ny
    if open_cells[cells] != 0:
        return
    open_cells[cells:] = 1
    world = unpack_world(blob, live)
    moving = world.moving
    if moving.nx == 0:
        return
    most = separation + dmax                    # as _step_rows works out its figures
    reach = open_reach(size, rmax + most, skin, margin)
    first, _ = cell_span(world, moving, 0)
    _, last = cell_span(world, moving, moving.nx * moving.ny - 1)
    inverse = 1.0 / size
    done = np.zeros(world.n_items, dtype=np.uint8)   # an item lies in several cells
    for t in range(first, last):
        e = np.int64(world.small[t])
        if done[e]:
            continue
        done[e] = 1
        ax, ay, bx, by, thick = item_geometry(world, e)
        # The cells whose centre lies within the farthest the test reads (its reach, the
        # larger of skin and margin, the item's thickness) of the item's box, and a
        # thousandth of a cell for roundings (the test's own, 1e-6 of the sizes, within).
        pad = thick + reach + max(skin, margin) + 1e-3 * size
        i0 = max(int(math.ceil((min(ax, bx) - pad - ox) * inverse - 0.5)), 0)
        i1 = min(int(math.floor((max(ax, bx) + pad - ox) * inverse - 0.5)), nx - 1)
        j0 = max(int(math.ceil((min(ay, by) - pad - oy) * inverse - 0.5)), 0)
        j1 = min(int(math.floor((max(ay, by) + pad - oy) * inverse - 0.5)), ny - 1)
        for j in range(j0, j1 + 1):
            cy = cell_centre(j, oy, size)
            for i in range(i0, i1 + 1):
                c = cells + j * nx + i
                if open_cells[c] == 1 and closes(world, e, cell_centre(i, ox, size), cy,
                                                 reach, skin, margin):
                    open_cells[c] = 2


@njit(cache=True, forceinline=True)
def _along_within(pairs, count, cx, cy):
    """The largest ``f`` in ``[0, 1]`` with ``f * c`` inside the cell (``pairs[:count]``,
    see :func:`_cell`): how far along ``c`` the agent may go."""
    f = 1.0
    for t in range(count):
        toward = cx * pairs[t, 0] + cy * pairs[t, 1]
        if toward > 0.0:
            f = min(f, pairs[t, 2] / toward)
    return max(f, 0.0)


@njit(cache=True, forceinline=True)
def _cell(packed, rest, items, row, neighbours, count, scale, follow, motions, pairs):
    """The half-plane of the agent of ``packed[row]`` against each of its neighbours:
    ``pairs[t]`` (at least ``count`` rows) is ``nx, ny, bound, gap, share`` (see the
    module) for ``packed[neighbours[t]]`` (:func:`cell_order`'s rows): ``share`` is the
    agent's share of the gap, ``bound`` that widened when ``follow`` by what the neighbour
    asked to go away, as far as it went away last step (``motions``, by agent index)
    (:mod:`~sidestep.kernels.follow`), else the share."""
    coincident = False
    px = packed[row, 0]
    py = packed[row, 1]
    rk = packed[row, 2]
    wk = rest[row, 0]
    for t in range(count):
        j = neighbours[t]
        dx = packed[j, 0] - px
        dy = packed[j, 1] - py
        dist = math.sqrt(dx * dx + dy * dy)
        if dist > 1e-12 * scale:
            inverse = 1.0 / dist            # one division, not two
            pairs[t, 0] = dx * inverse
            pairs[t, 1] = dy * inverse
        else:
            pairs[t, 0] = 0.0
            pairs[t, 1] = 0.0
            coincident = True
        gap = dist - rk - packed[j, 2]
        pairs[t, 4] = _share(wk, rest[j, 0]) * gap if gap > 0.0 else 0.0
        pairs[t, 3] = gap
    if coincident:
        # Apart from this branch, so that the sines are not worked out ahead for
        # every agent.
        for t in range(count):
            if pairs[t, 0] == 0.0 and pairs[t, 1] == 0.0:
                pairs[t, 0], pairs[t, 1] = _golden(items[row], items[neighbours[t]])
    for t in range(count):
        j = neighbours[t]
        # What it asked to go away, if it went as far away last step (kernels.follow).
        asked = rest[j, 1] * pairs[t, 0] + rest[j, 2] * pairs[t, 1]
        went = motions[items[j], 0] * pairs[t, 0] + motions[items[j], 1] * pairs[t, 1]
        pairs[t, 2] = widened(pairs[t, 4], pairs[t, 3], asked, went) if follow else pairs[t, 4]


@njit(cache=True, nogil=True)
def crowd_step(blob, live, positions, radii, weights, displacements, intents, packed, rest, items,
               start, ox, oy, size, nx, ny, rmax, dmax, mode, separation, skin, margin,
               slack, min_motion, max_iterations, known, pressure_now, last_positions,
               last_displacements, last_pressure, last_stops, last_obstacles, still, busy,
               open_cells, out, stops, obstacles, pressure, motions, counts, records, cells, done, queue):
    """One step of every agent whose row is taken from ``queue`` (see the module).

    First the threads share the ordering of the agents (:func:`cell_order`, the
    cells and agents taken from ``cells (2, 3)``, ``done``: a zero to count them) in the
    grid of :func:`grid_agents` over their positions (``items``, ``start``,
    ``ox, oy, size, nx, ny``), into ``packed (n, 3)``, their ``x, y, r``,
    and ``rest (n, 5)``, their weight, displacement and intent (the
    displacement plus what the last step left of the wish: the pressure the
    neighbours make way for), from the agents' ``positions (n, 2)``,
    ``radii``, ``weights``, ``displacements (n, 2)`` and ``intents (n, 2)``,
    and tells the agents at rest (below); each waits until all are ordered,
    then steps the agents of the rows it takes from ``queue``. ``rmax`` is
    the largest radius, ``dmax`` the largest ``|d|``. An agent's wish, so its
    motion, is at most ``dmax + separation`` (:func:`capped`), so neighbours
    are the agents that could touch it, each moving that far. Writes, by agent index
    (``items[row]``), each agent's end to ``out (n, 2)``, its stop code to
    ``stops`` and the first obstacle it touched (-1: none) to ``obstacles``,
    and half of what it did not get of its wish to ``pressure (n, 2)``.
    When the step is ``known`` (1: the last step had the same figures, and
    ``last_*`` are its positions, displacements, pressure, stop codes and
    obstacles; ``pressure_now (n, 2)`` is the pressure it left), an agent at
    rest (still, and no busy cell within its neighbour search:
    :func:`still_rows`, marked in ``still (n,)`` and ``busy``, zeros before)
    is not worked out again: its rows of ``out``, ``stops``, ``obstacles``
    and ``pressure`` are the last step's answers (its position, stop code,
    obstacle and pressure), which a step worked out again would give to the
    bit. ``still`` comes out marking those agents only (a still agent that
    was worked out after all is cleared). ``open_cells (2 * nx * ny,) uint8``
    tells the cells of the grid with no obstacle near (:func:`open_cell`; 0:
    not told yet; the first half zeros when the grid or what never moves
    changed, the second when the bodies moved too): an agent in such a cell
    moves without a world query.
    Releases the GIL; a row's result does not depend on which thread took
    it. Returns only once every row is done, by whichever thread (``done``
    counts them too): the caller need not wait for the other threads
    (:func:`sidestep.threads.run_rows`, ``join=False``). Every array is read
    through a borrowed view (:mod:`~sidestep.kernels.borrow`): the threads
    share them, and counting references on them would bounce their cache
    lines between cores.
    """
    no_halves = radii[:0]          # discs: no core
    spread = busy_spread(rmax, separation + dmax, skin, size)
    ordered = cell_order(
        borrow(start), borrow(items), borrow(positions), borrow(radii), borrow(no_halves),
        borrow(weights), borrow(displacements), borrow(intents), -1, borrow(packed),
        borrow(rest), known, borrow(pressure_now), borrow(last_positions),
        borrow(last_displacements), borrow(last_pressure), borrow(last_stops),
        borrow(last_obstacles), borrow(positions), borrow(last_positions), ox, oy, size, nx,
        ny, spread, borrow(still), borrow(busy),
        borrow(out), borrow(stops), borrow(obstacles), borrow(pressure), cells, done)
    _work(blob, live, packed, rest, items, start, ox, oy, size, nx, ny, rmax, dmax, spread,
          mode, separation, skin, margin, slack, min_motion, max_iterations, still, busy,
          open_cells, out, stops, obstacles, pressure, motions, counts, records, 1, items[:0], done,
          queue)
    # Every row done, by whichever thread took it: the caller need not wait for the others
    # (threads.run_rows, join=False).
    wait_rows(done, ordered + items.shape[0])


@njit(cache=True, forceinline=False)
def _work(blob, live, packed, rest, items, start, ox, oy, size, nx, ny, rmax, dmax, spread,
          mode, separation, skin, margin, slack, min_motion, max_iterations, still, busy,
          open_cells, out, stops, obstacles, pressure, motions, counts, records, follow, order, done,
          queue):
    """A thread's part of a step once the agents are ordered: :func:`_step_rows` with its
    buffers, grown whenever an agent has more neighbours than they hold."""
    world = unpack_world(blob, live)
    contacts_buffer = np.empty((1, CONTACT_FIELDS))
    wf_buffer = np.empty(SCRATCH_FLOATS)
    wi_buffer = np.empty(SCRATCH_INTS, dtype=np.int64)
    qp_buffer = np.empty(3 * ACTIVE)
    pending = np.zeros(2, dtype=np.int64)
    neighbours_buffer = np.empty(64, dtype=np.int64)
    pairs_buffer = np.empty((64, 5))
    needed = 0
    while True:
        if needed > neighbours_buffer.shape[0]:
            # An agent has more neighbours than the buffers hold: grow them
            # and take it again (an agent's answer depends on nothing else).
            neighbours_buffer = np.empty(2 * needed, dtype=np.int64)
            pairs_buffer = np.empty((2 * needed, 5))
        needed = _step_rows(world, borrow(packed), borrow(rest), borrow(items),
                            borrow(start), ox, oy, size, nx, ny, rmax,
                            dmax, spread, mode, separation, skin, margin, slack, min_motion,
                            max_iterations, borrow(still), borrow(busy), borrow(open_cells),
                            borrow(out),
                            borrow(stops), borrow(obstacles),
                            borrow(pressure), borrow(motions), borrow(counts), borrow(records), follow,
                            borrow(order),
                            borrow(contacts_buffer), borrow(wf_buffer),
                            borrow(wi_buffer), borrow(qp_buffer), borrow(neighbours_buffer),
                            borrow(pairs_buffer), pending, done, queue)
        if needed == 0:
            break
    # The borrowed views above must not outlive their buffers.
    wf_buffer[0] = wi_buffer[0] + contacts_buffer[0, 0] + qp_buffer[0] + \
        neighbours_buffer[0] + pairs_buffer[0, 0]


@njit(cache=True, nogil=True)
def redo_rows(blob, live, packed, rest, items, start, ox, oy, size, nx, ny, rmax, dmax, mode,
              separation, skin, margin, slack, min_motion, max_iterations, still, busy,
              open_cells, out, stops, obstacles, pressure, motions, counts, records, order, done,
              queue):
    """Work out again, within their own cells (no following), the agents of the rows
    ``order`` of a step :func:`crowd_step` made (its ``packed``, ``rest``, grid and
    outputs): the ones :func:`~sidestep.kernels.follow.failing_follows` sent back. Their
    answers replace theirs in ``out``, ``stops``, ``obstacles`` and ``pressure``.
    ``done`` (a zero) counts the rows done: returns only once every row is, by whichever
    thread, as :func:`crowd_step` (the caller need not wait for the other threads)."""
    spread = busy_spread(rmax, separation + dmax, skin, size)
    _work(blob, live, packed, rest, items, start, ox, oy, size, nx, ny, rmax, dmax, spread,
          mode, separation, skin, margin, slack, min_motion, max_iterations, still, busy,
          open_cells, out, stops, obstacles, pressure, motions, counts, records, 0, order, done, queue)
    wait_rows(done, order.shape[0])


@njit(cache=True, forceinline=False)
def _step_rows(world, packed, rest, items, start, ox, oy, size, nx, ny, rmax, dmax, spread,
               mode, separation, skin, margin, slack, min_motion, max_iterations, still, busy,
               open_cells, out, stops, obstacles, pressure, motions, counts, records, follow, order,
               contacts, wf, wi, qp, neighbours, pairs, pending, done, queue):
    """:func:`crowd_step`'s work: the rows ``pending [first, stop)`` left by the last
    call, then rows from ``queue`` until none are left (returns 0). An agent with more
    neighbours than ``neighbours`` holds is left undone with the rest of its chunk
    in ``pending``, and their count returned: the caller grows the buffers (here they
    are never replaced, so the loop over the agents counts no references). ``spread``:
    :func:`busy_spread`, as :func:`crowd_step` worked it out for the ordering."""
    world = borrowed(world)
    scale = max(1.0, abs(ox), abs(oy), abs(ox + nx * size), abs(oy + ny * size))
    most = separation + dmax         # the most any agent moves (capped)
    rounding = ROUNDING * scale
    grain = pressure_grain(dmax)
    while True:
        first, stop = resume_rows(pending, queue)
        if first >= stop:
            return 0
        for slot in range(first, stop):
            # In the grid's order: neighbours of one agent are the next one's too (or the
            # rows ``order`` lists: agents worked out again, kernels.follow).
            row = order[slot] if order.shape[0] > 0 else slot
            px = packed[row, 0]
            py = packed[row, 1]
            rk = packed[row, 2]
            if still[items[row]]:
                if calm(busy, px, py, search_reach(rk, most, rmax, most, skin), ox, oy, size,
                        nx, ny, spread):
                    continue        # at rest: the last step's answers stand
                still[items[row]] = 0
            wk = rest[row, 0]
            dx = rest[row, 1]
            dy = rest[row, 2]
            count = 0
            if mode != MODE_GHOST:
                # 1. Neighbours: agents that could touch this one during the step.
                count = _neighbours(packed, row, px, py, rk, most, rmax, most, skin, ox, oy,
                                    size, nx, ny, start, neighbours)
                if count > neighbours.shape[0]:
                    rows_done(done, slot - first)
                    pending[0] = slot
                    pending[1] = stop
                    return count
            _cell(packed, rest, items, row, neighbours, count, scale, follow, motions, pairs)
            # 2-3. The wish: asked, making way, separating.
            yx = 0.0
            yy = 0.0
            sx = 0.0
            sy = 0.0
            for t in range(count):
                j = neighbours[t]
                pnx = pairs[t, 0]
                pny = pairs[t, 1]
                gap = pairs[t, 3]
                apart, yielded, more = wish_terms(wk, rest[j, 0], gap,
                                                  rest[j, 1] * pnx + rest[j, 2] * pny,
                                                  rest[j, 3] * pnx + rest[j, 4] * pny)
                sx -= pnx * (apart + more)
                sy -= pny * (apart + more)
                yx -= pnx * yielded
                yy -= pny * yielded
            # Separating and pressure: at most `separation`; making way for
            # displacements: at most the largest displacement; the whole wish: at most
            # `most`.
            f = capped(sx * sx + sy * sy, separation)
            sx *= f
            sy *= f
            f = capped(yx * yx + yy * yy, dmax)
            yx *= f
            yy *= f
            wx = dx + yx + sx
            wy = dy + yy + sy
            f = capped(wx * wx + wy * wy, most)
            wx *= f
            wy *= f
            # 4. Into the cell, then through the world.
            agent_mode = MODE_SLIDE if mode == MODE_GHOST else mode
            if mode == MODE_BLOCK:
                ok = _inside_cell(pairs, count, wx, wy, 0.0, rounding)
                vx = wx if ok else 0.0
                vy = wy if ok else 0.0
            else:
                vx, vy, ok = _clip_to_cell(pairs, count, wx, wy, slack, qp)
            # Sliding in a cell with no obstacle near: the world would let every motion
            # (at most `most`) through untouched. Asked only of an agent that moves.
            open_here = ok and agent_mode == MODE_SLIDE and \
                open_cell(world, open_cells, px, py, ox, oy, size, nx, ny, rmax + most, skin,
                          margin)
            x = px
            y = py
            code = STOP_BLOCKED
            hit = -1
            # The first chord the world let the agent take.
            cx = 0.0
            cy = 0.0
            tolerance = 0.25 * skin
            for attempt in range(3 if ok else 0):
                if attempt == 1:
                    # Sliding left the cell: along the chord it took, clipped.
                    vx, vy, ok = _clip_to_cell(pairs, count, cx, cy, slack, qp)
                    if not ok:
                        continue
                elif attempt == 2:
                    # Still out (the clipped chord pressed into the world again: an
                    # agent pushing along a wall into a neighbour): along the chord,
                    # the way the world left open, as far as the cell allows.
                    f = _along_within(pairs, count, cx, cy)
                    vx = f * cx
                    vy = f * cy
                    if vx * vx + vy * vy <= min_motion * min_motion:
                        break
                if open_here and math.sqrt(vx * vx + vy * vy) > min_motion:
                    # As the slide's own first test would find (see open_cell).
                    x2 = px + vx
                    y2 = py + vy
                    code2 = STOP_DONE
                    n2 = 0
                else:
                    x2, y2, code2, n2, _ = move_agent(
                        world, px, py, vx, vy, rk, agent_mode, skin, margin, slack,
                        min_motion, max_iterations, wf, wi, contacts)
                if attempt == 0:
                    cx = x2 - px
                    cy = y2 - py
                    if code2 == STOP_DONE and (vx - wx) ** 2 + (vy - wy) ** 2 > skin * skin:
                        # Neighbours cut the wish short.
                        code2 = STOP_SLID if vx * vx + vy * vy > min_motion * min_motion \
                            else STOP_BLOCKED
                if _inside_cell(pairs, count, x2 - px, y2 - py, tolerance, rounding):
                    x = x2
                    y = y2
                    code = code2
                    hit = int(contacts[0, 0]) if n2 > 0 else -1
                    break
            moved = math.sqrt((x - px) ** 2 + (y - py) ** 2)
            if mode != MODE_GHOST and moved > most:
                # Went farther than the neighbours were gathered for (a
                # recovery out of an obstacle): check the agents that far too.
                far = _neighbours(packed, row, px, py, rk, moved, rmax, most, skin, ox, oy,
                                  size, nx, ny, start, neighbours)
                if far > neighbours.shape[0]:
                    rows_done(done, slot - first)
                    pending[0] = slot
                    pending[1] = stop
                    return far
                _cell(packed, rest, items, row, neighbours, far, scale, follow, motions, pairs)
                count = far
                if not _inside_cell(pairs, far, x - px, y - py, 0.25 * skin, rounding):
                    x = px
                    y = py
                    code = STOP_BLOCKED
                    hit = -1
            if settles(mode, code, (x - px) ** 2 + (y - py) ** 2, skin):
                x = px
                y = py
                code = STOP_BLOCKED
            k = items[row]
            # Past its own share against a neighbour walking away: noted, to be confirmed
            # once every agent has moved (kernels.follow).
            if follow:
                note_follows(counts, records, k, 2, x - px, y - py, 0.0, pairs, count, 0, 3, 4,
                             items, neighbours, 0.25 * skin, rounding)
            out[k, 0] = x
            out[k, 1] = y
            # Half of what the wish did not get presses on next step: the
            # neighbours in its way make way for it then.
            pressure[k, 0] = on_grain(0.5 * (wx - (x - px)), grain)
            pressure[k, 1] = on_grain(0.5 * (wy - (y - py)), grain)
            stops[k] = code
            obstacles[k] = hit
        rows_done(done, stop - first)


@njit(cache=True)
def touching_pairs(positions, radii, ox, oy, size, nx, ny, start, items, gap):
    """``(m, 2)`` index pairs ``i < j`` of agents closer than ``r_i + r_j + gap``."""
    n = positions.shape[0]
    out = np.empty((max(16, 2 * n), 2), dtype=np.int64)
    m = 0
    rmax = 0.0
    for k in range(n):
        rmax = max(rmax, radii[k])
    inverse = 1.0 / size
    for k in range(n):
        px = positions[k, 0]
        py = positions[k, 1]
        r = radii[k] + rmax + gap
        i0, i1, j0, j1 = grid_window(px, py, r, ox, oy, inverse, nx, ny)
        for cj in range(j0, j1 + 1):
            for ci in range(i0, i1 + 1):
                c = cj * nx + ci
                for t in range(start[c], start[c + 1]):
                    j = items[t]
                    if j <= k:
                        continue
                    ex = positions[j, 0] - px
                    ey = positions[j, 1] - py
                    within = radii[k] + radii[j] + gap
                    if ex * ex + ey * ey < within * within:
                        if m == out.shape[0]:
                            grown = np.empty((2 * m, 2), dtype=np.int64)
                            grown[:m] = out
                            out = grown
                        out[m, 0] = k
                        out[m, 1] = j
                        m += 1
    return out[:m].copy()
