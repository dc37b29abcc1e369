"""Pictures of a query: the view and the obstacles coloured by state, 2D and 3D, and the CLI."""
import math

import matplotlib
import numpy as np
import pytest

import sidestep
from sidestep import cli, plot
from sidestep.plot_query import QUERY_COLORS, save_query
from sidestep.volumes import Box, Frustum, Sphere

matplotlib.use("Agg")


def _coloured(ax):
    """How many shapes are filled in each state's colour."""
    from matplotlib.colors import to_rgba
    counts = {}
    for state, colour in QUERY_COLORS.items():
        counts[state] = sum(len(c.get_paths()) for c in ax.collections
                            if len(c.get_facecolor()) and
                            np.allclose(c.get_facecolor()[0], to_rgba(colour)))
    return counts


def test_draw_query_colours_2d_obstacles_by_state():
    from matplotlib.figure import Figure
    world = sidestep.World2D()
    world.add_circles([(5, 0), (10, 0), (0, 9)], 1.0)          # inside, across the far end, out
    world.add_boxes([(3, -1)], [(4, 1)])                       # inside
    world.add_polygon([(6, 2), (8, 2), (7, 4)])                # inside
    world.add_grid([[1, 0], [0, 1]], 1.0, (6, -8))             # a cell half out of view
    ax = Figure().subplots()
    q = plot.draw_query(ax, world, Frustum.wedge((0, 0), (1, 0), math.pi / 2, 1.0, 10.0))
    assert q.obstacle.tolist() == [0, 1, 3, 4, 5] and q.state.tolist() == [2, 1, 2, 2, 1]
    # Grids are drawn cell by cell: the grid's two cells take its state's colour.
    assert _coloured(ax) == {1: 1 + 2, 2: 3}
    outline = [p for p in ax.patches if not p.get_fill()]     # the wedge's trapezoid
    assert len(outline) == 1 and len(outline[0].get_xy()) == 5


def test_save_query_writes_a_3d_top_view(tmp_path):
    world = sidestep.World3D(up="z")
    world.add_spheres([(5, 0, 0), (0, 0, 50)], 1.0)
    world.add_boxes([(3, -1, -1)], [(4, 1, 1)])
    world.add_mesh([(6, 2, 0), (8, 2, 0), (7, 4, 1)], [(0, 1, 2)])
    world.add_voxels(np.ones((2, 1, 1), bool), 1.0, (9, -0.5, -0.5))
    world.add_heightfield(np.zeros((3, 3)), 2.0, (-20, -20, -3))
    view = Frustum.perspective((0, 0, 0), (1, 0, 0), (0, 0, 1), math.pi / 2, 1.0, 1.0, 10.0)
    out = tmp_path / "view.png"
    q = save_query(world, view, out)
    assert out.stat().st_size > 1000
    assert q.obstacle.tolist() == [0, 2, 3, 4] and q.state.tolist() == [2, 2, 2, 1]


@pytest.mark.parametrize("volume", [Box((0, 0), (3, 3)), Sphere((0, 0), 4.0)])
def test_any_2d_volume_is_outlined(volume, tmp_path):
    world = sidestep.World2D()
    world.add_circles([(1, 1), (20, 20)], 0.5)
    q = save_query(world, volume, tmp_path / "v.svg")
    assert q.obstacle.tolist() == [0] and (tmp_path / "v.svg").read_text().startswith("<?xml")


def test_render_wedge_from_the_command_line(tmp_path, capsys):
    world = sidestep.World2D()
    world.add_circles([(5, 0), (0, 9)], 1.0)
    scene = tmp_path / "level.json"
    world.save(scene)
    out = tmp_path / "view.png"
    assert cli.main(["render", str(scene), "-o", str(out), "--wedge", "0,0,0,90,1,10"]) == 0
    assert out.stat().st_size > 1000
    with pytest.raises(SystemExit):
        cli.main(["render", str(scene), "-o", str(out), "--wedge", "0,0,0,90,10,1"])
    assert "near must be below far" in capsys.readouterr().err


def test_a_query_picture_draws_walls_of_clearance_zero(tmp_path):
    # A wall without a clearance band (the default) is drawn as its segment;
    # it once had no path to draw and the picture failed.
    import sidestep
    from sidestep.plot_query import save_query
    from sidestep.volumes import Frustum

    world = sidestep.World2D()
    world.add_walls([(2.0, -1.0), (4.0, -3.0)], [(2.0, 1.0), (4.0, 3.0)])
    out = tmp_path / "walls.png"
    save_query(world, Frustum.wedge((0.0, 0.0), (1.0, 0.0), 1.0, 0.1, 10.0), out)
    assert out.stat().st_size > 1000
