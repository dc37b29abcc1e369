"""Polyanya navigation meshes: outline walls, both format versions, scenarios, broken files."""
from pathlib import Path

import numpy as np
import pytest

from sidestep.io import load
from sidestep.level import LevelError
from sidestep.tolerances import PROMISE

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")
MESHES = DATA / "polygons2d" / "polyanya"

# An L-shaped room, free space [0, 2] x [0, 1] and [0, 1] x [1, 2], in six
# counter-clockwise triangles:
#
#   3---4
#   | / |
#   0---1---2
#   | / | / |
#   5---6---7
VERTICES = [(0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (0, 0), (1, 0), (2, 0)]
TRIANGLES = [(5, 6, 0), (6, 1, 0), (6, 7, 2), (6, 2, 1), (0, 1, 4), (0, 4, 3)]
#: The L's outline: eight unit edges.
OUTLINE = sorted([((0.0, 0.0), (1.0, 0.0)), ((1.0, 0.0), (2.0, 0.0)), ((2.0, 0.0), (2.0, 1.0)),
                  ((1.0, 1.0), (2.0, 1.0)), ((1.0, 1.0), (1.0, 2.0)), ((0.0, 2.0), (1.0, 2.0)),
                  ((0.0, 1.0), (0.0, 2.0)), ((0.0, 0.0), (0.0, 1.0))])


def _neighbours(polygons):
    """Per polygon, the polygon across edge ``(v[i-1], v[i])`` (-1: none): version 2's order."""
    owners = {}
    for k, ring in enumerate(polygons):
        for i in range(len(ring)):
            owners.setdefault(frozenset((ring[i - 1], ring[i])), []).append(k)
    return [[next((j for j in owners[frozenset((ring[i - 1], ring[i]))] if j != k), -1)
             for i in range(len(ring))] for k, ring in enumerate(polygons)]


def mesh_text(version=2, vertices=VERTICES, polygons=TRIANGLES):
    """A mesh file's text, written the way the format describes."""
    across = _neighbours(polygons)
    lines = ["mesh", str(version), f"{len(vertices)} {len(polygons)}"]
    for v, (x, y) in enumerate(vertices):
        around = [k for k, ring in enumerate(polygons) if v in ring]
        lines.append(f"{x} {y} {len(around)} {' '.join(map(str, around))}")
    for ring, near in zip(polygons, across):
        if version == 1:
            near = near[1:] + near[:1]           # version 1: entry i is edge (v[i], v[i+1])
        lines.append(f"{len(ring)} {' '.join(map(str, ring))} {' '.join(map(str, near))}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def room(tmp_path):
    path = tmp_path / "room.mesh"
    path.write_text(mesh_text())
    return path


def outline(world):
    geometry, _ = world.segments()
    return sorted(tuple(sorted([tuple(map(float, g[0:2])), tuple(map(float, g[2:4]))]))
                  for g in geometry)


def test_outline_edges_become_walls_and_shared_edges_do_not(room):
    level = load(room)
    assert {level.world.family(i) for i in level.world.ids} == {"wall"}
    assert outline(level.world) == OUTLINE            # no edge two triangles share
    assert level.name == "room" and level.scenarios is None and level.problems == ()


def test_version_1_orders_neighbours_one_edge_on(tmp_path):
    path = tmp_path / "room1.mesh"
    path.write_text(mesh_text(version=1))
    assert outline(load(path).world) == OUTLINE


def test_clearance_inside_is_the_distance_to_the_outline(room):
    world = load(room).world
    points = np.array([(0.5, 0.5), (1.5, 0.5), (0.5, 1.5), (0.25, 0.9), (1.9, 0.6)])
    # (0.25, 0.9) is 0.1 below the triangles' shared edge y = 1, which is no
    # wall: its nearest surface is the left side, 0.25 away.
    assert world.clearance(points) == pytest.approx([0.5, 0.5, 0.5, 0.25, 0.1])


def test_agent_slides_round_the_inner_corner_and_stays_in_the_room(room):
    world = load(room).world
    # From the upper arm, pushed down and right past the L's inner corner (1, 1).
    move = world.move((0.5, 1.6), (3.0, -2.0), radius=0.2)
    x, y = move.position
    assert move.hit and world.clearance(move.position) >= 0.2 - PROMISE
    inside_l = (0.0 <= x <= 2.0 and 0.0 <= y <= 1.0) or (0.0 <= x <= 1.0 and 0.0 <= y <= 2.0)
    assert inside_l


def _scen(rows):
    head = "version 1\n"
    return head + "".join(f"0\troom.map\t2\t2\t{sx}\t{sy}\t{gx}\t{gy}\t1.5\n"
                          for sx, sy, gx, gy in rows)


def test_scenarios_keep_rows_in_the_mesh_and_report_the_others(room, tmp_path):
    scen = tmp_path / "pairs.scen"
    # In, in; on the outline's corner (0, 0), in; start in the missing square; goal off the map.
    scen.write_text(_scen([(0, 0, 1, 0), (0, 2, 2, 1), (2, 2, 0, 0), (0, 0, 3, 3)]))
    level = load(room, scenarios=scen)
    assert level.scenarios.starts.tolist() == [[0.0, 0.0], [0.0, 2.0]]
    assert level.scenarios.goals.tolist() == [[1.0, 0.0], [2.0, 1.0]]
    assert level.scenarios.lengths.tolist() == [1.5, 1.5]
    assert len(level.problems) == 2
    assert "line 4" in level.problems[0] and "start (2, 2) outside the mesh" in level.problems[0]
    assert "line 5" in level.problems[1] and "goal (3, 3)" in level.problems[1]


def test_scenarios_beside_the_mesh_are_read_by_default(room):
    room.with_suffix(".scen").write_text(_scen([(0, 0, 1, 0)]))
    assert len(load(room).scenarios.starts) == 1
    assert load(room, scenarios=False).scenarios is None


def test_load_refuses_options_meshes_do_not_take(room):
    with pytest.raises(TypeError, match="map"):
        load(room, map="E1M1")
    with pytest.raises(TypeError, match="scenarios"):
        load(room, scenarios=3)


def _broken(text, old, new, count=1):
    assert old in text
    return text.replace(old, new, count)


GOOD = mesh_text()
BROKEN = [
    ("not a mesh", "mush" + GOOD[4:], "line 1", "expected 'mesh'"),
    ("version 3", _broken(GOOD, "\n2\n", "\n3\n"), "line 2", "version 1 or 2"),
    ("bad counts", _broken(GOOD, "8 6\n", "8 six\n"), "line 3", "'V P'"),
    ("header only", "mesh\n2\n", "line 2", "ends inside the header"),
    ("truncated", "\n".join(GOOD.splitlines()[:-2]) + "\n", "line 15",
     "ends after 12"),
    ("vertex line short", _broken(GOOD, "0 1 4 0 1 4 5\n", "0 1 4 0 1\n"), "line 4",
     "vertex 0"),
    ("vertex not finite", _broken(GOOD, "0 1 4 0 1 4 5\n", "nan 1 4 0 1 4 5\n"), "line 4",
     "finite"),
    ("a word in a polygon", _broken(GOOD, "3 5 6 0", "3 5 six 0"), "line 12", "polygon line"),
    ("two-sided polygon", _broken(GOOD, "3 5 6 0 -1 -1 1", "2 5 6 -1 -1"), "line 12",
     "polygon 0"),
    ("vertex out of range", _broken(GOOD, "3 5 6 0", "3 5 9 0"), "line 12", "vertex 9"),
    ("neighbour out of range", _broken(GOOD, "3 5 6 0 -1 -1 1", "3 5 6 0 -1 -1 8"), "line 12",
     "neighbour 8"),
    ("text after", GOOD + "4 0 1 2 3\n", "line 18", "text after"),
    ("neighbours of the other version", _broken(GOOD, "\n2\n", "\n1\n"), "line 12",
     "version line (1)"),
    # Not whole numbers where whole numbers go, however Python might read them.
    ("a count of inf", _broken(GOOD, "3 5 6 0", "inf 5 6 0"), "line 12", "whole numbers"),
    ("an id of nan", _broken(GOOD, "3 5 6 0", "3 5 nan 0"), "line 12", "whole numbers"),
    ("a superscript digit", _broken(GOOD, "8 6\n", "8 \u00b2\n"), "line 3", "'V P'"),
    ("a vertex beyond 1e12", _broken(GOOD, "0 1 4 0 1 4 5\n", "0 1e13 4 0 1 4 5\n"),
     "line 4", "within"),
]


@pytest.mark.parametrize("name, text, place, words", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_mesh_files_name_the_line(tmp_path, name, text, place, words):
    path = tmp_path / "broken.mesh"
    path.write_text(text)
    with pytest.raises(LevelError) as caught:
        load(path)
    assert caught.value.place.startswith(place) and words in str(caught.value)


def test_scenarios_beyond_any_level_and_crossing_polygons_are_named(room, tmp_path):
    scen = tmp_path / "far.scen"
    scen.write_text(_scen([(0, 0, 1, 0), (0, 0, 10**400, 0)]))
    with pytest.raises(LevelError) as caught:
        load(room, scenarios=scen)
    assert caught.value.place == "line 3" and "within" in str(caught.value)
    # A polygon whose edges cross only matters (and is named) when scenario
    # points must be placed in the mesh.
    bowtie = tmp_path / "bowtie.mesh"          # the upper square as a quad 0-1-3-4: a bow tie
    bowtie.write_text(mesh_text(polygons=TRIANGLES[:4] + [(0, 1, 3, 4)]))
    scen.write_text(_scen([(0, 0, 1, 0)]))
    load(bowtie, scenarios=False)
    with pytest.raises(LevelError, match="polygon 4"):
        load(bowtie, scenarios=scen)


def test_zero_length_outline_edge_is_refused(tmp_path):
    vertices = list(VERTICES)
    vertices[5] = vertices[6]                     # (0, 0) moved onto (1, 0)
    path = tmp_path / "flat.mesh"
    path.write_text(mesh_text(vertices=vertices))
    with pytest.raises(LevelError, match="zero length"):
        load(path)


# ------------------------------------------------------------------ real files
@needs_data
def test_arena_mesh_is_the_arena_map_seen_from_inside():
    """The navmesh of DAO arena bounds the same free space as the grid map: equal clearances."""
    mesh = load(MESHES / "meshes/arena.mesh", scenarios=MESHES / "scenarios/arena.scen")
    grid = load(DATA / "grid/dao/arena.map", scenarios=False).world
    assert len(mesh.world) == 112                  # SOURCES.md: 112 boundary edges
    assert len(mesh.scenarios.starts) == 160 and mesh.problems == ()
    rng = np.random.default_rng(5)
    points = rng.random((5000, 2)) * 49.0
    inside = grid.clearance(points) > 0.0          # free cells of the map
    # Points strictly in free space: both worlds see the same nearest surface.
    assert np.array_equal(mesh.world.clearance(points[inside]), grid.clearance(points[inside]))


@needs_data
def test_merged_meshes_have_the_same_outline():
    plain = load(MESHES / "meshes/arena.mesh", scenarios=False).world
    merged = load(MESHES / "meshes/arena-merged.mesh", scenarios=False).world
    assert outline(plain) == outline(merged)


@needs_data
def test_aurora_loads_and_its_agents_stay_clear():
    level = load(MESHES / "meshes/aurora-merged.mesh", scenarios=MESHES / "scenarios/aurora.scen")
    world = level.world
    assert len(world) == 34804                     # SOURCES.md: 34,804 boundary edges
    assert len(level.scenarios.starts) == 2990 and level.problems == ()
    # Agents at the scenario starts that fit walk towards their goals.
    radius = 0.25
    starts = level.scenarios.starts
    fit = world.clearance(starts) >= radius
    p, goals = starts[fit], level.scenarios.goals[fit]
    assert len(p) > 1000
    for _ in range(20):
        step = goals - p
        step *= np.minimum(1.0, 0.5 / np.maximum(np.hypot(*step.T), 1e-12))[:, None]
        p = world.move_many(p, step, radius=radius)
        assert world.clearance(p).min() >= radius - PROMISE
