"""``check --sweep``: agents walked from every start in every heading; stuck, inside, trapped."""
import math
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep.commands.regions import tiles
from sidestep.commands.sweep import (HOLD, SWEEP_KINDS, SweepSettings, merge_sweeps,
                                     settings_for, sweep, sweep_part, sweep_starts, turn_step)
from sidestep.level import Level

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")


def room(world, x0, y0, x1, y1, one_sided=False):
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return world.add_walls(corners, corners[1:] + corners[:1], one_sided=one_sided)


def test_an_agent_in_a_pocket_its_own_size_is_stuck_and_trapped():
    world = sidestep.World2D()
    room(world, 0, 0, 20, 20, one_sided=True)
    room(world, 4.7, 4.7, 5.3 + 1e-4, 5.3 + 1e-4)            # 0.6001 across, for a 0.6 agent
    level = Level(world, np.array([[5.00005, 5.00005], [15.0, 15.0]]), name="pocket")
    report = sweep(level, 0.3, frames=40, speed=0.2)
    kinds = [(f.kind, f.details["start"]) for f in report.findings]
    assert kinds == [("stuck", 0)] * 8 + [("trapped", 0)]
    first = report.findings[0]
    assert first.details["frame"] == HOLD
    assert first.position == pytest.approx((5.00005,) * 2, abs=1e-4)      # within the pocket
    assert report.counts() == {"stuck": 8, "inside": 0, "trapped": 1}


def test_agents_in_an_open_room_find_nothing_and_never_end_inside():
    world = sidestep.World2D()
    room(world, 0, 0, 30, 20, one_sided=True)
    world.add_circles([(10, 10), (20, 6)], 2.0)
    world.add_boxes([(14, 14)], [(18, 16)])
    report = sweep(world, 0.5, spacing=2.0, frames=150, speed=0.3)
    assert report.starts > 100 and report.agents == 8 * report.starts
    assert report.ok, report.format()


def test_a_closed_box_traps_the_starts_inside_it_and_no_other():
    world = sidestep.World2D()
    room(world, 0, 0, 10, 10, one_sided=True)
    room(world, 1, 1, 3, 3)
    report = sweep(world, 0.2, spacing=1.0, frames=60, speed=0.2, escape=3.0)
    trapped = [f.position for f in report.findings if f.kind == "trapped"]
    assert trapped == [(1.5, 1.5), (2.5, 1.5), (1.5, 2.5), (2.5, 2.5)]
    assert [f.kind for f in report.findings] == ["trapped"] * 4


def test_starts_are_the_spawns_or_else_the_free_lattice_points():
    world = sidestep.World2D()
    room(world, 0, 0, 4, 2, one_sided=True)
    world.add_circles([(0.5, 0.5)], 0.3)
    lattice = sweep_starts(world, 0.1, 1.0)
    assert lattice.tolist() == [[1.5, 0.5], [2.5, 0.5], [3.5, 0.5],
                                [0.5, 1.5], [1.5, 1.5], [2.5, 1.5], [3.5, 1.5]]
    level = Level(world, np.array([[0.5, 0.5]]))                 # a spawn inside the post
    assert sweep_starts(level, 0.1, 1.0).tolist() == [[0.5, 0.5]]


@pytest.mark.parametrize("n", range(1, 33))
def test_turning_when_held_visits_every_heading(n):
    k = turn_step(n)
    assert sorted({(j * k) % n for j in range(n)}) == list(range(n))
    assert n < 4 or abs(k - 3 * n / 8) <= n / 8 + 1


@pytest.mark.parametrize("bad, word", [({"headings": 0}, "headings"), ({"frames": 1.5}, "frames"),
                                       ({"speed": -1.0}, "speed"), ({"escape": math.nan}, "escape"),
                                       ({"spacing": 0}, "spacing")])
def test_bad_settings_are_value_errors_naming_the_setting(bad, word):
    with pytest.raises(ValueError, match=word):
        SweepSettings(**bad)


def test_parts_of_different_settings_do_not_merge():
    world = sidestep.World2D()
    room(world, 0, 0, 4, 4, one_sided=True)
    with pytest.raises(ValueError, match="same level, radius and settings"):
        merge_sweeps([sweep_part(world, 0.1, settings=SweepSettings(frames=5)),
                      sweep_part(world, 0.1, settings=SweepSettings(frames=6))])


@needs_data
@pytest.mark.parametrize("rel, radius", [("grid/dao/den520d.map", 0.6),
                                         ("grid/rooms/32room_000.map", 0.3),
                                         ("polygons2d/polyanya/meshes/arena.mesh", 0.4),
                                         ("tiled/sticker_knight/sandbox.tmx", 12.0)])
def test_real_levels_no_agent_ends_inside_and_tiles_change_nothing(rel, radius):
    level = sidestep.load(DATA / rel)
    settings = SweepSettings(frames=80)
    whole = merge_sweeps([sweep_part(level, radius, settings=settings)])
    assert whole.counts()["inside"] == 0
    assert whole.starts > 10
    in_tiles = merge_sweeps([sweep_part(level, radius, r, settings)
                             for r in tiles(level.world.bounds, 3)])
    assert in_tiles == whole
    assert set(whole.counts()) == set(SWEEP_KINDS)


@needs_data
def test_defaults_follow_the_level_size():
    level = sidestep.load(DATA / "grid/dao/den520d.map")
    s = settings_for(level.world)
    b = level.world.bounds
    side = max(b[2] - b[0], b[3] - b[1])
    assert s.spacing == pytest.approx(side / 24) and s.escape == s.spacing
    assert s.speed == pytest.approx(math.hypot(b[2] - b[0], b[3] - b[1]) / 400)


def test_check_sweep_on_the_command_line_adds_the_sweep_findings(tmp_path, capsys):
    import json

    from sidestep import cli
    from sidestep.io import save

    world = sidestep.World2D()
    room(world, 0, 0, 20, 20, one_sided=True)
    room(world, 4.7, 4.7, 5.3 + 1e-4, 5.3 + 1e-4)
    save(Level(world, np.array([[5.00005, 5.00005], [15.0, 15.0]]), name="pocket"),
         tmp_path / "pocket.json")
    status = cli.main(["check", str(tmp_path / "pocket.json"), "--radius", "0.3", "--sweep",
                       "--frames", "40", "--jobs", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1
    (entry,) = data["checks"]
    assert entry["sweep"]["counts"] == {"stuck": 8, "inside": 0, "trapped": 1}
    assert entry["sweep"]["starts"] == 2 and entry["sweep"]["frames"] == 40
    kinds = [f["kind"] for f in data["findings"]]
    assert kinds.count("stuck") == 8 and kinds[-1] == "trapped"
    assert all(f["level"].endswith("pocket.json") and f["radius"] == 0.3
               for f in data["findings"])
