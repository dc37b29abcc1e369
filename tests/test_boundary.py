"""A level's edge: one-sided walls, the void behind them, and what walk and check say about it."""
import json
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep import cli
from sidestep.commands.check import check
from sidestep.commands.walk import free_starts, walk
from sidestep.io import load, save
from sidestep.io.navmesh import _inside_mesh, _parse

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")

#: A room with a notch, walkable inside, drawn counter-clockwise (walkable on the left).
ROOM = np.array([(0, 0), (10, 0), (10, 10), (6, 10), (6, 6), (4, 6), (4, 10), (0, 10)], float)
#: A square hole in it, drawn clockwise (walkable outside it, on the left).
HOLE = np.array([(2, 2), (2, 4), (4, 4), (4, 2)], float)


def room_world():
    world = sidestep.World2D()
    for ring in (ROOM, HOLE):
        world.add_walls(ring, np.roll(ring, -1, axis=0), one_sided=True)
    return world


def inside_polygon(points, ring):
    """Independent reference: even-odd crossings of a horizontal ray."""
    x, y = points[:, 0:1], points[:, 1:2]
    a, b = ring, np.roll(ring, -1, axis=0)
    crosses = (a[:, 1] > y) != (b[:, 1] > y)
    at = a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / np.where(crosses, b[:, 1] - a[:, 1], 1)
    return (crosses & (x < at)).sum(axis=1) % 2 == 1


def ring_edges(*rings):
    """The edges ``(k, 4)`` of closed rings."""
    return np.vstack([np.hstack([r, np.roll(r, -1, axis=0)]) for r in rings])


def edge_distance(points, edges):
    """Independent reference: distance from each point to the nearest of ``edges (k, 4)``."""
    a, e = edges[:, 0:2], edges[:, 2:4] - edges[:, 0:2]
    p = points[:, None, :]
    f = np.clip(((p - a) * e).sum(axis=2) / (e * e).sum(axis=1), 0.0, 1.0)
    return np.sqrt(((p - a - f[:, :, None] * e) ** 2).sum(axis=2)).min(axis=1)


def walkable_reference(points, edges, radius):
    """Independent reference: inside the region ``edges`` bound (even-odd) or on them
    (within 1e-9), and at least ``radius - 1e-9`` from them."""
    x, y = points[:, 0:1], points[:, 1:2]
    ax, ay, bx, by = edges.T
    crosses = (ay > y) != (by > y)
    at = ax + (y - ay) * (bx - ax) / np.where(crosses, by - ay, 1.0)
    enclosed = (crosses & (x < at)).sum(axis=1) % 2 == 1
    distance = edge_distance(points, edges)
    return (enclosed | (distance <= 1e-9)) & (distance >= radius - 1e-9)


def headings(count, length):
    """``count`` displacements of ``length`` round the circle, by NumPy's cos and sin (so
    the ones along the axes carry rounding-sized parts across them: cos(pi/2) = 6e-17)."""
    angle = 2.0 * np.pi * np.arange(count) / count
    return length * np.c_[np.cos(angle), np.sin(angle)]


def assert_moves_stay_and_go(world, edges, start, radius, steps):
    """Every move from ``start`` ends walkable (reference and clearance), and every one
    whose straight path is walkable goes its whole length (nothing stops it)."""
    for d in steps:
        move = world.move(start, tuple(d), radius=radius)
        end = move.position
        assert walkable_reference(end[None], edges, radius)[0], (start, d, end)
        assert world.clearance(end) >= radius - 1e-9, (start, d, end)
        path = np.asarray(start) + np.linspace(0.0, 1.0, 17)[:, None] * d
        if walkable_reference(path, edges, radius).all():
            assert np.hypot(*(end - start)) >= 0.99 * np.hypot(*d), (start, d, end, move.stop)


#: Corners of ROOM where the walkable side is convex (the boundary turns left) and
#: reflex (it turns right: the notch's foot, and every corner of the hole).
CONVEX_CORNERS = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (6.0, 10.0), (4.0, 10.0), (0.0, 10.0)]
REFLEX_CORNERS = [(6.0, 6.0), (4.0, 6.0), (2.0, 2.0), (2.0, 4.0), (4.0, 4.0), (4.0, 2.0)]


@pytest.mark.parametrize("corner", CONVEX_CORNERS)
def test_a_point_camera_on_a_convex_corner_of_the_edge_stays_inside(corner):
    # A point camera standing exactly on a corner touches both walls at their
    # very ends, where a capsule's normal (p - end) / |p - end| is undefined.
    # It was a fixed (1, 0): pointing into the void at about half the
    # corners, so the contact planes and the sweeps both took a move that
    # way for leaving the walls, and 216 of 4,347 moves from the shared
    # navmeshes' boundaries ended outside (benchmarks/navmesh_edges.py).
    world = room_world()
    assert_moves_stay_and_go(world, ring_edges(ROOM, HOLE), corner, 0.0, headings(16, 0.5))


