"""The 3D bounding volume hierarchy: structure, cursors against brute force, updates.

Primitives here are their boxes (no triangle math, which is space3d's): a
primitive is "hit" by a ray where the ray enters its box, and is "near" a
point at the distance to its box.
"""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sidestep.kernels3d import bvh
from sidestep.kernels3d.bvh import (EMPTY, SAH_DEPTH, build_bvh, inverse, new_cursor,
                                    next_leaf_box, next_leaf_nearest, next_leaf_ray,
                                    refit_bvh, start_box, start_nearest, start_ray)


# --- Brute force and cursor drivers ---------------------------------------------

def overlapping(boxes, q):
    """Ids of boxes overlapping (or touching) the query box q."""
    if len(boxes) == 0:
        return set()
    ok = np.all(boxes[:, :3] <= q[3:], axis=1) & np.all(boxes[:, 3:] >= q[:3], axis=1)
    return set(np.flatnonzero(ok).tolist())


def ray_enter(box, o, d, t_max):
    """Where o + t d (t in [0, t_max]) enters box, or None: slabs in exact-ish numpy."""
    lo, hi = 0.0, t_max
    o = np.asarray(o, float)
    d = np.asarray(d, float)
    for a in range(3):
        if d[a] == 0.0:
            if not box[a] <= o[a] <= box[a + 3]:
                return None
            continue
        with np.errstate(over="ignore"):        # a subnormal d[a]: inf is right
            t1 = (box[a] - o[a]) / d[a]
            t2 = (box[a + 3] - o[a]) / d[a]
        lo = max(lo, min(t1, t2))
        hi = min(hi, max(t1, t2))
    return lo if lo <= hi else None


def box_distance(box, p):
    gap = np.maximum(np.maximum(box[:3] - p, 0.0), p - box[3:])
    return float(np.sqrt(np.sum(gap * gap)))


def leaves_box(tree, q):
    nodes, _, state = new_cursor(tree)
    start_box(tree, nodes, state)
    out = []
    while True:
        first, count = next_leaf_box(tree, nodes, state, *q)
        if count == 0:
            return out
        out.append((first, count))


def visited_box(tree, q):
    ids = [int(tree.order[k]) for first, count in leaves_box(tree, q)
           for k in range(first, first + count)]
    assert len(ids) == len(set(ids)), "a primitive came twice"
    return set(ids)


def walk_ray(tree, boxes, o, d, t_max=math.inf, shrink=False):
    """Leaves (first, count, t_enter) the ray cursor yields; with shrink, the
    caller lowers t_max to each primitive box it enters. Returns (leaves, t_max)."""
    nodes, keys, state = new_cursor(tree)
    inv = [inverse(float(c)) for c in d]
    start_ray(tree, nodes, keys, state, *o, *inv, t_max)
    out = []
    while True:
        first, count, t_enter = next_leaf_ray(tree, nodes, keys, state, *o, *inv, t_max)
        if count == 0:
            return out, t_max
        assert t_enter <= t_max
        out.append((first, count, t_enter))
        if shrink:
            for k in range(first, first + count):
                t = ray_enter(boxes[tree.order[k]], o, d, t_max)
                if t is not None:
                    t_max = min(t_max, t)


def walk_nearest(tree, boxes, p, bound=math.inf, shrink=False):
    nodes, keys, state = new_cursor(tree)
    start_nearest(tree, nodes, keys, state, *p, bound)
    out = []
    while True:
        first, count, dist = next_leaf_nearest(tree, nodes, keys, state, *p, bound)
        if count == 0:
            return out, bound
        assert dist <= bound
        out.append((first, count, dist))
        if shrink:
            for k in range(first, first + count):
                bound = min(bound, box_distance(boxes[tree.order[k]], np.asarray(p)))


def ids_of(tree, leaves):
    return {int(tree.order[k]) for leaf in leaves for k in range(leaf[0], leaf[0] + leaf[1])}


