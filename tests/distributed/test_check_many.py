"""``sidestep check`` over many levels and radii on this machine: tasks, table, report folder."""
import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import sidestep
from sidestep.commands.check import check
from sidestep.commands.sweep import SweepSettings
from sidestep.distributed import (expand, gather_checks, plan_checks, run_local, run_task,
                                  write_report)
from sidestep.distributed.report import REPORT_JSON, REPORT_TEXT
from sidestep.distributed.tasks import Task
from sidestep.io import save
from sidestep.level import Level

from command_line import run

matplotlib.use("Agg")

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")

BROKEN_MAP = "type octile\nheight 2\nwidth 3\nmap\n...\n..\n"


@pytest.fixture(scope="module")
def levels(tmp_path_factory):
    """Two scenes (a door 0.5 wide; an open yard), a broken map and a file that is no level."""
    folder = tmp_path_factory.mktemp("levels")
    door = sidestep.World2D()
    door.add_walls([(-5, 0), (0.5, 0)], [(0, 0), (5, 0)])
    door.add_circles([(-3, 2.5)], 0.6)
    save(Level(door, np.array([[-2.0, 3.0]]), name="door"), folder / "door.json")
    yard = sidestep.World2D()
    yard.add_circles([(0, 0), (6, 0)], 1.0)
    save(Level(yard, np.zeros((0, 2)), name="yard"), folder / "yard.json")
    (folder / "broken.map").write_text(BROKEN_MAP)
    (folder / "notes.txt").write_text("not a level")
    return folder


def test_expand_takes_files_folders_and_globs_once(levels):
    found = expand([levels, levels / "door.json", str(levels / "*.map")])
    assert [Path(p).name for p in found] == ["broken.map", "door.json", "yard.json"]
    assert expand([levels / "notes.txt"]) == [str(levels / "notes.txt")]   # named: kept
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        expand([levels / "missing.map"])
    with pytest.raises(FileNotFoundError, match="no level matches"):
        expand([str(levels / "*.wad")])


def test_every_finding_carries_its_level_radius_and_place(levels, capsys):
    status, out, _ = run(["check", levels / "door.json", levels / "yard.json", "--radius",
                          "0.2", "0.3", "--jobs", "1", "--json"], capsys)
    assert status == 1
    data = json.loads(out)
    assert [(c["level"][-9:], c["radius"]) for c in data["checks"]] == [
        ("door.json", 0.2), ("door.json", 0.3), ("yard.json", 0.2), ("yard.json", 0.3)]
    for entry in data["checks"]:
        alone = check(sidestep.load(entry["path"]), entry["radius"])
        assert entry["counts"] == alone.counts()
        mine = [f for f in data["findings"]
                if f["level"] == entry["level"] and f["radius"] == entry["radius"]]
        assert [f["position"] for f in mine] == [list(f.position) for f in alone.findings]
    gap = [f for f in data["findings"] if f["kind"] == "narrow_gap"]
    assert [(Path(f["level"]).name, f["radius"]) for f in gap] == [("door.json", 0.3)]
    assert gap[0]["position"] == pytest.approx([0.25, 0.0])


def test_the_text_report_ends_with_a_summary_table(levels, capsys):
    status, out, _ = run(["check", levels / "door.json", levels / "yard.json", "--radius",
                          "0.3", "--jobs", "1"], capsys)
    assert status == 1
    table = out.splitlines()[-4:]
    assert table[0].split()[:3] == ["level", "radius", "obstacles"]
    assert table[1].endswith("1 found") and table[2].endswith("ok")
    assert table[3] == "2 checks of 2 levels: 1 findings, 0 could not be checked"
    assert "walls 0 and 1 0.5 apart" in out


def test_a_broken_level_is_reported_and_the_others_still_finish(levels, capsys):
    status, out, _ = run(["check", levels, "--radius", "0.3", "--jobs", "1", "--json"],
                         capsys)
    assert status == 1
    checks = {Path(c["level"]).name: c for c in json.loads(out)["checks"]}
    assert sorted(checks) == ["broken.map", "door.json", "yard.json"]
    assert checks["broken.map"]["error"].startswith("LevelError: ")
    assert "line 6" in checks["broken.map"]["error"]
    assert checks["door.json"]["counts"]["narrow_gap"] == 1
    assert checks["yard.json"]["ok"] and checks["yard.json"]["error"] is None


def test_a_3d_level_is_checked_for_a_capsule_and_a_2d_agent_size_is_refused(levels, tmp_path):
    obj = tmp_path / "floor.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n")
    result = run_task(Task("check", str(obj), 0.3))
    assert result.error is None and result.value.part.agent.height == pytest.approx(1.8)
    point = run_task(Task("check", str(obj), 0.0))            # a 3D agent is a capsule
    assert point.value is None and "radius must be a finite number > 0" in point.error


