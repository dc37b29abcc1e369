"""Bad input: a clear error naming the argument, and the world unchanged and working."""
import numpy as np
import pytest

import sidestep

NAN = float("nan")
INF = float("inf")

BAD_CALLS = [
    ("add_circles", ([(0, NAN)], 1.0), ValueError, "centers"),
    ("add_circles", ([(0, 0)], -1.0), ValueError, "radii"),
    ("add_circles", ([(0, 0)], INF), ValueError, "radii"),
    ("add_circles", ([(0, 0, 0)], 1.0), ValueError, "centers"),
    ("add_circles", ([(0, 0), (1, 1)], [1.0, 2.0, 3.0]), ValueError, "radii"),
    ("add_circles", ("abc", 1.0), TypeError, "centers"),
    ("add_walls", ([(0, 0)], [(1, 1), (2, 2)]), ValueError, "same shape"),
    ("add_walls", ([(0, 0)], [(0, 0)]), ValueError, "zero length"),
    ("add_walls", ([(0, 0)], [(1, INF)]), ValueError, "ends"),
    ("add_walls", ([(0, 0)], [(1, 1)], -0.5), ValueError, "clearance"),
    ("add_boxes", ([(2, 0)], [(1, 1)]), ValueError, "mins < maxs"),
    ("add_boxes", ([(0, 0)], [(0, 1)]), ValueError, "mins < maxs"),
    ("add_polygon", ([(0, 0), (1, 0)],), ValueError, "at least 3"),
    ("add_polygon", ([(0, 0), (2, 2), (2, 0), (0, 2)],), ValueError, "simple polygon"),
    ("add_polygon", ([(0, 0), (1, 0), (1, 0), (0, 1)],), ValueError, "non-zero length"),
    ("add_polygon", ([(0, 0), (1, 0), (2, 0)],), ValueError, "polygon"),
    ("add_polygon", ([(0, 0), (1, NAN), (0, 1)],), ValueError, "vertices"),
    ("add_grid", (np.zeros((0, 3), bool),), ValueError, "blocked"),
    ("add_grid", (np.zeros(5, bool),), ValueError, "blocked"),
    ("add_grid", (np.ones((2, 2), bool), 0.0), ValueError, "cell_size"),
    ("add_grid", (np.ones((2, 2), bool), -1.0), ValueError, "cell_size"),
    ("add_grid", (np.full((2, 2), 3),), ValueError, "blocked"),
    ("add_grid", (np.ones((2, 2), bool), 1.0, (NAN, 0)), ValueError, "origin"),
    ("move", ((0, NAN), (1, 0)), ValueError, "position"),
    # A previous move's position, a (2,) float64 array, takes a fast path: still checked.
    ("move", (np.array([0.0, NAN]), (1, 0)), ValueError, "position"),
    ("move", ((0.0, 0.0), np.array([-INF, 0.0])), ValueError, "displacement"),
    # So do a tuple of two floats, a float radius and a mode string.
    ("move", ((0.0, 0.0), (0.0, NAN)), ValueError, "displacement"),
    ("move", ((0.0, 0.0), (1e300, 0.0)), ValueError, "displacement"),
    ("move", ((0.0, 0.0), (1.0, 0.0), -0.0001), ValueError, "radius"),
    ("move", ((0.0, 0.0), (1.0, 0.0), 0.1, "Slide"), ValueError, "mode"),
    ("move", ((0.0, 0.0), (1.0, 0.0), 0.1, None), ValueError, "mode"),
    ("move", (np.zeros((1, 2)), (1, 0)), ValueError, "position"),
    ("move", (np.zeros(3), (1, 0)), ValueError, "position"),
    ("move", (np.array([0, 1], dtype=np.float32) + NAN, (1, 0)), ValueError, "position"),
    ("move", ((0, 0), (1, 0), INF), ValueError, "radius"),
    ("move", ((0, 0), (INF, 0)), ValueError, "displacement"),
    ("move", ((0, 0), (1, 0), -0.1), ValueError, "radius"),
    ("move", ((0, 0), (1, 0), NAN), ValueError, "radius"),
    ("move", ((0, 0), (1, 0), 0.1, "teleport"), ValueError, "mode"),
    ("move", ((0, 0, 0), (1, 0)), ValueError, "position"),
    ("move", ((10**400, 0), (1, 0)), ValueError, "position"),
    ("move_many", ([(0, 0)], [(1, 0), (2, 0)]), ValueError, "same shape"),
    ("move_many", ([(0, 0)], [(1, 0)], [0.1, 0.2]), ValueError, "radius"),
    ("clearance", ([(0, 0, 1)],), ValueError, "points"),
    ("nearest", ([(NAN, 0)],), ValueError, "points"),
    ("raycast", ([(0, 0)], [(0, 0)]), ValueError, "directions"),
    ("raycast", ([(0, 0)], [(1, 0)], -1.0), ValueError, "max_distance"),
    ("overlapping", ((0, 0), -1.0), ValueError, "radius"),
    ("remove", ([12345],), KeyError, "12345"),
    ("remove", ([1.5],), TypeError, "ids"),
    # Finite but far beyond any level (the tolerances are for coordinates below
    # about 1e8): refused, not answered with garbage or stored to poison the world.
    ("add_circles", ([(1e160, 1e160)], 1.0), ValueError, "centers"),
    ("add_circles", ([(0, 0)], 1e308), ValueError, "radii"),
    ("add_walls", ([(0, 0)], [(1e13, 0)]), ValueError, "ends"),
    ("add_boxes", ([(0, 0)], [(1, 2e12)]), ValueError, "maxs"),
    ("add_grid", (np.ones((2, 2), bool), 1e300), ValueError, "cell_size"),
    ("move", ((0, 0), (0, -1e300)), ValueError, "displacement"),
    ("move", ((0.0, 3.0), (0.0, -5.0), 1e20), ValueError, "radius"),
    ("move", (np.array([1e13, 0.0]), (1, 0)), ValueError, "position"),
    ("clearance", ([(1e155, 0)],), ValueError, "points"),
    ("overlapping", ((0, 5), 1e20), ValueError, "radius"),
    # Complex numbers would lose their imaginary part without a word.
    ("add_circles", (np.array([[1 + 2j, 0]]), 1.0), TypeError, "centers"),
    ("clearance", ([np.complex128(1), 2.0],), TypeError, "points"),
    ("raycast", ([(0, 0)], [(1, 0)], np.complex128(1 + 5j)), TypeError, "max_distance"),
    # Text is not a number, even text that reads as one.
    ("move", (("1", 0.5), (1, 0)), TypeError, "position"),
    ("add_circles", ([(0, "2")], 1.0), TypeError, "centers"),
    # Python ints beyond float range: a ValueError naming the argument, not an OverflowError.
    ("move", ((0, 0), (1, 0), 10**400), ValueError, "radius"),
    ("add_grid", (np.ones((2, 2), bool), 10**400), ValueError, "cell_size"),
    ("raycast", ([(0, 0)], [(1, 0)], 10**400), ValueError, "max_distance"),
]


@pytest.mark.parametrize("method, args, error, words", BAD_CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_CALLS)])
def test_bad_input_is_refused_and_world_unchanged(method, args, error, words):
    world = sidestep.World2D()
    world.add_circles([(0.0, 1.0), (1.0, 0.0), (-1.0, 0.0)], 1.0)
    world.add_walls([(-5.0, -3.0)], [(5.0, -3.0)], 0.5)
    pts = np.array([[0.0, -2.0], [3.0, 3.0], [-4.0, 0.5]])
    before = world.clearance(pts)
    with pytest.raises(error, match=words):
        getattr(world, method)(*args)
    assert len(world) == 4
    np.testing.assert_array_equal(world.clearance(pts), before)
    m = world.move((0.0, -2.0), (0.0, -3.0), radius=0.2)
    assert world.clearance(m.position) >= 0.2 - 1e-9


def test_world_settings_are_checked():
    with pytest.raises(ValueError, match="skin"):
        sidestep.World2D(skin=0.0)
    with pytest.raises(ValueError, match="max_iterations"):
        sidestep.World2D(max_iterations=0)
