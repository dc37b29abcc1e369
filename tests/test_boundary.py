"""A level's edge: one-sided walls, the void behind them, and what walk and check say about it."""
import json
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep import cli
from sidestep.commands.check import check
from sidestep.commands.walk import free_starts, walk
from sidestep.io import load, save
from sidestep.io.navmesh import _inside_mesh, _parse

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")

#: A room with a notch, walkable inside, drawn counter-clockwise (walkable on the left).
ROOM = np.array([(0, 0), (10, 0), (10, 10), (6, 10), (6, 6), (4, 6), (4, 10), (0, 10)], float)
#: A square hole in it, drawn clockwise (walkable outside it, on the left).
HOLE = np.array([(2, 2), (2, 4), (4, 4), (4, 2)], float)


def room_world():
    world = sidestep.World2D()
    for ring in (ROOM, HOLE):
        world.add_walls(ring, np.roll(ring, -1, axis=0), one_sided=True)
    return world


def inside_polygon(points, ring):
    """Independent reference: even-odd crossings of a horizontal ray."""
    x, y = points[:, 0:1], points[:, 1:2]
    a, b = ring, np.roll(ring, -1, axis=0)
    crosses = (a[:, 1] > y) != (b[:, 1] > y)
    at = a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / np.where(crosses, b[:, 1] - a[:, 1], 1)
    return (crosses & (x < at)).sum(axis=1) % 2 == 1


def test_clearance_is_negative_exactly_outside_the_walkable_area():
    world = room_world()
    rng = np.random.default_rng(3)
    points = rng.uniform(-3, 13, (4000, 2))
    inside = inside_polygon(points, ROOM) & ~inside_polygon(points, HOLE)
    clearance = world.clearance(points)
    assert np.array_equal(clearance > 0, inside)
    # The distance is the distance to the edge, either side (a point across
    # the hole is not "behind" the hole's far wall).
    assert world.clearance((3.0, 5.0)) == pytest.approx(1.0)       # above the hole, in the notch
    assert world.clearance((-1.0, -1.0)) == pytest.approx(-np.sqrt(2))   # beyond a corner
    assert world.clearance((3.0, 3.0)) == pytest.approx(-1.0)      # in the hole
    assert world.clearance((5.0, 8.0)) == pytest.approx(-1.0)      # in the notch's void


@pytest.mark.parametrize("start", [(0.0, 5.0), (-0.2, -0.2), (10.1, 9.9), (5.0, 6.0), (3.0, 2.1),
                                   (-0.3, 5.0)])
def test_an_agent_overlapping_the_edge_recovers_to_the_walkable_side(start):
    world = room_world()
    move = world.move(start, (0.0, 0.01), radius=0.4)
    assert move.recovered
    assert world.clearance(move.position) >= 0.4 - 1e-9


def test_one_sided_walls_still_block_both_ways():
    world = sidestep.World2D()
    world.add_walls([(0, -5)], [(0, 5)], one_sided=True)      # walkable on the left, x < 0
    assert world.move((-1, 0), (3, 0), radius=0.2).position[0] <= -0.2 + 1e-9
    assert world.raycast((-1, 0), (1, 0)).hit          # one ray in, one answer out
    assert world.raycast((1, 0), (-1, 0)).hit          # and from the void side


def test_removing_an_edge_wall_opens_its_corner():
    world = room_world()
    assert world.clearance((-1.0, -1.0)) < 0
    world.remove([0, 7])                  # both walls at the corner (0, 0)
    assert world.clearance((-1.0, -1.0)) > 0


def test_one_sided_walls_round_trip_through_scene_files(tmp_path):
    world = room_world()
    world.add_walls([(20, 0)], [(20, 5)], clearance=0.5)
    path = tmp_path / "room.json"
    save(world, path)
    again = load(path).world
    assert again.geometry("wall")["one_sided"].tolist() == [True] * 12 + [False]
    points = np.random.default_rng(0).uniform(-3, 13, (500, 2))
    assert np.array_equal(again.clearance(points), world.clearance(points))
    data = json.loads(path.read_text())
    assert "one_sided" not in data["walls"][-1]             # written only when true
    data["walls"][0]["one_sided"] = "yes"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"walls\[0\]\.one_sided"):
        load(path)


@pytest.mark.parametrize("bad, error", [("yes", TypeError), (np.array([1, 0]), TypeError),
                                        (np.array([True, False, True]), ValueError)])
def test_bad_one_sided_flags_are_refused_by_name(bad, error):
    world = sidestep.World2D()
    with pytest.raises(error, match="one_sided"):
        world.add_walls([(0, 0), (1, 0)], [(1, 0), (2, 0)], one_sided=bad)
    assert len(world) == 0


def test_walk_warns_about_overlapping_starts_and_not_about_free_ones(capsys):
    world = room_world()
    run = walk(world, [(5.0, 3.0), (0.0, 5.0), (5.0, 6.2)], radius=0.3, steps=5, speed=0.1)
    assert [o.index for o in run.overlaps] == [1, 2]
    rows = run.agents()
    assert rows[0]["start_overlap"] is None
    assert rows[1]["start_overlap"]["outside"] is False and rows[1]["start_overlap"]["obstacles"]
    assert rows[2]["start_overlap"]["outside"] is True
    assert run.summary()["overlapping_starts"] == 2 and run.summary()["starts_outside"] == 1
    assert (world.clearance(run.positions[-1]) >= 0.3 - 1e-9).all()
    # Deeper in the void than the radius, a move does not notice (only the
    # edge within reach is looked at); walk still says where it started.
    deep = walk(world, [(5.0, 8.0)], radius=0.3, steps=1, speed=0.1)
    assert deep.overlaps[0].outside and "outside the level" in deep.overlaps[0].describe()


