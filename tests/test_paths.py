"""Path finding: grid A* by Moving AI's rules and navmesh A* + funnel (``sidestep.paths``)."""
import heapq
import math
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep.paths import GridNavigator, MeshNavigator, navigator

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")


def dijkstra_octile(blocked, start, goal):
    """Oracle: plain Dijkstra over the 8-connected grid, no corner cutting (inf if none)."""
    rows, cols = blocked.shape
    best = {start: 0.0}
    queue = [(0.0, start)]
    while queue:
        d, (r, c) = heapq.heappop(queue)
        if (r, c) == goal:
            return d
        if d > best[(r, c)]:
            continue
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nr, nc = r + dr, c + dc
                if (dr, dc) == (0, 0) or not (0 <= nr < rows and 0 <= nc < cols) \
                        or blocked[nr, nc]:
                    continue
                if dr and dc and (blocked[r, nc] or blocked[nr, c]):
                    continue
                nd = d + (math.sqrt(2.0) if dr and dc else 1.0)
                if nd < best.get((nr, nc), math.inf):
                    best[(nr, nc)] = nd
                    heapq.heappush(queue, (nd, (nr, nc)))
    return math.inf


def centre(r, c):
    return (c + 0.5, r + 0.5)


def test_grid_path_lengths_equal_dijkstra_on_random_grids():
    rng = np.random.default_rng(7)
    for _ in range(40):
        blocked = rng.random((12, 15)) < 0.3
        free = np.argwhere(~blocked)
        a, b = free[rng.choice(len(free), 2, replace=False)]
        route = GridNavigator(blocked).route(centre(*a), centre(*b))
        expected = dijkstra_octile(blocked, tuple(a), tuple(b))
        if math.isinf(expected):
            assert not route.found and "cannot be reached" in route.reason
        else:
            assert route.found and route.length == pytest.approx(expected, abs=1e-9)


def test_grid_path_steps_between_free_cells_without_cutting_corners():
    rng = np.random.default_rng(3)
    blocked = rng.random((30, 30)) < 0.35
    nav = GridNavigator(blocked)
    free = np.argwhere(~blocked)
    for a, b in free[rng.choice(len(free), (20, 2))]:
        route = nav.route(centre(*a), centre(*b))
        if not route.found:
            continue
        # Walk the path cell by cell: every cell free, every diagonal step
        # between two free cells.
        for p, q in zip(route.points[:-1], route.points[1:]):
            p = np.floor(p).astype(int)[::-1]
            q = np.floor(q).astype(int)[::-1]
            step = np.sign(q - p)
            assert np.all(np.abs(q - p)[step != 0] == np.abs(q - p).max())   # 8 directions
            cell = p
            while not np.array_equal(cell, q):
                nxt = cell + step
                assert not blocked[tuple(nxt)]
                if step.all():
                    assert not blocked[cell[0], nxt[1]] and not blocked[nxt[0], cell[1]]
                cell = nxt


def test_no_corner_cutting_as_moving_ai_defines_it():
    # A diagonal step needs both cells beside it free: one blocked neighbour
    # forbids it, so the way round costs 2, not sqrt(2).
    one_side = GridNavigator(np.array([[0, 1], [0, 0]], bool))
    assert one_side.route((0.5, 0.5), (1.5, 1.5)).length == pytest.approx(2.0)
    # Two blocked neighbours: the free cells touch only at a corner, no path.
    crossed = GridNavigator(np.array([[0, 1], [1, 0]], bool))
    route = crossed.route((0.5, 0.5), (1.5, 1.5))
    assert not route.found and math.isinf(route.length)
    # Free neighbours: the diagonal step.
    open_ = GridNavigator(np.zeros((2, 2), bool))
    assert open_.route((0.5, 0.5), (1.5, 1.5)).length == pytest.approx(math.sqrt(2.0))