@pytest.mark.parametrize("corner", REFLEX_CORNERS)
def test_a_point_camera_on_a_reflex_corner_slides_along_its_walls(corner):
    # At a corner where the walkable side is reflex, the void is the wedge
    # behind both walls and the walkable side the union of their half-planes.
    # A heading along one wall with a rounding across it (cos(pi/2) = 6e-17)
    # points into the wedge: both walls are pressed, and their two planes
    # together (an intersection) left no motion at all, so the camera stood
    # on the corner for good. One plane alone that the answer does not press
    # the other with is the slide a hair away from the corner would take.
    world = room_world()
    assert_moves_stay_and_go(world, ring_edges(ROOM, HOLE), corner, 0.0, headings(16, 0.5))


@pytest.mark.parametrize("radius", [0.25, 0.4, 0.5])
def test_recovery_from_a_boundary_vertex_stays_inside(radius):
    # The same undefined normal is every push-out plane of a disc centred on
    # a corner: the planes now point to the walkable side, and a push-out
    # that ends in the void still goes on to the ring search.
    world = room_world()
    edges = ring_edges(ROOM, HOLE)
    steps = np.vstack([headings(8, 0.5), [(0.0, 0.0)]])
    for corner in CONVEX_CORNERS + REFLEX_CORNERS:
        ends = world.move_many(np.tile(corner, (len(steps), 1)), steps, radius=radius)
        assert walkable_reference(ends, edges, radius).all(), corner
        assert (world.clearance(ends) >= radius - 1e-9).all()
        assert np.array_equal(ends, [world.move(corner, tuple(d), radius=radius).position
                                     for d in steps])


def test_a_point_on_the_edge_between_two_navmesh_polygons_is_inside_the_mesh(tmp_path):
    # Two triangles of arena.mesh sharing the diagonal x + y = 66. The point
    # lies on it as closely as doubles allow, and is 2.5e-15 outside both
    # triangles by their own edge test: the mesh's inside test took it for
    # outside the mesh, and an oracle built on it called moves that end on an
    # inner edge "outside the walkable area".
    path = tmp_path / "pair.mesh"
    path.write_text("mesh\n2\n4 2\n35 31 2 0 1\n47 19 2 0 1\n47 31 1 0\n34 19 1 1\n"
                    "3 0 1 2 -1 1 -1\n3 0 3 1 0 -1 -1\n")
    point = np.array([[46.74999849950803, 19.250001500491965]])
    vertices, polygons, _ = _parse(path)
    solids = sidestep.World2D()
    for _, corners, _ in polygons:
        solids.add_polygon(vertices[corners])
    assert 0.0 < solids.clearance(point)[0] < 1e-12       # a rounding outside both
    assert _inside_mesh(point, path, vertices, polygons).all()
    assert load(path).walkable(point).all()


def test_clearance_is_negative_exactly_outside_the_walkable_area():
    world = room_world()
    rng = np.random.default_rng(3)
    points = rng.uniform(-3, 13, (4000, 2))
    inside = inside_polygon(points, ROOM) & ~inside_polygon(points, HOLE)
    clearance = world.clearance(points)
    assert np.array_equal(clearance > 0, inside)
    # The distance is the distance to the edge, either side (a point across
    # the hole is not "behind" the hole's far wall).
    assert world.clearance((3.0, 5.0)) == pytest.approx(1.0)       # above the hole, in the notch
    assert world.clearance((-1.0, -1.0)) == pytest.approx(-np.sqrt(2))   # beyond a corner
    assert world.clearance((3.0, 3.0)) == pytest.approx(-1.0)      # in the hole
    assert world.clearance((5.0, 8.0)) == pytest.approx(-1.0)      # in the notch's void


@pytest.mark.parametrize("start", [(0.0, 5.0), (-0.2, -0.2), (10.1, 9.9), (5.0, 6.0), (3.0, 2.1),
                                   (-0.3, 5.0)])
def test_an_agent_overlapping_the_edge_recovers_to_the_walkable_side(start):
    world = room_world()
    move = world.move(start, (0.0, 0.01), radius=0.4)
    assert move.recovered
    assert world.clearance(move.position) >= 0.4 - 1e-9


def test_one_sided_walls_still_block_both_ways():
    world = sidestep.World2D()
    world.add_walls([(0, -5)], [(0, 5)], one_sided=True)      # walkable on the left, x < 0
    assert world.move((-1, 0), (3, 0), radius=0.2).position[0] <= -0.2 + 1e-9
    assert world.raycast((-1, 0), (1, 0)).hit          # one ray in, one answer out
    assert world.raycast((1, 0), (-1, 0)).hit          # and from the void side


