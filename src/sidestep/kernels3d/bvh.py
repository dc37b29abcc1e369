"""Bounding volume hierarchy: which primitives lie near a ray, a box or a point, in 3D.

The 3D broadphase, the counterpart of the 2D uniform grid
(:mod:`sidestep.kernels.index`). A grid suits obstacles of one size; a mesh
level mixes triangles metres long with triangles a centimetre long, so 3D
uses a binary tree of axis-aligned boxes, built top-down by the surface area
heuristic over binned centroids (Wald 2007, "On fast construction of
SAH-based bounding volume hierarchies"). A query descends only into the boxes
it touches: its cost grows with the local density and the logarithm of the
level's size, not with the level's size.

Layout (a :class:`BVH`; kernels receive it as one argument): ``m`` nodes in
flat arrays, node 0 the root, every child numbered after its parent, the
two children of a node next to each other (``left``, ``left + 1``).
``links[k] = (first, count)`` with ``count > 0`` makes node ``k`` a leaf
holding primitives ``order[first:first + count]``; ``(left, 0)`` an inner
node. Bytes per primitive: ``60 m / n + 8`` (node box 48, links 8, parent 4;
``order`` and ``leaf_of`` 4 each): 45 for a terrain mesh, 56 for a mix
of huge and tiny triangles (``python benchmarks/bvh_build.py`` prints it).

Queries are cursors, not callbacks (Numba's first-class functions defeat
caching): the caller starts one, then calls ``next_leaf_*`` in a loop, each
call returning the next leaf ``(first, count)`` (``count == 0``: done) and
tests the primitives ``order[first:first + count]`` itself::

    start_ray(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, t_max)
    while True:
        first, count, t_enter = next_leaf_ray(tree, nodes, keys, state,
                                              ox, oy, oz, ix, iy, iz, t_max)
        if count == 0:
            break
        for k in range(first, first + count):
            ...  # test primitive tree.order[k]; on a hit at t < t_max, t_max = t

``nodes`` (int32) and ``keys`` (float64) are scratch of
:func:`cursor_size` entries and ``state`` an int64 array of 1, one set per
thread. The nearest cursor is best first (a heap keyed by the distance to
the box): leaves come strictly near to far. The ray cursor goes depth first,
the nearer child first, the other waiting on a stack with its entry
distance (a ray through a big mesh meets one leaf or two, and a heap's work
per node cost more than the order saves). Either way a caller that shrinks
``t_max`` or its bound skips everything beyond.

Moving primitives (a translated kinematic obstacle): :func:`refit` for many,
:func:`refit_primitives` for a few (each walks up from its leaf). Removing:
give the primitive the empty box :data:`EMPTY` and refit it; it is then never
reached again (a leaf may still be, for its other primitives, so the caller
skips removed primitives). Adding needs a rebuild (:func:`build_bvh`): about
two CPU seconds per million primitives; a world that adds often can keep a
second, small tree for the newcomers and rebuild when it grows.
"""
import math
from collections import namedtuple

import numpy as np
from numba import njit

from ..validation import _check_finite, as_float_array

#: A built hierarchy. ``boxes (m, 6) float64`` node boxes
#: ``[minx, miny, minz, maxx, maxy, maxz]``; ``links (m, 2) int32`` (see the
#: module docstring); ``parents (m,) int32`` (-1 for the root); ``order (n,)
#: int32`` primitive ids in leaf order; ``leaf_of (n,) int32`` the leaf holding
#: each primitive; ``depth`` the deepest node's depth (root 0); ``leaves``
#: the number of leaves.
BVH = namedtuple("BVH", ["boxes", "links", "parents", "order", "leaf_of", "depth", "leaves"])

#: The box of a removed primitive: no query ever overlaps it.
EMPTY = (math.inf, math.inf, math.inf, -math.inf, -math.inf, -math.inf)

#: Centroid bins per axis for the surface area heuristic (Wald 2007 uses 16).
BINS = 16

#: Cost of visiting one inner node, relative to testing one primitive.
TRAVERSAL_COST = 2.0

#: Below this depth splits follow the surface area heuristic; beyond it
#: (centroids spread exponentially, say, where binning splits off a few at
#: a time) a split halves the primitives, so the depth stays below
#: ``SAH_DEPTH + log2(n)`` and the build stays O(n log n).
SAH_DEPTH = 48