def test_blocked_goal_gives_no_path():
    blocked = np.zeros((5, 5), bool)
    blocked[2, 3] = True
    nav = GridNavigator(blocked)
    route = nav.route((0.5, 0.5), (3.5, 2.5))
    assert not route.found and "goal" in route.reason and "blocked" in route.reason
    assert route.points.shape == (0, 2)
    assert "start" in nav.route((3.5, 2.5), (0.5, 0.5)).reason
    assert "off the grid" in nav.route((0.5, 0.5), (9.5, 0.5)).reason


def test_walled_in_goal_gives_no_path():
    blocked = np.zeros((6, 6), bool)
    blocked[2:5, 2] = blocked[2:5, 4] = blocked[2, 2:5] = blocked[4, 2:5] = True
    route = GridNavigator(blocked).route((0.5, 0.5), (3.5, 3.5))
    assert not route.found and "cannot be reached" in route.reason


def test_grid_path_uses_cell_size_and_origin():
    blocked = np.array([[0, 1, 0], [0, 0, 0]], bool)
    nav = GridNavigator(blocked, cell_size=2.0, origin=(10.0, -4.0))
    route = nav.route((11.0, -3.0), (15.0, -3.0))        # the centres of row 0, cols 0 and 2
    assert route.found and route.length == pytest.approx(2.0 * 4.0)     # round the blocked cell
    assert route.points[0].tolist() == [11.0, -3.0] and route.points[-1].tolist() == [15.0, -3.0]


def test_grid_navigator_refuses_bad_input():
    with pytest.raises(ValueError, match="blocked"):
        GridNavigator(np.zeros(5, bool))
    with pytest.raises(ValueError, match="cell_size"):
        GridNavigator(np.zeros((2, 2), bool), cell_size=0.0)
    with pytest.raises(ValueError, match="start"):
        GridNavigator(np.zeros((2, 2), bool)).route((np.nan, 0.0), (0.5, 0.5))


def corridor_mesh():
    """An L-shaped corridor of four unit squares (anticlockwise), the corner square at (1, 0).

    Squares: A [0,1]x[0,1], B [1,2]x[0,1], C [1,2]x[1,2], D [1,2]x[2,3].
    """
    vertices = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3)]
    polygons = [([0, 1, 4, 3], [-1, 1, -1, -1]),      # A: right edge to B
                ([1, 2, 5, 4], [-1, -1, 2, 0]),       # B: top edge to C, left edge to A
                ([4, 5, 7, 6], [1, -1, 3, -1]),       # C
                ([6, 7, 9, 8], [2, -1, -1, -1])]      # D
    return MeshNavigator(np.array(vertices, float), polygons)


def test_funnel_pulls_the_path_tight_round_the_inner_corner():
    nav = corridor_mesh()
    route = nav.route((0.5, 0.5), (1.5, 2.5))
    # The shortest path bends once, at the inner corner (1, 1).
    assert route.found and route.points.tolist() == [[0.5, 0.5], [1.0, 1.0], [1.5, 2.5]]
    assert route.length == pytest.approx(math.hypot(0.5, 0.5) + math.hypot(0.5, 1.5))
    # The same path backwards, and clockwise polygons give the same answer.
    assert nav.route((1.5, 2.5), (0.5, 0.5)).length == pytest.approx(route.length)
    mirrored = MeshNavigator(nav.vertices * [1, -1],
                             [(list(nav.corners[a:b]), list(nav.across[a:b]))
                              for a, b in zip(nav.offsets[:-1], nav.offsets[1:])])
    assert mirrored.route((0.5, -0.5), (1.5, -2.5)).length == pytest.approx(route.length)


def test_navmesh_path_waypoints_keep_a_disc_off_the_corner():
    route = corridor_mesh().route((0.5, 0.5), (1.5, 2.5))
    points = route.waypoints(0.2)
    corner = np.array([1.0, 1.0])
    # The bend moved off the corner, away from the inside of the bend (into B, x > 1, y < 1).
    assert np.hypot(*(points[1] - corner)) == pytest.approx(0.21)
    assert points[1][0] > 1.0 and points[1][1] < 1.0
    assert np.array_equal(points[[0, -1]], route.points[[0, -1]])