def check_structure(tree, boxes, max_leaf):
    """Every primitive in exactly one leaf, every box holding what is below it."""
    n = len(boxes)
    m = tree.boxes.shape[0]
    assert sorted(tree.order.tolist()) == list(range(n))
    seen = np.zeros(n, int)
    for node in range(m):
        first, count = tree.links[node]
        if node > 0:
            assert tree.parents[node] < node
            parent = tree.parents[node]
            assert tree.links[parent, 1] == 0 and node in (tree.links[parent, 0],
                                                           tree.links[parent, 0] + 1)
        if count > 0:
            assert count <= max_leaf
            for k in range(first, first + count):
                p = tree.order[k]
                seen[p] += 1
                assert tree.leaf_of[p] == node
                assert np.all(tree.boxes[node, :3] <= boxes[p, :3])
                assert np.all(tree.boxes[node, 3:] >= boxes[p, 3:])
        else:
            assert first > node
            for child in (first, first + 1):
                assert np.all(tree.boxes[node, :3] <= tree.boxes[child, :3])
                assert np.all(tree.boxes[node, 3:] >= tree.boxes[child, 3:])
    assert np.all(seen == 1)
    assert tree.leaves == int(np.sum(tree.links[:, 1] > 0)) if m else tree.leaves == 0


def random_boxes(rng, n, offset=0.0, spread=100.0, sizes=(0.0, 0.01, 1.0, 30.0)):
    lo = rng.uniform(-spread, spread, (n, 3)) + offset
    size = rng.choice(sizes, (n, 1)) * rng.uniform(0.0, 1.0, (n, 3))
    return np.hstack([lo, lo + size])


def terrain_boxes(nx, ny, cell=1.0, offset=(0.0, 0.0, 0.0), flat=False, seed=0):
    """Boxes of the two triangles of each cell of a height grid (z up)."""
    rng = np.random.default_rng(seed)
    h = np.zeros((ny + 1, nx + 1)) if flat else rng.uniform(0.0, 2.0, (ny + 1, nx + 1))
    out = []
    for j in range(ny):
        for i in range(nx):
            x0, y0 = i * cell, j * cell
            c = [h[j, i], h[j, i + 1], h[j + 1, i], h[j + 1, i + 1]]
            for tri in ((0, 1, 3), (0, 3, 2)):
                zs = [c[t] for t in tri]
                out.append([x0, y0, min(zs), x0 + cell, y0 + cell, max(zs)])
    return np.asarray(out) + np.asarray(offset * 2)


# --- Structure ---------------------------------------------------------------------

def test_every_primitive_sits_in_exactly_one_leaf():
    boxes = random_boxes(np.random.default_rng(1), 500)
    tree = build_bvh(boxes, max_leaf=4)
    check_structure(tree, boxes, 4)
    assert tree.depth <= SAH_DEPTH + math.log2(500) + 1


def test_terrain_tree_is_shallow_and_leaves_hold_a_few_triangles():
    boxes = terrain_boxes(40, 40)
    tree = build_bvh(boxes)
    check_structure(tree, boxes, 4)
    # A balanced tree over 3200 triangles is about log2(3200 / 4) = 10 deep.
    assert tree.depth <= 20
    assert tree.leaves < len(boxes)


def test_duplicate_boxes_are_split_into_small_leaves():
    boxes = np.tile([[1.0, 2.0, 3.0, 1.0, 2.0, 3.0]], (100, 1))
    tree = build_bvh(boxes, max_leaf=4)
    check_structure(tree, boxes, 4)
    assert tree.depth <= 8
    assert visited_box(tree, boxes[0]) == set(range(100))


def test_exponentially_spread_boxes_keep_the_tree_bounded():
    # Binning splits off the largest few each time: the depth cap halves instead.
    lo = 1.5 ** np.arange(68)
    boxes = np.column_stack([lo, lo * 0, lo * 0, lo * 1.01, lo * 0, lo * 0])
    tree = build_bvh(boxes, max_leaf=1)
    check_structure(tree, boxes, 1)
    assert tree.depth <= SAH_DEPTH + math.log2(68) + 1
    for k in (0, 30, 67):
        assert k in visited_box(tree, boxes[k])


