"""Layers and masks: a query passes through the obstacles its mask leaves out, exactly as if
they were not there, in 2D and 3D alike (:mod:`sidestep.layers`)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sidestep
from sidestep import layers
from sidestep.volumes import Box, Sphere

# ----------------------------------------------------------------- helpers


def _scene_2d(seed):
    """Seeded circles, walls and boxes, each with a layer 0..3: (add functions, layers)."""
    rng = np.random.default_rng(seed)
    adds = []
    for _ in range(12):
        kind = rng.integers(3)
        c = rng.uniform(-6, 6, 2)
        if kind == 0:
            adds.append(("add_circles", ([c], float(rng.uniform(0.2, 1.0)))))
        elif kind == 1:
            adds.append(("add_walls", ([c], [c + rng.uniform(-3, 3, 2) + 0.1],
                                       float(rng.uniform(0.0, 0.3)))))
        else:
            adds.append(("add_boxes", ([c], [c + rng.uniform(0.3, 2.0, 2)])))
    return adds, rng.integers(0, 4, len(adds))


def _worlds_2d(seed, mask):
    """The layered world, and a reference holding only the obstacles ``mask`` sees."""
    adds, lay = _scene_2d(seed)
    world = sidestep.World2D()
    reference = sidestep.World2D()
    for (name, args), k in zip(adds, lay):
        getattr(world, name)(*args, layer=int(k))
        if mask >> int(k) & 1:
            getattr(reference, name)(*args)
    return world, reference


masks = st.integers(0, 15)
seeds = st.integers(0, 10_000)

# ------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(seeds, masks)
def test_masked_2d_queries_equal_a_world_of_the_seen_layers(seed, mask):
    world, reference = _worlds_2d(seed, mask)
    rng = np.random.default_rng(seed + 1)
    p = rng.uniform(-8, 8, (64, 2))
    d = rng.uniform(-4, 4, (64, 2))
    # To rounding: the two worlds' broadphase grids differ (a ray's cells, the order
    # in which a move meets equally near contacts).
    close = {"rtol": 0.0, "atol": 1e-9}
    np.testing.assert_allclose(world.move_many(p, d, 0.25, mask=mask),
                               reference.move_many(p, d, 0.25), **close)
    for k in range(8):
        np.testing.assert_allclose(world.move(p[k], d[k], 0.25, mask=mask).position,
                                   reference.move(p[k], d[k], 0.25).position, **close)
    np.testing.assert_allclose(world.clearance(p, mask=mask), reference.clearance(p), **close)
    hits, ref = world.raycast(p, d, mask=mask), reference.raycast(p, d)
    np.testing.assert_allclose(hits.distance, ref.distance, **close)
    seen = world.ids[(mask >> world.layers(world.ids)) & 1 == 1]   # reference id k is seen[k]
    for k in range(8):
        got = world.overlapping(p[k], 1.0, mask=mask)
        assert np.array_equal(got, seen[reference.overlapping(p[k], 1.0)])
        box = Box(p[k] - 1.0, p[k] + 1.0)
        assert np.array_equal(world.query(box, mask=mask).obstacle,
                              seen[reference.query(box).obstacle])


def _worlds_3d(seed, mask):
    rng = np.random.default_rng(seed)
    world = sidestep.World3D()
    reference = sidestep.World3D()
    for _ in range(10):
        kind = rng.integers(3)
        c = rng.uniform(-5, 5, 3)
        if kind == 0:
            name, args = "add_spheres", ([c], float(rng.uniform(0.3, 1.0)))
        elif kind == 1:
            name, args = "add_boxes", ([c], [c + rng.uniform(0.3, 2.0, 3)])
        else:
            name, args = "add_cylinders", ([c], float(rng.uniform(0.3, 1.0)),
                                           float(rng.uniform(0.5, 2.0)))
        k = int(rng.integers(0, 4))
        getattr(world, name)(*args, layer=k)
        if mask >> k & 1:
            getattr(reference, name)(*args)
    return world, reference


@settings(max_examples=30, deadline=None)
@given(seeds, masks)
def test_masked_3d_queries_equal_a_world_of_the_seen_layers(seed, mask):
    world, reference = _worlds_3d(seed, mask)
    rng = np.random.default_rng(seed + 1)
    p = rng.uniform(-7, 7, (48, 3))
    d = rng.uniform(-4, 4, (48, 3))
    close = {"rtol": 0.0, "atol": 1e-9}       # to rounding: the trees differ
    np.testing.assert_allclose(world.move_many(p, d, 0.3, 1.2, mask=mask),
                               reference.move_many(p, d, 0.3, 1.2), **close)
    for k in range(6):
        np.testing.assert_allclose(world.move(p[k], d[k], 0.3, mask=mask).position,
                                   reference.move(p[k], d[k], 0.3).position, **close)
    np.testing.assert_allclose(world.clearance(p, mask=mask), reference.clearance(p), **close)
    np.testing.assert_allclose(world.raycast(p, d, mask=mask).distance,
                               reference.raycast(p, d).distance, **close)
    seen = world.ids[(mask >> world.layers(world.ids)) & 1 == 1]
    for k in range(6):
        assert np.array_equal(world.overlapping(p[k], 1.0, mask=mask),
                              seen[reference.overlapping(p[k], 1.0)])
        ball = Sphere(p[k], 1.5)
        assert np.array_equal(world.query(ball, mask=mask).obstacle,
                              seen[reference.query(ball).obstacle])


# ----------------------------------------------------------------- scenes


def _doorway_2d():
    # A wall across y = 0 with a doorway at x in [-1, 1], shut by a door on layer 1.
    world = sidestep.World2D()
    world.add_walls([(-10.0, 0.0), (1.0, 0.0)], [(-1.0, 0.0), (10.0, 0.0)])
    door = world.add_boxes([(-1.0, -0.1)], [(1.0, 0.1)], layer=1)
    return world, int(door[0])


def test_one_team_door():
    world, door = _doorway_2d()
    blue = sidestep.Agent(world, (0.0, -2.0), radius=0.4, mask=layers.ALL)
    red = sidestep.Agent(world, (0.0, -2.0), radius=0.4, mask=layers.ALL & ~layers.bits(1))
    for _ in range(8):
        blue.step(0.0, 0.5)
        red.step(0.0, 0.5)
    assert blue.position[1] < -0.1 - 0.4 + 1e-6        # held by its own team's door
    assert red.position[1] == pytest.approx(2.0)        # the door is not there for red
    assert world.layers(door).tolist() == [1]


def test_crowd_of_one_team_passes_the_door_the_other_team_meets():
    world, _ = _doorway_2d()
    starts = [(-0.5, -2.0), (0.5, -2.0)]
    red = sidestep.Crowd(world, starts, 0.3, mask=layers.ALL & ~layers.bits(1))
    blue = sidestep.Crowd(world, starts, 0.3)
    for _ in range(10):
        red.step(np.tile([0.0, 0.5], (2, 1)))
        blue.step(np.tile([0.0, 0.5], (2, 1)))
    assert np.all(red.positions[:, 1] > 2.0)
    assert np.all(blue.positions[:, 1] < -0.3)


def test_camera_passes_glass_the_player_cannot():
    world = sidestep.World3D()
    world.add_boxes([(-5.0, 0.0, -0.05)], [(5.0, 3.0, 0.05)], layer=2)   # a glass pane
    player = world.move((0.0, 1.0, -2.0), (0.0, 0.0, 4.0), radius=0.4)
    camera = world.move((0.0, 1.0, -2.0), (0.0, 0.0, 4.0), radius=0.1,
                        mask=layers.ALL & ~layers.bits(2))
    assert player.position[2] < -0.4 and camera.position[2] == pytest.approx(2.0)


def test_character_with_mask_walks_through_a_hidden_wall():
    world = sidestep.World3D()
    world.add_boxes([(-10.0, -1.0, -10.0)], [(10.0, 0.0, 10.0)])              # floor, layer 0
    world.add_boxes([(-10.0, 0.0, 1.0)], [(10.0, 3.0, 1.2)], layer=5)          # a wall
    ghost = sidestep.Character(world, (0.0, 0.0, 0.0), 0.3, 1.8, mask=layers.ALL ^ (1 << 5))
    solid = sidestep.Character(world, (0.0, 0.0, 0.0), 0.3, 1.8)
    for _ in range(60):
        ghost.update((0.0, 0.0, 2.0), 1 / 30)
        solid.update((0.0, 0.0, 2.0), 1 / 30)
    assert ghost.position[2] > 3.0 and solid.position[2] < 1.0 - 0.3 + 1e-6
    assert ghost.position[1] == pytest.approx(0.0, abs=1e-3)      # still on the floor


def test_crowd3d_with_mask_ignores_a_layer():
    world = sidestep.World3D()
    world.add_boxes([(-5.0, 0.0, 1.0)], [(5.0, 3.0, 1.2)], layer=7)
    crowd = sidestep.Crowd3D(world, [(0.0, 1.0, 0.0)], 0.3, 1.6, mask=layers.ALL & ~(1 << 7))
    for _ in range(10):
        crowd.step([(0.0, 0.0, 0.5)])
    assert crowd.positions[0, 2] == pytest.approx(5.0)


def test_set_layer_moves_an_obstacle_between_layers():
    world = sidestep.World2D()
    post = world.add_circles([(0.0, 0.0)], 1.0)
    assert world.clearance((3.0, 0.0), mask=layers.bits(4)) == np.inf
    world.set_layer(post, 4)
    assert world.clearance((3.0, 0.0), mask=layers.bits(4)) == pytest.approx(2.0)
    assert world.clearance((3.0, 0.0), mask=layers.bits(0)) == np.inf


def test_layer_per_obstacle_array():
    world = sidestep.World3D()
    ids = world.add_spheres([(0, 0, 0), (5, 0, 0)], 1.0, layer=[3, 31])
    assert world.layers(ids).tolist() == [3, 31]
    assert world.overlapping((5, 0, 0), mask=1 << 31).tolist() == [int(ids[1])]


# -------------------------------------------------------------- bad input


@pytest.mark.parametrize("layer, error", [(32, ValueError), (-1, ValueError),
                                          (1.5, ValueError), ("2", ValueError),
                                          (True, ValueError)])
def test_bad_layer_is_refused_and_world_unchanged(layer, error):
    world = sidestep.World2D()
    with pytest.raises((TypeError, ValueError), match="layer"):
        world.add_circles([(0.0, 0.0)], 1.0, layer=layer)
    assert len(world) == 0
    world3 = sidestep.World3D()
    with pytest.raises((TypeError, ValueError), match="layer"):
        world3.add_boxes([(0, 0, 0)], [(1, 1, 1)], layer=layer)
    assert len(world3) == 0


def test_layer_array_of_wrong_length_is_refused():
    world = sidestep.World2D()
    with pytest.raises(ValueError, match="layer"):
        world.add_circles([(0.0, 0.0), (1.0, 1.0)], 1.0, layer=[1, 2, 3])
    assert len(world) == 0


@pytest.mark.parametrize("mask", [-1, 1 << 32, 2.0, "all", None])
def test_bad_mask_is_refused(mask):
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0)], 1.0)
    with pytest.raises((TypeError, ValueError), match="mask"):
        world.move((3.0, 0.0), (1.0, 0.0), mask=mask)
    with pytest.raises((TypeError, ValueError), match="mask"):
        world.clearance((3.0, 0.0), mask=mask)
    world3 = sidestep.World3D()
    with pytest.raises((TypeError, ValueError), match="mask"):
        world3.raycast((0, 0, 0), (1, 0, 0), mask=mask)
    with pytest.raises((TypeError, ValueError), match="mask"):
        sidestep.Agent(world, (3.0, 0.0), mask=mask)
