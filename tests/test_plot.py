"""Drawing: clearance fields, many paths, big levels, and the ``render`` and ``walk`` pictures."""
import subprocess
import sys
import time

import matplotlib
import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

import sidestep
from sidestep import plot
from sidestep.commands.render import render
from sidestep.commands.walk import animate_walk, draw_walk, walk
from sidestep.level import Level

# No screen on CI; everything here draws on bare Figures anyway.
matplotlib.use("Agg")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def trees():
    world = sidestep.World2D()
    world.add_circles([(0, 1), (1, 0), (-1, 0)], 1.0)
    world.add_walls([(-4, -3)], [(4, -3)], clearance=0.5)
    return world


def test_import_sidestep_does_not_load_matplotlib():
    code = ("import sys, sidestep, sidestep.cli, sidestep.plot, sidestep.commands.check, "
            "sidestep.commands.walk, sidestep.commands.render; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_clearance_image_samples_the_world_at_pixel_centres(trees):
    ax = Figure().subplots()
    image, contour = plot.draw_clearance(ax, trees, extent=(-4, 4, -2, 2), resolution=8,
                                         radius=0.3)
    field = image.get_array()
    assert field.shape == (4, 8) and image.get_extent() == [-4, 4, -2, 2]
    centres = np.column_stack([np.tile(-3.5 + np.arange(8), 4),
                               np.repeat(-1.5 + np.arange(4), 8)])
    np.testing.assert_allclose(field.ravel(), trees.clearance(centres))
    assert contour is not None and contour.levels.tolist() == [0.3]


def test_clearance_contour_only_when_asked_and_present(trees):
    ax = Figure().subplots()
    assert plot.draw_clearance(ax, trees, resolution=20, contour=False)[1] is None
    assert plot.draw_clearance(ax, trees, extent=(-2, 2, -2, 2), resolution=20,
                               radius=1e6)[1] is None
    assert plot.draw_clearance(ax, sidestep.World2D(), resolution=4)[1] is None


@pytest.mark.parametrize("kwargs, words", [
    (dict(resolution=1), "resolution"),
    (dict(resolution=2.5), "resolution"),
    (dict(radius=-1.0), "radius"),
    (dict(extent=(1, 0, 0, 1)), "extent"),
])
def test_clearance_rejects_bad_arguments(trees, kwargs, words):
    with pytest.raises(ValueError, match=words):
        plot.draw_clearance(Figure().subplots(), trees, **kwargs)


def test_draw_paths_draws_one_line_per_agent():
    ax = Figure().subplots()
    paths = np.cumsum(np.random.default_rng(0).normal(size=(30, 12, 2)), axis=0)
    lines = plot.draw_paths(ax, paths)
    assert len(lines.get_segments()) == 12 and len(lines.get_colors()) == 12
    with pytest.raises(ValueError, match="frames, n, 2"):
        plot.draw_paths(ax, paths[0])


def test_a_big_level_draws_quickly_and_rasterizes_its_halo():
    # 5,000 walls with a halo: drawn as one path, added without matplotlib
    # walking it curve by curve (which took minutes on a tile map).
    rng = np.random.default_rng(1)
    world = sidestep.World2D()
    a = rng.uniform(0, 500, (5000, 2))
    world.add_walls(a, a + rng.normal(0, 3, (5000, 2)))
    ax = Figure().subplots()
    start = time.perf_counter()
    plot.draw_world(ax, world, halo=0.5)
    assert time.perf_counter() - start < 5.0
    halo = ax.artists[0] if ax.artists else ax.patches[0]
    assert halo.get_rasterized()
    walls, = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert walls.get_linewidths()[0] < 1.0                     # thin walls on a big map


def test_render_writes_png_and_svg(tmp_path, trees):
    level = Level(trees, np.array([[3.0, 3.0]]), name="trees")
    png, svg = tmp_path / "trees.png", tmp_path / "trees.svg"
    render(level, png, radius=0.3)
    render(level, svg, radius=0.3, field=False)
    assert png.read_bytes().startswith(PNG_SIGNATURE) and png.stat().st_size > 20_000
    text = svg.read_text()
    assert text.startswith("<?xml") and "<svg" in text and svg.stat().st_size > 5_000


def test_render_y_down_flips_the_axis(tmp_path, trees):
    fig = render(trees, tmp_path / "down.png", y_down=True)
    bottom, top = fig.axes[0].get_ylim()
    assert bottom > top


def test_render_refuses_an_unknown_format_and_a_missing_folder(tmp_path, trees):
    with pytest.raises(ValueError, match="format"):
        render(trees, tmp_path / "x.nosuchformat")
    with pytest.raises(FileNotFoundError, match="no directory"):
        render(trees, tmp_path / "missing" / "x.png")


def test_walk_picture_and_animation(tmp_path, trees):
    run = walk(trees, [(-3, 3), (3, 3)], goals=[(3, -1.5), (-3, -1.5)], radius=0.2, speed=0.4)
    draw_walk(Level(trees, np.zeros((0, 2)), name="trees"), run, tmp_path / "walk.png")
    assert (tmp_path / "walk.png").read_bytes().startswith(PNG_SIGNATURE)
    seen = []
    animate_walk(trees, run, tmp_path / "walk.gif", progress=lambda k, n: seen.append(n))
    from PIL import Image

    with Image.open(tmp_path / "walk.gif") as gif:
        assert gif.format == "GIF" and gif.n_frames == min(run.frames + 1, 120)
    assert len(seen) == gif.n_frames


# ------------------------------------------------------- layers and bodies
def _living(*, layers, body):
    """The same obstacles, with or without a second layer and a (still unturned) body."""
    world = sidestep.World2D()
    world.add_walls([(-4, -3)], [(4, -3)], clearance=0.3)
    ids = [*world.add_circles([(0, 1), (2.5, 1.5)], 0.8, layer=[0, 2] if layers else 0),
           *world.add_boxes([(-3, 0)], [(-2, 2)], layer=2 if layers else 0),
           world.add_grid([[1, 0], [1, 1]], 0.5, (1, -2))]
    if body:
        world.set_pose(world.add_body(ids[1:]), (0.0, 0.0), 0.0)
    return world


def _pixels(path):
    from matplotlib.image import imread
    return imread(path)


def test_render_tells_layers_and_bodies_apart(tmp_path):
    plain = render(_living(layers=False, body=False), tmp_path / "plain.png", field=False)
    fig = render(_living(layers=True, body=True), tmp_path / "living.png", field=False)
    a, b = _pixels(tmp_path / "plain.png"), _pixels(tmp_path / "living.png")
    assert a.shape == b.shape
    # Colours, hatching, the origin marker and the legend change a good share of the picture.
    assert np.mean(np.any(a != b, axis=-1)) > 0.005
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["layer 0", "layer 2", "in a body", "body origin"]
    assert "on 2 layers, 1 body" in fig.axes[0].get_title()
    assert plain.axes[0].get_legend() is None and "layer" not in plain.axes[0].get_title()


def test_a_turned_body_is_drawn_where_it_is(tmp_path):
    from matplotlib.collections import PatchCollection
    from sidestep import plot_layers

    world = _living(layers=True, body=True)
    world.set_pose(0, (1.0, 2.0), np.pi / 6)
    # The box's corners, turned about the body's origin, not its axis-aligned bounds.
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    local = np.array([[-3, 0], [-2, 0], [-2, 2], [-3, 2]], float)
    expected = local @ np.array([[c, s], [-s, c]]) + (1.0, 2.0)
    np.testing.assert_allclose(plot_layers.box_corners(world, [3])[0], expected, atol=1e-12)
    cells = plot_layers.grid_cells(world, 4)
    assert cells.shape == (3, 4, 2)
    centres = cells.mean(axis=1)
    assert np.all(world.clearance(centres) < 0)          # each drawn cell is blocked there
    ax = Figure().subplots()
    plot.draw_world(ax, world)
    hatched = [c for c in ax.collections if isinstance(c, PatchCollection) and c.get_hatch()]
    assert hatched and len(ax.lines) == 1                 # the body's origin marker
    render(world, tmp_path / "turned.png", radius=0.2)


def test_one_layer_and_no_body_draws_as_before():
    world = _living(layers=False, body=False)
    ax = Figure().subplots()
    plot.draw_world(ax, world)
    assert not any(c.get_hatch() for c in ax.collections) and not ax.lines
    from sidestep import plot_layers
    assert plot_layers.legend_handles(world, "0.35") == []
