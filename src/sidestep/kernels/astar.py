"""A* path search: on an 8-connected grid by Moving AI's rules, and over navmesh polygons.

Both searches keep their open list in an indexed binary heap on plain arrays
(``heap`` holds node ids, ``where[node]`` the node's place in it, -1 not seen
yet, -2 closed), so a better route to a queued node moves it up in place
and the heap never holds more than one entry per node. Ties on ``f`` go to
the larger ``g`` (the node nearer the goal), which expands fewer nodes.

**Grid rules** (Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012,
the rules of the Moving AI ``.scen`` optimal lengths): a move goes to one of
the 8 neighbouring cells; a straight move costs 1, a diagonal one sqrt(2);
a diagonal move is allowed only when both cells it passes between are free
(no corner cutting). The octile distance is an exact lower bound of that
cost and consistent, so a closed cell is final and the length found is the
optimum.
"""
import math

import numpy as np
from numba import njit

from .corridor import corridor_portals, funnel, polyline_length

SQRT2 = math.sqrt(2.0)
#: Neighbour offsets (row, column): the four straight moves, then the diagonals.
STEPS_R = np.array([-1, 1, 0, 0, -1, -1, 1, 1], dtype=np.int64)
STEPS_C = np.array([0, 0, -1, 1, -1, 1, -1, 1], dtype=np.int64)
#: ``where`` marks: not seen yet, closed.
UNSEEN = -1
CLOSED = -2


@njit(cache=True)
def octile(dr, dc):
    """Octile distance of a ``(dr, dc)`` cell offset: the cost of the cheapest 8-connected route."""
    a = abs(dr)
    b = abs(dc)
    lo = min(a, b)
    return (max(a, b) - lo) + SQRT2 * lo


@njit(cache=True)
def _before(a, b, f, g):
    """Whether node ``a`` leaves the open list before node ``b``."""
    return f[a] < f[b] or (f[a] == f[b] and g[a] > g[b])


@njit(cache=True)
def _up(heap, where, f, g, i):
    node = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        other = heap[parent]
        if not _before(node, other, f, g):
            break
        heap[i] = other
        where[other] = i
        i = parent
    heap[i] = node
    where[node] = i