def test_navmesh_ends_outside_give_no_path():
    nav = corridor_mesh()
    assert nav.polygon((0.5, 1.5)) == -1
    route = nav.route((0.5, 0.5), (0.5, 1.5))
    assert not route.found and "goal is outside the navmesh" in route.reason
    assert "start" in nav.route((5.0, 5.0), (0.5, 0.5)).reason


def test_navmesh_unconnected_polygons_give_no_path():
    vertices = np.array([(0, 0), (1, 0), (0, 1), (3, 0), (4, 0), (3, 1)], float)
    nav = MeshNavigator(vertices, [([0, 1, 2], [-1, -1, -1]), ([3, 4, 5], [-1, -1, -1])])
    route = nav.route((0.2, 0.2), (3.2, 0.2))
    assert not route.found and "cannot be reached" in route.reason


def scen_rows(path):
    """``(start, goal, length, decimals)`` per row of a ``version 1`` .scen (the file's text)."""
    rows = []
    for line in Path(path).read_text().splitlines()[1:]:
        f = line.split("\t")
        if len(f) != 9:
            continue                                # a blank line
        decimals = len(f[8].split(".")[1]) if "." in f[8] else 0
        rows.append((centre(int(f[5]), int(f[4])), centre(int(f[7]), int(f[6])), float(f[8]),
                     decimals))
    return rows


@needs_data
@pytest.mark.parametrize("rel", ["grid/dao/arena.map", "grid/dao/den520d.map",
                                 "grid/bg/AR0602SR.map", "grid/mazes/maze512-1-0.map"])
def test_grid_lengths_equal_the_scen_optimal_lengths(rel):
    path = DATA / rel
    if not path.is_file():
        pytest.skip(f"{rel} is not present")
    level = sidestep.load(path)
    nav = navigator(level)
    rows = scen_rows(path.with_name(path.name + ".scen"))
    for k in np.linspace(0, len(rows) - 1, 25).round().astype(int):
        start, goal, length, decimals = rows[k]
        # The files print 4 to 8 decimals: within rounding of the last one
        # printed, and within 1e-6 where they print 8.
        tolerance = 0.5 * 10.0 ** -decimals + 1e-6
        assert nav.route(start, goal).length == pytest.approx(length, abs=tolerance), k


MESHES = [("arena.mesh", "arena.scen"), ("arena-merged.mesh", "arena.scen"),
          ("aurora-merged.mesh", "aurora.scen")]


@needs_data
@pytest.mark.parametrize("mesh, scen", MESHES)
def test_navmesh_paths_lie_in_the_mesh_and_beat_the_grid_optimum(mesh, scen):
    mesh_path = DATA / "polygons2d/polyanya/meshes" / mesh
    scen_path = DATA / "polygons2d/polyanya/scenarios" / scen
    if not (mesh_path.is_file() and scen_path.is_file()):
        pytest.skip(f"{mesh} is not present")
    level = sidestep.load(mesh_path, scenarios=scen_path)
    nav = navigator(level)
    sc = level.scenarios
    for k in np.linspace(0, len(sc.starts) - 1, 30).round().astype(int):
        route = nav.route(sc.starts[k], sc.goals[k])
        assert route.found
        # Any angle through the mesh: never longer than the octile grid
        # optimum (printed to 5 or 6 digits), never shorter than a straight line.
        assert route.length <= sc.lengths[k] * (1 + 1e-5) + 1e-5, k
        assert route.length >= np.hypot(*(sc.goals[k] - sc.starts[k])) - 1e-9
        assert nav.route(sc.goals[k], sc.starts[k]).length == pytest.approx(route.length,
                                                                              rel=0.06)
        # Every point of the path is in the mesh.
        for a, b in zip(route.points[:-1], route.points[1:]):
            for t in np.linspace(0, 1, 9):
                assert nav.polygon(a + t * (b - a)) >= 0