#: Relative widening of the ray's exit distance from a box: the slab
#: distances are rounded (two roundings each, and ``1 / d`` one more), and a
#: ray through a triangle lying in a box's face must not miss the box
#: (Ize 2013, "Robust BVH ray traversal", pads by 2 gamma_3, about 7e-16).
RAY_PAD = 1e-14


# --- Building ---------------------------------------------------------------

@njit(cache=True)
def _half_area(box):
    # Half the surface area of box (6,): the SAH's measure of how often a
    # query enters it.
    dx = box[3] - box[0]
    dy = box[4] - box[1]
    dz = box[5] - box[2]
    return dx * dy + dy * dz + dz * dx


@njit(cache=True)
def _measure(box, flat):
    # The SAH measure: half area, or the sum of the sides when the node is
    # flat to a line or a point (every area 0, every split would tie).
    if flat:
        return (box[3] - box[0]) + (box[4] - box[1]) + (box[5] - box[2])
    return _half_area(box)


@njit(cache=True)
def _grow(box, lo0, lo1, lo2, hi0, hi1, hi2):
    # Widen box (6,) in place to hold [lo, hi].
    box[0] = min(box[0], lo0)
    box[1] = min(box[1], lo1)
    box[2] = min(box[2], lo2)
    box[3] = max(box[3], hi0)
    box[4] = max(box[4], hi1)
    box[5] = max(box[5], hi2)


@njit(cache=True)
def _clear(box):
    for a in range(3):
        box[a] = math.inf
        box[a + 3] = -math.inf


@njit(cache=True)
def _scan(rows, cents, s, e, box, cbox):
    # Box of rows[s:e] and box of their centroids, into box and cbox.
    _clear(box)
    _clear(cbox)
    for k in range(s, e):
        _grow(box, rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], rows[k, 4], rows[k, 5])
        _grow(cbox, cents[k, 0], cents[k, 1], cents[k, 2], cents[k, 0], cents[k, 1],
              cents[k, 2])


@njit(cache=True)
def _swap(rows, cents, order, i, j):
    for a in range(6):
        rows[i, a], rows[j, a] = rows[j, a], rows[i, a]
    for a in range(3):
        cents[i, a], cents[j, a] = cents[j, a], cents[i, a]
    order[i], order[j] = order[j], order[i]


@njit(cache=True)
def _median_split(rows, cents, order, s, e, axis):
    # Sort the node's rows along axis; the first half goes left.
    idx = np.argsort(cents[s:e, axis], kind="mergesort") + s
    rows[s:e] = rows[idx]
    cents[s:e] = cents[idx]
    order[s:e] = order[idx]
    return s + (e - s) // 2


