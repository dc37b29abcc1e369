"""World2D.query and World3D.query: against scalar checks, against the scan, named cases."""
import math

import numpy as np
from hypothesis import given, settings, strategies as st

import sidestep
from sidestep.volumes import Box, Capsule, Containment, Frustum, Point, Ray, Segment, Sphere
from sidestep.volumes.query import query_2d, query_3d, scan_2d, scan_3d


def test_query_2d_against_every_obstacle():
    rng = np.random.default_rng(3)
    world = sidestep.World2D()
    c = rng.uniform(-20, 20, (300, 2))
    r = rng.uniform(0.1, 1.5, 300)
    circles = world.add_circles(c, r)
    lo = rng.uniform(-20, 20, (200, 2))
    hi = lo + rng.uniform(0.1, 3, (200, 2))
    boxes = world.add_boxes(lo, hi)
    s = rng.uniform(-20, 20, (100, 2))
    walls = world.add_walls(s, s + rng.uniform(-3, 3, (100, 2)), clearance=0.2)
    poly = world.add_polygon([(5, 5), (7, 5), (6, 8)])
    wedge = Frustum.wedge((0, 0), (1, 0.3), 1.0, 1.0, 15.0)
    q = world.query(wedge)
    want = {}
    for i, a, b in zip(circles, c, r):
        want[i] = wedge.contains(Sphere(a, b))
    for i, a, b in zip(boxes, lo, hi):
        want[i] = wedge.contains(Box(a, b))
    g = world.geometry("wall")
    for i, a, b in zip(g["ids"], g["starts"], g["ends"]):
        want[i] = wedge.contains(Capsule(a, b, 0.2))
    want[int(np.ravel(poly)[0])] = wedge.contains(Box((5, 5), (7, 8)))
    want = {k: v for k, v in want.items() if v}
    assert q.obstacle.tolist() == sorted(want)
    assert q.state.tolist() == [want[k] for k in sorted(want)]
    assert {1, 2} <= set(q.state.tolist())


def test_query_3d_against_every_obstacle():
    rng = np.random.default_rng(4)
    world = sidestep.World3D()
    c = rng.uniform(-30, 30, (400, 3))
    r = rng.uniform(0.1, 2, 400)
    spheres = world.add_spheres(c, r)
    lo = rng.uniform(-30, 30, (400, 3))
    hi = lo + rng.uniform(0.1, 4, (400, 3))
    boxes = world.add_boxes(lo, hi)
    f = Frustum.perspective((0, 0, 0), (1, 0.2, 0.1), (0, 0, 1), math.pi / 3, 1.5, 0.5, 25.0)
    q = world.query(f)
    want = {i: f.contains(Sphere(a, b)) for i, a, b in zip(spheres, c, r)}
    want.update({i: f.contains(Box(a, b)) for i, a, b in zip(boxes, lo, hi)})
    want = {k: v for k, v in want.items() if v}
    assert q.obstacle.tolist() == sorted(want)
    assert q.state.tolist() == [want[k] for k in sorted(want)]
    assert q.obstacle.dtype == np.int64 and q.state.dtype == np.int8


# --- Through the broadphase: the same answers as testing every obstacle --------------

def _around(volume):
    """A box around the volume's boundary (where the broadphase must get it right)."""
    if isinstance(volume, Frustum):
        pts = np.array(volume.corners)
    elif isinstance(volume, Box):
        pts = np.array([volume.min, volume.max])
    elif isinstance(volume, Ray):
        pts = np.array([volume.origin, np.add(volume.origin, np.multiply(volume.direction, 15))])
    else:
        start = getattr(volume, "start", getattr(volume, "center", getattr(volume, "position",
                                                                           None)))
        end = getattr(volume, "end", start)
        r = getattr(volume, "radius", 0.0)
        pts = np.array([np.subtract(start, r), np.add(start, r), np.subtract(end, r),
                        np.add(end, r)])
    return pts.min(axis=0) - 2.0, pts.max(axis=0) + 2.0