def test_empty_tree_yields_nothing():
    tree = build_bvh(np.zeros((0, 6)))
    assert tree.boxes.shape == (0, 6) and tree.leaves == 0
    assert leaves_box(tree, [-1e9] * 3 + [1e9] * 3) == []
    assert walk_ray(tree, np.zeros((0, 6)), (0, 0, 0), (1, 0, 0))[0] == []
    assert walk_nearest(tree, np.zeros((0, 6)), (0, 0, 0))[0] == []


def test_one_primitive_tree_is_one_leaf():
    boxes = np.array([[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]])
    tree = build_bvh(boxes)
    assert tree.boxes.shape[0] == 1 and tree.leaves == 1
    assert visited_box(tree, [0.5] * 3 + [2.0] * 3) == {0}
    assert visited_box(tree, [1.5] * 3 + [2.0] * 3) == set()
    leaves, _ = walk_ray(tree, boxes, (-1.0, 0.5, 0.5), (1.0, 0.0, 0.0))
    assert leaves == [(0, 1, 1.0)]
    assert walk_ray(tree, boxes, (-1.0, 0.5, 0.5), (1.0, 0.0, 0.0), t_max=0.5)[0] == []
    assert walk_ray(tree, boxes, (-1.0, 0.5, 0.5), (-1.0, 0.0, 0.0))[0] == []
    leaves, _ = walk_nearest(tree, boxes, (3.0, 0.5, 0.5))
    assert leaves == [(0, 1, 2.0)]
    assert walk_nearest(tree, boxes, (3.0, 0.5, 0.5), bound=1.5)[0] == []


def test_bad_boxes_are_refused_naming_the_argument():
    good = [[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]]
    with pytest.raises(ValueError, match="boxes must be finite"):
        build_bvh([[0.0, math.nan, 0.0, 1.0, 1.0, 1.0]])
    with pytest.raises(ValueError, match="boxes must be finite"):
        build_bvh([[0.0, 0.0, 0.0, math.inf, 1.0, 1.0]])
    with pytest.raises(ValueError, match=r"boxes must have shape \(n, 6\)"):
        build_bvh([[0.0, 0.0, 1.0, 1.0]])
    with pytest.raises(ValueError, match="boxes row 1 has a minimum above its maximum"):
        build_bvh(good + [[0.0, 2.0, 0.0, 1.0, 1.0, 1.0]])
    with pytest.raises(TypeError, match="boxes must be numbers"):
        build_bvh([["a"] * 6])
    with pytest.raises(ValueError, match="max_leaf"):
        build_bvh(good, max_leaf=0)


# --- Box cursor ----------------------------------------------------------------------

coordinate = st.floats(-50.0, 50.0, allow_nan=False)
extent = st.sampled_from([0.0, 0.0, 1e-9, 0.5, 3.0, 40.0])


@st.composite
def box_sets(draw, max_size=60):
    offset = draw(st.sampled_from([0.0, 5000.0, -5000.0]))
    n = draw(st.integers(0, max_size))
    lo = np.array([[draw(coordinate) for _ in range(3)] for _ in range(n)]).reshape(n, 3)
    size = np.array([[draw(extent) for _ in range(3)] for _ in range(n)]).reshape(n, 3)
    return np.hstack([lo + offset, lo + offset + size]), offset


@st.composite
def query_boxes(draw, offset):
    lo = np.array([draw(coordinate) for _ in range(3)]) + offset
    size = np.array([draw(extent) for _ in range(3)])
    return np.concatenate([lo, lo + size])


@given(box_sets(), st.data(), st.sampled_from([1, 2, 4, 8]))
def test_box_query_visits_every_overlapping_primitive(case, data, max_leaf):
    boxes, offset = case
    tree = build_bvh(boxes, max_leaf=max_leaf)
    check_structure(tree, boxes, max_leaf)
    for _ in range(3):
        q = data.draw(query_boxes(offset))
        visited = visited_box(tree, q)
        assert overlapping(boxes, q) <= visited
        # Only leaves whose box overlaps are returned (no whole-tree scans).
        for first, count in leaves_box(tree, q):
            leaf = tree.leaf_of[tree.order[first]]
            assert overlapping(tree.boxes[leaf:leaf + 1], q) == {0}
    # A query touching a box's corner still finds it.
    if len(boxes):
        corner = np.concatenate([boxes[0, 3:], boxes[0, 3:] + 1.0])
        assert 0 in visited_box(tree, corner)