@njit(cache=True)
def _build(prims, max_leaf):
    n = prims.shape[0]
    cap = max(2 * n - 1, 0)
    boxes = np.empty((cap, 6))
    links = np.zeros((cap, 2), dtype=np.int32)
    parents = np.full(cap, -1, dtype=np.int32)
    order = np.arange(n).astype(np.int32)
    leaf_of = np.zeros(n, dtype=np.int32)
    if n == 0:
        return boxes, links, parents, order, leaf_of, 0, 0
    # Working copies kept in node order (partitioned along with `order`), so
    # every pass over a node's primitives reads memory front to back.
    rows = prims.copy()
    cents = np.empty((n, 3))
    for p in range(n):
        for a in range(3):
            cents[p, a] = 0.5 * (rows[p, a] + rows[p, a + 3])
    bin_boxes = np.empty((3, BINS, 6))
    bin_counts = np.zeros((3, BINS), dtype=np.int64)
    right_measure = np.empty(BINS)
    right_count = np.zeros(BINS, dtype=np.int64)
    side = np.empty(6)
    # Work stack of nodes still to split: node, first, stop, depth, and the
    # centroid box of their primitives (the node's own box is in `boxes`).
    # A node pushes two and pops one, so it holds at most depth + 1.
    stack = np.empty((SAH_DEPTH + 130, 4), dtype=np.int64)
    cstack = np.empty((SAH_DEPTH + 130, 6))
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = n
    stack[0, 3] = 0
    _scan(rows, cents, 0, n, boxes[0], cstack[0])
    top = 1
    n_nodes = 1
    depth_max = 0
    leaves = 0
    lcent = np.empty(6)
    rcent = np.empty(6)
    while top > 0:
        top -= 1
        node, s, e, depth = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        cbox = cstack[top].copy()
        depth_max = max(depth_max, depth)
        count = e - s
        mid = -1
        scanned = False         # children's boxes still to be found by _scan
        widest = 0
        for a in range(1, 3):
            if cbox[a + 3] - cbox[a] > cbox[widest + 3] - cbox[widest]:
                widest = a
        if count <= 1:
            pass
        elif cbox[widest + 3] - cbox[widest] <= 0.0:
            # 1a. All centroids in one point (duplicates): no plane separates
            # them; halve by count if there are too many for one leaf.
            if count > max_leaf:
                mid = s + count // 2
        elif depth >= SAH_DEPTH:
            # 1b. Too deep for the heuristic: halve along the widest axis.
            if count > max_leaf:
                mid = _median_split(rows, cents, order, s, e, widest)
        else:
            # 1c. Binned SAH over all three axes in one pass. Cost of a split
            # (times the node's measure): measure * TRAVERSAL_COST +
            # measure_left * count_left + measure_right * count_right.
            flat = _half_area(boxes[node]) <= 0.0
            measure = _measure(boxes[node], flat)
            scales = np.zeros(3)
            for a in range(3):
                extent = cbox[a + 3] - cbox[a]
                if extent > 0.0 and BINS / extent < math.inf:
                    scales[a] = BINS / extent
                for q in range(BINS):
                    bin_counts[a, q] = 0
                    _clear(bin_boxes[a, q])
            for k in range(s, e):
                for a in range(3):
                    if scales[a] > 0.0:
                        q = min(BINS - 1, int((cents[k, a] - cbox[a]) * scales[a]))
                        bin_counts[a, q] += 1
                        _grow(bin_boxes[a, q], rows[k, 0], rows[k, 1], rows[k, 2],
                              rows[k, 3], rows[k, 4], rows[k, 5])
            best_cost = math.inf
            best_axis = -1
            best_bin = -1
            for a in range(3):
                if scales[a] == 0.0:
                    continue
                # Sweep from the right: measure and count of bins q..BINS-1.
                _clear(side)
                total = 0
                for q in range(BINS - 1, 0, -1):
                    b = bin_boxes[a, q]
                    if bin_counts[a, q] > 0:
                        _grow(side, b[0], b[1], b[2], b[3], b[4], b[5])
                    total += bin_counts[a, q]
                    right_count[q] = total
                    right_measure[q] = _measure(side, flat) if total > 0 else 0.0
                # Sweep from the left: a split between bins q - 1 and q.
                _clear(side)
                total = 0
                for q in range(1, BINS):
                    b = bin_boxes[a, q - 1]
                    if bin_counts[a, q - 1] > 0:
                        _grow(side, b[0], b[1], b[2], b[3], b[4], b[5])
                    total += bin_counts[a, q - 1]
                    if total == 0 or right_count[q] == 0:
                        continue
                    cost = _measure(side, flat) * total + right_measure[q] * right_count[q]
                    if cost < best_cost:
                        best_cost = cost
                        best_axis = a
                        best_bin = q
            if best_axis < 0:
                if count > max_leaf:
                    mid = _median_split(rows, cents, order, s, e, widest)
            elif count > max_leaf or TRAVERSAL_COST * measure + best_cost < count * measure:
                # Split on the best plane: partition rows[s:e] in place,
                # gathering each side's centroid box on the way.
                _clear(lcent)
                _clear(rcent)
                lo = cbox[best_axis]
                scale = scales[best_axis]
                i = s
                j = e - 1
                while i <= j:
                    q = min(BINS - 1, int((cents[i, best_axis] - lo) * scale))
                    if q < best_bin:
                        _grow(lcent, cents[i, 0], cents[i, 1], cents[i, 2],
                              cents[i, 0], cents[i, 1], cents[i, 2])
                        i += 1
                    else:
                        _grow(rcent, cents[i, 0], cents[i, 1], cents[i, 2],
                              cents[i, 0], cents[i, 1], cents[i, 2])
                        _swap(rows, cents, order, i, j)
                        j -= 1
                mid = i
                scanned = True
        if mid < 0:
            # 2a. A leaf.
            links[node, 0] = s
            links[node, 1] = count
            for k in range(s, e):
                leaf_of[order[k]] = node
            leaves += 1
            continue
        # 2b. Two children, numbered after every node so far; the left one is
        # taken from the stack first.
        left = n_nodes
        n_nodes += 2
        links[node, 0] = left
        links[node, 1] = 0
        parents[left] = node
        parents[left + 1] = node
        stack[top, 0] = left + 1
        stack[top, 1] = mid
        stack[top, 2] = e
        stack[top, 3] = depth + 1
        stack[top + 1, 0] = left
        stack[top + 1, 1] = s
        stack[top + 1, 2] = mid
        stack[top + 1, 3] = depth + 1
        if scanned:
            # The sides' boxes are the unions of their bins.
            _clear(boxes[left])
            _clear(boxes[left + 1])
            for q in range(BINS):
                if bin_counts[best_axis, q] > 0:
                    b = bin_boxes[best_axis, q]
                    _grow(boxes[left if q < best_bin else left + 1],
                          b[0], b[1], b[2], b[3], b[4], b[5])
            cstack[top + 1] = lcent
            cstack[top] = rcent
        else:
            _scan(rows, cents, mid, e, boxes[left + 1], cstack[top])
            _scan(rows, cents, s, mid, boxes[left], cstack[top + 1])
        top += 2
    return (boxes[:n_nodes].copy(), links[:n_nodes].copy(), parents[:n_nodes].copy(),
            order, leaf_of, depth_max, leaves)