def _on_boundary(volume, rng, n):
    """Points on the boundary of a 3D frustum or box, or near a rounded volume's surface."""
    if isinstance(volume, (Frustum, Box)):
        if isinstance(volume, Box):
            lo, hi = volume.min, volume.max
            corners = np.array([[hi[j] if (i >> j) & 1 else lo[j] for j in range(3)]
                                for i in range(8)])
        else:
            corners = np.array(volume.corners)
        bit, side = rng.integers(0, 3, n), rng.integers(0, 2, n)
        u, v = rng.uniform(0, 1, (2, n, 1))
        out = np.zeros((n, 3))
        for k, (b, s) in enumerate(zip(bit, side)):
            others = [x for x in range(3) if x != b]
            face = [corners[(s << b) | (i << others[0]) | (j << others[1])]
                    for i, j in ((0, 0), (1, 0), (0, 1), (1, 1))]
            out[k] = ((1 - u[k]) * ((1 - v[k]) * face[0] + v[k] * face[2])
                      + u[k] * ((1 - v[k]) * face[1] + v[k] * face[3]))
        return out
    lo, hi = _around(volume)
    return rng.uniform(lo, hi, (n, 3))


def _world_3d(rng, up, lo, hi, volume):
    world = sidestep.World3D(up=up)
    c = np.vstack([rng.uniform(lo, hi, (300, 3)), _on_boundary(volume, rng, 200)])
    world.add_spheres(c, rng.uniform(0, 1.5, 500) * rng.choice([0, 0.01, 1], 500))
    b = rng.uniform(lo, hi, (200, 3))
    world.add_boxes(b, b + rng.uniform(0, 2, (200, 3)))
    world.add_cylinders(rng.uniform(lo, hi, (20, 3)), 0.5, 2.0)
    v = rng.uniform(lo, hi, (12, 3))
    tri = np.array([(i, (i + 1) % 12, (i + 5) % 12) for i in range(12)])
    world.add_mesh(v, tri)
    p = rng.uniform(lo, hi, 3)
    world.add_panels([[p, p + (4, 0, 0), p + (4, 3, 1), p + (0, 3, 1)]])
    world.add_voxels(rng.uniform(size=(5, 4, 3)) < 0.4, 1.5, rng.uniform(lo, hi))
    world.add_heightfield(rng.uniform(-1, 1, (6, 7)), 2.0, rng.uniform(lo, hi))
    world.remove(rng.choice(700, 10, replace=False))
    return world


def _volume_3d(rng, kind):
    p = rng.uniform(-10, 10, 3)
    return {
        "frustum": lambda: Frustum.perspective(p, p + rng.normal(size=3), (0, 1, 0),
                                               rng.uniform(0.3, 2), rng.uniform(0.5, 2),
                                               rng.uniform(0.1, 2), rng.uniform(5, 30)),
        "box": lambda: Box(p, p + rng.uniform(0, 15, 3)),
        "sphere": lambda: Sphere(p, rng.uniform(0, 12)),
        "capsule": lambda: Capsule(p, p + rng.normal(size=3) * 8, rng.uniform(0, 4)),
        "ray": lambda: Ray(p, rng.normal(size=3)),
        "point": lambda: Point(p),
    }[kind]()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from(["x", "y", "z"]),
       st.sampled_from(["frustum", "frustum", "box", "sphere", "capsule", "ray", "point"]))
def test_query_3d_through_the_tree_equals_the_scan(seed, up, kind):
    # Obstacles crowd the volume's boundary: subtrees there are neither all
    # inside nor all outside, and a wrong skip or a wrong whole accept shows.
    rng = np.random.default_rng(seed)
    volume = _volume_3d(rng, kind)
    world = _world_3d(rng, up, *_around(volume), volume)
    got, want = query_3d(world, volume), scan_3d(world, volume)
    assert got.obstacle.tolist() == want.obstacle.tolist()
    assert got.state.tolist() == want.state.tolist()
    assert len(got.obstacle) or kind in ("ray", "point")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32 - 1),
       st.sampled_from(["wedge", "wedge", "box", "sphere", "capsule", "ray", "segment"]))
