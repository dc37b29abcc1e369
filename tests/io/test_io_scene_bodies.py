"""Scene files keep layers and bodies: ``load(save(world))`` answers every query as ``world``.

A body's obstacles are written in its own frame with its pose beside them;
the only rounding a round trip can add is the body's angle, which the world
keeps as its cosine and sine (``pose`` gives ``atan2`` of them, and the
cosine of that can differ from the kept one in the last bit).
"""
import json
import math

import numpy as np
import pytest

import sidestep
from sidestep import layers
from sidestep.io import load, save
from sidestep.io.scene import schema
from sidestep.level import LevelError

from same_world import assert_same_obstacles


def living_world(angle=0.7, position=(1.5, -2.0)):
    """Layers 0..3 and a turned body holding a box, a polygon, a circle, a wall and a grid."""
    world = sidestep.World2D()
    world.add_walls([(-10, -10)], [(10, -10)], 0.2)
    circles = world.add_circles([(1, 1), (3, 3), (-4, 5)], [0.5, 0.4, 1.0], layer=[1, 2, 0])
    box = world.add_boxes([(0, 0)], [(1, 2)], layer=3)
    polygon = world.add_polygon([(2, 0), (3, 0), (2.5, 1), (2.4, 0.4)])
    wall = world.add_walls([(0, 3)], [(2, 3)], 0.1, layer=2)
    grid = world.add_grid([[1, 0, 1], [1, 1, 0]], 0.5, (4, 4), layer=1)
    world.add_grid([[0, 1], [1, 1]], 1.0, (-8, -8))
    body = world.add_body([circles[0], box[0], polygon, wall[0], grid])
    world.set_pose(body, position, angle)
    other = world.add_body(circles[2])                  # a second body, moved but not turned
    world.set_pose(other, (0.5, -0.25), 0.0)
    return world


def assert_same_answers(a, b, *, exact, seed=0):
    """``clearance``, ``move_many`` and ``raycast`` agree on random points, for several masks."""
    rng = np.random.default_rng(seed)
    points = rng.uniform(-9, 9, (3000, 2))
    steps = rng.normal(0, 2.0, (3000, 2))
    same = np.testing.assert_array_equal if exact else \
        (lambda x, y: np.testing.assert_allclose(x, y, rtol=0, atol=1e-9))
    for mask in (layers.ALL, layers.bits(0, 1), layers.bits(2, 3), 0):
        same(a.clearance(points, mask=mask), b.clearance(points, mask=mask))
        same(a.move_many(points, steps, 0.3, mask=mask), b.move_many(points, steps, 0.3,
                                                                     mask=mask))
        ra, rb = a.raycast(points, steps, mask=mask), b.raycast(points, steps, mask=mask)
        np.testing.assert_array_equal(_ranks(a, ra.obstacle), _ranks(b, rb.obstacle))
        same(ra.distance, rb.distance)


def _ranks(world, obstacles):
    """Obstacle ids as their places among the world's ids (a file numbers them so), -1 kept."""
    return np.where(obstacles >= 0, np.searchsorted(world.ids, obstacles), -1)


def test_a_world_with_layers_and_a_turned_body_answers_the_same_after_a_round_trip(tmp_path):
    world = living_world()
    level = load(save(world, tmp_path / "living.json", name="living"))
    loaded = level.world
    np.testing.assert_array_equal(loaded.ids, world.ids)
    np.testing.assert_array_equal(loaded.layers(loaded.ids), world.layers(world.ids))
    for body in (0, 1):
        (p, a), (q, b) = world.pose(body), loaded.pose(body)
        np.testing.assert_array_equal(p, q)
        assert a == b
    assert_same_answers(world, loaded, exact=False)
    # The loaded world saves to the same file, and its bodies still move.
    assert save(level, tmp_path / "again.json").read_text() == \
        (tmp_path / "living.json").read_text()
    world.set_pose(0, (-1.0, 2.0), -2.0)
    loaded.set_pose(0, (-1.0, 2.0), -2.0)
    assert_same_answers(world, loaded, exact=True, seed=1)


def test_a_body_whose_angle_survives_atan2_comes_back_bit_for_bit(tmp_path):
    angle = 0.5
    c, s = math.cos(angle), math.sin(angle)
    assert math.cos(math.atan2(s, c)) == c and math.sin(math.atan2(s, c)) == s
    world = living_world(angle)
    loaded = load(save(world, tmp_path / "exact.json")).world
    assert_same_obstacles(world, loaded)
    assert_same_answers(world, loaded, exact=True)


def test_body_obstacles_are_written_in_the_body_frame(tmp_path):
    data = json.loads(save(living_world(), tmp_path / "w.json").read_text())
    assert data["version"] == 2
    assert data["bodies"] == [{"obstacles": [1, 4, 5, 6, 7], "position": [1.5, -2.0],
                               "angle": 0.7},
                              {"obstacles": [3], "position": [0.5, -0.25], "angle": 0.0}]
    # As added, not as posed: a turned box stays a box in its own frame.
    assert data["boxes"] == [{"id": 4, "layer": 3, "min": [0.0, 0.0], "max": [1.0, 2.0]}]
    assert data["circles"][0] == {"id": 1, "layer": 1, "center": [1.0, 1.0], "radius": 0.5}
    assert data["grids"][0]["origin"] == [4.0, 4.0]


