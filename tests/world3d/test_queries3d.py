"""World3D queries, named cases: raycast (the panel article's line of sight), nearest, overlap."""
import math

import numpy as np
import pytest

import sidestep

# The article's panel: a square in the plane z = 5, corners counter-clockwise
# seen from the viewer at the origin looking down +z... seen from -z.
PANEL = [(-1, -1, 5), (-1, 1, 5), (1, 1, 5), (1, -1, 5)]


def panel_world(sides="both"):
    world = sidestep.World3D()
    world.add_panels([PANEL], sides=sides)
    return world


def test_ray_hits_panel_at_plane_intercept():
    world = panel_world()
    hit = world.raycast((0.2, 0.3, 0.0), (0.0, 0.0, 1.0))
    assert hit.hit and hit.obstacle == 0
    assert hit.distance == pytest.approx(5.0)
    np.testing.assert_allclose(hit.point, (0.2, 0.3, 5.0))
    np.testing.assert_allclose(hit.normal, (0.0, 0.0, -1.0))


def test_ray_beside_panel_misses():
    hit = panel_world().raycast((1.5, 0.0, 0.0), (0.0, 0.0, 1.0))
    assert not hit.hit and hit.obstacle == -1 and hit.distance == math.inf


def test_panel_behind_the_viewer_is_not_seen():
    hit = panel_world().raycast((0.0, 0.0, 6.0), (0.0, 0.0, 1.0))
    assert not hit.hit


def test_back_face_is_culled_only_when_asked():
    # Which face is the front: the one from which the corners run counter-clockwise.
    v = np.array(PANEL, float)
    n = np.cross(v[1] - v[0], v[2] - v[0])
    front_z = 10.0 if n[2] > 0 else 0.0
    back_z = 10.0 - front_z
    world = panel_world()
    assert world.raycast((0, 0, front_z), (0, 0, 5.0 - front_z), sides="front").hit
    assert not world.raycast((0, 0, back_z), (0, 0, 5.0 - back_z), sides="front").hit
    assert world.raycast((0, 0, back_z), (0, 0, 5.0 - back_z)).hit
    one_sided = panel_world("front")
    assert not one_sided.raycast((0, 0, back_z), (0, 0, 5.0 - back_z)).hit


def test_concave_panel_notch_lets_the_ray_through():
    # An L-shaped (concave) panel in z = 0: the notch at x, y in (0, 1) is open.
    world = sidestep.World3D()
    world.add_panels([[(-1, -1, 0), (1, -1, 0), (1, 0, 0), (0, 0, 0), (0, 1, 0), (-1, 1, 0)]])
    assert world.raycast((-0.5, 0.5, -1.0), (0, 0, 1)).hit
    assert not world.raycast((0.5, 0.5, -1.0), (0, 0, 1)).hit


