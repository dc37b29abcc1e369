"""Every real level file in ``../shared/data`` loads with the content SOURCES.md describes.

Skipped where ``/work/shared/data`` is absent. Expected counts are worked out
here from the raw files with a few lines of independent code (characters of a
``.map``, records of a WAD), or taken from SOURCES.md.
"""
import shutil
import struct
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from sidestep.io import load, save
from sidestep.io.wad import map_names
from sidestep.level import LevelError
from sidestep.tolerances import PROMISE

from same_world import assert_same_obstacles

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")

MAPS = sorted(p.relative_to(DATA).as_posix() for p in (DATA / "grid").glob("*/*.map")) \
    if DATA.is_dir() else []
WADS = ["e1m1", "map01", "dm01", "map12"]


def families(world):
    return Counter(world.family(i) for i in world.ids)


def assert_agents_walk(world, starts, radius, step, seed=0, frames=4):
    """Agents moved by small random steps never end closer than ``radius`` to a surface."""
    rng = np.random.default_rng(seed)
    p = np.asarray(starts, dtype=np.float64)
    for _ in range(frames):
        p = world.move_many(p, rng.normal(0.0, step, p.shape), radius=radius)
        assert world.clearance(p).min() >= radius - PROMISE
    return p


def free_points(world, radius, count, seed=0):
    """Random points of the world's bounds with room for an agent of ``radius``."""
    x0, y0, x1, y1 = world.bounds
    pts = np.random.default_rng(seed).uniform((x0, y0), (x1, y1), (count * 4, 2))
    return pts[world.clearance(pts) > radius][:count]


# ---------------------------------------------------------------- Moving AI
@pytest.mark.parametrize("rel", MAPS)
def test_every_moving_ai_map_loads_with_its_scenarios(rel):
    path = DATA / rel
    lines = path.read_text().splitlines()
    height, width = int(lines[1].split()[1]), int(lines[2].split()[1])
    blocked_chars = sum(sum(ch not in ".GS" for ch in row) for row in lines[4:4 + height])
    rows = [r for r in (DATA / (rel + ".scen")).read_text().splitlines()[1:] if r.strip()]

    level = load(path)
    table = level.world.geometry("grid")["blocked"][0]
    assert table.shape == (height, width) and int(table.sum()) == blocked_chars
    assert level.name == path.stem
    dropped = 15 if rel == "grid/wc3/battleground.map" else 0      # see SOURCES.md
    assert len(level.scenarios.starts) == len(rows) - dropped
    assert len(level.problems) == dropped
    # Kept endpoints are centres of passable cells.
    cells = np.concatenate([level.scenarios.starts, level.scenarios.goals]) - 0.5
    assert not table[cells[:, 1].astype(int), cells[:, 0].astype(int)].any()


def test_the_battleground_scenarios_drop_their_bad_rows_by_line():
    level = load(DATA / "grid/wc3/battleground.map")
    assert all(p.startswith("battleground.map.scen line ") and p.endswith("; row dropped")
               for p in level.problems)
    assert len(level.scenarios.starts) == 1237 - 15


@pytest.mark.parametrize("rel", ["grid/dao/arena.map", "grid/dao/den520d.map",
                                 "grid/mazes/maze512-1-0.map"])
def test_agents_walk_moving_ai_maps(rel):
    level = load(DATA / rel)
    assert_agents_walk(level.world, level.scenarios.starts[:300], radius=0.3, step=0.4)


def test_the_largest_grid_map_loads_in_well_under_two_seconds():
    start = time.perf_counter()
    level = load(DATA / "grid/dao/orz900d.map")
    assert time.perf_counter() - start < 2.0
    assert level.world.geometry("grid")["blocked"][0].shape == (656, 1491)
    assert len(level.scenarios.starts) == 7015


