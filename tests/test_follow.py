"""Agents following paths (``walk`` with scenarios): reached, length walked, where stuck."""
import json
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import sidestep
from sidestep.commands.follow import find_routes, follow, format_table
from sidestep.paths import GridNavigator, navigator

from command_line import run

matplotlib.use("Agg")

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def gap_world(gap_cells=1):
    """A 7x9 grid walled across row 3 but for a gap of ``gap_cells`` free cells at column 4."""
    blocked = np.zeros((7, 9), bool)
    blocked[3] = True
    blocked[3, 4:4 + gap_cells] = False
    world = sidestep.World2D()
    world.add_grid(blocked)
    return world, GridNavigator(blocked)


def test_agent_follows_the_path_round_a_wall_and_walks_its_length():
    world, nav = gap_world(1)
    run_ = follow(world, nav, [(0.5, 0.5)], [(0.5, 6.5)], radius=0.3, speed=0.1)
    row = run_.agents()[0]
    assert row["reached"] and row["path_found"] and row["stuck_at"] is None
    assert row["travelled"] == pytest.approx(row["path_length"], rel=1e-6)
    assert row["min_clearance"] >= -1e-9
    # A straight walk at the same goal runs into the wall.
    from sidestep.commands.walk import walk
    straight = walk(world, [(0.5, 0.5)], goals=[(0.5, 6.5)], radius=0.3, speed=0.1)
    assert not straight.agents()[0]["reached"]


def test_agent_too_wide_for_a_gap_the_grid_calls_free_is_reported_stuck_there():
    world, nav = gap_world(1)
    run_ = follow(world, nav, [(0.5, 0.5)], [(0.5, 6.5)], radius=0.6, speed=0.1,
                  optimal=[nav.route((0.5, 0.5), (0.5, 6.5)).length])
    row = run_.agents()[0]
    assert row["path_found"] and not row["reached"]
    x, y = row["stuck_at"]
    # Stuck in front of the one-cell gap (row 3, column 4), out of every wall.
    assert 3.0 < x < 6.0 and 2.0 < y < 3.0
    assert not nav.blocked[int(row["stuck_toward"][1]), int(row["stuck_toward"][0])]
    assert row["min_clearance"] >= -1e-9
    assert run_.summary()["stuck"] == 1 and "stuck at" in format_table(run_)
    # Two free cells wide, the gap lets it through.
    wide_world, wide = gap_world(2)
    assert follow(wide_world, wide, [(0.5, 0.5)], [(0.5, 6.5)], radius=0.6,
                  speed=0.1).agents()[0]["reached"]


def test_agent_without_a_path_stays_and_says_why():
    world, nav = gap_world(0)
    run_ = follow(world, nav, [(0.5, 0.5), (1.5, 0.5)], [(0.5, 6.5), (2.5, 0.5)], speed=0.1)
    lost, fine = run_.agents()
    assert not lost["path_found"] and "cannot be reached" in lost["no_path"]
    assert lost["travelled"] == 0 and not lost["reached"] and lost["path_length"] is None
    assert fine["reached"] and fine["path_length"] == pytest.approx(1.0)
    assert run_.summary()["no_path"] == 1


def test_follow_refuses_bad_input():
    world, nav = gap_world(1)
    with pytest.raises(ValueError, match="goal per start"):
        follow(world, nav, [(0.5, 0.5)], [(0.5, 6.5), (1.5, 6.5)])
    with pytest.raises(ValueError, match="radius"):
        follow(world, nav, [(0.5, 0.5)], [(0.5, 6.5)], radius=-1)
    with pytest.raises(ValueError, match="mode"):
        follow(world, nav, [(0.5, 0.5)], [(0.5, 6.5)], mode="fly")
    with pytest.raises(ValueError, match="optimal"):
        follow(world, nav, [(0.5, 0.5)], [(0.5, 6.5)], optimal=[1.0, 2.0])


def test_walk_help_says_scen_takes_maps_and_meshes(capsys):
    status, out, _ = run(["walk", "--help"], capsys)
    assert status == 0 and ".mesh" in out and "--straight" in out


@needs_data
def test_walk_follows_paths_on_a_real_moving_ai_map(tmp_path, capsys):
    path = DATA / "grid/dao/den520d.map"
    if not path.is_file():
        pytest.skip("den520d.map is not present")
    status, out, err = run(["walk", path, "--scen", path.with_name(path.name + ".scen"),
                            "--agents", "30", "--radius", "0.3", "--json",
                            "-o", tmp_path / "follow.png"], capsys)
    assert status == 0
    data = json.loads(out)
    summary, agents = data["summary"], data["agents"]
    assert summary["route"] == "path" and "A*" in summary["finder"]
    # Every scenario of this map is walkable by a disc of 0.3 along its optimal path.
    assert summary["reached"] == 30 and summary["stuck"] == 0 and summary["no_path"] == 0
    for a in agents:
        assert a["path_length"] == pytest.approx(a["optimal_length"], abs=1e-3)
        assert a["walked_over_optimal"] == pytest.approx(1.0, abs=0.01)
        assert a["min_clearance"] >= -1e-9
        # The old keys are still there.
        assert {"start", "end", "goal", "travelled", "contacts", "stuck_frames"} <= set(a)
    assert (tmp_path / "follow.png").read_bytes().startswith(PNG_SIGNATURE)


