"""Where an agent can stand on a 3D level: the agent, the floor lattice, and whether it fits.

The 3D side of ``sidestep check`` (:mod:`.check3d`, :mod:`.sweep3d`) looks at
a level through an upright capsule (:class:`Capsule`: ``radius``, ``height``,
by default :data:`HEIGHT_PER_RADIUS` times the radius, the proportions of
the README's character, 0.3 by 1.8) standing on floors, found the way
Recast finds walkable triangles:

- a **lattice** of columns over the level's ground plane (the two axes that
  are not ``World3D.up``), ``spacing`` apart, anchored to the level's
  bounds, so every task of a level sees the same columns;
- down each column, one batched :meth:`World3D.raycast` per layer from above
  the level, continued below each hit, finds every surface the column
  crosses (up to :data:`MAX_CASTS` casts; a ray that starts inside a solid
  is moved down by :func:`skip_length` and cast again);
- a hit is a **floor** when its surface faces up within ``max_slope``: a
  mesh triangle by its winding (counter-clockwise seen from above, glTF's
  front face and Recast's rule, so the inside bottom of a closed mesh is not
  a floor), a one-sided panel by its winding, a two-sided panel and the
  solids (boxes, spheres, cylinders, voxels, heightfields) by the side the
  ray met.

The agent **stands** on a floor point with its feet there, lifted along
``up`` just enough that the bottom sphere clears a sloped floor
(:func:`stand`); it **fits** where no surface comes closer to the capsule's
axis than its radius less 1e-9 (:func:`touching`, exact, through
:meth:`World3D.overlapping`).

>>> import sidestep
>>> world = sidestep.World3D()                               # y up
>>> floor = world.add_boxes([(0, -1, 0)], [(4, 0, 4)])
>>> shelf = world.add_boxes([(0, 1.2, 0)], [(4, 1.5, 2)])    # a shelf 1.2 over half the floor
>>> found = floors(world, lattice(world, 1.0), radius=0.25)
>>> len(found.points), sorted(set(found.points[:, 1].tolist()))   # 16 columns; 8 see the shelf
(24, [0.0, 1.5])
>>> agent = Capsule(0.25, 1.5)
>>> feet = stand(world, found, agent)
>>> blocked = [len(touching(world, centre(world, f, agent.height), agent)) > 0 for f in feet]
>>> sum(blocked)                                   # the 8 floor points under the shelf
8
"""
import math
from dataclasses import dataclass

import numpy as np

#: An agent's height when none is given: this many radii (the README's
#: character is 0.3 across the middle and 1.8 tall).
HEIGHT_PER_RADIUS = 6.0
#: Steepest floor (radians from level), as :class:`sidestep.Character`'s default.
MAX_SLOPE = math.radians(45.0)
#: Casts down each column at most (layers of floors, and steps out of solids).
MAX_CASTS = 32
#: Columns along the level's longer ground side for the check's floor probes
#: when no spacing is given.
PROBES = 64
#: A capsule is inside something when a surface is closer to its axis than
#: its radius by more than this (the collision promise: ``1e-9``).
INSIDE = 1e-9


