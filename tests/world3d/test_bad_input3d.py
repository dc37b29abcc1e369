"""World3D bad input: a clear error naming the argument, and the world unchanged and working."""
import numpy as np
import pytest

import sidestep

NAN = float("nan")
INF = float("inf")
SQUARE = [(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)]
CUBE_V = np.array([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)

BAD_CALLS = [
    # panels
    ("add_panels", ([[(0, 0, 0), (1, 0, 0)]],), ValueError, "at least 3"),
    ("add_panels", ([[(0, 0, 0), (1, 0, 0), (2, 0, 0)]],), ValueError, "non-zero area"),
    ("add_panels", ([[(0, 0, 0), (1, 0, 0), (1, 0.5, 1), (0, 0, 1)]],), ValueError,
     "not planar"),
    ("add_panels", ([[(0, 0, 0), (2, 0, 2), (2, 0, 0), (0, 0, 3)]],), ValueError, "simple"),
    ("add_panels", ([[(0, 0, 0), (1, 0, 0), (1, 0, 0), (0, 0, 1)]],), ValueError,
     "non-zero length"),
    ("add_panels", ([[(0, 0, 0), (1, NAN, 0), (0, 0, 1)]],), ValueError, r"polygons\[0\]"),
    ("add_panels", ([SQUARE, [(0, 0), (1, 0), (1, 1)]],), ValueError, r"polygons\[1\]"),
    ("add_panels", ([SQUARE], "back"), ValueError, "sides"),
    ("add_panels", ("abc",), TypeError, "polygons"),
    # meshes
    ("add_mesh", (CUBE_V, [(0, 1, 8)]), ValueError, "indexes corner 8"),
    ("add_mesh", (CUBE_V, [(0, 1, -1)]), ValueError, "indexes corner -1"),
    ("add_mesh", (CUBE_V, [(0, 1)]), ValueError, "triangles"),
    ("add_mesh", (CUBE_V, [(0.5, 1, 2)]), ValueError, "triangles"),
    ("add_mesh", (CUBE_V, [("a", 1, 2)]), TypeError, "triangles"),
    ("add_mesh", (CUBE_V, [(0, 0, 1)]), ValueError, "zero area"),
    ("add_mesh", (CUBE_V[:, :2], [(0, 1, 2)]), ValueError, "vertices"),
    ("add_mesh", (np.where(CUBE_V == 1, NAN, CUBE_V), [(0, 1, 2)]), ValueError, "vertices"),
    ("add_mesh", (CUBE_V, np.zeros((0, 3), int)), ValueError, "triangles"),
    # solids
    ("add_boxes", ([(2, 0, 0)], [(1, 1, 1)]), ValueError, "mins < maxs"),
    ("add_boxes", ([(0, 0, 0)], [(1, 1, 0)]), ValueError, "mins < maxs"),
    ("add_boxes", ([(0, 0)], [(1, 1)]), ValueError, "mins"),
    ("add_spheres", ([(0, 0, NAN)], 1.0), ValueError, "centers"),
    ("add_spheres", ([(0, 0, 0)], -1.0), ValueError, "radii"),
    ("add_cylinders", ([(0, 0, 0)], 1.0, 0.0), ValueError, "heights"),
    ("add_cylinders", ([(0, 0, 0)], 0.0, 1.0), ValueError, "radii"),
    ("add_cylinders", ([(0, 0, 0)], [1.0, 2.0], 1.0), ValueError, "radii"),
    ("add_spheres", ([(1e13, 0, 0)], 1.0), ValueError, "centers"),
    # voxel tables
    ("add_voxels", (np.ones((2, 2)),), ValueError, "blocked must be a non-empty 3D"),
    ("add_voxels", (np.ones((0, 2, 2)),), ValueError, "blocked must be a non-empty 3D"),
    ("add_voxels", (np.full((2, 2, 2), 2),), ValueError, "blocked must hold only 0/1"),
    ("add_voxels", (np.full((2, 2, 2), NAN),), ValueError, "blocked must hold only 0/1"),
    ("add_voxels", (np.full((2, 2, 2), "1"),), TypeError, "blocked"),
    ("add_voxels", ("111",), TypeError, "blocked"),
    ("add_voxels", (np.ones((2, 2, 2), bool), 0.0), ValueError, "cell_size"),
    ("add_voxels", (np.ones((2, 2, 2), bool), -1.0), ValueError, "cell_size"),
    ("add_voxels", (np.ones((2, 2, 2), bool), 1.0, (0, INF, 0)), ValueError, "origin"),
    ("add_voxels", (np.ones((2, 2, 2), bool), 1.0, (0, 0)), ValueError, "origin"),
    # heightfields
    ("add_heightfield", ([[0.0, NAN], [0.0, 0.0]],), ValueError, r"heights\[0, 1\]"),
    ("add_heightfield", ([[0.0, 1.0]],), ValueError, "heights must have shape"),
    ("add_heightfield", (np.zeros((2, 2, 2)),), ValueError, "heights must have shape"),
    ("add_heightfield", ([["a", "b"], ["c", "d"]],), TypeError, "heights"),
    ("add_heightfield", (np.zeros((2, 2)), 0.0), ValueError, "cell_size"),
    ("add_heightfield", (np.zeros((2, 2)), 1.0, (NAN, 0, 0)), ValueError, "origin"),
    # moves and queries
    ("move", ((0, NAN, 0), (1, 0, 0)), ValueError, "position"),
    ("move", ((0, 0), (1, 0, 0)), ValueError, "position"),
    ("move", ((0, 0, 0), (INF, 0, 0)), ValueError, "displacement"),
    ("move", ((0, 0, 0), (1, 0, 0), -0.1), ValueError, "radius"),
    ("move", ((0, 0, 0), (1, 0, 0), 0.1, NAN), ValueError, "height"),
    ("move", ((0, 0, 0), (1, 0, 0), 0.1, 0.0, "teleport"), ValueError, "mode"),
    ("move_many", ([(0, 0, 0)], [(1, 0, 0), (2, 0, 0)]), ValueError, "same shape"),
    ("clearance", ([(0, 0)],), ValueError, "points"),
    ("nearest", ([(NAN, 0, 0)],), ValueError, "points"),
    ("raycast", ([(0, 0, 0)], [(0, 0, 0)]), ValueError, "directions"),
    ("raycast", ([(0, 0, 0)], [(1, 0, 0)], -1.0), ValueError, "max_distance"),
    ("raycast", ([(0, 0, 0)], [(1, 0, 0)], 1.0, "back"), ValueError, "sides"),
    ("overlapping", ((0, 0, 0), -1.0), ValueError, "radius"),
    ("remove", ([12345],), KeyError, "12345"),
    ("translate", ([12345], (1, 0, 0)), KeyError, "12345"),
    ("translate", ([0], (1, NAN, 0)), ValueError, "offset"),
]


def _world():
    world = sidestep.World3D()
    world.add_panels([[(-5, 0, -5), (-5, 0, 5), (5, 0, 5), (5, 0, -5)]])
    world.add_spheres([(0.0, 1.0, 0.0)], 0.5)
    world.add_boxes([(2.0, 0.0, 2.0)], [(3.0, 1.0, 3.0)])
    return world


@pytest.mark.parametrize("method, args, error, words", BAD_CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_CALLS)])
def test_bad_input_is_refused_and_world_unchanged(method, args, error, words):
    world = _world()
    pts = np.array([[0.0, 2.0, 0.0], [3.0, 3.0, 3.0], [-4.0, 0.5, 1.0]])
    before = world.clearance(pts)
    with pytest.raises(error, match=words):
        getattr(world, method)(*args)
    assert len(world) == 3
    np.testing.assert_array_equal(world.clearance(pts), before)
    m = world.move((0.0, 2.0, 0.0), (0.0, -3.0, 0.0), radius=0.2)
    assert world.clearance(m.position) >= 0.2 - 1e-9


def test_world_settings_are_checked():
    with pytest.raises(ValueError, match="skin"):
        sidestep.World3D(skin=0.0)
    with pytest.raises(ValueError, match="max_iterations"):
        sidestep.World3D(max_iterations=0)
    with pytest.raises(ValueError, match="up"):
        sidestep.World3D(up="w")
