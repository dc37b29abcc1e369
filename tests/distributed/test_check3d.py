"""``sidestep check`` and ``walk`` of 3D levels: findings in 3D, the same in any tiles, rows."""
import json
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import sidestep
from sidestep.commands.check3d import check3d
from sidestep.commands.floors import Capsule, floors, lattice
from sidestep.commands.sweep import SweepSettings
from sidestep.commands.sweep3d import sweep3d
from sidestep.distributed import (WalkSettings, gather_checks, plan_checks, plan_walks,
                                  read_rows, run_local, run_task, write_rows)
from sidestep.distributed.walks import COLUMNS

from command_line import run

matplotlib.use("Agg")

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")
DIORAMA = DATA / "meshes" / "kenney" / "platformer-diorama.glb"

#: The agent of the hand-made scene: a capsule 1.5 tall, 0.25 round.
RADIUS, HEIGHT = 0.25, 1.5
#: A sweep small enough for a test: its characters walk 4 m at most.
SWEEP = SweepSettings(headings=4, frames=40, speed=0.1, spacing=2.0, escape=2.5)


def yard():
    """A floor 20 x 12, a shelf 1.0 over it, a closed room, a crate, a point sphere; 3 spawns."""
    world = sidestep.World3D()                                        # y up
    world.add_boxes([(0, -1, 0)], [(20, 0, 12)])                      # the floor
    world.add_boxes([(2, 1.0, 2)], [(6, 1.2, 4)])                     # a shelf: no headroom
    world.add_boxes([(10, 0, 2), (10, 0, 5.9), (10, 0, 2.1), (13.9, 0, 2.1), (10, 2, 2)],
                    [(14, 2, 2.1), (14, 2, 6), (10.1, 2, 5.9), (14, 2, 5.9), (14, 2.1, 6)])
    world.add_boxes([(15.5, 0, 8.5)], [(16.5, 1, 9.5)])               # a crate
    world.add_spheres([(8, 0.5, 10)], 0.0)                            # a sphere of radius 0
    spawns = np.array([(12.0, 0.0, 4.0), (16.0, 0.0, 9.0), (4.0, 0.0, 8.0)])
    return world, spawns                  # in the room, in the crate, on the open floor


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scenes3d")
    world, spawns = yard()
    world.save(folder / "yard.json", spawns=spawns, name="yard")
    return folder / "yard.json"


def test_the_check_finds_no_headroom_under_a_shelf_a_blocked_spawn_and_a_point_sphere(scene):
    report = check3d(sidestep.load(scene), RADIUS, height=HEIGHT, spacing=1.0)
    assert report.counts() == {"degenerate": 1, "blocked_spawn": 1, "no_headroom": 8}
    assert report.height == HEIGHT and report.kinds == ("degenerate", "blocked_spawn",
                                                         "no_headroom")
    point, spawn = report.findings[:2]
    assert point.families == ("sphere",) and point.position == (8.0, 0.5, 10.0)
    assert spawn.details["index"] == 1 and spawn.position == (16.0, 0.0, 9.0)
    low = [f for f in report.findings if f.kind == "no_headroom"]
    assert sorted((f.position[0], f.position[2]) for f in low) == sorted(
        (x, z) for x in (2.5, 3.5, 4.5, 5.5) for z in (2.5, 3.5))
    assert all(f.position[1] == 0.0 for f in low)
    assert [f.details["headroom"] for f in low] == pytest.approx([1.0] * 8, abs=1e-5)
    # A shorter agent fits under the shelf.
    assert check3d(sidestep.load(scene), RADIUS, height=0.9, spacing=1.0).counts()[
        "no_headroom"] == 0


def test_the_sweep_finds_the_closed_room_trapped_and_nothing_inside(scene):
    report = sweep3d(sidestep.load(scene), RADIUS, height=HEIGHT, settings=SWEEP)
    assert report.starts == 2                          # the spawn in the crate is not walked
    assert report.counts() == {"stuck": 0, "inside": 0, "trapped": 1}
    assert report.findings[0].position == (12.0, 0.0, 4.0)
    assert report.findings[0].details["farthest"] < SWEEP.escape
    # Without spawns, the lattice's floor points: the room's four are trapped
    # (none gets 4 away inside it), the floor outside and the roof are not.
    world, _ = yard()
    lattice_report = sweep3d(world, RADIUS, height=HEIGHT, settings=SweepSettings(
        headings=4, frames=80, speed=0.1, spacing=2.0, escape=4.0))
    trapped = [f.position for f in lattice_report.findings if f.kind == "trapped"]
    assert lattice_report.counts() == {"stuck": 0, "inside": 0, "trapped": 4}
    assert sorted(trapped) == [(x, 0.0, z) for x in (11.0, 13.0) for z in (3.0, 5.0)]


