"""The articles' scene, the demo, its drawing helpers and the ``sidestep`` command."""
import io
import sys

import matplotlib
import numpy as np
import pytest
from matplotlib.figure import Figure

import sidestep
from sidestep import cli, demo, plot, scenes

# No screen on CI; the demo and these tests draw on bare Figures anyway.
matplotlib.use("Agg")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

#: The wall article's walls, copied from the article: [x0, y0, x1, y1].
ARTICLE_WALLS = [(-24.4, -14.1, 18.9, -14.1), (-24.4, -14.1, -24.4, 13.2),
                 (-20.2, -0.1, -4.8, -0.1), (-0.5, 0.7, -0.5, -8.7),
                 (19.4, 14.4, -24.4, 14.4), (19.4, 14.4, 19.4, -14.4),
                 (-17.5, 0.5, -17.5, 11), (13.4, -0.15, 18.74, -0.15),
                 (-0.43, -9.1, 12.4, -9.1)]


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """One run of the demo: ``(rows, picture path, radius)``."""
    out = tmp_path_factory.mktemp("demo") / "demo.png"
    return demo.run_demo(out=out, radius=0.3), out, 0.3


def test_house_walls_are_the_articles_nine():
    starts, ends, clearance = scenes.house_walls()
    np.testing.assert_array_equal(np.hstack([starts, ends]), ARTICLE_WALLS)
    np.testing.assert_array_equal(clearance, np.full(9, 0.5))


def test_radial_trees_are_the_articles_three():
    centers, radii = scenes.radial_trees()
    np.testing.assert_array_equal(centers, [(0, 1), (1, 0), (-1, 0)])
    np.testing.assert_array_equal(radii, [1.0, 1.0, 1.0])


def test_demo_world_holds_the_scene():
    world, ids = scenes.demo_world()
    walls = world.geometry("wall")
    np.testing.assert_array_equal(walls["ids"], ids["walls"])
    np.testing.assert_array_equal(np.hstack([walls["starts"], walls["ends"]]), ARTICLE_WALLS)
    np.testing.assert_array_equal(walls["clearance"], np.full(9, 0.5))
    circles = world.geometry("circle")
    radial = np.isin(circles["ids"], ids["radial_trees"])
    np.testing.assert_array_equal(circles["centers"][radial], [(0, 1), (1, 0), (-1, 0)])
    grove = np.isin(circles["ids"], ids["grove"])
    assert grove.sum() >= 3 and len(world) == 9 + 3 + grove.sum()
    assert np.all((circles["radii"][grove] >= 0.3) & (circles["radii"][grove] <= 0.8))


def test_grove_trees_stay_clear_of_walls_and_other_trees():
    centers, radii = scenes.grove_trees()
    for i, (center, radius) in enumerate(zip(centers, radii)):
        others = sidestep.World2D()
        others.add_walls(*scenes.house_walls())
        others.add_circles(*scenes.radial_trees())
        others.add_circles(np.delete(centers, i, axis=0), np.delete(radii, i))
        assert others.clearance(center) > radius


def test_demo_writes_a_png(demo_run):
    _, out, _ = demo_run
    data = out.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 20_000


def test_demo_rows_follow_the_modes_semantics(demo_run):
    rows, _, radius = demo_run
    by_mode = {row["mode"]: row for row in rows}
    assert [row["mode"] for row in rows] == list(sidestep.MODES)
    # slide never ends a move overlapping anything.
    assert by_mode["slide"]["penetrations"] == 0
    assert by_mode["slide"]["min_clearance"] >= -1e-9
    # block refuses every move that would end overlapping, from a free start.
    assert by_mode["block"]["penetrations"] == 0
    # ghost ignores obstacles, and reaches within ARRIVE of a waypoint buried
    # deeper than that (clearance changes no faster than position).
    world, _ = scenes.demo_world()
    assert world.clearance(demo.ROUTE[1:]).min() < radius - demo.ARRIVE
    assert by_mode["ghost"]["penetrations"] > 0
    assert by_mode["ghost"]["contacts"] == 0
    # Every frame asks for one STEP (waypoints are passed at ARRIVE > STEP);
    # block and ghost make all of it or none of it.
    for mode in ("block", "ghost"):
        steps = by_mode[mode]["travelled"] / demo.STEP
        assert steps == pytest.approx(round(steps), abs=1e-6)


def test_walk_keeps_slide_free_at_every_frame():
    world, _ = scenes.demo_world()
    path, contacts = demo.walk(world, 0.3, "slide")
    assert len(contacts) > 0
    assert np.all(world.clearance(path) >= 0.3 - 1e-9)
    assert np.all(np.hypot(*np.diff(path, axis=0).T) <= demo.STEP + 1e-12)


def test_draw_world_draws_every_family_with_a_halo():
    world = sidestep.World2D()
    world.add_circles([(0, 0)], 1.0)
    world.add_walls([(-3, -3)], [(3, -3)], clearance=0.5)
    world.add_boxes([(2, 2)], [(3, 4)])
    world.add_polygon([(-4, 2), (-2, 2), (-3, 4)])
    world.add_grid([[1, 0], [1, 1]], cell_size=0.5, origin=(4, -1))
    fig = Figure()
    ax = fig.subplots()
    plot.draw_world(ax, world, halo=0.25)
    path = plot.draw_path(ax, [(-5, 0), (5, 0)], label="agent")
    marks = plot.draw_contacts(ax, np.empty((0, 2)))
    assert len(ax.images) == 1 and len(ax.patches) >= 3 and len(ax.collections) >= 2
    assert path.get_label() == "agent" and len(marks.get_xdata()) == 0
    x0, x1 = ax.get_xlim()
    assert x0 <= -4.25 and x1 >= 5.0
    fig.savefig(io.BytesIO(), format="png")


def test_cli_demo_prints_the_table_and_writes_the_picture(tmp_path, capsys):
    out = tmp_path / "cli.png"
    assert cli.main(["demo", "--out", str(out), "--radius", "0.25"]) == 0
    assert out.read_bytes().startswith(PNG_SIGNATURE)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "mode" and "penetrations" in lines[0]
    assert [line.split()[0] for line in lines[1:-1]] == list(sidestep.MODES)
    assert lines[-1] == f"wrote {out}"


@pytest.mark.parametrize("argv, words", [
    (["demo", "--radius", "-1"], "radius"),
    (["demo", "--radius", "wide"], "radius"),
    (["demo", "--radius", "50"], "does not fit"),
    (["demo", "--out", "/nonexistent-sidestep-dir/x.png"], "no directory"),
    (["demo", "--out", "picture.nosuchformat"], "format"),
    ([], "required"),
])
def test_cli_rejects_bad_input_with_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and err.startswith("sidestep")


def test_cli_help_exits_cleanly(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["demo", "--help"])
    assert exit_info.value.code == 0
    assert "--radius" in capsys.readouterr().out


def test_demo_without_matplotlib_says_so_before_walking(monkeypatch, tmp_path):
    # No minutes of compiling and walking before "matplotlib is missing".
    from sidestep import demo

    def no_walk(*args, **kwargs):
        raise AssertionError("walked before finding matplotlib missing")

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(demo, "walk", no_walk)
    with pytest.raises(ImportError):
        demo.run_demo(out=str(tmp_path / "x.png"))
