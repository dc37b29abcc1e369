"""The contact-plane solver."""
import numpy as np
import pytest

from sidestep.kernels.planes import solve_planes


def solve(d, normals, bounds):
    # The solver reads normals then bounds from one flat array.
    n = np.asarray(normals, float).reshape(-1)
    b = np.asarray(bounds, float)
    return solve_planes(d[0], d[1], np.concatenate([n, b]), 0, len(n), len(b), 1e-12)


def test_no_planes_keeps_the_wish():
    assert solve((1.0, 2.0), np.zeros((0, 2)), [])[:2] == (1.0, 2.0)


def test_one_plane_keeps_the_tangent_part():
    vx, vy, err = solve((1.0, -1.0), [[0, 1]], [0.0])
    assert (vx, vy) == pytest.approx((1.0, 0.0)) and err <= 1e-12


def test_wish_away_from_plane_is_untouched():
    assert solve((1.0, 1.0), [[0, 1]], [0.0])[:2] == (1.0, 1.0)


def test_corner_stops_the_motion():
    vx, vy, _ = solve((1.0, -1.0), [[0, 1], [-1, 0]], [0.0, 0.0])
    assert (vx, vy) == pytest.approx((0.0, 0.0))


def test_acute_wedge_slides_out_along_one_side():
    # Two walls meeting at 90 degrees, wish pointing out along one of them.
    vx, vy, _ = solve((0.0, 2.0), [[1, 0], [0, 1]], [0.0, 0.0])
    assert (vx, vy) == (0.0, 2.0)


def test_conflicting_planes_give_least_violation():
    # Must move +1 along x and -1 along x at once: impossible; error reported.
    vx, vy, err = solve((0.0, 0.0), [[1, 0], [-1, 0]], [1.0, 1.0])
    assert err == pytest.approx(1.0)
