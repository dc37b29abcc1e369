"""sidestep's own scene files: exact round trips, the schema, and errors that name the JSON path."""
import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

import sidestep
from sidestep.io import load, save
from sidestep.io.scene import scene_data, schema
from sidestep.level import Level, LevelError, Scenarios

import worlds
from same_world import assert_same_obstacles

FAMILIES = ("circle", "wall", "box", "polygon", "grid")


def every_family_world():
    """Obstacles of all five families, interleaved, with awkward floats."""
    world = sidestep.World2D()
    world.add_circles([(0.1, 1 / 3), (-7.25, 2e-310)], [1.0, 0.0])
    world.add_walls([(-6, -3)], [(6.000000000000001, -3)], clearance=0.5)
    world.add_boxes([(3, 2), (10, 10)], [(4, 3.1), (10.5, 12)])
    world.add_polygon([(-4, 2), (-3, 1.5), (-2.5, 3), (-3.2, 2.2), (-3.5, 2.6)])  # concave
    world.add_circles([(20, 20)], 0.7)
    world.add_grid(np.eye(4, dtype=bool) | np.eye(4, k=1, dtype=bool), cell_size=0.5,
                   origin=(4.1, -2))
    world.add_walls([(1e6, 0), (0, 0)], [(1e6, 1), (0.1, 0.2)], clearance=[0.0, 1e-9])
    world.add_grid(np.zeros((2, 3), bool), cell_size=2.0)
    return world


def test_save_then_load_gives_the_same_world_exactly(tmp_path):
    world = every_family_world()
    spawns = np.array([[0.5, -1.5], [np.pi, np.e]])
    scen = Scenarios(np.array([[0.0, 0.1], [1.0, 2.0]]), np.array([[3.0, 4.0], [5.0, 6.0]]),
                     np.array([1.5, np.nan]))
    path = save(world, tmp_path / "every.json", spawns=spawns, scenarios=scen, name="every")
    level = load(path)
    assert isinstance(level, Level) and level.name == "every" and level.source == path
    assert_same_obstacles(world, level.world)
    np.testing.assert_array_equal(level.spawns, spawns)
    np.testing.assert_array_equal(level.scenarios.starts, scen.starts)
    np.testing.assert_array_equal(level.scenarios.goals, scen.goals)
    np.testing.assert_array_equal(level.scenarios.lengths, scen.lengths)     # NaN stays NaN
    assert level.problems == ()
    # Saving what was loaded writes the same bytes.
    again = save(level, tmp_path / "again.json")
    assert again.read_text() == path.read_text()


def test_a_world_with_removed_obstacles_comes_back_renumbered_in_the_same_order(tmp_path):
    world = every_family_world()
    world.remove([0, 3, 7])
    level = load(save(world, tmp_path / "gaps.json"))
    assert_same_obstacles(world, level.world, same_ids=False)


def test_an_empty_world_round_trips(tmp_path):
    level = load(save(sidestep.World2D(), tmp_path / "empty.json"))
    assert len(level.world) == 0 and level.spawns.shape == (0, 2) and level.scenarios is None
    assert level.name == "empty"                           # no name saved: the file's stem


def test_the_mixed_test_worlds_round_trip(tmp_path):
    for seed in range(3):
        world = worlds.make_world(FAMILIES, seed)
        assert_same_obstacles(world, load(save(world, tmp_path / f"w{seed}.json")).world)


def test_the_file_is_readable_one_obstacle_per_line(tmp_path):
    world = sidestep.World2D()
    world.add_circles([(0, 1)], 1.0)
    world.add_grid([[1, 0], [0, 0]], cell_size=0.5)
    text = save(world, tmp_path / "small.json", name="small").read_text()
    assert text.splitlines() == [
        "{",
        ' "format": "sidestep-scene",',
        ' "version": 1,',
        ' "name": "small",',
        ' "circles": [',
        '  {"id": 0, "center": [0.0, 1.0], "radius": 1.0}',
        " ],",
        ' "grids": [',
        '  {"id": 1, "cell_size": 0.5, "origin": [0.0, 0.0], "blocked": [',
        '   "10",',
        '   "00"',
        "  ]}",
        " ]",
        "}",
    ]


