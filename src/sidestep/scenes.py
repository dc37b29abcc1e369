"""The articles' own scene, as data: the wall article's house and the radial article's trees.

:func:`house_walls` and :func:`radial_trees` return the obstacles exactly as
the two articles give them; :func:`demo_world` puts them in one
:class:`sidestep.World2D` with a small grove of extra trees, for the demo and
for anyone who wants a ready-made level to try moves in.

>>> from sidestep import scenes
>>> world, ids = scenes.demo_world()
>>> sorted(ids), len(ids["walls"]), len(ids["radial_trees"])
(['grove', 'radial_trees', 'walls'], 9, 3)
"""
import numpy as np

from .world import World2D

#: The wall article's collision distance: every wall's surface lies this far
#: from its segment (world units, metres in the article).
WALL_CLEARANCE = 0.5

#: ``(9, 4) float64``: the wall article's walls, rows ``[x0, y0, x1, y1]``.
_HOUSE = np.array([
    [-24.4, -14.1, 18.9, -14.1],
    [-24.4, -14.1, -24.4, 13.2],
    [-20.2, -0.1, -4.8, -0.1],
    [-0.5, 0.7, -0.5, -8.7],
    [19.4, 14.4, -24.4, 14.4],
    [19.4, 14.4, 19.4, -14.4],
    [-17.5, 0.5, -17.5, 11.0],
    [13.4, -0.15, 18.74, -0.15],
    [-0.43, -9.1, 12.4, -9.1],
])

#: ``(3, 2) float64``: centres of the radial article's trees; all have radius 1.
_RADIAL_CENTERS = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]])
_RADIAL_RADIUS = 1.0

#: ``(7, 3) float64``: the extra grove, rows ``[x, y, radius]``, in the big
#: room north-east of the radial trees. A fixed list rather than random draws
#: so the demo's pictures and numbers never change; every tree stays clear of
#: the walls' surfaces and of the other trees (tests check it with
#: ``World2D.clearance``).
_GROVE = np.array([
    [3.7, 5.7, 0.6],
    [5.6, 3.6, 0.5],
    [2.0, 8.2, 0.4],
    [6.6, 7.4, 0.8],
    [4.4, 10.0, 0.35],
    [8.6, 5.4, 0.45],
    [8.4, 9.6, 0.6],
])


def house_walls():
    """The wall article's nine walls, each with its collision distance.

    Returns
    -------
    starts : (9, 2) float64
    ends : (9, 2) float64
    clearance : (9,) float64
        All :data:`WALL_CLEARANCE` (0.5).

    Examples
    --------
    >>> starts, ends, clearance = house_walls()
    >>> starts.shape, ends.shape, clearance.tolist() == [0.5] * 9
    ((9, 2), (9, 2), True)
    """
    return _HOUSE[:, 0:2].copy(), _HOUSE[:, 2:4].copy(), np.full(len(_HOUSE), WALL_CLEARANCE)


def radial_trees():
    """The radial article's three trees.

    Returns
    -------
    centers : (3, 2) float64
        ``(0, 1)``, ``(1, 0)`` and ``(-1, 0)``.
    radii : (3,) float64
        All 1.0.
    """
    return _RADIAL_CENTERS.copy(), np.full(len(_RADIAL_CENTERS), _RADIAL_RADIUS)


def grove_trees():
    """The demo's extra trees, north-east of the radial ones.

    Returns
    -------
    centers : (7, 2) float64
    radii : (7,) float64
        Between 0.3 and 0.8.
    """
    return _GROVE[:, 0:2].copy(), _GROVE[:, 2].copy()


def demo_world(**world_options):
    """The house, the radial trees at their article coordinates and the grove, in one world.

    The radial trees keep the article's coordinates: they stand in the open
    middle of the house, on the north end of the interior wall at
    ``x = -0.5``, which ends inside the tree at ``(0, 1)``; overlapping
    obstacles are fine, the agent meets their combined outline.

    Parameters
    ----------
    **world_options
        Passed to :class:`sidestep.World2D` (``skin``, ``max_iterations``).

    Returns
    -------
    world : World2D
    ids : dict of str to (n,) int64
        Obstacle ids per kind: ``"walls"`` (9), ``"radial_trees"`` (3),
        ``"grove"`` (7).
    """
    world = World2D(**world_options)
    ids = {"walls": world.add_walls(*house_walls()),
           "radial_trees": world.add_circles(*radial_trees()),
           "grove": world.add_circles(*grove_trees())}
    return world, ids