def test_removing_an_edge_wall_opens_its_corner():
    world = room_world()
    assert world.clearance((-1.0, -1.0)) < 0
    world.remove([0, 7])                  # both walls at the corner (0, 0)
    assert world.clearance((-1.0, -1.0)) > 0


def test_one_sided_walls_round_trip_through_scene_files(tmp_path):
    world = room_world()
    world.add_walls([(20, 0)], [(20, 5)], clearance=0.5)
    path = tmp_path / "room.json"
    save(world, path)
    again = load(path).world
    assert again.geometry("wall")["one_sided"].tolist() == [True] * 12 + [False]
    points = np.random.default_rng(0).uniform(-3, 13, (500, 2))
    assert np.array_equal(again.clearance(points), world.clearance(points))
    data = json.loads(path.read_text())
    assert "one_sided" not in data["walls"][-1]             # written only when true
    data["walls"][0]["one_sided"] = "yes"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"walls\[0\]\.one_sided"):
        load(path)


@pytest.mark.parametrize("bad, error", [("yes", TypeError), (np.array([1, 0]), TypeError),
                                        (np.array([True, False, True]), ValueError)])
def test_bad_one_sided_flags_are_refused_by_name(bad, error):
    world = sidestep.World2D()
    with pytest.raises(error, match="one_sided"):
        world.add_walls([(0, 0), (1, 0)], [(1, 0), (2, 0)], one_sided=bad)
    assert len(world) == 0


def test_walk_warns_about_overlapping_starts_and_not_about_free_ones(capsys):
    world = room_world()
    run = walk(world, [(5.0, 3.0), (0.0, 5.0), (5.0, 6.2)], radius=0.3, steps=5, speed=0.1)
    assert [o.index for o in run.overlaps] == [1, 2]
    rows = run.agents()
    assert rows[0]["start_overlap"] is None
    assert rows[1]["start_overlap"]["outside"] is False and rows[1]["start_overlap"]["obstacles"]
    assert rows[2]["start_overlap"]["outside"] is True
    assert run.summary()["overlapping_starts"] == 2 and run.summary()["starts_outside"] == 1
    assert (world.clearance(run.positions[-1]) >= 0.3 - 1e-9).all()
    # Deeper in the void than the radius, a move does not notice (only the
    # edge within reach is looked at); walk still says where it started.
    deep = walk(world, [(5.0, 8.0)], radius=0.3, steps=1, speed=0.1)
    assert deep.overlaps[0].outside and "outside the level" in deep.overlaps[0].describe()


def test_random_starts_lie_inside_the_level():
    world = room_world()
    starts = free_starts(world, 200, 0.2, np.random.default_rng(1))
    assert (inside_polygon(starts, ROOM) & ~inside_polygon(starts, HOLE)).all()


# ----------------------------------------------------------------- real levels
def run_cli(argv, capsys):
    status = cli.main([str(a) for a in argv])
    return status, capsys.readouterr().out


@needs_data
def test_recovery_stays_inside_navmesh():
    path = DATA / "polygons2d/polyanya/meshes/arena.mesh"
    level = load(path)
    starts = level.scenarios.starts
    assert len(starts) == 160
    moved = level.world.move_many(starts, np.tile((0.0, -0.166), (len(starts), 1)), radius=0.4)
    vertices, polygons, _ = _parse(path)
    assert _inside_mesh(moved, path, vertices, polygons).all()
    assert (level.world.clearance(moved) >= 0.4 - 1e-9).all()
    one = level.world.move((1.0, 3.0), (0, -0.166), radius=0.4)
    assert _inside_mesh(one.position[None], path, vertices, polygons).all()