def test_floors_are_found_by_winding_under_a_closed_mesh(tmp_path):
    # A slab drawn as a closed box (counter-clockwise outside): its top is a
    # floor, the inside of its bottom is not.
    corners = np.array([(x, y, z) for x in (0, 4) for y in (-1, 0) for z in (0, 4)], float)
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    triangles = [(f[0], f[1], f[2]) for f in faces] + [(f[0], f[2], f[3]) for f in faces]
    world = sidestep.World3D()
    world.add_mesh(corners, triangles)
    found = floors(world, lattice(world, 1.0), radius=0.25)
    assert len(found.points) == 16 and set(found.points[:, 1].tolist()) == {0.0}
    assert (found.normals[:, 1] == 1.0).all()


def test_dropped_triangles_of_a_mesh_file_are_findings_with_their_line(tmp_path):
    obj = tmp_path / "room.obj"
    obj.write_text("o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 2 3 4\nf 1 2 2\n")
    report = check3d(sidestep.load(obj), 0.25)
    assert report.counts()["degenerate"] == 1
    bad = report.findings[0]
    assert bad.details == {"size": 0.0, "triangle": 2, "part": "floor", "line": 7}
    assert bad.position == pytest.approx((8 / 3, 0.0, 0.0))
    assert report.problems and "1 zero-area triangle" in report.problems[0]


def test_obj_faces_of_fewer_than_three_corners_are_degenerate_findings_with_their_line(
        tmp_path):
    obj = tmp_path / "room.obj"
    obj.write_text("o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 2 3 4\nf 1 2\nf 3\n")
    report = check3d(sidestep.load(obj), 0.25)
    assert report.counts()["degenerate"] == 2
    edge, point = report.findings[:2]
    assert edge.details == {"size": 0.0, "corners": 2, "part": "floor", "line": 7}
    assert edge.position == pytest.approx((2.0, 0.0, 0.0))
    assert point.details["line"] == 8 and point.position == pytest.approx((4.0, 0.0, 4.0))
    assert "line 7" in edge.message and "2 corners" in edge.message
    assert "2 faces of fewer than three corners" in report.problems[0]


def answers(run):
    return [(c.level, c.radius, c.report, c.sweep, c.error) for c in run.checks]


def test_tiles_give_the_findings_of_one_pass(scene):
    one = gather_checks(run_local(plan_checks([scene], [RADIUS], sweep=SWEEP, height=HEIGHT,
                                              spacing=1.0), 1))
    assert sum(len(c.findings) for c in one.checks) == 11
    for n in (2, 3):
        tiled = gather_checks(run_local(plan_checks([scene], [RADIUS], tiles=n, sweep=SWEEP,
                                                    height=HEIGHT, spacing=1.0), 1))
        assert answers(tiled) == answers(one)


@needs_data
def test_a_real_mesh_gives_the_same_findings_in_one_tile_and_in_four():
    sweep = SweepSettings(headings=4, frames=30, spacing=2.0)
    one = gather_checks(run_local(plan_checks([DIORAMA], [0.15, 0.3], sweep=sweep), 1))
    four = gather_checks(run_local(plan_checks([DIORAMA], [0.15, 0.3], tiles=2,
                                               sweep=sweep), 1))
    assert answers(four) == answers(one)
    small = one.checks[0]
    assert small.report.counts()["degenerate"] == 4                 # the reader drops 4
    assert small.report.counts()["no_headroom"] > 0 and small.sweep.starts > 0
    assert all(len(f["position"]) == 3 for f in one.findings())
    assert not any(f.kind == "inside" for c in one.checks for f in c.findings)


def test_a_broken_3d_file_among_good_ones_is_reported_and_the_others_finish(scene, tmp_path):
    broken = tmp_path / "broken.obj"
    broken.write_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n")       # a corner past the end
    tasks = plan_checks([broken, scene, tmp_path / "gone.glb"], [RADIUS], tiles=2,
                        height=HEIGHT, spacing=1.0)
    run = gather_checks(run_local(tasks, 1))
    by_level = {Path(c.level).name: c for c in run.checks}
    assert by_level["broken.obj"].error.startswith("LevelError: ")
    assert "line 4" in by_level["broken.obj"].error
    assert by_level["gone.glb"].error.startswith("FileNotFoundError: ")
    assert by_level["yard.json"].report.counts()["no_headroom"] == 8
    assert not run.ok