def test_query_2d_through_the_grid_equals_the_scan(seed, kind):
    rng = np.random.default_rng(seed)
    p = rng.uniform(-15, 15, 2)
    volume = {
        "wedge": lambda: Frustum.wedge(p, rng.normal(size=2), rng.uniform(0.01, 3.0),
                                       rng.uniform(0.1, 2), rng.uniform(3, 30)),
        "box": lambda: Box(p, p + rng.uniform(0, 10, 2)),
        "sphere": lambda: Sphere(p, rng.uniform(0, 10)),
        "capsule": lambda: Capsule(p, p + rng.normal(size=2) * 8, rng.uniform(0, 3)),
        "ray": lambda: Ray(p, rng.normal(size=2)),
        "segment": lambda: Segment(p, p + rng.normal(size=2) * 10),
    }[kind]()
    lo, hi = _around(volume)
    world = sidestep.World2D()
    world.add_circles(rng.uniform(lo, hi, (300, 2)), rng.uniform(0.1, 1.0, 300))
    b = rng.uniform(lo, hi, (200, 2))
    world.add_boxes(b, b + rng.uniform(0.1, 1.5, (200, 2)))
    s = rng.uniform(lo, hi, (50, 2))
    world.add_walls(s, s + rng.uniform(-3, 3, (50, 2)), clearance=0.2)
    q = rng.uniform(lo, hi)
    world.add_polygon([q, q + (2, 0), q + (1, 3)])
    world.add_grid(rng.uniform(size=(8, 9)) < 0.3, 0.7, rng.uniform(lo, hi))
    world.remove(rng.choice(550, 10, replace=False))
    got, want = query_2d(world, volume), scan_2d(world, volume)
    assert got.obstacle.tolist() == want.obstacle.tolist()
    assert got.state.tolist() == want.state.tolist()


# --- Meshes, panels, voxels, heightfields: exact, named cases -------------------------

VIEW = Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), math.pi / 2, 1.0, 1.0, 10.0)
# looks down -z from the origin: z in [-10, -1], |x|, |y| <= -z


def _state_of(world, volume, oid):
    q = world.query(volume)
    hit = dict(zip(q.obstacle.tolist(), q.state.tolist()))
    return hit.get(int(oid), Containment.DISJOINT)


def test_mesh_is_its_triangles_not_its_box():
    world = sidestep.World3D()
    inside = world.add_mesh([(0, 0, -4), (1, 0, -4), (0, 1, -5)], [(0, 1, 2)])
    crossing = world.add_mesh([(0, 0, -4), (0, 0, -20), (1, 1, -4)], [(0, 1, 2)])
    # A triangle in the plane y = 1 beside the view's far right edge (x = -z,
    # z = -10): it keeps x - z >= 22.5, where the view has x - z <= 20; its
    # box reaches into the view.
    beside = world.add_mesh([(13, 1, -9.5), (9.5, 1, -13), (13, 1, -13)], [(0, 1, 2)])
    # Two triangles, one seen, one far behind: one obstacle, partly seen.
    split = world.add_mesh([(0, 0, -3), (1, 0, -3), (0, 1, -3), (0, 0, 30), (1, 0, 30),
                            (0, 1, 30)], [(0, 1, 2), (3, 4, 5)])
    assert _state_of(world, VIEW, inside) == Containment.CONTAINS
    assert _state_of(world, VIEW, crossing) == Containment.INTERSECTS
    assert VIEW.intersects(Box((9.5, 1, -13), (13, 1, -9.5)))
    assert _state_of(world, VIEW, beside) == Containment.DISJOINT
    assert _state_of(world, VIEW, split) == Containment.INTERSECTS