@njit(cache=True)
def _down(heap, where, f, g, i, size):
    node = heap[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _before(heap[child + 1], heap[child], f, g):
            child += 1
        if not _before(heap[child], node, f, g):
            break
        heap[i] = heap[child]
        where[heap[i]] = i
        i = child
    heap[i] = node
    where[node] = i


@njit(cache=True)
def _push(heap, where, f, g, size, node):
    """Queue ``node`` (or move it up after its ``f`` fell); returns the new heap size."""
    if where[node] >= 0:
        _up(heap, where, f, g, where[node])
        return size
    heap[size] = node
    where[node] = size
    _up(heap, where, f, g, size)
    return size + 1


@njit(cache=True)
def _pop(heap, where, f, g, size):
    """Take the first node off the heap and close it; returns ``(node, new size)``."""
    node = heap[0]
    size -= 1
    where[node] = CLOSED
    if size > 0:
        heap[0] = heap[size]
        where[heap[0]] = 0
        _down(heap, where, f, g, 0, size)
    return node, size


@njit(cache=True)
def astar_grid(blocked, start, goal, parent, g, f, heap, where):
    """Shortest 8-connected route between two free cells, by the module's grid rules.

    Parameters
    ----------
    blocked : (rows, cols) uint8
        Non-zero: the cell is blocked. Outside the table is not walkable.
    start, goal : int
        Flat cell indices ``row * cols + col`` of free cells.
    parent, heap, where : (rows * cols,) int64
        Scratch; on return ``parent[cell]`` is the cell it was reached from
        (-1 for the start and cells not reached).
    g, f : (rows * cols,) float64
        Scratch; on return ``g[cell]`` is the cost of the best route found to it.

    Returns
    -------
    float
        The route's length in cells (0 when ``start == goal``), inf when none exists.
    """
    rows, cols = blocked.shape
    g[:] = math.inf
    parent[:] = -1
    where[:] = UNSEEN
    goal_r = goal // cols
    goal_c = goal % cols
    g[start] = 0.0
    f[start] = octile(start // cols - goal_r, start % cols - goal_c)
    size = _push(heap, where, f, g, 0, start)
    while size > 0:
        node, size = _pop(heap, where, f, g, size)
        if node == goal:
            return g[goal]
        r = node // cols
        c = node % cols
        for k in range(8):
            nr = r + STEPS_R[k]
            nc = c + STEPS_C[k]
            if nr < 0 or nc < 0 or nr >= rows or nc >= cols or blocked[nr, nc] != 0:
                continue
            cost = 1.0
            if k >= 4:
                if blocked[r, nc] != 0 or blocked[nr, c] != 0:
                    continue                       # no cutting a blocked cell's corner
                cost = SQRT2
            m = nr * cols + nc
            if where[m] == CLOSED:
                continue                           # consistent heuristic: closed is final
            reach = g[node] + cost
            if reach < g[m]:
                g[m] = reach
                parent[m] = node
                f[m] = reach + octile(nr - goal_r, nc - goal_c)
                size = _push(heap, where, f, g, size, m)
    return math.inf


@njit(cache=True)
def trace_back(parent, goal, out):
    """Write the route ending at ``goal`` into ``out``, goal first; returns how many nodes."""
    n = 0
    node = goal
    while node >= 0:
        out[n] = node
        n += 1
        node = parent[node]
    return n


@njit(cache=True)
def astar_mesh(vertices, offsets, corners, across, orientation, start, goal, sx, sy, gx, gy,
               parent, g, heap, where, chain, edges, portals, points, sides):
    """A corridor of navmesh polygons from ``start`` to ``goal``, by the length of its path.

    A search node is an edge crossed from one polygon into the next (the
    start polygon is node ``H``, one past the last edge), with the chain of
    edges that led to it. Its key is the length of the shortest path from
    the start point through every edge of that chain and then straight to
    the goal point (the funnel run over the chain, the goal as its last
    portal): no path through that chain is shorter, and each edge added can
    only lengthen it, so the goal polygon is reached first through the
    corridor whose path is the shortest among the chains kept. One chain is
    kept per edge (the one of least key; an edge reached again by a better
    chain is reopened), where Polyanya's search keeps one per interval of an
    edge and so always finds the mesh's shortest path; a chain never enters
    a polygon twice.

    Parameters
    ----------
    vertices : (V, 2) float64
    offsets : (P + 1,) int64
        Polygon ``p``'s corners are ``corners[offsets[p]:offsets[p + 1]]``.
    corners, across : (H,) int64
        Vertex ids, and the polygon across the edge from corner ``i`` to
        corner ``i + 1`` (wrapping round), -1 for the mesh's boundary.
    orientation : (P,) int64
        +1 anticlockwise, -1 clockwise (:func:`~sidestep.kernels.corridor.polygon_orientation`).
    start, goal : int
        Polygons holding the start point ``(sx, sy)`` and goal point ``(gx, gy)``.
    parent, heap, where : (H + 1,) int64
        Scratch; ``parent[e]`` is the node edge ``e`` was crossed after.
    g : (H + 1,) float64
        Scratch: each node's key.
    chain, edges : (P + 1,) int64
        On return (a path found): the corridor's polygons from the start's
        to the goal's in ``chain[:k]``, and in ``edges[j]`` (j >= 1) the edge
        crossed into ``chain[j]``.
    portals : (P + 2, 4) float64
    points : (P + 3, 2) float64
    sides : (P + 3,) int64
        Scratch for the funnel.

    Returns
    -------
    k : int
        Polygons in the corridor, 0 when the goal cannot be reached.
    length : float
        The length of the path through it; inf when there is none.
    """
    n_edges = len(corners)
    g[:] = math.inf
    parent[:] = -1
    where[:] = UNSEEN
    g[n_edges] = math.hypot(gx - sx, gy - sy)
    # The key is its own tie-break (f = g): pass g twice.
    size = _push(heap, where, g, g, 0, n_edges)
    while size > 0:
        node, size = _pop(heap, where, g, g, size)
        p = start if node == n_edges else across[node]
        if p == goal:
            k = _chain(across, start, parent, node, n_edges, -1, chain, edges)
            return k, g[node]
        first = offsets[p]
        count = offsets[p + 1] - first
        for i in range(count):
            h = first + i
            q = across[h]
            if q < 0:
                continue
            k = _chain(across, start, parent, node, n_edges, q, chain, edges)
            if k == 0:
                continue                           # q is in the chain already
            chain[k] = q
            edges[k] = h
            corridor_portals(vertices, offsets, corners, orientation, chain[:k + 1],
                             edges[:k + 1], sx, sy, gx, gy, portals[:k + 2])
            key = polyline_length(points, funnel(portals[:k + 2], points, sides))
            if key < g[h]:
                g[h] = key
                parent[h] = node
                if where[h] == CLOSED:
                    where[h] = UNSEEN              # reopened: a better chain
                size = _push(heap, where, g, g, size, h)
    return 0, math.inf


@njit(cache=True)
def _chain(across, start, parent, node, n_edges, avoid, chain, edges):
    """The polygons (and edges crossed) from the start to ``node``, in order.

    Returns how many; 0 when ``avoid`` is among them.
    """
    k = 0
    while True:
        p = start if node == n_edges else across[node]
        if p == avoid or k >= len(chain) - 1:
            return 0
        chain[k] = p
        edges[k] = node
        k += 1
        if node == n_edges:
            break
        node = parent[node]
    chain[:k] = chain[:k][::-1].copy()
    edges[:k] = edges[:k][::-1].copy()
    return k
