"""World2D.query and World3D.query against a scalar check of every obstacle."""
import math

import numpy as np

import sidestep
from sidestep.volumes import Box, Capsule, Frustum, Sphere


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


def test_draw_query_draws_the_wedge_and_the_states():
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from sidestep import plot
    world = sidestep.World2D()
    world.add_circles([(5, 0), (10, 0), (0, 9)], 1.0)
    world.add_boxes([(3, -1)], [(4, 1)])
    ax = Figure().subplots()
    q = plot.draw_query(ax, world, Frustum.wedge((0, 0), (1, 0), 1.0, 1.0, 10.0))
    assert q.obstacle.tolist() == [0, 1, 3] and q.state.tolist() == [2, 1, 2]
    assert len(ax.patches) >= 4


def test_query_reports_voxel_tables_and_heightfields_by_their_bounding_box():
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
    from sidestep.volumes import Ray, batch

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