@dataclass(frozen=True)
class Capsule:
    """The agent of a 3D check: an upright capsule, ``height`` tall in all, ``radius`` round."""

    #: Radius (world units, > 0).
    radius: float
    #: Height in all (world units, >= 2 * radius).
    height: float
    #: Steepest floor it stands on (radians from level).
    max_slope: float = MAX_SLOPE

    def __post_init__(self):
        r, h = self.radius, self.height
        for name, value in (("radius", r), ("height", h)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a finite number > 0 for a 3D agent (an "
                                 f"upright capsule), got {value!r}")
        if h < 2.0 * r:
            raise ValueError(f"height must be at least twice the radius ({2.0 * r:g}), "
                             f"got {h!r}")
        if not 0.0 < self.max_slope < 0.5 * math.pi:
            raise ValueError(f"max_slope must be an angle in radians between 0 and pi/2, "
                             f"got {self.max_slope!r}")

    @classmethod
    def of(cls, radius, height=None):
        """The capsule of ``radius``, ``height`` tall (default :data:`HEIGHT_PER_RADIUS` radii).

        >>> Capsule.of(0.3)
        Capsule(radius=0.3, height=1.7999999999999998, max_slope=0.7853981633974483)
        """
        radius = float(radius)
        return cls(radius, HEIGHT_PER_RADIUS * radius if height is None else float(height))

    @property
    def step_height(self):
        """Highest step the sweep's characters climb: a sixth of the height (0.3 for 1.8)."""
        return self.height / 6.0


@dataclass(frozen=True)
class Floors:
    """Floor points found down the columns of a lattice, top to bottom in each column."""

    #: ``(n, 3) float64``: where each ray met the floor.
    points: np.ndarray
    #: ``(n, 3) float64``: the floor's unit normal there (facing up).
    normals: np.ndarray
    #: ``(n,) int64``: the lattice column of each point.
    columns: np.ndarray
    #: ``(n,) int64``: its layer in the column (0: the highest floor).
    layers: np.ndarray


def axes(world):
    """``(up, a, b)``: indices of ``world``'s up axis and of its two ground axes."""
    up = "xyz".index(world.up)
    a, b = (i for i in range(3) if i != up)
    return up, a, b


def ground_bounds(world):
    """``(a0, b0, a1, b1)``: the level's extent on the ground plane, or None for an empty world.

    What :func:`~sidestep.commands.regions.tiles` cuts a 3D level by.
    """
    bounds = world.bounds
    if bounds is None:
        return None
    lo, hi = bounds
    _, a, b = axes(world)
    return (float(lo[a]), float(lo[b]), float(hi[a]), float(hi[b]))


def ground(world, points):
    """``(n, 2)``: the ground coordinates of ``points (n, 3)`` (what a tile holds)."""
    _, a, b = axes(world)
    p = np.asarray(points, float).reshape(-1, 3)
    return p[:, [a, b]]


def default_spacing(world, share):
    """The level's longer ground side over ``share`` (1.0 for an empty or flat-to-a-point level)."""
    box = ground_bounds(world)
    side = max(box[2] - box[0], box[3] - box[1]) if box is not None else 0.0
    return side / share if side > 0 else 1.0


def lattice(world, spacing):
    """``(m, 2)`` ground points: the middle of each ``spacing`` square over the level, by rows."""
    spacing = float(spacing)
    if not (math.isfinite(spacing) and spacing > 0):
        raise ValueError(f"spacing must be a finite number > 0, got {spacing!r}")
    box = ground_bounds(world)
    if box is None:
        return np.zeros((0, 2))
    a0, b0, a1, b1 = box
    xs = a0 + spacing * (np.arange(max(1, math.ceil((a1 - a0) / spacing))) + 0.5)
    ys = b0 + spacing * (np.arange(max(1, math.ceil((b1 - b0) / spacing))) + 0.5)
    return np.column_stack([np.tile(xs, len(ys)), np.repeat(ys, len(xs))])


def skip_length(world, radius):
    """How far a ray that starts inside a solid is moved down before it is cast again."""
    lo, hi = world.bounds
    return max(float(radius), 1e-3 * float(np.max(hi - lo)))


def floors(world, columns, *, radius, max_slope=MAX_SLOPE, index=None):
    """Every floor under the ground points ``columns``, top to bottom.

    Parameters
    ----------
    world : World3D
    columns : (m, 2) float64
        Ground points (:func:`lattice`).
    radius : float
        Sets how far a ray inside a solid is moved down (:func:`skip_length`).
    max_slope : float
        Steepest floor (radians from level).
    index : (m,) int, optional
        The columns' numbers (default ``0..m-1``), kept in :attr:`Floors.columns`.

    Returns
    -------
    Floors
        In the order of the columns, each column's floors from the top down.
    """
    columns = np.asarray(columns, float).reshape(-1, 2)
    index = np.arange(len(columns)) if index is None else np.asarray(index, np.int64)
    empty = Floors(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, np.int64),
                   np.zeros(0, np.int64))
    if world.bounds is None or not len(columns):
        return empty
    up, a, b = axes(world)
    lo, hi = world.bounds
    size = float(np.max(hi - lo))
    gap = 1e-6 * (1.0 + size)          # below a hit, to cast on past that surface
    skip = skip_length(world, radius)
    cos_slope = math.cos(max_slope)
    down = np.zeros(3)
    down[up] = -1.0
    origins = np.zeros((len(columns), 3))
    origins[:, a], origins[:, b] = columns[:, 0], columns[:, 1]
    origins[:, up] = float(hi[up]) + 1.0 + gap
    facing = _winding_normals(world)
    live = np.arange(len(columns))
    found = []                          # (column row, layer, point, normal)
    layer = np.zeros(len(columns), np.int64)
    for _ in range(MAX_CASTS):
        if not len(live):
            break
        hits = world.raycast(origins[live], np.broadcast_to(down, (len(live), 3)))
        keep = hits.hit
        inside = keep & (hits.distance == 0.0)
        origins[live[inside], up] -= skip
        met = np.flatnonzero(keep & ~inside)
        for k in met:
            normal = _floor_normal(world, facing, int(hits.obstacle[k]), int(hits.part[k]),
                                   hits.normal[k])
            row = live[k]
            if normal is not None and normal[up] >= cos_slope:
                found.append((row, layer[row], hits.point[k].copy(), normal))
                layer[row] += 1
        origins[live[met]] = hits.point[met]
        origins[live[met], up] -= gap
        live = live[keep]
    if not found:
        return empty
    found.sort(key=lambda f: (f[0], f[1]))
    return Floors(np.array([f[2] for f in found]), np.array([f[3] for f in found]),
                  index[np.array([f[0] for f in found])], np.array([f[1] for f in found]))


