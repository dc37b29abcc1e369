"""Look-up-table grids: cell look-up, depth, merged outline."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidestep.kernels.grid import (boundary_edges_grid, contains_point_grid, depth_point_grid,
                                   pyramid_grid)

TABLE = np.array([[1, 1, 0],
                  [1, 1, 0],
                  [0, 0, 0]], dtype=np.uint8)   # row 0 is at the bottom (y from origin)
FLAT = pyramid_grid(TABLE.astype(bool))     # the table, then its pyramid


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


def test_pyramid_levels_mark_solid_blocks():
    flat = pyramid_grid(TABLE.astype(bool))
    assert flat[:9].tolist() == TABLE.reshape(-1).tolist()
    # Level 1 is 2 x 2: the bottom-left block (four blocked cells) is solid,
    # the others hold a free cell; level 2 is the single top cell.
    assert flat[9:13].tolist() == [1, 0, 0, 0]
    assert flat[13:].tolist() == [0]


def test_pyramid_of_odd_sizes_covers_the_edge_cells():
    table = np.ones((5, 3), bool)
    table[4, 2] = False                          # the far corner cell alone is free
    flat = pyramid_grid(table)
    # Levels 5x3, 3x2, 2x1, 1x1: the free cell's blocks are free on every level.
    assert len(flat) == 15 + 6 + 2 + 1
    assert flat[15:21].tolist() == [1, 1, 1, 1, 1, 0]
    assert flat[21:23].tolist() == [1, 0] and flat[23] == 0
    assert pyramid_grid(np.ones((1, 1), bool)).tolist() == [1]


def test_depth_deep_inside_a_big_solid_block():
    # One free cell at (row 700, column 300) in a 1024 x 1024 solid table.
    table = np.ones((1024, 1024), bool)
    table[700, 300] = False
    flat = pyramid_grid(table)
    depth, nx, ny, qx, qy = depth_point_grid(500.5, 600.5, flat, 0, 1024, 1024, 1.0, 0.0, 0.0)
    # Nearest point of the free cell's box [300, 301] x [700, 701]: its corner (301, 700).
    assert (qx, qy) == (301.0, 700.0)
    assert depth == pytest.approx(math.hypot(199.5, 99.5), rel=1e-15)


def _depth_brute(px, py, table, s, ox, oy):
    """Nearest free point by looking at every free cell and the table's sides."""
    rows, cols = table.shape
    best = min(px - ox, ox + cols * s - px, py - oy, oy + rows * s - py)
    for r, c in zip(*np.nonzero(~table)):
        qx = min(max(px, ox + c * s), ox + (c + 1) * s)
        qy = min(max(py, oy + r * s), oy + (r + 1) * s)
        best = min(best, math.sqrt((qx - px) ** 2 + (qy - py) ** 2))
    return best


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(1, 40), cols=st.integers(1, 40), seed=st.integers(0, 2**32 - 1),
       fill=st.floats(0.5, 1.0), s=st.sampled_from([1.0, 0.25, 3.0]),
       u=st.floats(0.0, 1.0, exclude_max=True), v=st.floats(0.0, 1.0, exclude_max=True))
def test_depth_equals_the_brute_force_nearest_free_point(rows, cols, seed, fill, s, u, v):
    rng = np.random.default_rng(seed)
    table = rng.random((rows, cols)) < fill
    ox, oy = -7.5, 3.25
    px, py = ox + u * cols * s, oy + v * rows * s
    depth, nx, ny, qx, qy = depth_point_grid(px, py, pyramid_grid(table), 0, rows, cols,
                                             s, ox, oy)
    assert depth == _depth_brute(px, py, table, s, ox, oy)
    # q is a free point at that distance, in the reported direction.
    assert math.hypot(qx - px, qy - py) == pytest.approx(depth, rel=1e-12, abs=1e-12)
    if depth > 0.0:
        assert (nx, ny) == pytest.approx(((qx - px) / depth, (qy - py) / depth))


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
