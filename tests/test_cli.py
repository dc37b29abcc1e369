"""The ``sidestep`` command end to end: render, walk, check, bad input, the progress bar."""
import io
import json
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import sidestep
from sidestep import cli
from sidestep.commands import compile_notice
from sidestep.commands.compile_notice import CompileNotice
from sidestep.commands.progress import Progress
from sidestep.level import Level

from command_line import run

# No screen on CI.
matplotlib.use("Agg")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    """A saved scene: a door 0.5 wide between two rooms, two trees, a spawn in each room."""
    from sidestep.io import save

    world = sidestep.World2D()
    world.add_walls([(-5, 0), (0.5, 0), (-5, -5), (-5, 5), (-5, -5), (5, -5)],
                    [(0, 0), (5, 0), (5, -5), (5, 5), (-5, 5), (5, 5)])
    world.add_circles([(-3, 2.5), (3, -2.5)], 0.6)
    level = Level(world, np.array([[-2.0, 3.0], [2.0, -3.0]]), name="door")
    return save(level, tmp_path_factory.mktemp("scene") / "door.json")


def test_demo_is_still_the_first_command(capsys):
    status, out, _ = run(["--help"], capsys)
    assert status == 0
    listed = [line.split()[0] for line in out.splitlines()
              if line.startswith("    ") and line.split()[0] in ("demo", "render", "walk", "check")]
    assert listed == ["demo", "render", "walk", "check"]


def test_check_exit_status_follows_the_findings(scene, capsys):
    status, out, err = run(["check", scene, "--radius", "0.2"], capsys)
    assert (status, err) == (0, "") and out.splitlines()[-1] == "no problems found"
    status, out, _ = run(["check", scene, "--radius", "0.3"], capsys)
    assert status == 1 and "narrow_gap" in out and "1 problem: 1 narrow gap" in out


def test_check_json(scene, capsys):
    status, out, _ = run(["check", scene, "--radius", "0.3", "--json"], capsys)
    data = json.loads(out)
    assert status == 1 and data["level"] == "door" and data["ok"] is False
    gap, = data["findings"]
    assert gap["kind"] == "narrow_gap" and gap["families"] == ["wall", "wall"]
    assert gap["gap"] == pytest.approx(0.5) and len(gap["position"]) == 2


def test_check_draws_its_findings(scene, tmp_path, capsys):
    out = tmp_path / "check.png"
    status, _, _ = run(["check", scene, "--radius", "0.3", "-o", out], capsys)
    assert status == 1 and out.read_bytes().startswith(PNG_SIGNATURE)


def test_render_png_and_svg(scene, tmp_path, capsys):
    for name in ("door.png", "door.svg"):
        status, out, err = run(["render", scene, "-o", tmp_path / name, "--radius", "0.3"],
                               capsys)
        assert (status, err) == (0, "") and out.startswith("wrote")
    assert (tmp_path / "door.png").read_bytes().startswith(PNG_SIGNATURE)
    assert (tmp_path / "door.png").stat().st_size > 20_000
    assert (tmp_path / "door.svg").read_text().startswith("<?xml")


def test_render_a_scene_with_layers_and_a_turned_body(tmp_path, capsys):
    world = sidestep.World2D()
    world.add_walls([(-4, -3)], [(4, -3)], clearance=0.3)
    door = world.add_boxes([(0, -1)], [(2, -0.8)], layer=1)
    world.set_pose(world.add_body(door), (0.5, 0.0), 0.6)
    scene = world.save(tmp_path / "door.json")
    status, out, err = run(["render", scene, "-o", tmp_path / "door.png"], capsys)
    assert (status, err) == (0, "") and out.startswith("wrote")
    assert (tmp_path / "door.png").read_bytes().startswith(PNG_SIGNATURE)


def test_walk_random_agents_json(scene, capsys):
    status, out, err = run(["walk", scene, "--agents", "5", "--steps", "20", "--json",
                            "--radius", "0.2"], capsys)
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["level"] == "door" and data["summary"]["frames"] == 20
    assert len(data["agents"]) == 5
    for agent in data["agents"]:
        assert {"travelled", "contacts", "stuck_frames", "min_clearance", "start", "end",
                "goal", "reached"} <= set(agent)
        assert agent["goal"] is None and agent["min_clearance"] >= -1e-9   # slide
    # Random walkers start from the level's spawns, in turn.
    assert data["agents"][0]["start"] == [-2.0, 3.0] and data["agents"][3]["start"] == [2.0, -3.0]


