"""3D scene files: a World3D comes back the same, ids included; bad files name the place."""
import json

import numpy as np
import pytest

import sidestep
from sidestep.io import load, save
from sidestep.level import LevelError
from sidestep.storage3d import FAMILIES


def every_family_world(up="y"):
    rng = np.random.default_rng(11)
    world = sidestep.World3D(up=up)
    world.add_spheres(rng.normal(size=(2, 3)), [0.1 + 1 / 3, 0.0])
    world.add_panels([[(0, 0, 0), (0, 3, 0), (4.1, 3, 0), (4.1, 0, 0)],
                      [(0, 1 / 3, 0), (1, 1 / 3, 0), (0, 1 / 3, 1)]], sides="front")
    cube = np.array([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)], float) / 7
    world.add_mesh(cube + 5, [(0, 1, 3), (0, 3, 2), (4, 6, 7)])
    world.add_boxes(rng.normal(size=(2, 3)), rng.normal(size=(2, 3)) + 5)
    world.add_cylinders([(1.0, 2.0, 3.0)], 0.3, np.pi)
    world.add_voxels(rng.random((3, 4, 5)) < 0.5, cell_size=0.1, origin=(1e3, -2.0, 1 / 3))
    world.add_heightfield(rng.normal(size=(4, 6)), cell_size=0.7, origin=(-3.0, 0.1, 0.2))
    world.add_spheres([(9.0, 9.0, 9.0)], 0.5)
    return world


def assert_same_world(a, b):
    assert a.up == b.up
    assert a.ids.tolist() == list(range(len(a)))
    np.testing.assert_array_equal(a.ids, b.ids)
    for family in FAMILIES:
        ga, gb = a.geometry(family), b.geometry(family)
        assert ga.keys() == gb.keys()
        for key in ga:
            if isinstance(ga[key], list):
                assert len(ga[key]) == len(gb[key])
                for x, y in zip(ga[key], gb[key]):
                    np.testing.assert_array_equal(x, y)     # exact, bit for bit
            else:
                np.testing.assert_array_equal(ga[key], gb[key])


@pytest.mark.parametrize("up", ["y", "z"])
def test_world3d_round_trips_exactly_ids_included(tmp_path, up):
    world = every_family_world(up)
    path = world.save(tmp_path / "yard.json", spawns=[(0.1, 0.2, 1 / 3)], name="yard")
    level = load(path)
    assert isinstance(level.world, sidestep.World3D)
    assert level.name == "yard"
    np.testing.assert_array_equal(level.spawns, [(0.1, 0.2, 1 / 3)])
    assert_same_world(world, level.world)
    for oid in world.ids:
        assert level.world.family(oid) == world.family(oid)
    pts = np.random.default_rng(1).uniform(-3, 6, (200, 3))
    np.testing.assert_array_equal(level.world.clearance(pts), world.clearance(pts))
    # Saved again, the file is the same text.
    again = save(level, tmp_path / "again.json")
    assert again.read_text() == path.read_text()


def test_layers_round_trip_and_only_they_make_a_version_2_file(tmp_path):
    world = every_family_world()
    plain = world.save(tmp_path / "plain.json").read_text()
    assert '"version": 1,' in plain and "layer" not in plain
    world.set_layer([1, 4, 8], 7)
    world.set_layer(9, 31)
    path = world.save(tmp_path / "layers.json")
    data = json.loads(path.read_text())
    assert data["version"] == 2
    assert list(data["spheres"][1].items())[:2] == [("id", 1), ("layer", 7)]
    assert "layer" not in data["spheres"][0]
    loaded = load(path).world
    assert_same_world(world, loaded)
    np.testing.assert_array_equal(loaded.layers(loaded.ids), world.layers(world.ids))
    pts = np.random.default_rng(2).uniform(-3, 6, (300, 3))
    for mask in (sidestep.layers.ALL, sidestep.layers.bits(0), sidestep.layers.bits(7, 31)):
        np.testing.assert_array_equal(loaded.clearance(pts, mask=mask),
                                      world.clearance(pts, mask=mask))
    jsonschema = pytest.importorskip("jsonschema")
    from sidestep.io.scene3d import schema
    jsonschema.Draft202012Validator(schema()).validate(data)