@given(box_sets(), st.data(), st.sampled_from([1, 2, 4, 8]))
def test_stackless_box_walk_gives_the_cursors_primitives_in_its_order(case, data, max_leaf):
    # primitives_in_box (the characters' query, no cursor) against the cursor's leaves.
    boxes, offset = case
    tree = build_bvh(boxes, max_leaf=max_leaf)
    for _ in range(3):
        q = data.draw(query_boxes(offset))
        expected = [int(tree.order[k]) for first, count in leaves_box(tree, q)
                    for k in range(first, first + count)]
        out = np.full(len(boxes) + 1, -1, dtype=np.int64)
        assert bvh.primitives_in_box(tree, *q, out) == len(expected)
        assert out[:len(expected)].tolist() == expected
        # A buffer too small: the count still, the first ones written, nothing beyond.
        short = np.full(2, -1, dtype=np.int64)
        assert bvh.primitives_in_box(tree, *q, short) == len(expected)
        assert short[:len(expected)].tolist() == expected[:2]


def test_box_query_far_from_the_origin_on_flat_terrain():
    # Terrain 5 km from the origin, flat (every box zero-thick in z).
    boxes = terrain_boxes(30, 30, offset=(5000.0, -5000.0, 12.5), flat=True)
    tree = build_bvh(boxes)
    for q in ([5010.2, -4990.7, 12.5, 5011.0, -4990.1, 12.5],       # a flat query box
              [5000.0, -5000.0, 12.5, 5000.0, -5000.0, 12.5],       # the terrain's corner
              [5013.0, -4987.0, 12.0, 5013.0, -4987.0, 12.4999]):   # just below: none
        assert visited_box(tree, q) >= overlapping(boxes, q)
    assert visited_box(tree, [5013.0, -4987.0, 12.0, 5013.0, -4987.0, 12.4999]) == set()


# --- Ray cursor ------------------------------------------------------------------------

direction = st.tuples(st.sampled_from([-1.0, 0.0, 0.3, 1.0, -1e-7]),
                      st.floats(-1.0, 1.0), st.sampled_from([-1.0, 0.0, 0.5, 1.0])) \
    .filter(lambda d: any(c != 0.0 for c in d))


@given(box_sets(), st.data())
def test_ray_visits_every_box_it_enters_once(case, data):
    boxes, offset = case
    tree = build_bvh(boxes)
    o = np.array([data.draw(coordinate) for _ in range(3)]) + offset
    d = np.array(data.draw(direction)) * data.draw(st.sampled_from([1.0, 10.0, 1e3]))
    t_max = data.draw(st.sampled_from([math.inf, 1.0, 0.05]))
    leaves, _ = walk_ray(tree, boxes, o, d, t_max)
    assert len({first for first, _, _ in leaves}) == len(leaves)        # each leaf once
    assert all(t <= t_max for _, _, t in leaves)
    visited = ids_of(tree, leaves)
    assert len(visited) == sum(c for _, c, _ in leaves)
    expected = {p for p in range(len(boxes)) if ray_enter(boxes[p], o, d, t_max) is not None}
    assert expected <= visited


@given(box_sets(), st.data())
def test_ray_with_a_shrinking_limit_finds_the_nearest_box(case, data):
    boxes, offset = case
    tree = build_bvh(boxes)
    o = np.array([data.draw(coordinate) for _ in range(3)]) + offset
    d = np.array(data.draw(direction))
    leaves, t_hit = walk_ray(tree, boxes, o, d, shrink=True)
    hits = [t for t in (ray_enter(b, o, d, math.inf) for b in boxes) if t is not None]
    assert t_hit == (min(hits) if hits else math.inf)
    assert len({first for first, _, _ in leaves}) == len(leaves)        # each leaf once


