"""The obstacles of a packed 2D world that may touch a box: the broadphase of ``World2D.query``.

Every obstacle lies in the cells of the world's two grids
(:mod:`~sidestep.kernels.index`): its items (outline segments, circles,
walls) in every cell they touch, its solid area in every cell its bounds
overlap. So an obstacle with a point in a box has an item or its area in
a cell that box overlaps, and the live owners of those cells' entries are
the candidates; the exact tests follow (:mod:`sidestep.volumes.query`).
"""
import math

from numba import njit

from .index import clamp
from .world import borrowed, is_alive, unpack_world


@njit(cache=True, forceinline=False)
def _span(cells, lo, hi, origin, n):
    # Cells [i0, i1] along one axis that [lo, hi] overlaps (i0 > i1: none).
    size = cells.cell_size
    if not (hi >= origin and lo <= origin + n * size):
        return 1, 0
    lo = max(lo, origin)
    hi = min(hi, origin + n * size)
    return (clamp(int(math.floor((lo - origin) / size)), n),
            clamp(int(math.floor((hi - origin) / size)), n))


@njit(cache=True, forceinline=False)
def _gather(world, cells, owners, lox, loy, hix, hiy, mark, found, n):
    # Owners (ints[owners + entry]) of the entries of the cells meeting the box.
    world = borrowed(world)
    if cells.nx == 0:
        return n
    i0, i1 = _span(cells, lox, hix, cells.origin_x, cells.nx)
    j0, j1 = _span(cells, loy, hiy, cells.origin_y, cells.ny)
    for j in range(j0, j1 + 1):
        for i in range(i0, i1 + 1):
            k = j * cells.nx + i
            first = cells.entries + world.ints[cells.start + k]
            stop = cells.entries + world.ints[cells.start + k + 1]
            for t in range(first, stop):
                o = world.ints[owners + world.small[t]]
                if mark[o] == 0 and is_alive(world, o):
                    mark[o] = 1
                    found[n] = o
                    n += 1
    return n


@njit(cache=True, forceinline=False)
def owners_in_box(blob, live, lox, loy, hix, hiy, mark, found):
    """Live obstacles with an item or an area in a cell meeting box ``[lo, hi]``.

    ``blob`` the packed world (:func:`~sidestep.kernels.world.unpack_world`);
    the box may reach to infinity. ``mark (ids,) uint8`` zeros on entry (1
    after, for the obstacles found); ``found (ids,) int64`` receives them, in
    no order. Returns how many there are.
    """
    world = unpack_world(blob, live)
    n = _gather(world, world.items, world.owner, lox, loy, hix, hiy, mark, found, 0)
    n = _gather(world, world.areas, world.area_owner, lox, loy, hix, hiy, mark, found, n)
    # The bodies' items and areas, in their own grids.
    n = _gather(world, world.moving, world.owner, lox, loy, hix, hiy, mark, found, n)
    return _gather(world, world.moving_areas, world.area_owner, lox, loy, hix, hiy, mark,
                   found, n)