def test_the_report_folder_has_the_json_the_text_and_a_picture_per_level(levels, tmp_path,
                                                                        capsys):
    folder = tmp_path / "qa"
    status, out, err = run(["check", levels, "--radius", "0.2", "0.3", "--jobs", "1",
                            "--report", folder], capsys)
    assert status == 1 and f"in {folder}" in err
    data = json.loads((folder / REPORT_JSON).read_text())
    assert data["pictures"] == ["pictures/door.json.png"]      # the one level with findings
    assert (folder / "pictures" / "door.json.png").read_bytes()[:4] == b"\x89PNG"
    assert (folder / REPORT_TEXT).read_text().strip() == out.strip()
    assert not [p for p in folder.rglob("*") if p.name.startswith(".sidestep-")]


def test_a_failed_report_leaves_nothing_half_written(levels, tmp_path, monkeypatch):
    tasks = plan_checks(expand([levels]), [0.3])
    good = gather_checks(run_local(tasks, 1))
    folder = tmp_path / "qa"
    write_report(good, folder)
    before = (folder / REPORT_JSON).read_bytes()

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    import sidestep.commands.check as check_module
    monkeypatch.setattr(check_module, "draw_findings", fail)
    with pytest.raises(RuntimeError, match="disk full"):
        write_report(good, folder)
    assert (folder / REPORT_JSON).read_bytes() == before        # the old report, whole
    assert not [p for p in folder.rglob("*") if p.name.startswith(".sidestep-")]


def test_bad_many_level_arguments_are_refused(levels, tmp_path, capsys):
    for argv, words in [
            (["check", levels, "--radius", "0.3", "--tiles", "0"], "--tiles"),
            (["check", levels, "--radius", "0.3", "0.4", "-o", tmp_path / "x.png"], "--report"),
            (["check", levels, "--radius", "0.3", "--report", tmp_path / "no" / "dir"],
             "no directory"),
            (["check", levels / "*.wad", "--radius", "0.3"], "no level matches"),
            (["check", levels, "--radius", "0.3", "--jobs", "0"], "--jobs")]:
        status, _, err = run(argv, capsys)
        assert status == 2 and words in err, (argv, err)


def test_one_level_at_one_radius_keeps_the_single_level_report(levels, capsys):
    status, out, _ = run(["check", levels / "door.json", "--radius", "0.3"], capsys)
    assert status == 1
    assert out.startswith("door: ") and "checks of" not in out


def test_import_sidestep_never_imports_ray():
    code = ("import sys, sidestep, sidestep.cli, sidestep.distributed, "
            "sidestep.distributed.commands; print('ray' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    assert done.stdout.strip() == "False"


@needs_data
def test_the_answers_do_not_depend_on_workers_threads_or_tiles():
    levels = [DATA / "grid/dao/den520d.map", DATA / "polygons2d/freedoom/e1m1.wad",
              DATA / "grid/rooms/32room_000.map"]
    radii = {0: [0.3, 0.6], 1: [16.0], 2: [0.6]}
    sweep = SweepSettings(frames=60)
    runs = []
    for tiles, jobs, threads in [(1, 1, 2), (2, 2, 1), (3, 1, 1)]:
        tasks = [t for k, level in enumerate(levels)
                 for t in plan_checks([level], radii[k], tiles=tiles, sweep=sweep,
                                      threads=threads)]
        runs.append(gather_checks(run_local(tasks, jobs)))
    answers = [[(c.report, c.sweep) for c in run.checks] for run in runs]
    assert answers[0] == answers[1] == answers[2]
    assert sum(len(c.findings) for c in runs[0].checks) > 0


def test_an_empty_level_in_tiles_is_checked_once(tmp_path):
    save(Level(sidestep.World2D(), np.array([[1.0, 2.0]]), name="empty"), tmp_path / "e.json")
    run = gather_checks(run_local(plan_checks([tmp_path / "e.json"], [0.3], tiles=2,
                                              sweep=SweepSettings(frames=5)), 1))
    (only,) = run.checks
    assert only.error is None and only.report.ok and only.sweep.starts == 1


def test_a_task_caps_the_threads_while_it_runs_and_restores_the_cap(levels, monkeypatch):
    from sidestep import threads

    seen = []
    real = threads.run_rows

    def spy(kernel, n, *args):
        seen.append(threads.thread_count())
        return real(kernel, n, *args)

    monkeypatch.setattr(threads, "run_rows", spy)
    import sidestep.world
    monkeypatch.setattr(sidestep.world, "run_rows", spy)
    before = threads.set_threads(None)
    try:
        result = run_task(Task("check", str(levels / "door.json"), 0.3, threads=1,
                               sweep=SweepSettings(frames=3)))
        assert result.error is None and seen and set(seen) == {1}
        assert threads.thread_count() == threads._cores()
    finally:
        threads.set_threads(before)


def test_bad_tasks_are_value_errors_naming_the_field():
    for fields, word in [({"kind": "walkabout"}, "kind"), ({"radius": -1.0}, "radius"),
                         ({"tiles": 0}, "tiles"), ({"tiles": 2, "tile": 4}, "tile"),
                         ({"threads": 0}, "threads")]:
        with pytest.raises(ValueError, match=word):
            Task(**{"kind": "check", "level": "x.map", "radius": 0.3, **fields})