# -------------------------------------------------------------------- Tiled
TILED = {
    # file: (families, spawns) with the rules of sidestep.io.tiled; the last 4
    # walls are the one-sided frame round the map's extent
    "tiled/tiled_examples/orthogonal-outside.tmx": ({"polygon": 1, "wall": 4}, 1),     # the Fixture
    "tiled/sticker_knight/sandbox.tmx": ({"box": 18, "wall": 4}, 0),          # bodyType static
    "tiled/melonjs_platformer/map1.tmx": ({"box": 10, "polygon": 1, "wall": 12}, 0),
    "tiled/melonjs_platformer/map2.json": ({"box": 4, "wall": 13}, 0),
    "tiled/tuxemon/maps/buddha_mountain.tmx": ({"box": 132, "wall": 54}, 0),
    "tiled/tuxemon/maps/rubberduck_cave_01.tmx": ({"box": 130, "wall": 7}, 0),
}


@pytest.mark.parametrize("rel", sorted(TILED))
def test_every_tiled_map_loads_its_collision_geometry(rel):
    expected, spawns = TILED[rel]
    level = load(DATA / rel)
    assert dict(families(level.world)) == expected
    assert len(level.spawns) == spawns


def test_buddha_mountain_reads_its_133_rectangles_and_50_polylines():
    level = load(DATA / "tiled/tuxemon/maps/buddha_mountain.tmx")
    # Rectangle 160 has a height but no width in the file: it is reported, not built.
    assert level.problems == ("layer 'Collisions', object 160: a rectangle of size 0 x 0; "
                              "skipped",)
    assert families(level.world)["box"] + len(level.problems) == 133
    assert families(level.world)["wall"] == 50 + 4        # one segment each, and the frame


def test_sticker_knight_castle_objects_are_turned_about_their_bottom_left_corner():
    level = load(DATA / "tiled/sticker_knight/sandbox.tmx", layers=["castle"])
    assert dict(families(level.world)) == {"box": 29, "wall": 4}     # the frame: 4 walls
    boxes = level.world.geometry("box")
    found = {(tuple(lo), tuple(hi)) for lo, hi in zip(boxes["mins"].tolist(),
                                                       boxes["maxs"].tolist())}
    # Object 153: tile 192 x 64 at (2176, 223), rotation 90; 159: at (1952, 415), -90.
    assert ((2176.0, 223.0), (2240.0, 415.0)) in found
    assert ((1888.0, 223.0), (1952.0, 415.0)) in found
    # Object 133 (flipped, not rotated): (1984, 575) is its bottom-left corner.
    assert ((1984.0, 479.0), (2240.0, 575.0)) in found


def test_the_melonjs_tileset_json_is_refused_as_a_tileset():
    with pytest.raises(LevelError) as info:
        load(DATA / "tiled/melonjs_platformer/tileset.json")
    assert "is a Tiled tileset, not a map" in str(info.value)


@pytest.mark.parametrize("rel, radius", [("tiled/tuxemon/maps/buddha_mountain.tmx", 6.0),
                                         ("tiled/melonjs_platformer/map1.tmx", 10.0),
                                         ("tiled/melonjs_platformer/map2.json", 10.0)])
def test_agents_walk_tiled_maps(rel, radius):
    world = load(DATA / rel).world
    assert_agents_walk(world, free_points(world, radius, 200), radius=radius, step=12.0)