def _checked_boxes(boxes, name, allow_empty=False):
    # (n, 6) float64, finite, min <= max per axis (or the EMPTY box if allowed).
    arr = as_float_array(boxes, name)
    if arr.ndim != 2 or arr.shape[1] != 6:
        raise ValueError(f"{name} must have shape (n, 6) [minx, miny, minz, maxx, maxy, "
                         f"maxz], got {arr.shape}")
    arr = np.ascontiguousarray(arr)
    check = arr
    if allow_empty:
        empty = np.all(arr == np.array(EMPTY), axis=1)
        check = arr[~empty]
    _check_finite(check, name)
    inverted = np.any(check[:, :3] > check[:, 3:], axis=1)
    if np.any(inverted):
        row = int(np.flatnonzero(inverted)[0])
        if allow_empty:
            row = int(np.flatnonzero(~empty)[row])
        raise ValueError(f"{name} row {row} has a minimum above its maximum: {arr[row]}")
    return arr


def build_bvh(boxes, max_leaf=4):
    """The hierarchy over primitives with bounding ``boxes``.

    Parameters
    ----------
    boxes : (n, 6) float64
        ``[minx, miny, minz, maxx, maxy, maxz]`` per primitive (world units);
        flat and zero-size boxes are fine, NaN, infinities and a minimum
        above its maximum are a ValueError.
    max_leaf : int
        Most primitives a leaf may hold (fewer where the surface area
        heuristic finds a split cheaper).

    Returns
    -------
    BVH
        O(n log n) to build; 1.6 CPU seconds for a million terrain
        triangles, 2.3 for a mix of huge and tiny ones, on one core.

    Examples
    --------
    Two boxes: one leaf is cheaper than a node over two, unless a leaf may
    hold only one.

    >>> two = [[0, 0, 0, 1, 1, 1], [5, 0, 0, 6, 1, 1]]
    >>> build_bvh(two).links.tolist()
    [[0, 2]]
    >>> tree = build_bvh(two, max_leaf=1)
    >>> tree.links.tolist(), tree.boxes[0].tolist()
    ([[1, 0], [0, 1], [1, 1]], [0.0, 0.0, 0.0, 6.0, 1.0, 1.0])
    >>> build_bvh(np.zeros((0, 6))).boxes.shape
    (0, 6)
    """
    arr = _checked_boxes(boxes, "boxes")
    if isinstance(max_leaf, bool) or not isinstance(max_leaf, (int, np.integer)) \
            or max_leaf < 1:
        raise ValueError(f"max_leaf must be a whole number >= 1, got {max_leaf!r}")
    return BVH(*_build(arr, int(max_leaf)))


def cursor_size(tree):
    """Entries a cursor's ``nodes`` and ``keys`` scratch need for ``tree`` (any query).

    A best-first heap holds subtrees none of which contains another, so at
    most one per leaf; a depth-first stack at most ``depth + 1 <= leaves``.
    """
    return max(tree.leaves, 1) + 1


def new_cursor(tree):
    """Fresh scratch ``(nodes (k,) int32, keys (k,) float64, state (1,) int64)`` for ``tree``."""
    k = cursor_size(tree)
    return np.empty(k, dtype=np.int32), np.empty(k), np.zeros(1, dtype=np.int64)


# --- Moving and removing primitives -------------------------------------------