def test_walk_one_agent_to_a_goal_with_pictures(scene, tmp_path, capsys):
    # "--start=-2,2": with a space, argparse would read "-2,2" as an option.
    status, out, _ = run(["walk", scene, "--start=-2,2", "--to=-2,-2", "--radius",
                          "0.2", "--speed", "0.25", "-o", tmp_path / "walk.png", "--gif",
                          tmp_path / "walk.gif"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["agent", "travelled"]
    assert lines[-1].startswith("all: 1 agents") and "0 of 1 reached" in lines[-1]   # a wall
    assert (tmp_path / "walk.png").read_bytes().startswith(PNG_SIGNATURE)
    assert (tmp_path / "walk.gif").read_bytes()[:6] == b"GIF89a"


@pytest.mark.parametrize("mode", sidestep.MODES)
def test_walk_every_mode(scene, mode, capsys):
    status, out, _ = run(["walk", scene, "--agents", "3", "--steps", "5", "--mode", mode,
                          "--json"], capsys)
    assert status == 0 and json.loads(out)["summary"]["mode"] == mode


@pytest.mark.parametrize("argv, words", [
    (["check", "missing.json", "--radius", "1"], "missing.json"),
    (["check", "{scene}", "--radius", "-1"], "radius"),
    (["check", "{scene}", "--radius", "nan"], "radius"),
    (["check", "{scene}"], "--radius"),
    (["walk", "{scene}", "--mode", "fly"], "fly"),
    (["walk", "{scene}", "--agents", "0"], "agents"),
    (["walk", "{scene}", "--steps", "many"], "steps"),
    (["walk", "{scene}", "--speed", "0"], "speed"),
    (["walk", "{scene}", "--start", "1;2", "--to", "3,4"], "X,Y"),
    (["walk", "{scene}", "--start", "1,2"], "--to"),
    (["walk", "{scene}", "--gif", "anim.png"], "gif"),
    (["walk", "{scene}", "-o", "/nonexistent-sidestep-dir/x.png"], "no directory"),
    (["walk", "{scene}", "--scen", "x.scen"], "scenarios"),
    (["render", "{scene}", "-o", "x.nosuchformat"], "format"),
    (["render", "{scene}", "-o", "x.png", "--load", "threshold=3"], "threshold"),
    (["render", "{scene}", "-o", "x.png", "--load", "nonsense"], "KEY=VALUE"),
    (["render", "level.xyz", "-o", "x.png"], "unknown extension"),
])
def test_bad_input_ends_with_one_line_and_no_traceback(scene, argv, words, capsys):
    status, out, err = run([a.format(scene=scene) for a in argv], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sidestep") and words in err
    assert "Traceback" not in err


def test_a_malformed_level_file_is_one_line_in_a_real_process(tmp_path):
    bad = tmp_path / "broken.map"
    bad.write_text("type octile\nheight 2\nwidth 3\nmap\n.@\n")
    done = subprocess.run([sys.executable, "-m", "sidestep", "check", str(bad), "--radius",
                           "0.3"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "broken.map" in done.stderr
    assert "Traceback" not in done.stderr


def test_progress_bar_is_silent_when_not_a_terminal(scene, capsys):
    quiet = io.StringIO()
    with Progress(10, "walk", stream=quiet) as bar:
        for k in range(10):
            bar(k + 1, 10)
    assert quiet.getvalue() == ""
    # A whole command run with captured (non-terminal) stderr writes nothing there.
    status, _, err = run(["walk", scene, "--agents", "2", "--steps", "50"], capsys)
    assert status == 0 and err == ""


def test_progress_bar_draws_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    with Progress(0, "check", stream=screen, interval=0.0) as bar:
        bar(5, 10)
        bar(10, 10)
    text = screen.getvalue()
    assert text.startswith("\rcheck [") and text.endswith("\n") and "100%" in text
    assert "10/10" in text and "\n" not in text[:-1]


def test_compile_notice_says_it_once_on_any_stream():
    from numba import njit

    log = io.StringIO()   # not a terminal: a CI log or a pipe gets the line too
    with CompileNotice(stream=log):
        njit(lambda x: x + 1)(1)
        njit(lambda x: x * 2)(1.5)
    line = compile_notice.MESSAGE + "...\n"
    assert log.getvalue() == line
    # Outside the context nothing listens any more.
    njit(lambda x: x - 1)(1)
    assert log.getvalue() == line


def test_compile_notice_is_silent_when_nothing_compiles():
    from numba import njit

    add = njit(lambda x: x + 4)
    add(1)
    log = io.StringIO()
    with CompileNotice(stream=log):
        add(2)   # compiled already: no compilation, no notice
    assert log.getvalue() == ""


def test_compile_notice_names_the_worker_processes_once():
    from numba import njit

    log = io.StringIO()
    with CompileNotice(stream=log) as notice:
        notice.parallel(["moves:move_packed", "world:nearest_points"], 2)
        njit(lambda x: x + 5)(1)
    assert log.getvalue() == compile_notice.MESSAGE + ": 2 kernels on 2 cores...\n"


# One real level per format from ../shared/data: read, checked, drawn and walked.
REAL = [("grid/dao/arena.map", 0.3), ("tiled/sticker_knight/sandbox.tmx", 10.0),
        ("tiled/melonjs_platformer/map2.json", 10.0), ("polygons2d/freedoom/e1m1.wad", 16.0),
        ("polygons2d/polyanya/meshes/arena-merged.mesh", 0.3)]


@needs_data
@pytest.mark.parametrize("rel, radius", REAL)
def test_real_levels_check_and_render(rel, radius, tmp_path, capsys):
    path = DATA / rel
    if not path.is_file():
        pytest.skip(f"{rel} is not present")
    status, out, err = run(["check", path, "--radius", radius, "--json"], capsys)
    assert status in (0, 1) and err == ""
    report = json.loads(out)
    assert report["obstacles"] > 0 and report["ok"] == (status == 0)
    status, _, err = run(["render", path, "-o", tmp_path / "level.png", "--radius", radius],
                         capsys)
    assert (status, err) == (0, "")
    assert (tmp_path / "level.png").read_bytes().startswith(PNG_SIGNATURE)


@needs_data
def test_real_map_walks_its_own_scenarios(capsys):
    path = DATA / "grid/dao/arena.map"
    if not path.is_file():
        pytest.skip("arena.map is not present")
    status, out, _ = run(["walk", path, "--agents", "20", "--scen",
                          DATA / "grid/dao/arena.map.scen", "--radius", "0.3", "--json"],
                         capsys)
    data = json.loads(out)
    assert status == 0 and len(data["agents"]) == 20
    assert all(a["goal"] is not None for a in data["agents"])
    assert data["summary"]["reached"] >= 15 and data["summary"]["min_clearance"] >= -1e-9


@needs_data
def test_real_navmesh_walks_scenarios_given_on_the_command_line(capsys):
    mesh = DATA / "polygons2d/polyanya/meshes/aurora-merged.mesh"
    scen = DATA / "polygons2d/polyanya/scenarios/aurora.scen"
    if not (mesh.is_file() and scen.is_file()):
        pytest.skip("the aurora mesh is not present")
    status, out, _ = run(["walk", mesh, "--agents", "10", "--scen", scen, "--radius", "0.25",
                          "--steps", "200", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and len(data["agents"]) == 10
    assert data["summary"]["min_clearance"] >= -1e-9


def test_version_names_the_package(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"sidestep {sidestep.__version__}"


def test_closed_pipe_ends_quietly(tmp_path):
    # ``sidestep check LEVEL | head -1``: the reader leaves after one line; no
    # "Broken pipe" error, the status of a command stopped by SIGPIPE.
    import subprocess
    import sys

    scene = tmp_path / "walls.json"
    world = sidestep.World2D()
    # Far more report than a pipe holds (64 kB), so the writer meets the closed end.
    xs = np.arange(3000.0)
    world.add_walls(np.column_stack([xs, 0 * xs]), np.column_stack([xs, 0 * xs + 1]))
    world.save(scene)
    proc = subprocess.Popen([sys.executable, "-m", "sidestep", "check", str(scene),
                             "--radius", "1", "--limit", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 141
    assert "Broken pipe" not in err and "Traceback" not in err
