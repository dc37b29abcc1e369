"""The uniform-grid broadphase: every capsule is found in every cell it touches."""
import numpy as np

from sidestep.kernels.index import Index, columns_capsule, fill_index_capsules, rows_capsule


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
