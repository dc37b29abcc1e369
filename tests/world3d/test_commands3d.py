"""Pictures and walks of 3D levels: render3d, walk3d, the 3D demo and their command line."""
import json
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import sidestep
from sidestep import cli, demo3d
from sidestep.commands.render3d import camera_rays, heading_vector, render3d
from sidestep.commands.walk3d import agent_clearance, free_starts3d, walk3d
from sidestep.tolerances import PROMISE

matplotlib.use("Agg")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DUNGEON = Path(__file__).resolve().parents[3] / "shared" / "data" / "meshes" / "recast" / \
    "dungeon.obj"
needs_dungeon = pytest.mark.skipif(not DUNGEON.is_file(), reason="../shared/data is not present")


def room():
    """A floor box (top at y = 0), a wall panel at x = 4 and a tree at (-2, 0, 2)."""
    world = sidestep.World3D()
    world.add_boxes([(-5, -1, -5)], [(5, 0, 5)])
    world.add_panels([[(4, 0, -3), (4, 3, -3), (4, 3, 3), (4, 0, 3)]])
    world.add_cylinders([(-2, 0, 2)], 0.5, 2.0)
    return world


def brute_force_ray(vertices, triangles, origin, direction):
    """First hit distance of one ray on a triangle mesh, every triangle tried (Moller-Trumbore)."""
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    e1, e2 = b - a, c - a
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-14
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - a
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
    return float(t[hit].min()) if hit.any() else np.inf


def test_camera_depth_shows_the_wall_distance_in_the_middle_pixel(tmp_path):
    out = tmp_path / "room.png"
    picture = render3d(room(), out, eye=(0, 1, 0), heading=(1, 0, 0), width=31, height=21)
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    depth = picture.camera.depth
    assert depth.shape == (21, 31)
    assert depth[10, 15] == pytest.approx(4.0, abs=1e-12)
    # The wall faces the camera square on: every pixel that sees it has depth 4
    # (distance along the heading), while the distance along its own ray grows
    # towards the edges of the picture.
    wall = picture.camera.obstacle == 1
    assert wall[10, 15] and wall.sum() > 100
    np.testing.assert_allclose(depth[wall], 4.0, atol=1e-9)
    assert picture.camera.distance[wall].max() > 4.3
    # The normal at the middle pixel points back at the camera.
    np.testing.assert_allclose(picture.camera.normals[10, 15], (-1, 0, 0), atol=1e-12)


def test_top_view_is_the_height_of_the_highest_surface(tmp_path):
    picture = render3d(room(), tmp_path / "top.png", view="top", width=60)
    assert picture.camera is None
    top = picture.top
    assert top.axes.ground == (0, 2) and top.axes.flip        # x across, z down the page
    heights = top.heights
    a0, a1, b0, b1 = top.extent
    rows, cols = heights.shape

    def at(x, z):
        return heights[int((z - b0) / (b1 - b0) * rows), int((x - a0) / (a1 - a0) * cols)]

    assert at(0.0, 0.0) == pytest.approx(0.0, abs=1e-12)      # the floor box's top
    assert at(-2.0, 2.0) == pytest.approx(2.0, abs=1e-12)     # the tree's top cap
    assert np.isnan(heights[0, 0])                           # the margin: nothing below


def test_heading_as_a_yaw_turns_in_the_ground_plane():
    world = room()
    np.testing.assert_allclose(heading_vector(0.0, world), (1, 0, 0), atol=1e-15)
    np.testing.assert_allclose(heading_vector(90.0, world), (0, 0, 1), atol=1e-15)
    with pytest.raises(ValueError, match="heading"):
        heading_vector((0, 0, 0), world)