def test_saved_3d_files_match_the_json_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from sidestep.io.scene3d import schema
    jsonschema.Draft202012Validator.check_schema(schema())
    validator = jsonschema.Draft202012Validator(schema())
    path = every_family_world().save(tmp_path / "yard.json", spawns=[(0.0, 1.0, 2.0)])
    validator.validate(json.loads(path.read_text()))
    assert not validator.is_valid(_scene(dimensions=2))
    assert not validator.is_valid(_scene(voxels__blocked=[["12"]]))


def test_removed_obstacles_leave_ids_renumbered_in_order(tmp_path):
    world = every_family_world()
    world.remove([0, 3])
    level = load(world.save(tmp_path / "gaps.json"))
    assert len(level.world) == len(world)
    kept = [world.family(i) for i in world.ids]
    assert [level.world.family(i) for i in level.world.ids] == kept


def test_hand_written_3d_scene_without_ids(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({
        "format": "sidestep-scene", "version": 1, "dimensions": 3,
        "spheres": [{"center": [0, 1, 0], "radius": 1}],
        "voxels": [{"cell_size": 1, "blocked": [["10", "01"], ["00", "11"]]}]}))
    world = load(path).world
    assert [world.family(i) for i in world.ids] == ["sphere", "voxels"]
    np.testing.assert_array_equal(world.geometry("voxels")["blocked"][0],
                                  [[[1, 0], [0, 1]], [[0, 0], [1, 1]]])
    assert load(path).name == "hand"


def _scene(**changes):
    data = {"format": "sidestep-scene", "version": 1, "dimensions": 3,
            "panels": [{"id": 0, "vertices": [[0, 0, 0], [1, 0, 0], [1, 0, 1]]}],
            "meshes": [{"id": 1, "vertices": [[0, 0, 0], [1, 0, 0], [0, 0, 1]],
                        "triangles": [[0, 1, 2]]}],
            "heightfields": [{"id": 2, "cell_size": 1, "heights": [[0, 1], [2, 3]]}],
            "voxels": [{"id": 3, "cell_size": 1, "blocked": [["1"]]}]}
    for key, value in changes.items():
        family, _, field = key.partition("__")
        if field:
            data[family][0][field] = value
        else:
            data[family] = value
    return data


BROKEN = [
    (dict(dimensions=4), "dimensions", "must be 2 or 3"),
    (dict(up="w"), "up", "must be"),
    (dict(cylinders=[{"base": [0, 0], "radius": 1, "height": 1}]), r"cylinders\[0\].base",
     r"\[x, y, z\]"),
    (dict(panels__vertices=[[0, 0, 0], [1, 0, 0], [2, 0, 0]]), r"panels\[0\]", "area"),
    (dict(panels__sides="back"), r"panels\[0\].sides", "both"),
    (dict(meshes__triangles=[[0, 1, 3]]), r"meshes\[0\]", "corner 3"),
    (dict(meshes__triangles=[[0, 1, -1]]), r"meshes\[0\].triangles\[0\]\[2\]", ">= 0"),
    (dict(meshes__triangles=[[0, 1.5, 2]]), r"meshes\[0\].triangles\[0\]\[1\]", "integer"),
    (dict(heightfields__heights=[[0, 1], [2]]), r"heightfields\[0\].heights\[1\]",
     "must have 2"),
    (dict(heightfields__heights=[[0, 1], [2, "x"]]), r"heightfields\[0\].heights\[1\]\[1\]",
     "number"),
    (dict(heightfields__cell_size=0), r"heightfields\[0\].cell_size", "> 0"),
    (dict(voxels__blocked=[["12"]]), r"voxels\[0\].blocked\[0\]\[0\]", "0 and 1"),
    (dict(voxels__blocked=[["1"], ["1", "0"]]), r"voxels\[0\].blocked\[1\]", "every layer"),
    (dict(voxels__blocked=[]), r"voxels\[0\].blocked", "at least one"),
    (dict(voxels__id=7), r"voxels\[0\].id", "ids must be"),
    (dict(boxes=[{"id": 4, "min": [0, 0, 0], "max": [1, 1, 0]}]), r"boxes\[0\]", "mins < maxs"),
    (dict(panels__layer=2), r"panels\[0\].layer", "needs scene version 2"),
    (dict(version=2, panels__layer=40), r"panels\[0\].layer", "layer 0..31"),
    (dict(version=2, meshes__layer="1"), r"meshes\[0\].layer", "integer"),
    (dict(bodies=[{"obstacles": [0]}]), "bodies", "needs scene version 2"),
    (dict(version=2, bodies=[{"obstacles": []}]), r"bodies\[0\].obstacles", "at least one"),
    (dict(version=2, bodies=[{"obstacles": [9]}]), r"bodies\[0\].obstacles\[0\]",
     "no obstacle 9"),
    (dict(version=2, bodies=[{"obstacles": [0]}, {"obstacles": [0]}]),
     r"bodies\[1\].obstacles\[0\]", r"also in bodies\[0\]"),
    (dict(version=2, bodies=[{"obstacles": [0], "rotation": [1, 0, 0]}]),
     r"bodies\[0\].rotation", "unit quaternion"),
    (dict(version=2, bodies=[{"obstacles": [0], "rotation": [2, 0, 0, 0]}]), r"bodies\[0\]",
     "rotation"),
    (dict(version=2, bodies=[{"obstacles": [0], "angle": 0.5}]), r"bodies\[0\].angle",
     "unknown"),
    (dict(version=2, bodies=[{"obstacles": [2], "rotation": [0.7071068, 0.7071068, 0, 0]}]),
     r"bodies\[0\]", "heightfield"),
]