def test_ray_order_is_near_to_far_along_a_row_of_boxes():
    boxes = np.array([[x, 0.0, 0.0, x + 0.5, 1.0, 1.0] for x in range(50)], float)
    tree = build_bvh(np.random.default_rng(0).permutation(boxes), max_leaf=1)
    leaves, _ = walk_ray(tree, boxes, (-1.0, 0.5, 0.5), (1.0, 0.0, 0.0))
    assert [t for _, _, t in leaves] == [float(x + 1) for x in range(50)]
    back, _ = walk_ray(tree, boxes, (60.0, 0.5, 0.5), (-1.0, 0.0, 0.0))
    assert [t for _, _, t in back] == [60.0 - x - 0.5 for x in range(49, -1, -1)]


def test_ray_through_overlapping_boxes_meets_each_once_and_nearest_keeps_order():
    # Long boxes overlapping along the ray: many subtrees wait on the ray's
    # stack at once; each box is met once, at its own entry distance, and
    # with a shrinking limit the nearest is found. The nearest cursor is
    # best first: a heap that loses its order shows here.
    rng = np.random.default_rng(5)
    x = rng.uniform(0.0, 100.0, 300)
    boxes = np.column_stack([x, rng.uniform(-1, 0, 300), rng.uniform(-1, 0, 300),
                             x + rng.uniform(0, 60, 300), rng.uniform(0, 1, 300),
                             rng.uniform(0, 1, 300)])
    tree = build_bvh(boxes, max_leaf=1)
    leaves, _ = walk_ray(tree, boxes, (-1.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert sorted(t for _, _, t in leaves) == sorted(x + 1.0)
    _, t_hit = walk_ray(tree, boxes, (-1.0, 0.0, 0.0), (1.0, 0.0, 0.0), shrink=True)
    assert t_hit == min(x) + 1.0
    near, _ = walk_nearest(tree, boxes, (-1.0, 0.0, 0.0))
    assert [dist for _, _, dist in near] == sorted(x + 1.0)


def test_ray_down_onto_flat_terrain_5_km_away_enters_the_cell_below():
    boxes = terrain_boxes(30, 30, offset=(5000.0, -5000.0, 12.5), flat=True)
    tree = build_bvh(boxes)
    for o in ((5013.3, -4987.6, 100.0), (5013.0, -4987.0, 13.0)):
        leaves, t_hit = walk_ray(tree, boxes, o, (0.0, 0.0, -1.0), shrink=True)
        assert t_hit == o[2] - 12.5
        below = {p for p in range(len(boxes)) if ray_enter(boxes[p], o, (0, 0, -1), 1e9)}
        assert below and below <= ids_of(tree, leaves)
    # A ray gliding in the terrain's plane enters every cell in its row.
    o = (4990.0, -4984.5, 12.5)
    leaves, _ = walk_ray(tree, boxes, o, (1.0, 0.0, 0.0))
    assert ids_of(tree, leaves) >= {p for p in range(len(boxes))
                                   if boxes[p, 1] <= -4984.5 <= boxes[p, 4]}


def test_ray_starting_inside_a_box_enters_it_at_zero():
    boxes = np.array([[0.0, 0.0, 0.0, 2.0, 2.0, 2.0], [5.0, 0.0, 0.0, 6.0, 2.0, 2.0]])
    tree = build_bvh(boxes, max_leaf=1)
    leaves, _ = walk_ray(tree, boxes, (1.0, 1.0, 1.0), (1.0, 0.0, 0.0))
    assert [t for _, _, t in leaves] == [0.0, 4.0]


# --- Nearest cursor ----------------------------------------------------------------------

@given(box_sets(), st.data())
def test_nearest_search_orders_by_box_distance_and_prunes(case, data):
    boxes, offset = case
    tree = build_bvh(boxes)
    p = np.array([data.draw(st.floats(-80.0, 80.0)) for _ in range(3)]) + offset
    bound = data.draw(st.sampled_from([math.inf, 10.0, 0.0]))
    leaves, _ = walk_nearest(tree, boxes, p, bound)
    dists = [dist for _, _, dist in leaves]
    assert dists == sorted(dists)
    within = {k for k in range(len(boxes)) if box_distance(boxes[k], p) <= bound}
    assert within <= ids_of(tree, leaves)
    # With the caller's shrinking bound, the nearest box is found.
    _, best = walk_nearest(tree, boxes, p, shrink=True)
    assert best == min((box_distance(b, p) for b in boxes), default=math.inf)


# --- Updates -------------------------------------------------------------------------------

def test_refit_follows_moved_primitives():
    rng = np.random.default_rng(3)
    boxes = random_boxes(rng, 300)
    tree = build_bvh(boxes)
    moved = boxes.copy()
    ids = np.arange(0, 300, 7)
    moved[ids] += np.tile(rng.uniform(-40, 40, (len(ids), 3)), 2)
    refit_bvh(tree, moved, ids)
    check_structure(tree, moved, 4)
    for _ in range(20):
        q = np.concatenate([c := rng.uniform(-100, 100, 3), c + rng.uniform(0, 30, 3)])
        assert overlapping(moved, q) <= visited_box(tree, q)
    # A full refit back to the start gives the built tree's boxes again.
    fresh = build_bvh(boxes)
    refit_bvh(tree, boxes)
    assert np.array_equal(tree.boxes, fresh.boxes)


def test_translating_an_obstacle_moves_where_rays_find_it():
    boxes = terrain_boxes(10, 10, flat=True)
    tree = build_bvh(boxes)
    ids = np.arange(len(boxes))
    lifted = boxes + [0.0, 0.0, 3.0, 0.0, 0.0, 3.0]
    refit_bvh(tree, lifted, ids)
    _, t_hit = walk_ray(tree, lifted, (5.5, 5.5, 10.0), (0.0, 0.0, -1.0), shrink=True)
    assert t_hit == 7.0


def test_removed_primitives_are_never_reached():
    boxes = terrain_boxes(8, 8)
    tree = build_bvh(boxes)
    gone = np.arange(0, len(boxes), 2)
    kept = boxes.copy()
    kept[gone] = EMPTY
    refit_bvh(tree, kept, gone)
    q = [-1.0, -1.0, -1.0, 9.0, 9.0, 9.0]
    assert visited_box(tree, q) >= set(range(1, len(boxes), 2))
    # Removing every primitive leaves nothing to visit, by any cursor.
    kept[:] = EMPTY
    refit_bvh(tree, kept, np.arange(len(boxes)))
    assert leaves_box(tree, q) == []
    assert walk_ray(tree, kept, (4.0, 4.0, 10.0), (0.0, 0.0, -1.0))[0] == []
    assert walk_ray(tree, kept, (4.0, 4.0, 10.0), (0.0, 0.0, 0.0))[0] == []
    assert walk_nearest(tree, kept, (4.0, 4.0, 1.0))[0] == []


def test_bad_refit_is_refused_and_leaves_the_tree_unchanged():
    boxes = random_boxes(np.random.default_rng(4), 20)
    tree = build_bvh(boxes)
    before = tree.boxes.copy()
    broken = boxes.copy()
    broken[3, 2] = math.nan
    with pytest.raises(ValueError, match="boxes must be finite"):
        refit_bvh(tree, broken)
    with pytest.raises(ValueError, match="one row per primitive"):
        refit_bvh(tree, boxes[:5])
    with pytest.raises(ValueError, match="ids must be in"):
        refit_bvh(tree, boxes, [20])
    assert np.array_equal(tree.boxes, before)


def test_inverse_gives_signed_infinities_for_zero():
    assert inverse(2.0) == 0.5
    assert inverse(0.0) == math.inf and inverse(-0.0) == -math.inf


def test_bytes_per_primitive_stay_below_a_hundred_on_terrain():
    boxes = terrain_boxes(50, 50)
    tree = build_bvh(boxes)
    size = sum(a.nbytes for a in (tree.boxes, tree.links, tree.parents, tree.order,
                                  tree.leaf_of))
    assert size / len(boxes) < 100
    assert bvh.cursor_size(tree) == tree.leaves + 1