def test_saved_files_match_the_json_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema())
    jsonschema.Draft202012Validator.check_schema(schema())
    world = every_family_world()
    scen = Scenarios(np.zeros((1, 2)), np.ones((1, 2)), np.array([1.5]))
    data = json.loads(save(world, tmp_path / "s.json", spawns=[(1, 2)], scenarios=scen,
                           name="s").read_text())
    validator.validate(data)
    bad = json.loads(json.dumps(data))
    bad["circles"][0]["radius"] = -1.0
    assert not validator.is_valid(bad)
    bad = json.loads(json.dumps(data))
    del bad["walls"][0]["start"]
    assert not validator.is_valid(bad)
    bad = json.loads(json.dumps(data))
    bad["grids"][0]["blocked"][0] = "10x1"
    assert not validator.is_valid(bad)


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
points = st.tuples(finite, finite)


@st.composite
def random_worlds(draw):
    """A world of random obstacles of random families in random order."""
    world = sidestep.World2D()
    for family in draw(st.lists(st.sampled_from(FAMILIES), max_size=8)):
        if family == "circle":
            n = draw(st.integers(1, 4))
            world.add_circles(draw(st.lists(points, min_size=n, max_size=n)),
                              draw(st.lists(st.floats(0, 1e3), min_size=n, max_size=n)))
        elif family == "wall":
            a, b = draw(points), draw(points)
            if a != b:
                world.add_walls([a], [b], draw(st.floats(0, 10)))
        elif family == "box":
            lo = draw(points)
            size = draw(st.tuples(st.floats(1e-3, 1e3), st.floats(1e-3, 1e3)))
            world.add_boxes([lo], [(lo[0] + size[0], lo[1] + size[1])])
        elif family == "polygon":
            # A triangle scaled and moved by random floats stays simple.
            c, s = draw(points), draw(st.floats(1e-2, 1e3))
            world.add_polygon([(c[0], c[1]), (c[0] + s, c[1]), (c[0], c[1] + s)])
        else:
            rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
            table = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
            world.add_grid(np.reshape(table, (rows, cols)), draw(st.floats(1e-3, 1e3)),
                           draw(points))
    removed = draw(st.lists(st.sampled_from(world.ids.tolist()), unique=True)) \
        if len(world) else []
    if removed:
        world.remove(removed)
    return world


@given(random_worlds())
def test_any_world_round_trips_exactly(world):
    with tempfile.TemporaryDirectory() as tmp:
        level = load(save(world, Path(tmp) / "w.json"))
    assert_same_obstacles(world, level.world, same_ids=False)


