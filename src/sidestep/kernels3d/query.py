"""Which obstacles of a packed 3D world a bounding volume touches, and how.

The kernels of ``World3D.query``. Each primitive of the world
(:class:`~sidestep.kernels3d.world.Packed3D`) has an exact state against the
volume (:func:`primitive_state`): spheres and boxes through the batch tests
of :mod:`~sidestep.kernels3d.culling`, mesh triangles and panels as flat
polytopes, a heightfield's ground triangles as the prisms of solid under
them (:mod:`~sidestep.kernels3d.pieces`), all through
:func:`~sidestep.kernels3d.volumes.contains`; a cylinder by its bounding
box (conservative: it errs towards INTERSECTS). A panel of more than three
corners is the fan of triangles from its first corner: exact for a convex
panel; a concave one may be reported touching where only the hull of its
corners does (its CONTAINS is exact either way: a convex volume holds a
polygon when it holds its corners).

An obstacle of many primitives is one id: CONTAINS when every primitive is
contained, DISJOINT when none touches, INTERSECTS otherwise. Per obstacle
the kernels write ``state`` (1 once any primitive touches) and ``held``
(how many of its primitives are contained); the caller compares ``held``
with the obstacle's count of primitives.

:func:`query_tree` walks the bounding volume hierarchy: a node whose box
lies beyond one plane of a polytope volume (by more than the tolerance and
a rounding ``margin``) is skipped with everything under it, one inside
every plane (by the margin) has all its primitives contained, without a
test each; against a rounded volume or a ray a node outside the volume's
bounding box (grown by its radius, the tolerance and the margin) is
skipped. With the margin larger than any rounding of a primitive's own
test, the answers are those of :func:`query_scan`, which tests every
primitive: the tests' reference.
"""
import numpy as np
from numba import njit

from . import culling
from . import volumes as kv
from . import world as _kw
from .pieces import pack_box, pack_framed_box, pack_prism, pack_sphere, pack_triangle


@njit(cache=True, inline="always")
def _corner(world, first, i):
    v = world.vertices[world.loop[first + i]]
    return (v[0], v[1], v[2])


@njit(cache=True)
def primitive_state(world, e, a, prep, tol, item, work):
    """The state of primitive ``e`` against packed volume ``a`` (``prep`` its prepared form
    when ``a`` is a polytope). ``item (PACKED,)`` and ``work (2, PACKED)`` are scratch."""
    world = _kw.borrowed(world)
    k = world.kind[e]
    p = world.params[e]
    polytope = a[kv.KIND] == kv.POLYTOPE
    if k == _kw.PRIM_SPHERE:
        if polytope:
            return culling.sphere_state(prep, a, p[0], p[1], p[2], p[3], tol)
        if a[kv.KIND] == kv.ROUNDED:
            return culling.rounded_sphere_state(a, p[0], p[1], p[2], p[3], tol)
        pack_sphere(item, p[0], p[1], p[2], p[3])
        return kv.contains(a, item, tol, work)
    if k == _kw.PRIM_BOX or k == _kw.PRIM_CYLINDER:
        if k == _kw.PRIM_BOX:
            lx, ly, lz, hx, hy, hz = p[0], p[1], p[2], p[3], p[4], p[5]
        else:
            # The cylinder's bounding box, as primitive_boxes finds it.
            axis = int(p[3])
            lx = p[0] if axis == 0 else p[0] - p[4]
            ly = p[1] if axis == 1 else p[1] - p[4]
            lz = p[2] if axis == 2 else p[2] - p[4]
            hx = p[0] + p[5] if axis == 0 else p[0] + p[4]
            hy = p[1] + p[5] if axis == 1 else p[1] + p[4]
            hz = p[2] + p[5] if axis == 2 else p[2] + p[4]
        f = _kw.frame_of(p)
        if f >= 0:
            # In a turned body: the oriented box (a cylinder's, around it), exact
            # through the general test.
            pack_framed_box(item, world.vertices, f, lx, ly, lz, hx, hy, hz)
            return kv.contains(a, item, tol, work)
        if polytope:
            return culling.box_state(prep, a, lx, ly, lz, hx, hy, hz, tol)
        pack_box(item, lx, ly, lz, hx, hy, hz)
        return kv.contains(a, item, tol, work)
    first = int(p[_kw.P_FIRST])
    count = int(p[_kw.P_COUNT])
    v0 = _corner(world, first, 0)
    if p[_kw.P_GROUND] != 0.0:
        pack_prism(item, v0, _corner(world, first, 1), _corner(world, first, 2),
                   int(p[_kw.P_GROUND]) - 1, p[_kw.P_FLOOR])
        return kv.contains(a, item, tol, work)
    # A triangle, or a panel's fan of triangles from its first corner.
    held = True
    touched = False
    for i in range(1, count - 1):
        pack_triangle(item, v0, _corner(world, first, i), _corner(world, first, i + 1))
        s = kv.contains(a, item, tol, work)
        held &= s == kv.CONTAINS
        touched |= s != kv.DISJOINT
    if held:
        return kv.CONTAINS
    return kv.INTERSECTS if touched else kv.DISJOINT


