"""Look-up-table grids: cell look-up, depth, merged outline."""
import numpy as np
import pytest

from sidestep.kernels.grid import boundary_edges_grid, contains_point_grid, depth_point_grid

TABLE = np.array([[1, 1, 0],
                  [1, 1, 0],
                  [0, 0, 0]], dtype=np.uint8)   # row 0 is at the bottom (y from origin)
FLAT = TABLE.reshape(-1)


def test_contains_blocked_free_and_outside():
    assert contains_point_grid(0.5, 0.5, FLAT, 0, 3, 3, 1.0, 0.0, 0.0)
    assert not contains_point_grid(2.5, 0.5, FLAT, 0, 3, 3, 1.0, 0.0, 0.0)
    assert not contains_point_grid(-0.5, 0.5, FLAT, 0, 3, 3, 1.0, 0.0, 0.0)


def test_depth_to_nearest_free_point():
    depth, nx, ny, qx, qy = depth_point_grid(1.7, 1.0, FLAT, 0, 3, 3, 1.0, 0.0, 0.0)
    assert depth == pytest.approx(0.3) and (nx, ny) == pytest.approx((1.0, 0.0))


def test_depth_counts_outside_of_table_as_free():
    depth, nx, ny, _, _ = depth_point_grid(0.1, 1.0, FLAT, 0, 3, 3, 1.0, 0.0, 0.0)
    assert depth == pytest.approx(0.1) and nx == -1.0


def test_outline_merges_runs():
    edges = boundary_edges_grid(TABLE.astype(bool), 1.0, 0.0, 0.0)
    # The 2x2 block's outline: four sides, each one merged segment.
    assert len(edges) == 4
    lengths = np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1])
    assert np.all(lengths == 2.0)


def test_outline_checkerboard_has_every_cell_side():
    table = np.array([[1, 0], [0, 1]], dtype=bool)
    edges = boundary_edges_grid(table, 2.0, 10.0, 20.0)
    total = np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1]).sum()
    assert total == 2 * 4 * 2.0