def _winding_normals(world):
    """``{id: (k, 3) unit normals}`` of every mesh's triangles and one-sided panel, by winding."""
    out = {}
    g = world.geometry("mesh")
    for oid, v, t in zip(g["ids"].tolist(), g["vertices"], g["triangles"]):
        n = np.cross(v[t[:, 1]] - v[t[:, 0]], v[t[:, 2]] - v[t[:, 0]])
        out[oid] = n / np.maximum(np.linalg.norm(n, axis=1), 1e-300)[:, None]
    g = world.geometry("panel")
    for oid, v, sides in zip(g["ids"].tolist(), g["vertices"], g["sides"]):
        if sides == "front":                          # Newell's normal of the polygon
            n = np.cross(v, np.roll(v, -1, axis=0)).sum(axis=0)
            out[oid] = (n / max(np.linalg.norm(n), 1e-300))[None, :]
    return out


def _floor_normal(world, facing, obstacle, part, ray_normal):
    """The hit surface's upward normal if it can be a floor seen from above, else None."""
    normals = facing.get(obstacle)
    if normals is None:                    # a two-sided panel or a solid: the side met
        return np.asarray(ray_normal, float).copy()
    n = normals[part if len(normals) > 1 else 0]
    return n.copy() if n["xyz".index(world.up)] > 0.0 else None


def stand(world, found, agent):
    """``(n, 3)``: the agent's feet on each floor point, lifted to clear a sloped floor.

    On a floor of normal ``n`` the bottom sphere, centred ``radius / n_up``
    above the point, touches the floor's plane there: the feet go
    ``radius * (1 / n_up - 1)`` above the point (0 on level ground).
    """
    up, _, _ = axes(world)
    lift = agent.radius * (1.0 / found.normals[:, up] - 1.0)
    feet = found.points.copy()
    feet[:, up] += lift
    return feet


def centre(world, feet, height):
    """``(n, 3)`` (or ``(3,)``): the capsule's centre, ``height / 2`` above ``feet``."""
    up, _, _ = axes(world)
    c = np.array(feet, float, copy=True)
    c[..., up] += 0.5 * height
    return c


def touching(world, center, agent, room=1.0, height=None):
    """Ids of the obstacles closer than ``room * radius`` (less 1e-9) to the capsule's axis.

    ``room`` above 1 asks for room to spare (a start's, see
    :data:`~sidestep.commands.sweep.START_ROOM`), plus 1e-9. ``height``
    overrides the agent's (a sphere: ``2 * radius``).
    """
    height = agent.height if height is None else height
    half = max(0.0, 0.5 * height - agent.radius)
    r = room * agent.radius + (INSIDE if room > 1.0 else -INSIDE)
    return world.overlapping(center, r, 2.0 * (half + r) if half > 0 else 0.0)