def test_files_without_layers_and_bodies_stay_version_1_and_unchanged(tmp_path):
    world = sidestep.World2D()
    world.add_circles([(0, 1)], 1.0)
    text = save(world, tmp_path / "old.json").read_text()
    assert '"version": 1' in text and "layer" not in text and "bodies" not in text
    world.set_layer(0, 5)
    assert '"version": 2' in save(world, tmp_path / "new.json").read_text()
    world.set_layer(0, 0)
    assert save(world, tmp_path / "old2.json").read_text() == text


def test_removed_obstacles_leave_bodies_renumbered(tmp_path):
    world = living_world()
    world.remove([1, 3])               # a member of body 0, and all of body 1
    data = json.loads(save(world, tmp_path / "gaps.json").read_text())
    assert [b["obstacles"] for b in data["bodies"]] == [[2, 3, 4, 5]]
    loaded = load(tmp_path / "gaps.json").world
    rng = np.random.default_rng(2)
    points = rng.uniform(-9, 9, (2000, 2))
    np.testing.assert_allclose(world.clearance(points), loaded.clearance(points), atol=1e-9)


def test_saved_files_with_layers_and_bodies_match_the_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema())
    data = json.loads(save(living_world(), tmp_path / "s.json").read_text())
    validator.validate(data)
    for bad in ({"layer": 32}, {"layer": -1}):
        changed = json.loads(json.dumps(data))
        changed["circles"][0].update(bad)
        assert not validator.is_valid(changed)
    changed = json.loads(json.dumps(data))
    changed["bodies"][0]["obstacles"] = []
    assert not validator.is_valid(changed)


def test_a_hand_written_body_without_ids_or_pose(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({
        "format": "sidestep-scene", "version": 2,
        "circles": [{"center": [0, 0], "radius": 1, "layer": 4}],
        "boxes": [{"min": [2, 0], "max": [3, 1]}],
        "bodies": [{"obstacles": [1]}]}))
    world = load(path).world
    assert world.layers([0, 1]).tolist() == [4, 0]
    position, angle = world.pose(0)
    assert position.tolist() == [0.0, 0.0] and angle == 0.0
    world.set_pose(0, (0.0, 5.0), math.pi / 2)
    assert world.clearance((-0.5, 7.5)) == pytest.approx(-0.5, abs=1e-12)   # its middle


def scene(**keys):
    base = {"format": "sidestep-scene", "version": 2,
            "circles": [{"center": [0, 0], "radius": 1}, {"center": [3, 0], "radius": 1}],
            "walls": [{"start": [0, -5], "end": [5, -5], "one_sided": True}]}
    return {**base, **keys}


@pytest.mark.parametrize("data, place, words", [
    (scene(circles=[{"center": [0, 0], "radius": 1, "layer": 32}]), "circles[0].layer",
     "layer 0..31"),
    (scene(circles=[{"center": [0, 0], "radius": 1, "layer": 1.5}]), "circles[0].layer",
     "integer"),
    (scene(circles=[{"center": [0, 0], "radius": 1, "layer": True}]), "circles[0].layer",
     "integer"),
    (scene(version=1, circles=[{"center": [0, 0], "radius": 1, "layer": 1}]),
     "circles[0].layer", "version 2"),
    (scene(version=1, bodies=[]), "bodies", "version 2"),
    (scene(bodies={"obstacles": [0]}), "bodies", "list"),
    (scene(bodies=[{"obstacles": []}]), "bodies[0].obstacles", "at least one"),
    (scene(bodies=[{}]), "bodies[0].obstacles", "missing key"),
    (scene(bodies=[{"obstacles": [0], "spin": 1}]), "bodies[0].spin", "unknown key"),
    (scene(bodies=[{"obstacles": [0, 9]}]), "bodies[0].obstacles[1]", "no obstacle 9"),
    (scene(bodies=[{"obstacles": [0, "1"]}]), "bodies[0].obstacles[1]", "integer"),
    (scene(bodies=[{"obstacles": [0]}, {"obstacles": [1, 0]}]), "bodies[1].obstacles[1]",
     "also in bodies[0]"),
    (scene(bodies=[{"obstacles": [0, 0]}]), "bodies[0].obstacles[1]", "also in bodies[0]"),
    (scene(bodies=[{"obstacles": [2]}]), "bodies[0].obstacles", "one-sided"),
    (scene(bodies=[{"obstacles": [0], "position": [0]}]), "bodies[0].position", "point"),
    (scene(bodies=[{"obstacles": [0], "angle": "up"}]), "bodies[0].angle", "number"),
    (scene(bodies=[{"obstacles": [0], "angle": 1e999}]), "bodies[0].angle", "finite"),
])
def test_bad_layers_and_bodies_name_the_file_and_place(tmp_path, data, place, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(LevelError) as info:
        load(path)
    err = info.value
    assert str(path) in str(err) and err.place == place, err
    assert words in err.message, err


@pytest.mark.parametrize("seed", range(4))
def test_random_worlds_with_random_bodies_and_layers_round_trip(tmp_path, seed):
    import worlds

    world = worlds.make_world(("circle", "wall", "box", "polygon", "grid"), seed)
    rng = np.random.default_rng(seed)
    ids = rng.permutation(world.ids)
    world.set_layer(ids[:10], int(rng.integers(1, 32)))
    world.remove(ids[-3:])
    for part in np.array_split(ids[10:-3], 3):          # three bodies, each turned anywhere
        body = world.add_body(part)
        world.set_pose(body, rng.uniform(-5, 5, 2), float(rng.uniform(-np.pi, np.pi)))
    loaded = load(save(world, tmp_path / "random.json")).world
    assert len(loaded) == len(world)
    np.testing.assert_array_equal(loaded.layers(loaded.ids), world.layers(world.ids))
    assert_same_answers(world, loaded, exact=False, seed=seed)