@needs_data
@pytest.mark.parametrize("mesh", ["arena.mesh", "arena-merged.mesh"])
def test_moves_from_the_navmesh_boundary_stay_inside(mesh):
    # benchmarks/navmesh_edges.py, reduced: from every boundary vertex and
    # the middle of every boundary edge, 8 headings and a zero move, for a
    # point camera and an agent of 0.4; judged by the independent reference
    # on the mesh's boundary edges (a polygon edge no other polygon has).
    path = DATA / "polygons2d/polyanya/meshes" / mesh
    world = load(path, scenarios=False).world
    vertices, polygons, _ = _parse(path)
    count = {}
    for _, corners, _ in polygons:
        for a, b in zip(corners, corners[1:] + corners[:1]):
            count[min(a, b), max(a, b)] = count.get((min(a, b), max(a, b)), 0) + 1
    pairs = np.array([key for key, n in count.items() if n == 1])
    edges = np.hstack([vertices[pairs[:, 0]], vertices[pairs[:, 1]]])
    starts = np.vstack([edges[:, 0:2], 0.5 * (edges[:, 0:2] + edges[:, 2:4])])
    steps = np.vstack([headings(8, 0.5), [(0.0, 0.0)]])
    positions = np.repeat(starts, len(steps), axis=0)
    displacements = np.tile(steps, (len(starts), 1))
    for radius in (0.0, 0.4):
        ends = world.move_many(positions, displacements, radius=radius)
        assert walkable_reference(ends, edges, radius).all()
        assert _inside_mesh(ends, path, vertices, polygons).all()
        assert (world.clearance(ends) >= radius - 1e-9).all()
        some = range(0, len(ends), 7)
        assert np.array_equal(ends[some], [world.move(positions[i], tuple(displacements[i]),
                                                      radius=radius).position for i in some])


@needs_data
def test_walkable_agrees_with_the_navmesh_polygons():
    path = DATA / "polygons2d/polyanya/meshes/aurora-merged.mesh"
    level = load(path, scenarios=False)
    vertices, polygons, _ = _parse(path)
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    points = np.random.default_rng(5).uniform(lo, hi, (3000, 2))
    inside = _inside_mesh(points, path, vertices, polygons)
    walkable = level.walkable(points)
    # On a polygon edge both say inside; elsewhere they agree exactly.
    assert np.array_equal(walkable, inside)
    starts = free_starts(level.world, 20, 0.0, np.random.default_rng(0))
    assert _inside_mesh(starts, path, vertices, polygons).all()


@needs_data
@pytest.mark.parametrize("rel", ["tiled/tuxemon/maps/buddha_mountain.tmx",
                                 "tiled/tuxemon/maps/rubberduck_cave_01.tmx"])
def test_walkers_stay_inside_tiled_map(rel):
    pytest.importorskip("pytiled_parser")
    level = load(DATA / rel)
    frame = level.world.geometry("wall")
    edge = np.vstack([frame["starts"][frame["one_sided"]], frame["ends"][frame["one_sided"]]])
    lo, hi = edge.min(axis=0), edge.max(axis=0)
    assert lo.tolist() == [0.0, 0.0]
    starts = free_starts(level.world, 20, 6.0, np.random.default_rng(0))
    run = walk(level.world, starts, radius=6.0, steps=300, seed=0)
    assert not run.overlaps
    assert (run.positions >= lo).all() and (run.positions <= hi).all()


@needs_data
def test_walk_reports_overlapping_start(capsys):
    mesh = DATA / "polygons2d/polyanya/meshes/arena.mesh"
    status, out = run_cli(["walk", mesh, "--start", "1,3", "--to", "5,5", "--radius", "0.4",
                           "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["summary"]["overlapping_starts"] == 1
    overlap = data["agents"][0]["start_overlap"]
    assert overlap["outside"] is False and overlap["families"] == ["wall", "wall"]
    # A start in a grid map's rock border recovers inside the map, and says so.
    den = DATA / "grid/dao/den520d.map"
    status, out = run_cli(["walk", den, "--start", "10,10", "--to", "200,200", "--radius",
                           "0.3"], capsys)
    assert "agent 0 at (10, 10): inside grid 0" in out
    level = load(den)
    run = walk(level.world, [(10.0, 10.0)], goals=[(200.0, 200.0)], radius=0.3, steps=50)
    assert (run.positions[1:] >= 0.3 - 1e-9).all() and level.walkable(run.positions[-1]).all()
    assert level.world.clearance((-5.0, 100.0)) < 0            # beyond the map: the void
    # Random walkers that all start free: no warning.
    status, out = run_cli(["walk", den, "--agents", "3", "--steps", "5"], capsys)
    assert "warning" not in out


@needs_data
def test_check_reports_navmesh_scenario_starts_on_the_edge_without_flags():
    level = load(DATA / "polygons2d/polyanya/meshes/arena.mesh")
    report = check(level, 0.4)
    starts = [f for f in report.findings if f.details.get("point") == "start"]
    assert len(starts) == 160 and all("the level's edge" in f.message for f in starts)


@needs_data
def test_doom_narrow_gaps_need_room_on_both_sides():
    level = load(DATA / "polygons2d/freedoom/e1m1.wad")
    assert level.walkable(level.spawns).all()
    report = check(level, 16)
    listed = report.counts()["narrow_gap"]
    assert listed < 20 and report.closed_gaps > 50
    assert report.as_dict()["closed_gaps"] == report.closed_gaps
    assert "no room for the agent on one side" in report.format()