@needs_data
def test_walk_reports_where_a_wide_agent_gets_stuck_on_a_real_map(capsys):
    path = DATA / "grid/dao/den520d.map"
    if not path.is_file():
        pytest.skip("den520d.map is not present")
    status, out, _ = run(["walk", path, "--scen", path.with_name(path.name + ".scen"),
                          "--agents", "30", "--radius", "0.6", "--json"], capsys)
    data = json.loads(out)
    stuck = [a for a in data["agents"] if a["stuck_at"] is not None]
    assert status == 0 and stuck and data["summary"]["stuck"] == len(stuck)
    blocked = navigator(sidestep.load(path)).blocked
    for a in stuck:
        # Stuck out of the walls, heading for a cell of the path the grid calls free.
        x, y = a["stuck_toward"]
        assert not blocked[int(y), int(x)]
        assert a["min_clearance"] >= -1e-9 and not a["reached"]


@needs_data
@pytest.mark.parametrize("mesh", ["arena.mesh", "arena-merged.mesh"])
def test_walk_follows_navmesh_paths_for_its_scenarios(mesh, capsys):
    mesh_path = DATA / "polygons2d/polyanya/meshes" / mesh
    scen = DATA / "polygons2d/polyanya/scenarios/arena.scen"
    if not (mesh_path.is_file() and scen.is_file()):
        pytest.skip(f"{mesh} is not present")
    status, out, _ = run(["walk", mesh_path, "--scen", scen, "--agents", "40", "--radius",
                          "0.4", "--json"], capsys)
    data = json.loads(out)
    summary = data["summary"]
    assert status == 0 and summary["route"] == "path" and "funnel" in summary["finder"]
    assert summary["reached"] == 40 and summary["min_clearance"] >= -1e-9
    nav = navigator(sidestep.load(mesh_path, scenarios=False))
    for a in data["agents"]:
        # Starts on the mesh's edge are moved in to where the disc fits, inside the
        # mesh (by a slide from the path's next point: near, not always nearest).
        assert nav.polygon(a["start"]) >= 0 and nav.polygon(a["end"]) >= 0
        assert np.hypot(*np.subtract(a["start"], a["scenario_start"])) <= 1.5
        # Any angle beats the octile optimum; the walk stays near the path.
        assert a["path_length"] <= a["optimal_length"] * (1 + 1e-5) + 1e-5
        # Its corners moved the radius off the mesh's: a little longer.
        assert a["travelled"] <= a["path_length"] * 1.05 + 0.5


@needs_data
def test_walk_straight_mode_is_named_and_keeps_the_old_walk(capsys):
    path = DATA / "grid/dao/arena.map"
    if not path.is_file():
        pytest.skip("arena.map is not present")
    scen = path.with_name(path.name + ".scen")
    status, out, _ = run(["walk", path, "--scen", scen, "--agents", "10", "--radius", "0.3",
                          "--straight", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["summary"]["route"] == "straight"
    assert all("path_length" not in a for a in data["agents"])
    status, out, _ = run(["walk", path, "--scen", scen, "--agents", "10", "--radius", "0.3"],
                         capsys)
    assert status == 0 and "grid A*" in out and "walked" in out


def test_scene_scenarios_follow_a_grid_path_or_say_they_walk_straight(tmp_path, capsys):
    scenarios = sidestep.Scenarios(np.array([[0.5, 0.5]]), np.array([[0.5, 6.5]]))
    world, _ = gap_world(1)
    gridded = sidestep.save(world, tmp_path / "gap.json", scenarios=scenarios)
    status, out, err = run(["walk", gridded, "--radius", "0.3", "--json"], capsys)
    agent = json.loads(out)["agents"][0]
    assert status == 0 and err == "" and agent["reached"] and agent["optimal_length"] is None
    bare = sidestep.World2D()
    bare.add_walls([(-5.0, 3.0)], [(5.0, 3.0)])
    plain = sidestep.save(bare, tmp_path / "wall.json", scenarios=scenarios)
    status, out, err = run(["walk", plain, "--radius", "0.3", "--json"], capsys)
    assert status == 0 and "no navigation data" in err
    assert json.loads(out)["summary"]["route"] == "straight"


def test_routes_found_ahead_are_followed_and_report_progress():
    world, nav = gap_world(1)
    seen = []
    routes = find_routes(nav, [(0.5, 0.5), (8.5, 0.5)], [(0.5, 6.5), (8.5, 6.5)],
                         progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]
    run_ = follow(world, nav, [(0.5, 0.5), (8.5, 0.5)], [(0.5, 6.5), (8.5, 6.5)],
                  radius=0.3, speed=0.1, routes=routes)
    assert run_.routes is routes and all(a["reached"] for a in run_.agents())
    with pytest.raises(ValueError, match="route per start"):
        follow(world, nav, [(0.5, 0.5)], [(0.5, 6.5)], routes=routes)
