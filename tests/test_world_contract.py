"""Contract tests run over every obstacle family at once: shapes, dtypes, misses, bad input."""
import numpy as np
import pytest

import sidestep
from worlds import FAMILIES, make_world

import oracle


@pytest.fixture(params=FAMILIES + ("mixed",))
def world(request):
    families = FAMILIES if request.param == "mixed" else (request.param,)
    return make_world(families, seed=FAMILIES.index(families[0]) + 10)


def test_ids_are_distinct_and_live(world):
    ids = world.ids
    assert ids.dtype == np.int64 and len(np.unique(ids)) == len(ids) == len(world)
    assert all(i in world for i in ids)


def test_clearance_matches_brute_force(world):
    rng = np.random.default_rng(1)
    pts = rng.uniform(-5, 25, (400, 2))
    got = world.clearance(pts)
    assert got.shape == (400,) and got.dtype == np.float64
    np.testing.assert_allclose(got, oracle.clearance(world, pts), atol=1e-9)


def test_nearest_fields_agree(world):
    rng = np.random.default_rng(2)
    pts = rng.uniform(-5, 25, (200, 2))
    near = world.nearest(pts)
    assert near.obstacle.shape == (200,) and near.point.shape == (200, 2)
    cols = oracle.signed_distances(world, pts)
    for k in range(200):
        # The reported obstacle is one of the nearest, and its surface point is that far.
        assert cols[int(near.obstacle[k])][k] == pytest.approx(near.distance[k], abs=1e-9)
        gap = np.hypot(*(pts[k] - near.point[k]))
        assert gap == pytest.approx(abs(near.distance[k]), abs=1e-9)


def test_single_point_clearance_is_a_float(world):
    assert isinstance(world.clearance((1.0, 2.0)), float)


def test_overlapping_matches_brute_force(world):
    rng = np.random.default_rng(3)
    cols = None
    for p in rng.uniform(-2, 22, (60, 2)):
        r = float(rng.choice([0.0, 0.5, 2.0]))
        got = world.overlapping(p, r)
        cols = oracle.signed_distances(world, p[None, :])
        want = sorted(i for i, d in cols.items() if d[0] <= r)
        assert got.tolist() == want


def test_raycast_agrees_with_sampling(world):
    rng = np.random.default_rng(4)
    o = rng.uniform(-3, 23, (100, 2))
    ang = rng.uniform(0, 2 * np.pi, 100)
    d = np.column_stack([np.cos(ang), np.sin(ang)])
    hits = world.raycast(o, d, 30.0)
    for k in range(100):
        ts = np.linspace(0, 30.0, 3001)
        inside = oracle.clearance(world, o[k] + ts[:, None] * d[k]) <= 0.0
        first = ts[np.argmax(inside)] if inside.any() else np.inf
        if inside[0]:
            # Starting inside (or on) an obstacle: blocked at once.
            assert hits.hit[k] and hits.distance[k] == 0.0
        elif hits.hit[k]:
            # Nothing solid before the reported hit; the hit point is on a surface.
            assert first >= hits.distance[k] - 1e-9
            assert abs(oracle.clearance(world, hits.point[k][None, :])[0]) < 1e-7
        else:
            assert not inside.any()


def test_remove_makes_obstacles_vanish_from_every_query(world):
    ids = world.ids
    gone = ids[::2]
    world.remove(gone)
    assert not any(i in world for i in gone)
    rng = np.random.default_rng(5)
    pts = rng.uniform(-5, 25, (100, 2))
    np.testing.assert_allclose(world.clearance(pts), oracle.clearance(world, pts), atol=1e-9)
    near = world.nearest(pts)
    assert not np.isin(near.obstacle, gone).any()
    with pytest.raises(KeyError):
        world.remove(gone[:1])


def test_empty_world_misses_everywhere():
    world = sidestep.World2D()
    assert world.clearance((0.0, 0.0)) == np.inf
    near = world.nearest([(0.0, 0.0)])
    assert near.obstacle[0] == -1 and np.isnan(near.point).all()
    hits = world.raycast([(0.0, 0.0)], [(1.0, 0.0)])
    assert not hits.hit[0] and hits.obstacle[0] == -1 and hits.distance[0] == np.inf
    assert world.overlapping((0.0, 0.0), 5.0).size == 0
    m = world.move((0.0, 0.0), (1.0, 1.0), radius=0.5)
    assert m.stop == "done" and not m.hit and tuple(m.position) == (1.0, 1.0)
    assert world.bounds is None


def test_geometry_round_trip_rebuilds_the_same_clearance(world):
    copy = sidestep.World2D()
    g = world.geometry("circle")
    if len(g["ids"]):
        copy.add_circles(g["centers"], g["radii"])
    g = world.geometry("wall")
    if len(g["ids"]):
        copy.add_walls(g["starts"], g["ends"], g["clearance"])
    g = world.geometry("box")
    if len(g["ids"]):
        copy.add_boxes(g["mins"], g["maxs"])
    for v in world.geometry("polygon")["vertices"]:
        copy.add_polygon(v)
    g = world.geometry("grid")
    for t, s, o in zip(g["blocked"], g["cell_size"], g["origin"]):
        copy.add_grid(t, s, o)
    pts = np.random.default_rng(6).uniform(-5, 25, (100, 2))
    np.testing.assert_array_equal(copy.clearance(pts), world.clearance(pts))


def test_repr_counts_in_plain_english():
    world = sidestep.World2D()
    assert repr(world) == "World2D(0 obstacles)"
    world.add_boxes([(0.0, 0.0)], [(1.0, 1.0)])
    assert repr(world) == "World2D(1 obstacle: 1 box)"
    world.add_boxes([(2.0, 0.0), (4.0, 0.0)], [(3.0, 1.0), (5.0, 1.0)])
    world.add_circles([(9.0, 9.0)], 1.0)
    assert repr(world) == "World2D(4 obstacles: 1 circle, 3 boxes)"