def test_closed_mesh_is_a_surface():
    # A cube's six faces around the whole view: no face is seen.
    world = sidestep.World3D()
    v = np.array([[x, y, z] for z in (-50, 50) for y in (-50, 50) for x in (-50, 50)], float)
    faces = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
             (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    cube = world.add_mesh(v, faces)
    assert _state_of(world, VIEW, cube) == Containment.DISJOINT
    assert _state_of(world, Box((-60, -60, -60), (60, 60, 60)), cube) == Containment.CONTAINS
    assert _state_of(world, Box((40, 40, 40), (60, 60, 60)), cube) == Containment.INTERSECTS


def test_concave_panel_answers_by_its_fan():
    # An L-shaped panel: contained when its corners are, touching when a fan
    # triangle touches (exact for its convex parts).
    world = sidestep.World3D()
    ell = world.add_panels([[(0, 0, -5), (2, 0, -5), (2, 0.5, -5), (0.5, 0.5, -5),
                             (0.5, 2, -5), (0, 2, -5)]])[0]
    assert _state_of(world, VIEW, ell) == Containment.CONTAINS
    assert _state_of(world, Box((1.9, 0.4, -6), (3, 1, -4)), ell) == Containment.INTERSECTS
    assert _state_of(world, Box((2.1, 0, -6), (3, 1, -4)), ell) == Containment.DISJOINT


def test_voxels_are_their_blocked_cells():
    # An L of three blocked cells (unit size at the origin) and the empty fourth.
    world = sidestep.World3D()
    table = np.zeros((2, 2, 1), bool)
    table[0, 0, 0] = table[1, 0, 0] = table[0, 1, 0] = True
    ell = world.add_voxels(table, 1.0, (0, 0, 0))
    cases = [
        ("box in the empty cell", Box((1.2, 1.2, 0.2), (1.8, 1.8, 0.8)), Containment.DISJOINT),
        ("box touching the empty cell's wall", Box((1.0, 1.2, 0.2), (1.8, 1.8, 0.8)),
         Containment.INTERSECTS),
        ("box around all of it", Box((-1, -1, -1), (3, 3, 2)), Containment.CONTAINS),
        ("box around two cells", Box((-1, -1, -1), (3, 0.9, 2)), Containment.INTERSECTS),
        ("sphere in the empty cell's corner", Sphere((1.9, 1.9, 0.5), 0.1),
         Containment.DISJOINT),
        ("point inside a cell", Point((0.5, 0.5, 0.5)), Containment.INTERSECTS),
    ]
    for name, volume, want in cases:
        assert _state_of(world, volume, ell) == want, name


def test_heightfield_is_solid_under_its_surface():
    # Up z; a ridge along x at y = 2 (height 2), zero elsewhere; cells of 2.
    world = sidestep.World3D(up="z")
    heights = np.zeros((3, 3))
    heights[1, :] = 2.0
    hill = world.add_heightfield(heights, 2.0, (0, 0, 0))
    floor = -4.0      # min(heights) - max(width 4, span 2)
    cases = [
        ("box in the air above the ridge", Box((1, 1.5, 2.2), (3, 2.5, 3)), Containment.DISJOINT),
        ("box under the slope, in the air", Box((1, 0.2, 1.1), (3, 0.4, 1.5)),
         Containment.DISJOINT),
        ("box underground", Box((1, 1, -2), (3, 3, -1)), Containment.INTERSECTS),
        ("box below the floor", Box((1, 1, -5), (3, 3, floor - 0.1)), Containment.DISJOINT),
        ("box around the terrain", Box((-1, -1, floor - 1), (5, 5, 3)), Containment.CONTAINS),
        ("sphere resting on the ridge", Sphere((2, 2, 3), 1.0), Containment.INTERSECTS),
        ("view from high up, looking up", Frustum.perspective((2, 2, 10), (2, 2, 20), (0, 1, 0),
                                                              1.0, 1.0, 0.5, 50),
         Containment.DISJOINT),
        ("narrow view from high up, looking down", Frustum.perspective(
            (2, 2, 10), (2, 2, 0), (0, 1, 0), 0.1, 1.0, 0.5, 50), Containment.INTERSECTS),
        ("wide view from high up, looking down", Frustum.perspective(
            (2, 2, 10), (2, 2, 0), (0, 1, 0), 1.0, 1.0, 0.5, 50), Containment.CONTAINS),
    ]
    for name, volume, want in cases:
        assert _state_of(world, volume, hill) == want, name


def test_2d_polygon_is_its_outline_not_its_box():
    world = sidestep.World2D()
    u = world.add_polygon([(0, 0), (6, 0), (6, 6), (4, 6), (4, 2), (2, 2), (2, 6), (0, 6)])
    cases = [
        ("box in the U's notch", Box((2.5, 3), (3.5, 5)), Containment.DISJOINT),
        ("box in the U's base, touching no edge", Box((1, 0.5), (5, 1.5)),
         Containment.INTERSECTS),
        ("circle in an arm", Sphere((1, 4), 0.5), Containment.INTERSECTS),
        ("box touching the notch's floor", Box((2.5, 2), (3.5, 5)), Containment.INTERSECTS),
        ("box around it all", Box((-1, -1), (7, 7)), Containment.CONTAINS),
        ("wedge from the notch, up", Frustum.wedge((3, 2.5), (0, 1), 0.3, 0.1, 10),
         Containment.DISJOINT),
        ("wedge from the notch, down", Frustum.wedge((3, 2.5), (0, -1), 0.3, 0.1, 10),
         Containment.INTERSECTS),
    ]
    for name, volume, want in cases:
        assert _state_of(world, volume, u) == want, name


def test_2d_grid_is_its_blocked_cells():
    world = sidestep.World2D()
    checker = world.add_grid([[1, 0], [0, 1]], 1.0, (0, 0))     # cells (0..1, 0..1), (1..2, 1..2)
    empty = world.add_grid([[0, 0]], 1.0, (5, 5))
    cases = [
        ("box in a free cell", Box((1.2, 0.2), (1.8, 0.8)), Containment.DISJOINT),
        ("box in a blocked cell", Box((0.2, 0.2), (0.8, 0.8)), Containment.INTERSECTS),
        ("box around both blocked cells", Box((0, 0), (2, 2)), Containment.CONTAINS),
        ("circle in the free corner", Sphere((1.8, 0.2), 0.1), Containment.DISJOINT),
    ]
    for name, volume, want in cases:
        assert _state_of(world, volume, checker) == want, name
    assert _state_of(world, Box((4, 4), (8, 8)), empty) == Containment.DISJOINT


def test_query_reports_voxel_tables_and_heightfields():
    world = sidestep.World3D()
    blocked = np.zeros((4, 3, 5), bool)
    blocked[1:3, 0:2, 2:4] = True                  # cells x 1-2, y 0-1, z 2-3
    vox = world.add_voxels(blocked, cell_size=0.5, origin=(10.0, 0.0, 0.0))
    ground = world.add_heightfield(np.array([[0.0, 0.5], [1.0, 0.2]]), cell_size=2.0,
                                   origin=(-20.0, 0.0, -20.0))
    # The blocked cells span x 10.5-11.5, y 0-1, z 1-2.
    assert world.query(Box((10.4, -1, 0.9), (11.6, 2, 2.1))).state.tolist() == [2]
    assert world.query(Box((11.0, 0.5, 1.5), (12, 3, 3))).obstacle.tolist() == [vox]
    assert world.query(Box((9.0, 0, 0), (10.4, 1, 1))).obstacle.tolist() == []
    # Under the terrain's surface (solid below it) but above its floor: touched.
    q = world.query(Sphere((-19.0, -1.0, -19.0), 0.2))
    assert q.obstacle.tolist() == [ground] and q.state.tolist() == [1]
    assert world.query(Sphere((-19.0, 5.0, -19.0), 0.2)).obstacle.tolist() == []


def test_query_3d_through_the_hierarchy_finds_what_testing_every_obstacle_finds():
    from sidestep.volumes import batch

    rng = np.random.default_rng(9)
    world = sidestep.World3D()
    c = rng.uniform(-500, 500, (5000, 3))
    r = rng.uniform(0.5, 5.0, 5000)
    ids = world.add_spheres(c, r)
    world.remove(ids[::7])
    alive = np.ones(5000, bool)
    alive[::7] = False
    for volume in (Frustum.perspective((0, 0, 0), (1, 0.2, 0), (0, 0, 1), 1.0, 1.5, 1.0, 300.0),
                   Sphere((100, 100, 0), 150.0), Ray((0, 0, 0), c[1])):
        q = world.query(volume)
        every = batch.contains_spheres(volume, c, r)
        want = np.flatnonzero((every != 0) & alive)
        assert q.obstacle.tolist() == ids[want].tolist()
        assert q.state.tolist() == every[want].tolist()
        assert len(want) > 0