@njit(cache=True)
def _fit(tree, prims, node):
    # Recompute one node's box from its primitives or its children; True if it changed.
    boxes = tree.boxes
    first = tree.links[node, 0]
    count = tree.links[node, 1]
    lo0 = lo1 = lo2 = math.inf
    hi0 = hi1 = hi2 = -math.inf
    if count > 0:
        for k in range(first, first + count):
            p = tree.order[k]
            lo0 = min(lo0, prims[p, 0])
            lo1 = min(lo1, prims[p, 1])
            lo2 = min(lo2, prims[p, 2])
            hi0 = max(hi0, prims[p, 3])
            hi1 = max(hi1, prims[p, 4])
            hi2 = max(hi2, prims[p, 5])
    else:
        for c in range(first, first + 2):
            lo0 = min(lo0, boxes[c, 0])
            lo1 = min(lo1, boxes[c, 1])
            lo2 = min(lo2, boxes[c, 2])
            hi0 = max(hi0, boxes[c, 3])
            hi1 = max(hi1, boxes[c, 4])
            hi2 = max(hi2, boxes[c, 5])
    changed = (lo0 != boxes[node, 0] or lo1 != boxes[node, 1] or lo2 != boxes[node, 2]
               or hi0 != boxes[node, 3] or hi1 != boxes[node, 4] or hi2 != boxes[node, 5])
    boxes[node, 0] = lo0
    boxes[node, 1] = lo1
    boxes[node, 2] = lo2
    boxes[node, 3] = hi0
    boxes[node, 4] = hi1
    boxes[node, 5] = hi2
    return changed


@njit(cache=True)
def refit(tree, prims):
    """Refit every node to the primitives' new boxes ``prims (n, 6)``, in place. O(m).

    Children are numbered after their parents, so one pass from the last
    node to the root sees every child before its parent. The tree's shape is
    kept: after large motions queries stay right but grow slower (rebuild).
    """
    for node in range(tree.boxes.shape[0] - 1, -1, -1):
        _fit(tree, prims, node)


@njit(cache=True)
def refit_primitives(tree, prims, ids):
    """Refit the nodes above primitives ``ids (k,) int`` to ``prims (n, 6)``, in place.

    O(k * depth): each walks up from its leaf until a box does not change.
    """
    for i in range(ids.shape[0]):
        node = tree.leaf_of[ids[i]]
        while node >= 0:
            if not _fit(tree, prims, node):
                break
            node = tree.parents[node]


# --- Queries ------------------------------------------------------------------

@njit(cache=True)
def start_box(tree, nodes, state):
    """Start a box query (depth first) on the cursor ``nodes``, ``state``."""
    state[0] = 0
    if tree.boxes.shape[0] > 0:
        nodes[0] = 0
        state[0] = 1


@njit(cache=True)
def next_leaf_box(tree, nodes, state, minx, miny, minz, maxx, maxy, maxz):
    """The next leaf whose box overlaps the query box (touching counts).

    Returns ``(first, count)``: primitives ``tree.order[first:first + count]``;
    ``count == 0`` when no leaf is left. Every primitive whose box overlaps
    the query is in one of the leaves returned (and each leaf comes once).
    The query box may change between calls (shrinking it only skips more).
    """
    boxes = tree.boxes
    while state[0] > 0:
        state[0] -= 1
        node = nodes[state[0]]
        if (boxes[node, 0] > maxx or boxes[node, 3] < minx or boxes[node, 1] > maxy
                or boxes[node, 4] < miny or boxes[node, 2] > maxz or boxes[node, 5] < minz):
            continue
        count = tree.links[node, 1]
        if count > 0:
            return tree.links[node, 0], count
        left = tree.links[node, 0]
        nodes[state[0]] = left + 1
        nodes[state[0] + 1] = left
        state[0] += 2
    return 0, 0


@njit(cache=True)
def primitives_in_box(tree, minx, miny, minz, maxx, maxy, maxz, out):
    """The primitives of every leaf whose box overlaps the query box (touching counts).

    The leaves of :func:`next_leaf_box`, in the same order, without a cursor:
    the walk goes down the left child, on to the right sibling, and back up
    by ``parents`` (no stack, so nothing to allocate per query: a character's
    frame asks a handful of these). Writes the primitives to ``out`` and
    returns how many there are; when that is more than ``out`` holds, only
    the first ``len(out)`` are written.
    """
    boxes = tree.boxes
    if boxes.shape[0] == 0:
        return 0
    links = tree.links
    parents = tree.parents
    order = tree.order
    n = 0
    node = 0
    while True:
        if not (boxes[node, 0] > maxx or boxes[node, 3] < minx or boxes[node, 1] > maxy
                or boxes[node, 4] < miny or boxes[node, 2] > maxz or boxes[node, 5] < minz):
            count = links[node, 1]
            if count == 0:
                node = links[node, 0]           # down to the left child
                continue
            first = links[node, 0]
            for k in range(first, first + count):
                if n < out.shape[0]:
                    out[n] = order[k]
                n += 1
        # On to the right sibling of the nearest left child on the way up.
        while True:
            if node == 0:
                return n
            parent = parents[node]
            if node == links[parent, 0]:
                node += 1
                break
            node = parent