# ---------------------------------------------------------------------- WAD
def raw_linedefs(path):
    """(one-sided, impassable two-sided) linedef counts, read with struct alone."""
    data = path.read_bytes()
    count, offset = struct.unpack_from("<ii", data, 4)
    lumps = {}
    for i in range(count):
        at, size, name = struct.unpack_from("<ii8s", data, offset + 16 * i)
        lumps.setdefault(name.rstrip(b"\0").decode(), (at, size))
    at, size = lumps["LINEDEFS"]
    one = two_blocking = 0
    for k in range(size // 14):
        _, _, flags, _, _, _, left = struct.unpack_from("<7H", data, at + 14 * k)
        one += left == 0xFFFF
        two_blocking += left != 0xFFFF and flags & 1
    return one, two_blocking


@pytest.mark.parametrize("name", WADS)
def test_every_wad_loads_its_blocking_linedefs(name):
    path = DATA / "polygons2d/freedoom" / f"{name}.wad"
    one, impassable = raw_linedefs(path)
    bare = load(path, step_height=None, agent_height=None)
    assert len(bare.world) == one + impassable and bare.problems == ()
    level = load(path)
    assert len(level.world) >= len(bare.world)                # steps and doors add walls
    assert set(families(level.world)) == {"wall"}
    assert level.name == map_names(path)[0] and len(level.spawns) >= 1


def test_e1m1_has_521_one_sided_walls_and_the_bounds_of_sources_md():
    path = DATA / "polygons2d/freedoom/e1m1.wad"
    assert raw_linedefs(path)[0] == 521
    level = load(path, map="E1M1")
    assert level.world.bounds == (-704.0, -1064.0, 3248.0, 2336.0)
    assert len(level.spawns) == 4


def test_the_largest_wad_loads_in_well_under_two_seconds():
    start = time.perf_counter()
    level = load(DATA / "polygons2d/freedoom/map12.wad")
    assert time.perf_counter() - start < 2.0
    assert level.world.bounds == (-4136.0, -1736.0, 3544.0, 2816.0)


@pytest.mark.parametrize("name", ["e1m1", "map12"])
def test_agents_walk_doom_maps(name):
    level = load(DATA / "polygons2d/freedoom" / f"{name}.wad")
    # The player's radius is 16 map units; the starts are where Doom puts players.
    starts = np.concatenate([level.spawns, free_points(level.world, 16.0, 300)])
    assert_agents_walk(level.world, starts, radius=16.0, step=24.0)


# ----------------------------------------------------- round trip and damage
@pytest.mark.parametrize("rel", ["grid/dao/arena.map", "tiled/tuxemon/maps/buddha_mountain.tmx",
                                 "polygons2d/freedoom/e1m1.wad"])
def test_real_levels_round_trip_through_scene_files(tmp_path, rel):
    level = load(DATA / rel)
    again = load(save(level, tmp_path / "level.json"))
    assert_same_obstacles(level.world, again.world)
    np.testing.assert_array_equal(again.spawns, level.spawns)
    if level.scenarios is not None:
        np.testing.assert_array_equal(again.scenarios.goals, level.scenarios.goals)
        np.testing.assert_array_equal(again.scenarios.lengths, level.scenarios.lengths)


def test_damaged_copies_of_real_files_are_refused_with_the_place(tmp_path):
    cases = []
    text = (DATA / "grid/dao/arena.map").read_bytes()
    cut = text[:len(text) // 2]
    assert not cut.endswith(b"\n")
    (tmp_path / "arena.map").write_bytes(cut)                             # ends mid-row
    cases.append(("arena.map", f"line {len(cut.splitlines())}"))
    tmx = (DATA / "tiled/tuxemon/maps/buddha_mountain.tmx").read_text()
    (tmp_path / "mountain.tmx").write_text(tmx[:len(tmx) // 2])
    cases.append(("mountain.tmx", "line "))
    shutil.copy(DATA / "tiled/melonjs_platformer/tileset.json", tmp_path)
    js = (DATA / "tiled/melonjs_platformer/map2.json").read_text()
    (tmp_path / "map2.json").write_text(js.replace('"orientation":', '"orientation"', 1))
    cases.append(("map2.json", "line "))
    wad = bytearray((DATA / "polygons2d/freedoom/e1m1.wad").read_bytes())
    count, offset = struct.unpack_from("<ii", wad, 4)
    struct.pack_into("<i", wad, offset + 16 * 2 + 4, 16450 - 5)           # LINEDEFS size
    (tmp_path / "cut.wad").write_bytes(bytes(wad))
    cases.append(("cut.wad", "E1M1 LINEDEFS record 1174"))
    struct.pack_into("<i", wad, 8, len(wad))                              # directory offset
    (tmp_path / "dir.wad").write_bytes(bytes(wad))
    cases.append(("dir.wad", "header"))
    for name, place in cases:
        with pytest.raises(LevelError) as info:
            load(tmp_path / name)
        assert info.value.file == str(tmp_path / name), name
        assert info.value.place.startswith(place), (name, info.value)