@pytest.mark.parametrize("changes, place, words", BROKEN, ids=[b[1] for b in BROKEN])
def test_broken_3d_scene_names_file_and_place(tmp_path, changes, place, words):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(_scene(**changes)))
    with pytest.raises(LevelError, match=rf"broken.json: {place}: .*{words}"):
        load(path)


def test_valid_base_scene_loads(tmp_path):
    path = tmp_path / "base.json"
    path.write_text(json.dumps(_scene()))
    assert len(load(path).world) == 4


def _bodies_world():
    world = every_family_world()
    rng = np.random.default_rng(4)
    # Every family in a body: a door (a box and a voxel table), a mix of the others, and
    # a heightfield (which turns only about up).
    door = world.add_body([5, 8])
    mix = world.add_body([0, 2, 4, 7])
    ground = world.add_body([9])
    world.set_pose(door, (1.0, 0.0, 0.5), (0.9238795, 0.0, 0.3826834, 0.0))
    q = rng.normal(size=4)
    world.set_pose(mix, rng.normal(size=3), q / np.linalg.norm(q))
    world.set_pose(ground, (0.5, -0.2, 0.1), (0.8, 0.0, 0.6, 0.0))
    return world


def test_bodies_round_trip_and_the_loaded_world_answers_as_the_saved_one(tmp_path):
    world = _bodies_world()
    path = sidestep.save(world, tmp_path / "bodies.json")
    data = json.loads(path.read_text())
    assert data["version"] == 2
    assert [b["obstacles"] for b in data["bodies"]] == [[5, 8], [0, 2, 4, 7], [9]]
    loaded = load(path).world
    rng = np.random.default_rng(5)
    origins = rng.uniform(-4, 8, (3000, 3))
    ways = rng.normal(size=(3000, 3))
    ways /= np.linalg.norm(ways, axis=1, keepdims=True)
    a, b = world.raycast(origins, ways), loaded.raycast(origins, ways)
    np.testing.assert_array_equal(a.hit, b.hit)
    np.testing.assert_allclose(a.distance[a.hit], b.distance[b.hit], atol=1e-9)
    np.testing.assert_allclose(world.clearance(origins), loaded.clearance(origins), atol=1e-9)
    for body in (0, 1, 2):
        np.testing.assert_allclose(world.pose(body)[0], loaded.pose(body)[0], atol=1e-12)
        np.testing.assert_allclose(world.pose(body)[1], loaded.pose(body)[1], atol=1e-12)
    # The loaded bodies still move: the door swung back home answers as the saved one's.
    for w in (world, loaded):
        w.set_pose(0, (0.0, 0.0, 0.0))
    np.testing.assert_allclose(world.clearance(origins), loaded.clearance(origins), atol=1e-9)


def test_saved_3d_files_with_bodies_match_the_json_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from sidestep.io.scene3d import schema
    path = sidestep.save(_bodies_world(), tmp_path / "bodies.json")
    jsonschema.Draft202012Validator(schema()).validate(json.loads(path.read_text()))