@njit(cache=True, inline="always")
def _push(nodes, keys, state, node, key):
    # Binary min-heap on keys: sift the new entry up.
    i = state[0]
    while i > 0:
        up = (i - 1) >> 1
        if keys[up] <= key:
            break
        nodes[i] = nodes[up]
        keys[i] = keys[up]
        i = up
    nodes[i] = node
    keys[i] = key
    state[0] += 1


@njit(cache=True, inline="always")
def _pop(nodes, keys, state):
    # Remove the smallest key; sift the last entry down from the top.
    node = nodes[0]
    size = state[0] - 1
    state[0] = size
    last_node = nodes[size]
    last_key = keys[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and keys[c + 1] < keys[c]:
            c += 1
        if keys[c] >= last_key:
            break
        nodes[i] = nodes[c]
        keys[i] = keys[c]
        i = c
    nodes[i] = last_node
    keys[i] = last_key
    return node


@njit(cache=True)
def inverse(d):
    """``1 / d``, or an infinity of ``d``'s sign for ``d == 0`` (a ray's ``inv_dir``)."""
    if d == 0.0:
        return math.copysign(math.inf, d)
    return 1.0 / d


@njit(cache=True)
def enter_ray_box(boxes, node, ox, oy, oz, ix, iy, iz, t_max):
    """Where the ray ``o + t d`` (``i = 1 / d``) enters box ``node``, for ``t in [0, t_max]``.

    Returns ``t`` (``0`` if ``o`` is inside), or ``inf`` if the ray misses it
    before ``t_max``. Slab test (Kay and Kajiya 1986) with the near and far
    faces picked by the sign of ``i``, so the empty box is always missed; a
    ``0 * inf`` (a ray along a face) gives NaN, which no comparison accepts,
    so that slab does not limit the ray (a ray in a face plane enters).
    The exit distance is widened by :data:`RAY_PAD` so rounding never
    misses a box a primitive inside it is hit in.
    """
    if ix >= 0.0:
        tn0 = (boxes[node, 0] - ox) * ix
        tf0 = (boxes[node, 3] - ox) * ix
    else:
        tn0 = (boxes[node, 3] - ox) * ix
        tf0 = (boxes[node, 0] - ox) * ix
    if iy >= 0.0:
        tn1 = (boxes[node, 1] - oy) * iy
        tf1 = (boxes[node, 4] - oy) * iy
    else:
        tn1 = (boxes[node, 4] - oy) * iy
        tf1 = (boxes[node, 1] - oy) * iy
    if iz >= 0.0:
        tn2 = (boxes[node, 2] - oz) * iz
        tf2 = (boxes[node, 5] - oz) * iz
    else:
        tn2 = (boxes[node, 5] - oz) * iz
        tf2 = (boxes[node, 2] - oz) * iz
    enter = 0.0
    leave = t_max
    if tn0 > enter:
        enter = tn0
    if tn1 > enter:
        enter = tn1
    if tn2 > enter:
        enter = tn2
    pad = 1.0 + RAY_PAD
    if tf0 * pad < leave:
        leave = tf0 * pad
    if tf1 * pad < leave:
        leave = tf1 * pad
    if tf2 * pad < leave:
        leave = tf2 * pad
    if enter <= leave and enter < math.inf:
        return enter
    return math.inf


@njit(cache=True)
def start_ray(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, t_max):
    """Start a ray query from ``o`` along ``d`` (``i = 1 / d``, see :func:`inverse`)."""
    state[0] = 0
    if tree.boxes.shape[0] > 0:
        t = enter_ray_box(tree.boxes, 0, ox, oy, oz, ix, iy, iz, t_max)
        if t < math.inf:
            nodes[0] = 0
            keys[0] = t
            state[0] = 1


@njit(cache=True)
def next_leaf_ray(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, t_max):
    """The next leaf whose box the ray enters before ``t_max``: depth first, nearer child first.

    Returns ``(first, count, t_enter)``: primitives
    ``tree.order[first:first + count]`` and the ray parameter where it enters
    the leaf's box; ``count == 0`` when none is left. ``t_max`` may shrink
    between calls (to the nearest hit so far): a subtree the ray enters
    beyond it is never opened. Every leaf the ray enters before the final
    ``t_max`` is returned once. Of two siblings the one the ray enters first
    is opened first, and the other waits on a stack with its entry distance:
    leaves come roughly near to far. A heap would make the order strict, at
    a heap's cost per node; the nearest hit is the same either way.
    """
    boxes = tree.boxes
    links = tree.links
    top = state[0]
    while top > 0:
        top -= 1
        t_node = keys[top]
        if t_node > t_max:
            continue
        node = nodes[top]
        count = links[node, 1]
        if count > 0:
            state[0] = top
            return links[node, 0], count, t_node
        left = links[node, 0]
        t_left = enter_ray_box(boxes, left, ox, oy, oz, ix, iy, iz, t_max)
        t_right = enter_ray_box(boxes, left + 1, ox, oy, oz, ix, iy, iz, t_max)
        # Push the farther child first, so that the nearer one is opened next.
        near, t_near, far, t_far = left, t_left, left + 1, t_right
        if t_right < t_left:
            near, t_near, far, t_far = left + 1, t_right, left, t_left
        if t_far < math.inf:
            nodes[top] = far
            keys[top] = t_far
            top += 1
        if t_near < math.inf:
            nodes[top] = near
            keys[top] = t_near
            top += 1
    state[0] = 0
    return 0, 0, math.inf


@njit(cache=True, inline="always")
def enter_grown_box(lox, loy, loz, hix, hiy, hiz, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max):
    """Where a box of half extents ``e`` centred on ``o + t d`` (``i = 1 / d``) first
    overlaps the box ``lo..hi``, for ``t in [0, t_max]``.

    The box sweep is the ray ``o + t d`` against ``lo..hi`` grown by ``e`` on
    each side (their Minkowski sum), so this is :func:`enter_ray_box` on the
    grown box, with the same sign-picked slabs, NaN rule and padded exit:
    ``0`` when the boxes overlap at ``t = 0``, ``inf`` when they do not
    before ``t_max``. A zero ``d`` (``i`` infinite) gives 0 or inf.
    """
    lox -= ex
    loy -= ey
    loz -= ez
    hix += ex
    hiy += ey
    hiz += ez
    if ix >= 0.0:
        tn0 = (lox - ox) * ix
        tf0 = (hix - ox) * ix
    else:
        tn0 = (hix - ox) * ix
        tf0 = (lox - ox) * ix
    if iy >= 0.0:
        tn1 = (loy - oy) * iy
        tf1 = (hiy - oy) * iy
    else:
        tn1 = (hiy - oy) * iy
        tf1 = (loy - oy) * iy
    if iz >= 0.0:
        tn2 = (loz - oz) * iz
        tf2 = (hiz - oz) * iz
    else:
        tn2 = (hiz - oz) * iz
        tf2 = (loz - oz) * iz
    enter = 0.0
    leave = t_max
    if tn0 > enter:
        enter = tn0
    if tn1 > enter:
        enter = tn1
    if tn2 > enter:
        enter = tn2
    pad = 1.0 + RAY_PAD
    if tf0 * pad < leave:
        leave = tf0 * pad
    if tf1 * pad < leave:
        leave = tf1 * pad
    if tf2 * pad < leave:
        leave = tf2 * pad
    if enter <= leave and enter < math.inf:
        return enter
    return math.inf


@njit(cache=True, inline="always")
def enter_swept_box(boxes, node, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max):
    """:func:`enter_grown_box` for box ``node``: where the swept box first overlaps it."""
    return enter_grown_box(boxes[node, 0], boxes[node, 1], boxes[node, 2], boxes[node, 3],
                           boxes[node, 4], boxes[node, 5], ox, oy, oz, ix, iy, iz, ex, ey, ez,
                           t_max)


@njit(cache=True)
def start_sweep(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max):
    """Start a box sweep query: the box of half extents ``e`` at ``o`` moving by ``d``."""
    state[0] = 0
    if tree.boxes.shape[0] > 0:
        t = enter_swept_box(tree.boxes, 0, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max)
        if t < math.inf:
            nodes[0] = 0
            keys[0] = t
            state[0] = 1


@njit(cache=True)
def next_leaf_sweep(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max):
    """The next leaf the swept box overlaps before ``t_max``: :func:`next_leaf_ray` for a
    box of half extents ``e`` instead of a point (the shape casts' broadphase).

    Returns ``(first, count, t_enter)``; ``t_enter == 0`` when the box
    overlaps the leaf's box where it starts. ``t_max`` may shrink between
    calls; every leaf the box overlaps before the final ``t_max`` comes
    once, the nearer child of two first.
    """
    boxes = tree.boxes
    links = tree.links
    top = state[0]
    while top > 0:
        top -= 1
        t_node = keys[top]
        if t_node > t_max:
            continue
        node = nodes[top]
        count = links[node, 1]
        if count > 0:
            state[0] = top
            return links[node, 0], count, t_node
        left = links[node, 0]
        t_left = enter_swept_box(boxes, left, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max)
        t_right = enter_swept_box(boxes, left + 1, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max)
        near, t_near, far, t_far = left, t_left, left + 1, t_right
        if t_right < t_left:
            near, t_near, far, t_far = left + 1, t_right, left, t_left
        if t_far < math.inf:
            nodes[top] = far
            keys[top] = t_far
            top += 1
        if t_near < math.inf:
            nodes[top] = near
            keys[top] = t_near
            top += 1
    state[0] = 0
    return 0, 0, math.inf


@njit(cache=True)
def distance_point_node(boxes, node, px, py, pz):
    """Distance from ``p`` to box ``node`` (0 inside; ``inf`` for the empty box)."""
    dx = max(boxes[node, 0] - px, 0.0, px - boxes[node, 3])
    dy = max(boxes[node, 1] - py, 0.0, py - boxes[node, 4])
    dz = max(boxes[node, 2] - pz, 0.0, pz - boxes[node, 5])
    return math.sqrt(dx * dx + dy * dy + dz * dz)


@njit(cache=True)
def start_nearest(tree, nodes, keys, state, px, py, pz, bound):
    """Start a nearest search around ``p``, within ``bound`` (may be ``inf``).

    For a sphere of radius ``r``, search around its centre with ``bound + r``
    (a box is ``max(0, distance - r)`` from the sphere).
    """
    state[0] = 0
    if tree.boxes.shape[0] > 0:
        d = distance_point_node(tree.boxes, 0, px, py, pz)
        if d <= bound and d < math.inf:
            _push(nodes, keys, state, 0, d)


@njit(cache=True)
def next_leaf_nearest(tree, nodes, keys, state, px, py, pz, bound):
    """The next leaf within ``bound`` of ``p``, nearest box first.

    Returns ``(first, count, distance)``: primitives
    ``tree.order[first:first + count]`` and the distance from ``p`` to the
    leaf's box (never decreasing between calls); ``count == 0`` when none is
    left. ``bound`` may shrink between calls (to the nearest primitive so
    far): leaves whose box is further are never returned.
    """
    boxes = tree.boxes
    links = tree.links
    while state[0] > 0:
        if keys[0] > bound:
            state[0] = 0
            break
        d_node = keys[0]
        node = _pop(nodes, keys, state)
        count = links[node, 1]
        if count > 0:
            return links[node, 0], count, d_node
        left = links[node, 0]
        for child in range(left, left + 2):
            d = distance_point_node(boxes, child, px, py, pz)
            if d <= bound and d < math.inf:
                _push(nodes, keys, state, child, d)
    return 0, 0, math.inf


# --- Python side: checked updates ----------------------------------------------

def refit_bvh(tree, boxes, ids=None):
    """Refit ``tree`` in place to primitives' new ``boxes (n, 6)``; ``ids`` those that moved.

    Rows equal to :data:`EMPTY` are removed primitives. With ``ids`` only
    the nodes above those primitives are refitted (cheaper for a few than
    :func:`refit`'s pass over every node). Bad input is a ValueError and
    leaves the tree unchanged. Returns the checked ``boxes`` array.
    """
    arr = _checked_boxes(boxes, "boxes", allow_empty=True)
    if arr.shape[0] != tree.order.shape[0]:
        raise ValueError(f"boxes must have one row per primitive ({tree.order.shape[0]}), "
                         f"got {arr.shape[0]}")
    if ids is None:
        refit(tree, arr)
        return arr
    idx = np.asarray(ids)
    if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
        raise ValueError(f"ids must be a 1-d array of primitive numbers, got {ids!r}")
    idx = idx.astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= arr.shape[0]):
        raise ValueError(f"ids must be in [0, {arr.shape[0]}), got {idx.min()}..{idx.max()}")
    refit_primitives(tree, arr, idx)
    return arr
