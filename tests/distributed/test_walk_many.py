"""``sidestep walk`` over many levels: one row per agent, as Parquet or JSON lines."""
import json
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep import cli
from sidestep.distributed import WalkSettings, read_rows, write_rows
from sidestep.distributed.walks import COLUMNS, walk_rows
from sidestep.io import save
from sidestep.level import Level

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")


@pytest.fixture(scope="module")
def levels(tmp_path_factory):
    folder = tmp_path_factory.mktemp("walks")
    world = sidestep.World2D()
    corners = [(0, 0), (12, 0), (12, 8), (0, 8)]
    world.add_walls(corners, corners[1:] + corners[:1], one_sided=True)
    world.add_circles([(4, 4), (8, 3)], 1.0)
    save(Level(world, np.zeros((0, 2)), name="yard"), folder / "yard.json")
    (folder / "broken.map").write_text("type octile\nheight 2\nwidth 3\nmap\n...\n..\n")
    return folder


def test_each_agent_gets_a_row_with_its_path_contacts_and_stops(levels):
    level = sidestep.load(levels / "yard.json")
    rows = walk_rows(level, 0.3, WalkSettings(agents=6, steps=120, speed=0.15), name="yard")
    assert [r["agent"] for r in rows] == list(range(6))
    for r in rows:
        assert list(r) == list(COLUMNS)
        assert r["done_frames"] + r["slid_frames"] + r["blocked_frames"] == 120
        assert r["travelled"] <= 120 * 0.15 + 1e-9
        assert r["displacement"] <= r["farthest"] + 1e-12 <= r["travelled"] + 1e-9
        assert r["min_clearance"] >= -1e-9 and r["start_overlap"] is False
        assert r["contacts"] >= r["slid_frames"]
    assert sum(r["contacts"] for r in rows) > 0                # the walls and trees were met
    again = walk_rows(level, 0.3, WalkSettings(agents=6, steps=120, speed=0.15), name="yard")
    assert again == rows                                         # seeded: the same rows


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_rows_round_trip_through_the_file(levels, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    rows = walk_rows(sidestep.load(levels / "yard.json"), 0.3, WalkSettings(agents=4, steps=30))
    out = tmp_path / f"rows{suffix}"
    write_rows(rows, out)
    assert read_rows(out) == list(rows)
    assert [p.name for p in tmp_path.iterdir()] == [out.name]     # no temporary left


def test_a_failed_write_leaves_no_file(tmp_path):
    with pytest.raises(TypeError):
        write_rows([{"level": object()}], tmp_path / "rows.jsonl")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match=r"\.parquet or \.jsonl"):
        write_rows([], tmp_path / "rows.csv")


def test_walk_many_levels_on_the_command_line(levels, tmp_path, capsys):
    out = tmp_path / "walks.jsonl"
    status = cli.main(["walk", str(levels), "--agents", "5", "--steps", "50", "--radius",
                       "0.2", "0.4", "--jobs", "1", "--out", str(out), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert status == 1                                     # the broken map
    errors = {Path(e["level"]).name: e["error"] for e in summary}
    assert errors["broken.map"].startswith("LevelError: ")
    assert errors["yard.json"] is None
    rows = read_rows(out)
    assert sorted({(Path(r["level"]).name, r["radius"]) for r in rows}) == [
        ("yard.json", 0.2), ("yard.json", 0.4)]
    assert len(rows) == 10


def test_bad_walk_outputs_are_refused(levels, tmp_path, capsys):
    for argv, words in [(["--out", tmp_path / "walks.csv"], ".parquet or .jsonl"),
                        (["--out", tmp_path / "no" / "walks.jsonl"], "no directory"),
                        ([], "--out"),
                        (["--out", tmp_path / "w.jsonl", "--crowd"], "--crowd")]:
        try:
            status = cli.main(["walk", str(levels), "--agents", "2"] + [str(a) for a in argv])
        except SystemExit as exc:
            status = exc.code
        err = capsys.readouterr().err
        assert status == 2 and words in err, (argv, err)


@needs_data
def test_workers_do_not_change_the_rows(tmp_path):
    from sidestep.distributed import plan_walks, run_local

    levels = [DATA / "grid/dao/arena.map", DATA / "polygons2d/freedoom/e1m1.wad"]
    tasks = plan_walks(levels, [0.3], WalkSettings(agents=8, steps=60))
    serial = [r.value for r in run_local(tasks, 1)]
    pooled = [r.value for r in run_local(tasks, 2)]
    assert serial == pooled and all(len(v) == 8 for v in serial)