def test_camera_rays_are_unit_and_centred_on_the_heading():
    forward = np.array([0.6, 0.0, 0.8])
    rays = camera_rays(np.zeros(3), forward, np.array([0.0, 1.0, 0.0]), 5, 3, 90.0)
    np.testing.assert_allclose(np.linalg.norm(rays, axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(rays[7], forward, atol=1e-15)
    assert rays[0, 1] > 0 > rays[-1, 1]          # row 0 is the top of the picture


def test_render3d_refuses_bad_input(tmp_path):
    world = room()
    with pytest.raises(ValueError, match="view"):
        render3d(world, tmp_path / "x.png", view="side")
    with pytest.raises(ValueError, match="width"):
        render3d(world, tmp_path / "x.png", width=0)
    with pytest.raises(ValueError, match="no obstacles"):
        render3d(sidestep.World3D(), tmp_path / "x.png")
    with pytest.raises(TypeError, match="World3D"):
        render3d(sidestep.World2D(), tmp_path / "x.png")


@needs_dungeon
def test_render3d_of_the_dungeon_matches_a_brute_force_ray(tmp_path):
    level = sidestep.load(DUNGEON)
    mesh = level.world.geometry("mesh")
    vertices, triangles = mesh["vertices"][0], mesh["triangles"][0]
    out = tmp_path / "dungeon.png"
    # From the default eye (overlooking the level), look at the middle of one of its triangles.
    eye = render3d(level, tmp_path / "default.png", view="camera", width=5, height=3).camera.eye
    target = vertices[triangles[len(triangles) // 2]].mean(axis=0)
    picture = render3d(level, out, eye=eye, heading=target - eye, width=41, height=25)
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    camera = picture.camera
    expected = brute_force_ray(vertices, triangles, camera.eye, camera.forward)
    assert np.isfinite(expected)
    assert camera.depth[12, 20] == pytest.approx(expected, abs=1e-9)
    # The top view sees the highest surface under the middle of the level.
    top = picture.top
    rows, cols = top.heights.shape
    a0, a1, b0, b1 = top.extent
    x = a0 + (cols // 2 + 0.5) * (a1 - a0) / cols
    z = b0 + (rows // 2 + 0.5) * (b1 - b0) / rows
    lo, hi = level.world.bounds
    ceiling = hi[1] + 0.03 * max(hi[0] - lo[0], hi[2] - lo[2])
    down = brute_force_ray(vertices, triangles, np.array([x, ceiling, z]), np.array([0, -1.0, 0]))
    if np.isfinite(down):
        assert top.heights[rows // 2, cols // 2] == pytest.approx(ceiling - down, abs=1e-9)
    else:
        assert np.isnan(top.heights[rows // 2, cols // 2])


@pytest.mark.parametrize("height", [0.0, 1.6], ids=["spheres", "capsules"])
def test_walkers_end_outside_every_surface(height):
    world = room()
    world.add_panels([[(-4, 0, -1), (-4, 2, -1), (0, 2, -1), (0, 0, -1)]])
    # Walls round the floor's edge, so no walker falls off it.
    world.add_panels([[(x0, 0, z0), (x1, 0, z1), (x1, 3, z1), (x0, 3, z0)] for x0, z0, x1, z1 in
                      [(-5, -5, 5, -5), (5, -5, 5, 5), (5, 5, -5, 5), (-5, 5, -5, -5)]])
    radius = 0.3
    starts = free_starts3d(world, 12, radius, height, np.random.default_rng(3))
    run = walk3d(world, starts, steps=60, speed=0.15, radius=radius, height=height, seed=3)
    assert run.positions.shape == (61, 12, 3)
    assert run.clearances.min() >= radius - PROMISE
    for p in run.positions[-1]:
        # Shrunk by a hair, the agent touches nothing: it ended outside every surface.
        assert len(world.overlapping(p, radius - 2 * PROMISE, max(height - 4 * PROMISE, 0))) == 0
    rows = run.agents()
    assert all(r["outside"] for r in rows)
    # Gravity holds them on the floor box: every agent touched something, and
    # stands on it in the end (its lowest point a skin above y = 0).
    assert all(r["contacts"] > 0 for r in rows)
    lowest = run.positions[-1, :, 1] - max(radius, height / 2)
    assert lowest.min() >= -PROMISE and lowest.max() <= 2.0 + 1e-5     # floor or tree top


def test_walk_with_crowd_keeps_agents_apart_where_move_many_lets_them_overlap():
    # Many walkers in a small walled room: with move_many they walk through each other,
    # as a Crowd3D they never come to overlap, and both stay outside every surface.
    world = sidestep.World3D()
    world.add_boxes([(-3, -1, -3)], [(3, 0, 3)])
    world.add_panels([[(x0, 0, z0), (x1, 0, z1), (x1, 3, z1), (x0, 3, z0)] for x0, z0, x1, z1 in
                      [(-3, -3, 3, -3), (3, -3, 3, 3), (3, 3, -3, 3), (-3, 3, -3, -3)]])
    starts = free_starts3d(world, 30, 0.3, 1.6, np.random.default_rng(5))
    apart = walk3d(world, starts, steps=60, speed=0.1, radius=0.3, height=1.6, seed=5)
    crowd = walk3d(world, starts, steps=60, speed=0.1, radius=0.3, height=1.6, seed=5,
                   crowd=True)
    assert apart.summary()["agent_overlaps"] > 0
    summary = crowd.summary()
    assert summary["crowd"] and summary["agent_overlaps"] == 0 and summary["all_outside"]
    with pytest.raises(ValueError, match="mode"):
        walk3d(world, starts, steps=2, radius=0.3, mode="push", crowd=True)
    with pytest.raises(ValueError, match="radius"):
        walk3d(world, starts, steps=2, radius=0.0, crowd=True)


def test_ghost_walkers_fall_through_the_floor():
    world = room()
    starts = free_starts3d(world, 4, 0.3, 0.0, np.random.default_rng(1))
    run = walk3d(world, starts, steps=40, speed=0.1, radius=0.3, mode="ghost")
    assert run.positions[-1, :, 1].max() < -1.0
    assert not run.summary()["all_outside"]


@needs_dungeon
def test_walkers_on_the_dungeon_end_outside_every_surface():
    level = sidestep.load(DUNGEON)
    starts = free_starts3d(level.world, 6, 0.5, 2.0, np.random.default_rng(0))
    run = walk3d(level.world, starts, steps=30, radius=0.5, height=2.0)
    assert agent_clearance(level.world, run.positions[-1], 0.5, 2.0).min() >= 0.5 - PROMISE
    assert run.summary()["all_outside"]


@pytest.fixture(scope="module")
def corridor_walks():
    world, parts = demo3d.corridor()
    walks = {mode: demo3d.walk(world, 0.3, mode) for mode in sidestep.MODES}
    rows = {mode: demo3d.measure(world, mode, *walks[mode], 0.3) for mode in walks}
    return world, parts, walks, rows


def test_demo3d_slide_never_penetrates(corridor_walks):
    _, _, walks, rows = corridor_walks
    assert rows["slide"]["penetrations"] == 0
    assert rows["slide"]["min_clearance"] >= -PROMISE
    assert rows["slide"]["contacts"] > 0


def test_demo3d_slide_rounds_the_convex_corner_and_takes_the_doorway(corridor_walks):
    _, _, walks, _ = corridor_walks
    path = walks["slide"][0]
    # From the first leg (z < 3) into the second (x > 7) past the corner at (7, 3).
    assert path[0, 2] < 3 and path[-1, 0] > 7
    # Where it crosses the cross wall (z = 6) it is inside the doorway, 8 < x < 9,
    # a radius clear of both jambs.
    k = int(np.argmax(path[:, 2] > 6.0))
    assert k > 0
    x = np.interp(6.0, path[k - 1:k + 1, 2], path[k - 1:k + 1, 0])
    assert 8.3 - 1e-6 <= x <= 8.7 + 1e-6


def test_demo3d_ghost_passes_the_wall_and_block_stops(corridor_walks):
    world, parts, walks, rows = corridor_walks
    ghost, slide, block = walks["ghost"][0], walks["slide"][0], walks["block"][0]
    # The last waypoint is beyond the east wall (x = 10): only ghost gets there.
    assert ghost[-1, 0] > 10.5 and rows["ghost"]["penetrations"] > 0
    assert slide[:, 0].max() <= 10 - 0.3 + PROMISE
    # Block stops at its first contact (the pillar) and never gets round it.
    assert rows["block"]["travelled"] < 0.5 * rows["slide"]["travelled"]
    assert block[:, 0].max() < 4.0 and rows["block"]["penetrations"] == 0
    assert rows["ghost"]["contacts"] == 0


def test_demo3d_corridor_command_prints_the_table_and_draws(tmp_path, capsys):
    out = tmp_path / "demo3d.png"
    assert cli.main(["demo", "--3d", "--corridor", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:5]] == list(sidestep.MODES)
    assert out.read_bytes()[:8] == PNG_SIGNATURE


def test_character_demo_walks_the_whole_dungeon_tour_on_the_floor(tmp_path, capsys):
    out = tmp_path / "character.png"
    assert cli.main(["demo", "--3d", "--out", str(out)]) == 0
    table = dict(line.strip("|").split("|")[:2] for line in capsys.readouterr().out.splitlines()
                 if line.startswith("| ") and not line.startswith("| figure"))
    table = {k.strip(): v.strip() for k, v in table.items()}
    assert table["waypoints"] == "14/14"                       # never stuck on the way
    assert table["penetrating frames"] == "0"
    assert float(table["min clearance m"]) >= -1e-9
    assert float(table["height range m"]) > 9.0                # down to 5 m, up to 15 m
    assert int(table["on floor"]) > 0.99 * int(table["frames"])
    assert out.read_bytes()[:8] == PNG_SIGNATURE


def obj_room(path):
    """A small OBJ level: a floor quad and a wall quad, as two triangles each."""
    path.write_text("v -5 0 -5\nv 5 0 -5\nv 5 0 5\nv -5 0 5\n"
                    "v 4 0 -3\nv 4 3 -3\nv 4 3 3\nv 4 0 3\n"
                    "f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n")
    return path


def test_render_command_draws_a_3d_level(tmp_path, capsys):
    level = obj_room(tmp_path / "room.obj")
    out = tmp_path / "room.png"
    status = cli.main(["render", str(level), "-o", str(out), "--eye=0,1,0", "--heading", "0",
                       "--size", "21", "15"])
    assert status == 0 and out.read_bytes()[:8] == PNG_SIGNATURE


def test_walk_command_walks_a_3d_level_as_json(tmp_path, capsys):
    level = obj_room(tmp_path / "room.obj")
    status = cli.main(["walk", str(level), "--agents", "3", "--steps", "20", "--radius", "0.25",
                       "--height", "1.5", "--json", "-o", str(tmp_path / "walk.png")])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["agents"] == 3 and report["summary"]["all_outside"]
    assert min(a["min_clearance"] for a in report["agents"]) >= 0.25 - PROMISE
    assert (tmp_path / "walk.png").read_bytes()[:8] == PNG_SIGNATURE
    assert not report["summary"]["crowd"]
    status = cli.main(["walk", str(level), "--agents", "3", "--steps", "20", "--radius", "0.25",
                       "--height", "1.5", "--crowd"])
    assert status == 0
    assert "a crowd: agents came to overlap 0 times" in capsys.readouterr().out


def test_walk_command_refuses_2d_options_on_a_3d_level(tmp_path, capsys):
    level = obj_room(tmp_path / "room.obj")
    with pytest.raises(SystemExit) as exc:
        cli.main(["walk", str(level), "--start", "1,1", "--to", "2,2"])
    assert exc.value.code == 2
    assert "--agents" in capsys.readouterr().err


def test_render3d_colours_outlines_by_layer(tmp_path):
    world = room()
    world.add_boxes([(1.0, 0.0, 1.0)], [(1.5, 0.5, 1.5)], layer=3)
    picture = render3d(world, tmp_path / "layers.png", view="top", width=60)
    labels = picture.figure.axes[0].get_legend_handles_labels()[1]
    assert labels == ["layer 0", "layer 3"]
    plain = render3d(room(), tmp_path / "plain.png", view="top", width=60)
    assert "layer 0" not in plain.figure.axes[0].get_legend_handles_labels()[1]