# ------------------------------------------------------------------ errors
def write(tmp_path, data, name="scene.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1))
    return path


def scene(**families):
    return {"format": "sidestep-scene", "version": 1, **families}


def refused(path):
    with pytest.raises(LevelError) as info:
        load(path)
    assert str(path) in str(info.value)
    return info.value


def test_json_syntax_errors_give_line_and_column(tmp_path):
    path = write(tmp_path, '{\n "format": "sidestep-scene",\n "version": 1,\n "circles": [\n'
                           '  {"center": [0, 0] "radius": 1}\n ]\n}\n')
    err = refused(path)
    assert err.place == "line 5, column 21" and "invalid JSON" in err.message


@pytest.mark.parametrize("data, place, words", [
    (scene(circles=[{"center": [0, 0], "radius": 1}, {"center": [1, 1], "radius": -2.0}]),
     "circles[1].radius", ">= 0"),
    (scene(circles=[{"center": [0, 0]}]), "circles[0].radius", "missing key"),
    (scene(walls=[{"start": [0, 0], "end": [1, 0]}] * 3
           + [{"start": [0, 0], "end": [1, 0], "clearance": -0.5}]),
     "walls[3].clearance", ">= 0"),
    (scene(walls=[{"start": [0, 0], "end": [0, 0]}]), "walls[0]", "same point"),
    (scene(walls=[{"start": [0, "x"], "end": [1, 0]}]), "walls[0].start[1]", "number"),
    (scene(walls=[{"start": [0, 0, 0], "end": [1, 0]}]), "walls[0].start", "point"),
    (scene(boxes=[{"min": [0, 0], "max": [1, 0]}]), "boxes[0]", "below max"),
    (scene(boxes=[{"min": [0, 0], "max": [1, 1], "size": 2}]), "boxes[0].size", "unknown key"),
    (scene(polygons=[{"vertices": [[0, 0], [1, 0]]}]), "polygons[0].vertices", "3 vertices"),
    (scene(polygons=[{"vertices": [[0, 0], [1, 1], [1, 0], [0, 1]]}]), "polygons[0]",
     "simple polygon"),
    (scene(grids=[{"cell_size": 1, "blocked": ["010", "01"]}]), "grids[0].blocked[1]",
     "every row must have 3"),
    (scene(grids=[{"cell_size": 1, "blocked": ["010", "0x0"]}]), "grids[0].blocked[1]",
     "0 and 1"),
    (scene(grids=[{"cell_size": 0, "blocked": ["1"]}]), "grids[0].cell_size", "> 0"),
    (scene(circles=[{"center": [0, 0], "radius": 1e999}]), "circles[0].radius", "finite"),
    (scene(circles=[{"id": 0, "center": [0, 0], "radius": 1}, {"id": 0, "center": [0, 0],
                                                                  "radius": 1}]),
     "circles[1].id", "also used by circles[0]"),
    (scene(circles=[{"id": 0, "center": [0, 0], "radius": 1}, {"center": [0, 0], "radius": 1}]),
     "circles[1].id", "every obstacle an id"),
    (scene(circles=[{"id": 5, "center": [0, 0], "radius": 1}]), "circles[0].id", "0 .. 0"),
    (scene(circle=[]), "circle", "unknown key"),
    ({"format": "sidestep-scene", "version": 3}, "version", "versions 1, 2"),
    ({"format": "sidestep-scene"}, "version", "missing key"),
    (scene(spawns=[[0, 0], [1]]), "spawns[1]", "point"),
    (scene(scenarios=[{"start": [0, 0]}]), "scenarios[0].goal", "missing key"),
    (scene(name=3), "name", "string"),
])
def test_bad_scenes_name_the_json_path(tmp_path, data, place, words):
    err = refused(write(tmp_path, data))
    assert err.place == place, err
    assert words in err.message, err


def test_a_scene_without_ids_loads_family_by_family(tmp_path):
    level = load(write(tmp_path, scene(
        grids=[{"cell_size": 1, "blocked": ["1"]}], circles=[{"center": [5, 5], "radius": 1}],
        walls=[{"start": [0, 0], "end": [1, 0]}])))
    assert [level.world.family(i) for i in level.world.ids] == ["circle", "wall", "grid"]
    assert level.world.geometry("wall")["clearance"].tolist() == [0.0]      # the default


def test_ids_in_the_file_give_the_load_order(tmp_path):
    level = load(write(tmp_path, scene(
        circles=[{"id": 2, "center": [5, 5], "radius": 1}],
        walls=[{"id": 0, "start": [0, 0], "end": [1, 0]}, {"id": 1, "start": [0, 1],
                                                            "end": [1, 1]}])))
    assert [level.world.family(i) for i in level.world.ids] == ["wall", "wall", "circle"]


def test_toml_scenes_are_read(tmp_path):
    path = write(tmp_path, 'format = "sidestep-scene"\nversion = 1\nname = "t"\n\n'
                           '[[circles]]\ncenter = [0.5, 1.0]\nradius = 0.25\n\n'
                           '[[walls]]\nstart = [0.0, 0.0]\nend = [2.0, 0.0]\nclearance = 0.1\n',
                 "scene.toml")
    level = load(path)
    assert level.name == "t" and len(level.world) == 2
    assert level.world.geometry("circle")["radii"].tolist() == [0.25]
    bad = write(tmp_path, 'format = "sidestep-scene"\nversion = 1\n[[circles]\n', "bad.toml")
    err = refused(bad)
    assert err.place.startswith("line 3") and "TOML" in err.message
    bad = write(tmp_path, 'format = "sidestep-scene"\nversion = 1\n[[circles]]\ncenter = [0.0]\n'
                          'radius = 1.0\n', "bad2.toml")
    assert refused(bad).place == "circles[0].center"


def test_save_checks_its_arguments_and_leaves_no_partial_file(tmp_path):
    world = every_family_world()
    with pytest.raises(ValueError, match=".json"):
        save(world, tmp_path / "w.toml")
    with pytest.raises(TypeError, match="World2D"):
        save([1, 2], tmp_path / "w.json")
    with pytest.raises(ValueError, match="spawns"):
        save(world, tmp_path / "w.json", spawns=[(0, np.nan)])
    with pytest.raises(TypeError, match="Scenarios"):
        save(world, tmp_path / "w.json", scenarios=[(0, 0)])
    assert list(tmp_path.iterdir()) == []


def test_scene_data_is_plain_json_data():
    data = scene_data(every_family_world(), name="x")
    assert json.loads(json.dumps(data, allow_nan=False)) == data
    assert [o["id"] for k in ("circles", "walls", "boxes", "polygons", "grids")
            for o in data[k]] != sorted(o["id"] for k in data if isinstance(data[k], list)
                                        for o in data[k])      # interleaved families