def test_ray_starting_inside_a_solid_hits_at_zero():
    world = sidestep.World3D()
    world.add_boxes([(-1, -1, -1)], [(1, 1, 1)])
    hit = world.raycast((0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert hit.hit and hit.distance == 0.0


def test_batch_raycast_equals_one_by_one():
    rng = np.random.default_rng(1)
    world = sidestep.World3D()
    world.add_spheres(rng.uniform(-10, 10, (40, 3)), rng.uniform(0.3, 1.5, 40))
    world.add_boxes(rng.uniform(-10, 8, (20, 3)), rng.uniform(-10, 8, (20, 3)) + 20)
    o = rng.uniform(-15, 15, (600, 3))
    d = rng.normal(size=(600, 3))
    hits = world.raycast(o, d, 30.0)
    for k in range(0, 600, 13):
        one = world.raycast(o[k], d[k], 30.0)
        assert one.obstacle == hits.obstacle[k]
        assert one.distance == hits.distance[k]


def test_nearest_and_clearance_of_each_solid():
    world = sidestep.World3D()
    s = world.add_spheres([(0.0, 0.0, 0.0)], 1.0)[0]
    b = world.add_boxes([(10.0, -1.0, -1.0)], [(12.0, 1.0, 1.0)])[0]
    c = world.add_cylinders([(20.0, -1.0, 0.0)], 1.0, 2.0)[0]
    pts = np.array([(0.0, 3.0, 0.0), (0.0, 0.0, 0.0), (11.0, 0.0, 3.0), (11.0, 0.5, 0.0),
                    (20.0, 0.0, 4.0), (22.5, 0.0, 0.0)])
    near = world.nearest(pts)
    np.testing.assert_array_equal(near.obstacle, [s, s, b, b, c, c])
    np.testing.assert_allclose(near.distance, [2.0, -1.0, 2.0, -0.5, 3.0, 1.5], atol=1e-12)
    np.testing.assert_array_equal(near.part, -1)
    assert world.clearance((0.0, 3.0, 0.0)) == pytest.approx(2.0)


def test_nearest_in_empty_world():
    near = sidestep.World3D().nearest([(0.0, 0.0, 0.0)])
    assert near.obstacle[0] == -1 and near.distance[0] == math.inf
    assert np.all(np.isnan(near.point))


def test_nearest_names_the_mesh_triangle():
    world = sidestep.World3D()
    v = np.array([(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)], float)
    world.add_mesh(v, [(0, 1, 2), (0, 2, 3)])
    near = world.nearest([(0.9, 1.0, 0.1), (0.1, 2.0, 0.9)])
    np.testing.assert_array_equal(near.part, [0, 1])
    np.testing.assert_allclose(near.distance, [1.0, 2.0])


def test_overlapping_lists_touched_obstacles():
    world = sidestep.World3D()
    world.add_spheres([(0, 0, 0), (3, 0, 0)], 1.0)
    assert world.overlapping((1.5, 0, 0), 0.5).tolist() == [0, 1]
    assert world.overlapping((1.5, 0, 0), 0.4).tolist() == []
    # An upright capsule reaches what a sphere of its radius does not.
    world.add_boxes([(-0.5, 3.0, -0.5)], [(0.5, 4.0, 0.5)])
    assert 2 not in world.overlapping((0, 1.5, 0), 0.5).tolist()
    assert 2 in world.overlapping((0, 1.5, 0), 0.5, height=4.0).tolist()


def test_remove_and_translate():
    world = sidestep.World3D()
    door = world.add_boxes([(0, 0, 0)], [(1, 2, 0.2)])[0]
    assert world.raycast((0.5, 1.0, -1.0), (0, 0, 1)).obstacle == door
    world.translate(door, (2.0, 0.0, 0.0))
    assert not world.raycast((0.5, 1.0, -1.0), (0, 0, 1)).hit
    assert world.raycast((2.5, 1.0, -1.0), (0, 0, 1)).obstacle == door
    np.testing.assert_allclose(world.geometry("box")["mins"], [(2, 0, 0)])
    world.remove(door)
    assert not world.raycast((2.5, 1.0, -1.0), (0, 0, 1)).hit
    assert len(world) == 0 and repr(world) == "World3D(0 obstacles)"


def _terrain_with_movers():
    # A mesh floor and one obstacle of every moving family above it.
    world = sidestep.World3D(up="z")
    x, y = np.meshgrid(np.arange(12.0), np.arange(12.0), indexing="ij")
    v = np.column_stack([x.ravel(), y.ravel(), 0.3 * np.sin(x.ravel() / 3)])
    a = (np.arange(11)[:, None] * 12 + np.arange(11)[None, :]).ravel()
    world.add_mesh(v, np.concatenate([np.column_stack([a, a + 12, a + 13]),
                                      np.column_stack([a, a + 13, a + 1])]))
    movers = [world.add_boxes([(2, 2, 1)], [(4, 3, 1.5)])[0],
              world.add_spheres([(6, 6, 2)], [0.5])[0],
              world.add_cylinders([(8, 3, 1)], [0.4], [1.0])[0],
              world.add_panels([[(1, 8, 2), (3, 8, 2), (3, 10, 2), (1, 10, 2)]])[0],
              world.add_mesh(np.array([(5, 8, 3), (7, 8, 3), (6, 10, 3)], float),
                             np.array([[0, 1, 2]]))]
    return world, movers


def test_platforms_moved_every_frame_are_refitted_not_rebuilt():
    # A kinematic platform moved each frame moves its primitives and refits the
    # nodes above them; the hierarchy is the same object, not rebuilt, and every
    # query answers as in a world built with the platforms where they are now.
    world, movers = _terrain_with_movers()
    rng = np.random.default_rng(11)
    o = np.column_stack([rng.uniform(0, 11, (400, 2)), np.full(400, 6.0)])
    d = np.column_stack([rng.normal(0, 0.3, (400, 2)), -np.ones(400)])
    tree = world._store.pack().tree
    step = np.array([0.07, -0.03, 0.02])
    for frame in range(30):
        for oid in movers:
            world.translate(oid, step)
    assert world._store.pack().tree is tree
    fresh, again = _terrain_with_movers()
    for oid in again:
        fresh.translate(oid, 30 * step)
    fresh._store._packed = None                  # built where the platforms are now
    got = world.raycast(o, d, 20.0)
    want = fresh.raycast(o, d, 20.0)
    assert got.hit.sum() == want.hit.sum() and set(got.obstacle) == set(want.obstacle)
    np.testing.assert_allclose(got.distance[got.hit], want.distance[want.hit], atol=1e-12)
    np.testing.assert_array_equal(got.obstacle, want.obstacle)
    p = np.column_stack([rng.uniform(0, 11, (200, 2)), rng.uniform(0.5, 4, 200)])
    np.testing.assert_allclose(world.clearance(p), fresh.clearance(p), atol=1e-12)
    # Dropped onto the box, now 2.1 high at (4.1..6.1, 1.1..2.1): lands on its top.
    landed = world.move((5.1, 1.6, 5.0), (0.0, 0.0, -5.0), radius=0.2)
    assert landed.position[2] == pytest.approx(2.1 + 0.2, abs=1e-5)
    assert landed.contacts[0].obstacle == movers[0]
    np.testing.assert_allclose(landed.position,
                               fresh.move((5.1, 1.6, 5.0), (0.0, 0.0, -5.0), radius=0.2).position,
                               atol=1e-12)


def test_a_platform_moved_far_is_rebuilt_once():
    world, movers = _terrain_with_movers()
    tree = world._store.pack().tree
    world.translate(movers[0], (100.0, 0.0, 0.0))         # farther than the level is wide
    assert world._store.pack().tree is not tree
    assert world.raycast((103.0, 2.5, 5.0), (0.0, 0.0, -1.0)).obstacle == movers[0]


def test_large_batch_cast_in_cell_order_equals_one_by_one():
    # From RAY_ORDER_ROWS rays on, a batch is cast in the order of its
    # origins' cells; every answer must still land at its own ray.
    from sidestep.world3d import RAY_ORDER_ROWS
    rng = np.random.default_rng(5)
    world = sidestep.World3D(up="z")
    x, y = np.meshgrid(np.arange(30.0), np.arange(30.0), indexing="ij")
    v = np.column_stack([x.ravel(), y.ravel(), np.sin(x.ravel() / 4) + np.cos(y.ravel() / 5)])
    a = (np.arange(29)[:, None] * 30 + np.arange(29)[None, :]).ravel()
    world.add_mesh(v, np.concatenate([np.column_stack([a, a + 30, a + 31]),
                                      np.column_stack([a, a + 31, a + 1])]))
    crate = world.add_boxes([(10.0, 10.0, 0.0)], [(12.0, 12.0, 4.0)])[0]
    n = RAY_ORDER_ROWS + 500
    o = np.column_stack([rng.uniform(0, 29, (n, 2)), rng.uniform(3, 8, n)])
    d = np.column_stack([rng.normal(0, 0.5, (n, 2)), -np.ones(n)])
    hits = world.raycast(o, d, 50.0)
    assert hits.hit.mean() > 0.8 and crate in hits.obstacle     # some leave over the edge
    for k in range(0, n, 97):
        one = world.raycast(o[k], d[k], 50.0)
        assert (one.obstacle, one.part, one.distance) == \
            (hits.obstacle[k], hits.part[k], hits.distance[k])
        np.testing.assert_array_equal(one.normal, hits.normal[k])
        np.testing.assert_array_equal(one.point, hits.point[k])


def test_removed_and_moved_meshes_are_cast_where_they_are():
    world = sidestep.World3D(up="z")
    square = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    low = world.add_mesh(np.array(square, float), np.array([[0, 1, 2], [0, 2, 3]]))
    high = world.add_mesh(np.array(square, float) + (0, 0, 2), np.array([[0, 1, 2], [0, 2, 3]]))
    down = world.raycast((0.3, 0.6, 5.0), (0.0, 0.0, -1.0))
    assert down.obstacle == high and down.distance == pytest.approx(3.0)
    world.remove(high)
    down = world.raycast((0.3, 0.6, 5.0), (0.0, 0.0, -1.0))
    assert down.obstacle == low and down.distance == pytest.approx(5.0) and down.part == 1
    world.translate(low, (0.0, 0.0, 1.0))
    assert world.raycast((0.3, 0.6, 5.0), (0.0, 0.0, -1.0)).distance == pytest.approx(4.0)


def test_a_mesh_level_casts_like_a_level_that_also_holds_other_families():
    # A world of triangles only takes the triangle-only ray kernel; adding a
    # sphere far away sends the same rays through the general one: the same
    # answers, bit for bit, in the callers' order (a batch big enough to be
    # cast in cell order).
    rng = np.random.default_rng(7)
    g = np.arange(40.0)
    x, y = np.meshgrid(g, g, indexing="ij")
    vertices = np.column_stack([x.ravel(), y.ravel(), np.sin(x.ravel() / 5) * np.cos(y.ravel() / 7)])
    quads = (np.arange(39)[:, None] * 40 + np.arange(39)[None, :]).ravel()
    triangles = np.vstack([np.column_stack([quads, quads + 40, quads + 41]),
                           np.column_stack([quads, quads + 41, quads + 1])])
    mesh_only = sidestep.World3D(up="z")
    mesh_only.add_mesh(vertices, triangles)
    mixed = sidestep.World3D(up="z")
    mixed.add_mesh(vertices, triangles)
    mixed.add_spheres([(500.0, 500.0, 500.0)], 1.0)
    origins = rng.uniform((0, 0, 1), (39, 39, 5), (6000, 3))
    directions = rng.normal(size=(6000, 3))
    a = mesh_only.raycast(origins, directions, 30.0, sides="front")
    b = mixed.raycast(origins, directions, 30.0, sides="front")
    assert 1000 < a.hit.sum() < 6000
    for name in ("hit", "distance", "normal", "obstacle", "point", "part"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=name == "point"), name
    one = mesh_only.raycast(origins[123], directions[123], 30.0, sides="front")
    assert one.distance == a.distance[123] and one.obstacle == a.obstacle[123]
