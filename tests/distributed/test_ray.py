"""The same tasks on Ray: the same findings and rows as on this machine, a dying worker retried.

All in one xdist worker (``xdist_group``), so that one Ray cluster serves them.
"""
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from sidestep import cli
from sidestep.commands.sweep import SweepSettings
from sidestep.distributed import (WalkSettings, gather_checks, plan_checks, plan_walks,
                                  run_local, run_task)

pytestmark = pytest.mark.xdist_group("ray")

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")

#: Real levels of every 2D format, each with radii that find something.
LEVELS = {"grid/dao/arena.map": [0.3, 0.6], "grid/dao/den520d.map": [0.6],
          "grid/rooms/32room_000.map": [0.6], "tiled/sticker_knight/sandbox.tmx": [25.28],
          "polygons2d/freedoom/e1m1.wad": [16.0],
          "polygons2d/polyanya/meshes/arena.mesh": [0.47]}

def run_ray(tasks, **options):
    from sidestep.distributed.ray_backend import run_ray as run
    return run(tasks, **options)


def plan(tiles, sweep=None):
    return [t for rel, radii in LEVELS.items()
            for t in plan_checks([DATA / rel], radii, tiles=tiles, sweep=sweep)]


def answers(run):
    return [(c.level, c.radius, c.report, c.sweep, c.error) for c in run.checks]


@needs_data
def test_ray_finds_what_this_machine_finds_whatever_the_tiles(ray_cluster):
    sweep = SweepSettings(frames=60)
    local = gather_checks(run_local(plan(1, sweep), 1))
    on_ray = gather_checks(run_ray(plan(2, sweep)))
    assert answers(on_ray) == answers(local)
    assert sum(len(c.findings) for c in local.checks) > 0
    on_ray = gather_checks(run_ray(plan(3)))                      # no sweep, nine tiles
    assert [c.report for c in on_ray.checks] == [c.report for c in local.checks]


def test_a_broken_level_among_good_ones_is_reported_on_ray(ray_cluster, tmp_path):
    good = tmp_path / "room.map"
    good.write_text("type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n")
    broken = tmp_path / "broken.map"
    broken.write_text("type octile\nheight 3\nwidth 4\nmap\n....\n.@@\n....\n")
    tasks = plan_checks([good, broken, tmp_path / "gone.map"], [0.3, 0.6], tiles=2)
    run = gather_checks(run_ray(tasks))
    by_level = {(Path(c.level).name, c.radius): c for c in run.checks}
    assert by_level[("broken.map", 0.3)].error.startswith("LevelError: ")
    assert "line 6" in by_level[("broken.map", 0.6)].error
    assert by_level[("gone.map", 0.3)].error.startswith("FileNotFoundError: ")
    assert by_level[("room.map", 0.3)].report is not None
    assert answers(run) == answers(gather_checks(run_local(tasks, 1)))


def dying(mark):
    """A task runner that kills its worker process the first time it runs, then runs tasks."""
    def run(task):
        if not mark.exists():
            mark.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return run_task(task)
    return run


def test_a_worker_killed_mid_run_is_retried_to_the_same_answer(ray_cluster, tmp_path):
    import ray.cloudpickle

    # Ray's workers cannot import this test module: send its functions by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    mark = tmp_path / "killed"
    room = tmp_path / "room.map"
    room.write_text("type octile\nheight 4\nwidth 6\nmap\n......\n.@..@.\n.@....\n......\n")
    tasks = plan_checks([room], [0.3, 0.6], tiles=2, sweep=SweepSettings(frames=30))
    results = run_ray(tasks, fn=dying(mark), max_retries=2)
    killed = int(mark.read_text())                     # a worker did die
    assert all(r.error is None for r in results)
    assert all(r.worker.split(":")[1] != str(killed) for r in results)
    assert answers(gather_checks(results)) == answers(gather_checks(run_local(tasks, 1)))


@needs_data
def test_walk_rows_are_the_same_with_and_without_ray(ray_cluster):
    tasks = plan_walks([DATA / "grid/dao/arena.map", DATA / "polygons2d/freedoom/e1m1.wad"],
                       [0.3, 0.5], WalkSettings(agents=6, steps=60))
    local = [row for r in run_local(tasks, 1) for row in r.value]
    on_ray = [row for r in run_ray(tasks) for row in r.value]
    key = lambda row: (row["level"], row["radius"], row["agent"])     # noqa: E731
    assert sorted(on_ray, key=key) == sorted(local, key=key)
    assert len(local) == 24


def test_the_command_runs_on_ray(ray_cluster, tmp_path, capsys):
    room = tmp_path / "room.map"
    room.write_text("type octile\nheight 5\nwidth 5\nmap\n.....\n.....\n@@.@@\n.....\n"
                    ".....\n")                                 # a door one cell wide
    status = cli.main(["check", str(room), "--radius", "0.3", "0.6", "--ray", "auto",
                       "--tiles", "2", "--json"])
    on_ray = json.loads(capsys.readouterr().out)
    status_here = cli.main(["check", str(room), "--radius", "0.3", "0.6", "--jobs", "1",
                            "--json"])
    here = json.loads(capsys.readouterr().out)
    assert status == status_here == 1
    assert on_ray["findings"] == here["findings"] and len(here["findings"]) > 0
    out = tmp_path / "rows.jsonl"
    assert cli.main(["walk", str(room), "--agents", "3", "--steps", "20", "--ray", "auto",
                     "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 3


def test_each_node_fills_its_kernel_cache_once(ray_cluster):
    from sidestep.distributed.ray_backend import warm_nodes

    first = warm_nodes(("check", "walk"))
    nodes = [n["NodeID"] for n in ray_cluster.nodes() if n["Alive"]]
    assert sorted(first) == sorted(nodes) and all(v >= 0 for v in first.values())
    assert set(warm_nodes(("check", "walk")).values()) == {0}      # all cached now


def test_3d_levels_on_ray_give_this_machine_s_findings_and_rows(ray_cluster, tmp_path):
    import numpy as np

    import sidestep

    world = sidestep.World3D()
    world.add_boxes([(0, -1, 0)], [(10, 0, 6)])                      # a floor
    world.add_boxes([(2, 0.8, 2)], [(5, 1.0, 4)])                    # a low shelf
    world.save(tmp_path / "shelf.json", spawns=np.zeros((0, 3)), name="shelf")
    levels = [tmp_path / "shelf.json"]
    if DATA.is_dir():
        levels.append(DATA / "meshes/kenney/platformer-diorama.glb")
    sweep = SweepSettings(headings=4, frames=30, spacing=2.0)
    local = gather_checks(run_local(plan_checks(levels, [0.15, 0.3], sweep=sweep), 1))
    on_ray = gather_checks(run_ray(plan_checks(levels, [0.15, 0.3], tiles=2, sweep=sweep)))
    assert answers(on_ray) == answers(local)
    assert local.checks[0].report.counts()["no_headroom"] > 0
    tasks = plan_walks(levels, [0.2], WalkSettings(agents=3, steps=30, height=1.0))
    key = lambda row: (row["level"], row["radius"], row["agent"])     # noqa: E731
    here = sorted((row for r in run_local(tasks, 1) for row in r.value), key=key)
    there = sorted((row for r in run_ray(tasks) for row in r.value), key=key)
    assert there == here and len(here) == 3 * len(levels)
