"""The uniform-grid broadphase: every capsule is found in every cell it touches."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sidestep.kernels.index import (Index, columns_capsule, fill_index_capsules,
                                    frame_capsules, rows_capsule)


def test_every_touched_cell_lists_the_capsule():
    rng = np.random.default_rng(3)
    geom = np.column_stack([rng.uniform(0, 10, (50, 4)), rng.uniform(0, 0.5, 50)])
    nx = ny = 10
    start, entries = fill_index_capsules(0.0, 0.0, 1.0, nx, ny, geom, 0.0)
    # Sample points of each capsule's surface region; their cell must list it.
    for e, (ax, ay, bx, by, r) in enumerate(geom):
        for f in np.linspace(0, 1, 21):
            for ang in np.linspace(0, 2 * np.pi, 8, endpoint=False):
                x = ax + f * (bx - ax) + 0.999 * r * np.cos(ang)
                y = ay + f * (by - ay) + 0.999 * r * np.sin(ang)
                i, j = int(np.floor(x)), int(np.floor(y))
                if 0 <= i < nx and 0 <= j < ny:
                    k = j * nx + i
                    assert e in entries[start[k]:start[k + 1]]


def test_rows_and_columns_miss_outside_the_grid():
    index = Index(0.0, 0.0, 1.0, 4, 4, np.zeros(17, np.int64), np.zeros(0, np.int32))
    j0, j1 = rows_capsule(index, 10.0, 10.0, 12.0, 12.0, 0.5)
    assert j0 > j1
    i0, i1 = columns_capsule(index, -5.0, 1.5, -3.0, 1.5, 0.5, 1)
    assert i0 > i1


# ------------------------------------------------------------------ the grid's frame
def _capsules(draw_n, rng, spread, size):
    ends = rng.uniform(-spread, spread, (draw_n, 4))
    ends[:, 2:4] = ends[:, 0:2] + rng.uniform(-size, size, (draw_n, 2))
    return np.column_stack([ends, rng.uniform(0.0, 0.3, draw_n)])


@given(st.integers(1, 300), st.integers(0, 5), st.sampled_from([1.0, 100.0, 5000.0]),
       st.sampled_from([0.1, 2.0, 50.0]), st.integers(0, 2 ** 32 - 1))
@settings(max_examples=60, deadline=None)
def test_frame_covers_every_capsule_and_box_with_half_a_cell_to_spare(n, m, spread, size,
                                                                        seed):
    rng = np.random.default_rng(seed)
    geom = _capsules(n, rng, spread, size)
    lo = rng.uniform(-spread, spread, (m, 2))
    boxes = np.column_stack([lo, lo + rng.uniform(0.0, size, (m, 2))])
    ox, oy, cell, nx, ny = frame_capsules(geom, boxes, 1.0)
    thick = geom[:, 4:5]
    lows = np.minimum(geom[:, 0:2], geom[:, 2:4]) - thick
    highs = np.maximum(geom[:, 0:2], geom[:, 2:4]) + thick
    low = np.vstack([lows, boxes[:, 0:2]]).min(0)
    high = np.vstack([highs, boxes[:, 2:4]]).max(0)
    assert (ox, oy) == (low[0] - 0.5 * cell, low[1] - 0.5 * cell)
    assert ox + nx * cell >= high[0] + 0.5 * cell
    assert oy + ny * cell >= high[1] + 0.5 * cell
    # Cells at least the typical capsule's box, fewer than four cells a capsule (+ 1024).
    assert cell >= np.median((highs - lows).max(1))
    assert nx * ny <= 4 * n + 1024


def test_frame_cells_are_at_least_the_spacing_between_small_capsules():
    # 400 dots in a 100 m square: cells of the mean spacing (5 m), not of the dots (0.2 m).
    rng = np.random.default_rng(5)
    dots = rng.uniform(0, 100, (400, 2))
    geom = np.column_stack([dots, dots, np.full(400, 0.1)])
    _, _, cell, _, _ = frame_capsules(geom, np.zeros((0, 4)), 1.0)
    width, height = np.ptp(dots, axis=0) + 0.2
    assert np.isclose(cell, np.sqrt(width * height / 400), rtol=1e-12, atol=0)