def test_random_starts_lie_inside_the_level():
    world = room_world()
    starts = free_starts(world, 200, 0.2, np.random.default_rng(1))
    assert (inside_polygon(starts, ROOM) & ~inside_polygon(starts, HOLE)).all()


# ----------------------------------------------------------------- real levels
def run_cli(argv, capsys):
    status = cli.main([str(a) for a in argv])
    return status, capsys.readouterr().out


@needs_data
def test_recovery_stays_inside_navmesh():
    path = DATA / "polygons2d/polyanya/meshes/arena.mesh"
    level = load(path)
    starts = level.scenarios.starts
    assert len(starts) == 160
    moved = level.world.move_many(starts, np.tile((0.0, -0.166), (len(starts), 1)), radius=0.4)
    vertices, polygons, _ = _parse(path)
    assert _inside_mesh(moved, path, vertices, polygons).all()
    assert (level.world.clearance(moved) >= 0.4 - 1e-9).all()
    one = level.world.move((1.0, 3.0), (0, -0.166), radius=0.4)
    assert _inside_mesh(one.position[None], path, vertices, polygons).all()


@needs_data
def test_walkable_agrees_with_the_navmesh_polygons():
    path = DATA / "polygons2d/polyanya/meshes/aurora-merged.mesh"
    level = load(path, scenarios=False)
    vertices, polygons, _ = _parse(path)
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    points = np.random.default_rng(5).uniform(lo, hi, (3000, 2))
    inside = _inside_mesh(points, path, vertices, polygons)
    walkable = level.walkable(points)
    # On a polygon edge both say inside; elsewhere they agree exactly.
    assert np.array_equal(walkable, inside)
    starts = free_starts(level.world, 20, 0.0, np.random.default_rng(0))
    assert _inside_mesh(starts, path, vertices, polygons).all()


@needs_data
@pytest.mark.parametrize("rel", ["tiled/tuxemon/maps/buddha_mountain.tmx",
                                 "tiled/tuxemon/maps/rubberduck_cave_01.tmx"])
def test_walkers_stay_inside_tiled_map(rel):
    pytest.importorskip("pytiled_parser")
    level = load(DATA / rel)
    frame = level.world.geometry("wall")
    edge = np.vstack([frame["starts"][frame["one_sided"]], frame["ends"][frame["one_sided"]]])
    lo, hi = edge.min(axis=0), edge.max(axis=0)
    assert lo.tolist() == [0.0, 0.0]
    starts = free_starts(level.world, 20, 6.0, np.random.default_rng(0))
    run = walk(level.world, starts, radius=6.0, steps=300, seed=0)
    assert not run.overlaps
    assert (run.positions >= lo).all() and (run.positions <= hi).all()


@needs_data
def test_walk_reports_overlapping_start(capsys):
    mesh = DATA / "polygons2d/polyanya/meshes/arena.mesh"
    status, out = run_cli(["walk", mesh, "--start", "1,3", "--to", "5,5", "--radius", "0.4",
                           "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["summary"]["overlapping_starts"] == 1
    overlap = data["agents"][0]["start_overlap"]
    assert overlap["outside"] is False and overlap["families"] == ["wall", "wall"]
    # A start in a grid map's rock border recovers inside the map, and says so.
    den = DATA / "grid/dao/den520d.map"
    status, out = run_cli(["walk", den, "--start", "10,10", "--to", "200,200", "--radius",
                           "0.3"], capsys)
    assert "agent 0 at (10, 10): inside grid 0" in out
    level = load(den)
    run = walk(level.world, [(10.0, 10.0)], goals=[(200.0, 200.0)], radius=0.3, steps=50)
    assert (run.positions[1:] >= 0.3 - 1e-9).all() and level.walkable(run.positions[-1]).all()
    assert level.world.clearance((-5.0, 100.0)) < 0            # beyond the map: the void
    # Random walkers that all start free: no warning.
    status, out = run_cli(["walk", den, "--agents", "3", "--steps", "5"], capsys)
    assert "warning" not in out


@needs_data
def test_check_reports_navmesh_scenario_starts_on_the_edge_without_flags():
    level = load(DATA / "polygons2d/polyanya/meshes/arena.mesh")
    report = check(level, 0.4)
    starts = [f for f in report.findings if f.details.get("point") == "start"]
    assert len(starts) == 160 and all("the level's edge" in f.message for f in starts)


@needs_data
def test_doom_narrow_gaps_need_room_on_both_sides():
    level = load(DATA / "polygons2d/freedoom/e1m1.wad")
    assert level.walkable(level.spawns).all()
    report = check(level, 16)
    listed = report.counts()["narrow_gap"]
    assert listed < 20 and report.closed_gaps > 50
    assert report.as_dict()["closed_gaps"] == report.closed_gaps
    assert "no room for the agent on one side" in report.format()
