"""3D scene files keep bodies: ``load(save(world))`` answers every query as ``world``.

A body's obstacles are written in its own frame with its pose beside them (its
velocity is not kept: a loaded body is at rest); the only rounding a round trip
can add is the body's rotation, kept as a quaternion in the file and as a
matrix in the world.
"""
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sidestep
from sidestep import layers
from sidestep.io import load, save
from sidestep.volumes import Sphere

CLOSE = dict(rtol=0, atol=1e-9)


def _quaternion(rng):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    return q * np.sign(q[0])


def living_world(seed):
    """Every family but the heightfield in turned bodies (one per body, on layers 0..3),
    the heightfield in a body turned about up only, a still floor, and a body moved
    twice."""
    rng = np.random.default_rng(seed)
    world = sidestep.World3D()
    world.add_boxes([(-20, -2, -20)], [(20, -1, 20)])                   # still floor
    ids = [world.add_boxes([(-0.5, -0.2, -1)], [(0.5, 0.2, 1)], layer=1)[0],
           world.add_spheres([(0.3, 0.1, 0.2)], 0.4, layer=2)[0],
           world.add_cylinders([(0.1, -0.5, 0.0)], 0.3, 1.0, layer=3)[0],
           world.add_panels([[(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]], sides="front")[0],
           world.add_mesh(np.array([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], float),
                          [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]),
           world.add_voxels(rng.random((2, 3, 2)) < 0.6, cell_size=0.3,
                            origin=(-0.3, -0.4, -0.3))]
    ground = world.add_heightfield(rng.uniform(0, 0.5, (3, 4)), cell_size=0.5,
                                   origin=(-1.0, -0.5, -0.75))
    bodies = [world.add_body(i) for i in ids]
    for b in bodies:
        world.set_pose(b, rng.uniform(-8, 8, 3), _quaternion(rng), dt=0.1)
        world.set_pose(b, rng.uniform(-8, 8, 3), _quaternion(rng), dt=0.05)
    flat = world.add_body(ground)
    turn = rng.uniform(-math.pi, math.pi)
    world.set_pose(flat, rng.uniform(-8, 8, 3), (math.cos(turn / 2), 0, math.sin(turn / 2), 0))
    world.remove(world.add_spheres([(50, 50, 50)], 1.0))                 # ids renumbered
    return world, bodies + [flat]


def assert_same_answers(a, b, seed):
    """Every query agrees on random points and motions, for several masks."""
    rng = np.random.default_rng(seed)
    points = rng.uniform(-9, 9, (600, 3))
    steps = rng.normal(0, 3.0, (600, 3))
    rank_a, rank_b = a.ids, b.ids
    ranks = (lambda world, ids: np.where(ids >= 0, np.searchsorted(world.ids, ids), -1))
    for mask in (layers.ALL, layers.bits(0, 1), layers.bits(2, 3)):
        np.testing.assert_allclose(a.clearance(points, mask=mask),
                                   b.clearance(points, mask=mask), **CLOSE)
        # A slide amplifies the quaternion's rounding where it grazes an edge: a
        # handful of agents in a thousand may take another way round, never more.
        ends = np.abs(a.move_many(points, steps, 0.3, 1.2, mask=mask)
                      - b.move_many(points, steps, 0.3, 1.2, mask=mask)).max(axis=1)
        assert np.count_nonzero(ends > 1e-9) <= 0.01 * len(points)
        for ra, rb in [(a.raycast(points, steps, mask=mask), b.raycast(points, steps, mask=mask)),
                       (a.cast_many(points, steps, 0.2, mask=mask),
                        b.cast_many(points, steps, 0.2, mask=mask))]:
            np.testing.assert_array_equal(ranks(a, ra.obstacle), ranks(b, rb.obstacle))
            np.testing.assert_array_equal(ra.hit, rb.hit)
        na, nb = a.nearest(points, mask=mask), b.nearest(points, mask=mask)
        np.testing.assert_array_equal(ranks(a, na.obstacle), ranks(b, nb.obstacle))
        np.testing.assert_allclose(na.distance, nb.distance, **CLOSE)
    for p in points[:40]:
        assert ranks(a, a.overlapping(p, 0.8, 2.0)).tolist() == \
            ranks(b, b.overlapping(p, 0.8, 2.0)).tolist()
        assert ranks(a, a.query(Sphere(p, 1.5)).obstacle).tolist() == \
            ranks(b, b.query(Sphere(p, 1.5)).obstacle).tolist()
    assert len(rank_a) == len(rank_b)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
def test_bodies_at_random_poses_answer_as_before_a_round_trip(tmp_path, seed):
    world, bodies = living_world(seed)
    path = save(world, tmp_path / "living.json")
    data = json.loads(path.read_text())
    assert data["version"] == 2 and len(data["bodies"]) == len(bodies)
    loaded = load(path).world
    assert_same_answers(world, loaded, seed)
    for b in bodies:
        pa, qa = world.pose(b)
        pb, qb = loaded.pose(b)
        np.testing.assert_array_equal(pa, pb)
        np.testing.assert_allclose(qa, qb, **CLOSE)
    # Posed on, both answer alike again; saved again, the file is the same text.
    rng = np.random.default_rng(seed + 1)
    for b in bodies[:-1]:
        p, q = rng.uniform(-8, 8, 3), _quaternion(rng)
        world.set_pose(b, p, q)
        loaded.set_pose(b, p, q)
    assert_same_answers(world, loaded, seed + 2)
    # Saved again: the same obstacles, text for text, and the same poses to rounding.
    first = json.loads(path.read_text())
    again = json.loads(save(load(path).world, tmp_path / "again.json").read_text())
    assert first.pop("bodies").__len__() == again.pop("bodies").__len__()
    assert first == again


def test_door_body_round_trips_and_keeps_swinging(tmp_path):
    world = sidestep.World3D()
    world.add_boxes([(-5, -1, -5)], [(5, 0, 5)])                     # the floor
    door = world.add_body(world.add_boxes([(0, 0, -0.05)], [(1.2, 2.2, 0.05)]))
    half = math.radians(45) / 2
    world.set_pose(door, (2.0, 0.0, 0.0), (math.cos(half / 2), 0, math.sin(half / 2), 0),
                   dt=0.5)
    world.set_pose(door, (2.0, 0.0, 0.0), (math.cos(half), 0, math.sin(half), 0), dt=0.5)
    path = save(world, tmp_path / "door.json")
    record = json.loads(path.read_text())["bodies"]
    assert record[0]["obstacles"] == [1]
    assert json.loads(path.read_text())["boxes"][1]["min"] == [0.0, 0.0, -0.05]   # its frame
    loaded = load(path).world
    # A ray across the open doorway meets the door where it swung to, in both worlds.
    for w in (world, loaded):
        hit = w.raycast((2.5, 1.0, -3.0), (0, 0, 1))
        assert hit.hit and hit.obstacle == 1
        assert hit.distance == pytest.approx(3.0 - 0.5 - 0.05 * math.sqrt(2), abs=1e-9)
        assert not w.raycast((2.5, 1.0, -3.0), (1, 0, 0)).hit       # past the open door
    # It keeps swinging: a quarter turn closes it along x, in both.
    quarter = (math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0)
    for w in (world, loaded):
        w.set_pose(door, (2.0, 0.0, 0.0), quarter)
        assert w.raycast((0.0, 1.0, -0.6), (1, 0, 0)).distance == pytest.approx(1.95)
        assert w.raycast((2.5, 1.0, -3.0), (0, 0, 1)).obstacle == -1
        assert w.raycast((2.0, 1.0, -3.0), (0, 0, 1)).distance == pytest.approx(3.0 - 1.2)
    assert world.raycast((0.0, 1.0, -0.6), (1, 0, 0)).distance == \
        loaded.raycast((0.0, 1.0, -0.6), (1, 0, 0)).distance


def test_an_older_3d_file_without_bodies_still_loads(tmp_path):
    world = sidestep.World3D()
    world.add_spheres([(0, 1, 0)], 1.0, layer=2)
    path = save(world, tmp_path / "old.json")
    assert json.loads(path.read_text())["version"] == 2       # no bodies: not bumped
    assert len(load(path).world) == 1