def test_the_command_checks_3d_levels_one_or_many(scene, tmp_path, capsys):
    status, out, _ = run(["check", scene, "--radius", str(RADIUS), "--height", str(HEIGHT),
                          "--spacing", "1", "--json"], capsys)
    one = json.loads(out)
    assert status == 1 and one["height"] == HEIGHT
    assert one["counts"] == {"degenerate": 1, "blocked_spawn": 1, "no_headroom": 8}
    folder = tmp_path / "qa"
    status, out, _ = run(["check", scene, "--radius", str(RADIUS), "0.3", "--height",
                          str(HEIGHT), "--spacing", "1", "--sweep", "--headings", "4",
                          "--frames", "40", "--jobs", "1", "--report", folder, "--json"],
                         capsys)
    many = json.loads(out)
    assert status == 1
    mine = [f for f in many["findings"] if f["radius"] == RADIUS]
    assert [f["position"] for f in mine if f["kind"] != "trapped"] == \
        [f["position"] for f in one["findings"]]
    assert {c["height"] for c in many["checks"]} == {HEIGHT}
    assert (folder / "pictures" / "yard.json.png").stat().st_size > 10_000
    assert json.loads((folder / "report.json").read_text())["findings"] == many["findings"]
    assert "no headroom" in (folder / "report.txt").read_text()


def test_walk_rows_of_a_3d_level_are_the_walk_command_s_agents(scene, tmp_path, capsys):
    status, out, _ = run(["walk", scene, "--radius", str(RADIUS), "--height", str(HEIGHT),
                          "--agents", "4", "--steps", "40", "--json"], capsys)
    alone = json.loads(out)["agents"]
    rows_file = tmp_path / "rows.jsonl"
    status_many, _, _ = run(["walk", scene, "--radius", str(RADIUS), "--height", str(HEIGHT),
                             "--agents", "4", "--steps", "40", "--jobs", "1", "--out",
                             rows_file], capsys)
    rows = read_rows(rows_file)
    assert status == status_many == 0 and len(rows) == 4
    for row, agent in zip(rows, alone):
        assert list(row) == list(COLUMNS)
        assert [row["start_x"], row["start_y"], row["start_z"]] == agent["start"]
        assert [row["end_x"], row["end_y"], row["end_z"]] == agent["end"]
        assert row["travelled"] == agent["travelled"]
        assert row["min_clearance"] == pytest.approx(agent["min_clearance"] - RADIUS, abs=1e-12)
        assert row["min_clearance"] >= -1e-9 and row["start_overlap"] is False
        assert row["done_frames"] + row["slid_frames"] + row["blocked_frames"] == 40
        assert row["height"] == HEIGHT and row["contacts"] == row["slid_frames"] + \
            row["blocked_frames"]


def test_2d_and_3d_rows_share_one_parquet_file(scene, tmp_path):
    pytest.importorskip("pyarrow")
    square = sidestep.World2D()
    square.add_circles([(0, 0)], 1.0)
    square.add_circles([(5, 5)], 1.0)
    flat = sidestep.io.save(sidestep.level.Level(square, np.zeros((0, 2)), name="flat"),
                            tmp_path / "flat.json")
    tasks = plan_walks([flat, scene], [RADIUS], WalkSettings(agents=3, steps=20,
                                                             height=HEIGHT))
    rows = [row for r in run_local(tasks, 1) for row in r.value]
    out = tmp_path / "rows.parquet"
    write_rows(rows, out)
    back = read_rows(out)
    assert back == rows and len(back) == 6
    assert [r["height"] for r in back] == [None] * 3 + [HEIGHT] * 3
    assert [r["end_z"] is None for r in back] == [True] * 3 + [False] * 3


def test_a_3d_check_needs_a_capsule(scene):
    with pytest.raises(ValueError, match="radius must be a finite number > 0"):
        Capsule.of(0.0)
    with pytest.raises(ValueError, match="height must be at least twice the radius"):
        Capsule.of(0.5, 0.8)
    result = run_task(plan_checks([scene], [0.5], height=0.8)[0])
    assert result.value is None and "height must be at least" in result.error
