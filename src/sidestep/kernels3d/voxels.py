"""The panel article's 3D look-up table as a few solid boxes (greedy merging of blocked cells).

A voxel table is ``blocked (nx, ny, nz)`` bool; cell ``(i, j, k)`` covers
``origin + [i, i+1] x [j, j+1] x [k, k+1]`` times the cell size. The world
stores it as two things, both ordinary primitives of one obstacle:

* its **surface**: :func:`surface_squares` lists every cell face between a
  blocked cell and a free one (or the outside), wound counter-clockwise seen
  from outside; as mesh triangles on shared lattice corners, front-only, with
  active-edge flags, an agent glides over a flat top made of many cells
  without bumping at the seams (boxes side by side would bump: the edge of
  one box lies in the top face of its neighbour, and the skin touches it);
* its **inside**: :func:`merge_cells` covers the blocked cells with few
  disjoint boxes (runs along x, then rows of equal runs along y, then slabs
  of equal rows along z: greedy meshing), marked interior, so a point inside
  the blocks lies inside one box and gets a negative separation (minus its
  depth in that box), never claimed outside.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def merge_cells(blocked):
    """Disjoint boxes of cells covering exactly the blocked cells.

    Parameters
    ----------
    blocked : (nx, ny, nz) uint8 (or bool)

    Returns
    -------
    (m, 6) int64
        ``[i0, j0, k0, i1, j1, k1]`` per box: it covers cells ``i0 <= i < i1``,
        ``j0 <= j < j1``, ``k0 <= k < k1``. Boxes come in the order of their
        first cell (k slowest, then j, then i).
    """
    nx, ny, nz = blocked.shape
    used = np.zeros((nx, ny, nz), dtype=np.uint8)
    out = np.empty((16, 6), dtype=np.int64)
    m = 0
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                if blocked[i, j, k] == 0 or used[i, j, k] != 0:
                    continue
                i1 = i + 1
                while i1 < nx and blocked[i1, j, k] != 0 and used[i1, j, k] == 0:
                    i1 += 1
                j1 = j + 1
                while j1 < ny and _free_run(blocked, used, i, i1, j1, k):
                    j1 += 1
                k1 = k + 1
                while k1 < nz and _free_slab(blocked, used, i, i1, j, j1, k1):
                    k1 += 1
                used[i:i1, j:j1, k:k1] = 1
                if m == out.shape[0]:
                    grown = np.empty((2 * m, 6), dtype=np.int64)
                    grown[:m] = out
                    out = grown
                out[m, 0] = i
                out[m, 1] = j
                out[m, 2] = k
                out[m, 3] = i1
                out[m, 4] = j1
                out[m, 5] = k1
                m += 1
    return out[:m].copy()


@njit(cache=True)
def _free_run(blocked, used, i0, i1, j, k):
    # Whether cells i0 <= i < i1 of row (j, k) are all blocked and not yet covered.
    for i in range(i0, i1):
        if blocked[i, j, k] == 0 or used[i, j, k] != 0:
            return False
    return True


@njit(cache=True)
def _free_slab(blocked, used, i0, i1, j0, j1, k):
    # Whether the rectangle of cells [i0, i1) x [j0, j1) of layer k is all blocked and free.
    for j in range(j0, j1):
        if not _free_run(blocked, used, i0, i1, j, k):
            return False
    return True


@njit(cache=True)
def surface_squares(blocked):
    """The faces between blocked and free cells: ``(m, 4, 3) int64`` lattice corners.

    Lattice point ``(i, j, k)`` is the cell corner ``origin + (i, j, k) *
    cell_size``. Each square's corners run counter-clockwise seen from the
    free side (its outward normal, from the blocked cell into the free one,
    follows the right-hand rule). Cells outside the table are free.
    """
    nx, ny, nz = blocked.shape
    out = np.empty((64, 4, 3), dtype=np.int64)
    m = 0
    size = (nx, ny, nz)
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                if blocked[i, j, k] == 0:
                    continue
                cell = (i, j, k)
                for a in range(3):
                    b = (a + 1) % 3
                    c = (a + 2) % 3
                    for side in (-1, 1):
                        n = cell[a] + side
                        if 0 <= n < size[a]:
                            if a == 0 and blocked[n, j, k] != 0:
                                continue
                            if a == 1 and blocked[i, n, k] != 0:
                                continue
                            if a == 2 and blocked[i, j, n] != 0:
                                continue
                        if m == out.shape[0]:
                            grown = np.empty((2 * m, 4, 3), dtype=np.int64)
                            grown[:m] = out
                            out = grown
                        plane = cell[a] + (1 if side > 0 else 0)
                        # (0, 0), (1, 0), (1, 1), (0, 1) along (b, c) turns about +a.
                        for q in range(4):
                            ob = 1 if q == 1 or q == 2 else 0
                            oc = 1 if q >= 2 else 0
                            t = q if side > 0 else 3 - q
                            out[m, t, a] = plane
                            out[m, t, b] = cell[b] + ob
                            out[m, t, c] = cell[c] + oc
                        m += 1
    return out[:m].copy()