@njit(cache=True, inline="always")
def _record(o, s, state, held, found, n):
    # Add primitive state s to obstacle o: touched (state 1), and its count of
    # held primitives; an obstacle touched for the first time joins found[:n].
    # Returns the new n. (The caller makes it CONTAINS when every primitive is
    # held: counting here, not looking up how many it has, spares a scattered
    # read per primitive.)
    if s == kv.DISJOINT:
        return n
    if state[o] == kv.DISJOINT:
        found[n] = o
        n += 1
        held[o] = 0
        state[o] = kv.INTERSECTS
    if s == kv.CONTAINS:
        held[o] += 1
    return n


@njit(cache=True)
def query_scan(world, a, prep, tol, state, held, found):
    """Every live primitive's state against ``a``, recorded per obstacle (no hierarchy).

    ``state (ids,) int8`` zeros on entry, 1 after for each touched obstacle;
    ``held (ids,) int32`` how many of a touched obstacle's primitives are
    contained (set for the touched ones only: no need to clear it);
    ``found (ids,) int64`` receives the touched obstacles, in no order.
    Returns how many there are. An obstacle is CONTAINS when all its
    primitives are held.
    """
    world = _kw.borrowed(world)
    item = np.zeros(kv.PACKED)
    work = np.empty((2, kv.PACKED))
    n = 0
    for e in range(world.kind.shape[0]):
        if not _kw.prim_alive(world, e):
            continue
        o = world.owner[e]
        n = _record(o, primitive_state(world, e, a, prep, tol, item, work), state, held,
                    found, n)
    return n


@njit(cache=True)
def _node_planes(prep, boxes, node, tol, margin):
    # A node's box against a prepared polytope's planes: 0 beyond one (by tol +
    # margin), 2 inside every face (by margin), 1 otherwise.
    faces = int(prep[culling.P_FACES])
    inside = True
    for j in range(6):
        k = culling.P_PLANES + 4 * j
        nx = prep[k]
        ny = prep[k + 1]
        nz = prep[k + 2]
        lx, ly, lz = boxes[node, 0], boxes[node, 1], boxes[node, 2]
        hx, hy, hz = boxes[node, 3], boxes[node, 4], boxes[node, 5]
        near = nx * (lx if nx >= 0.0 else hx) + ny * (ly if ny >= 0.0 else hy) \
            + nz * (lz if nz >= 0.0 else hz)
        if near - prep[k + 3] > tol + margin:
            return 0
        far = nx * (hx if nx >= 0.0 else lx) + ny * (hy if ny >= 0.0 else ly) \
            + nz * (hz if nz >= 0.0 else lz)
        if j < faces and far - prep[k + 3] > tol - margin:
            inside = False
    return 2 if inside else 1


@njit(cache=True)
def _subtree_range(tree, node):
    # Rows [first, stop) of tree.order under node: its leaves hold consecutive rows.
    left = node
    while tree.links[left, 1] == 0:
        left = tree.links[left, 0]
    right = node
    while tree.links[right, 1] == 0:
        right = tree.links[right, 0] + 1
    return tree.links[left, 0], tree.links[right, 0] + tree.links[right, 1]


@njit(cache=True)
def query_tree(world, a, prep, lo, hi, tol, margin, state, held, found):
    """As :func:`query_scan`, through the hierarchy (see the module docstring).

    ``lo, hi (3,)``: the box outside which nothing touches ``a`` (infinite
    for a polytope, whose planes prune instead); ``margin`` (world units)
    exceeds the rounding of any primitive's test.
    """
    world = _kw.borrowed(world)
    tree = world.tree
    n = 0
    if tree.order.shape[0] == 0:
        return n
    boxes = tree.boxes
    polytope = a[kv.KIND] == kv.POLYTOPE
    item = np.zeros(kv.PACKED)
    work = np.empty((2, kv.PACKED))
    stack = np.empty(tree.depth + 2, dtype=np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if (boxes[node, 0] > hi[0] or boxes[node, 3] < lo[0] or boxes[node, 1] > hi[1]
                or boxes[node, 4] < lo[1] or boxes[node, 2] > hi[2] or boxes[node, 5] < lo[2]
                or boxes[node, 0] > boxes[node, 3]):
            continue
        whole = 1
        if polytope:
            whole = _node_planes(prep, boxes, node, tol, margin)
            if whole == 0:
                continue
        if whole == 2:
            first, stop = _subtree_range(tree, node)
            for r in range(first, stop):
                e = tree.order[r]
                if _kw.prim_alive(world, e):
                    o = world.owner[e]
                    n = _record(o, kv.CONTAINS, state, held, found, n)
            continue
        count = tree.links[node, 1]
        if count > 0:
            first = tree.links[node, 0]
            for r in range(first, first + count):
                e = tree.order[r]
                if _kw.prim_alive(world, e):
                    o = world.owner[e]
                    n = _record(o, primitive_state(world, e, a, prep, tol, item, work),
                                state, held, found, n)
            continue
        left = tree.links[node, 0]
        stack[top] = left + 1
        stack[top + 1] = left
        top += 2
    return n


def margin(scale):
    """A rounding margin (world units) for coordinates up to ``scale`` in magnitude.

    A plane test ``n . x - d`` rounds by a few units in the last place of
    its largest term (about 1e-15 of the scale); 1e-12 of the scale is a
    thousand times that. It only widens the band of nodes opened rather
    than settled whole.
    """
    return 1e-12 * (1.0 + scale)
