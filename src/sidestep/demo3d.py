"""The 3D demo: the panel article's corridor, walked along one scripted route in each move mode.

The scene (``up = "y"``, metres) is built the article's way, from planar
panels: an L-shaped corridor 3 m wide and 3 m high whose inner corner is
convex (the corner the article warns about), a cross wall with a doorway
1 m wide under a lintel, a floor and a ramp. A pillar of three stacked boxes
stands in the first leg; two trees (upright cylinders, the radial article's)
stand on the ramp. The route runs into the pillar, round the convex corner,
through the doorway, up the ramp between the trees, into the far corner and
finally through the east wall, which only ``ghost`` passes. A third-person
camera's spring arm reaches back over the player's shoulder through the
pillar and is pulled in before it (:func:`camera_arm`, one ``world.cast``).

``sidestep demo --3d`` runs it: a table like the 2D demo's and a picture, a
top view with each mode's path beside a camera view down the corridor.
It is a separate command from the 2D demo so that ``sidestep demo`` does not
pay for compiling the 3D kernels (see docs/first-run.md).
"""
import math

import numpy as np

from .commands.pictures import picture_format
from .tolerances import PROMISE
from .world3d import MODES, World3D

#: Corridor wall height (m).
WALL = 3.0
#: Height of the ramp's top end (m), reached at z = 10 from z = 7.
RAMP = 0.6
#: ``(8, 3) float64``: the start, then the waypoints, as agent centres (x, y,
#: z): into the pillar; round the convex corner at (7, 3); through the
#: doorway at z = 6 (off its middle, so the agent meets a jamb); up the ramp
#: between the trees; into the corridor's far corner; through the east wall
#: (only ghost gets there). Heights follow the floor and ramp at a radius of
#: 0.35 m above them.
ROUTE = np.array([
    [1.0, 0.35, 1.5],
    [6.0, 0.35, 1.5],
    [8.4, 0.35, 5.0],
    [8.6, 0.35, 7.2],
    [8.5, 0.35 + RAMP * 2.0 / 3.0, 9.0],
    [9.9, 0.35 + RAMP * 0.97, 9.9],
    [11.5, 0.35 + RAMP * 0.9, 9.0],
])
#: Desired displacement per frame (m).
STEP = 0.1
#: Distance (m) at which a waypoint counts as reached.
ARRIVE = 0.15
#: Where the demo's camera stands and looks: at the start, at eye height,
#: down the first leg towards the pillar and the convex corner.
EYE = np.array([0.4, 1.6, 1.5])
HEADING = np.array([1.0, -0.12, 0.25])
#: The third-person camera's spring arm: the pivot over the player's shoulder
#: just past the pillar, the arm reaching 3 m back (and a little up) through
#: it, and the camera's radius (its near plane's reach).
PIVOT = np.array([6.0, 1.6, 1.5])
ARM = np.array([-3.0, 0.4, 0.0])
CAMERA_RADIUS = 0.2
#: Colours of each mode's path.
COLOURS = {"slide": "tab:blue", "push": "tab:green", "block": "tab:red", "ghost": "tab:purple"}


def _wall(x0, z0, x1, z1, y0=0.0, y1=WALL):
    """A vertical panel from ``(x0, z0)`` to ``(x1, z1)`` between heights ``y0`` and ``y1``."""
    return [(x0, y0, z0), (x1, y0, z1), (x1, y1, z1), (x0, y1, z0)]


def corridor():
    """The demo's scene.

    Returns
    -------
    world : World3D
    parts : dict of str to (k,) int64
        Obstacle ids by role: ``walls``, ``floor``, ``pillar``, ``trees``.
    """
    world = World3D()
    walls = [
        _wall(0, 0, 10, 0),          # south wall, the whole first leg
        _wall(10, 0, 10, 10),        # east wall, both legs
        _wall(0, 3, 7, 3),           # north wall of the first leg ...
        _wall(7, 3, 7, 10),          # ... meets the second leg's west wall: the convex corner
        _wall(0, 0, 0, 3),           # the first leg's end
        _wall(7, 10, 10, 10),        # the second leg's end
        _wall(7, 6, 8, 6),           # the cross wall: left of the doorway,
        _wall(9, 6, 10, 6),          # right of it,
        _wall(8, 6, 9, 6, 2.2),      # and the lintel over it
    ]
    ids = {"walls": world.add_panels(walls)}
    ids["floor"] = world.add_panels([
        [(-1, 0, -1), (-1, 0, 7), (11, 0, 7), (11, 0, -1)],
        [(7, 0, 7), (7, RAMP, 10), (10, RAMP, 10), (10, 0, 7)],     # the ramp
    ])
    ids["pillar"] = world.add_boxes([(4.0, 0.0, 1.2), (4.0, 1.0, 1.2), (4.0, 2.0, 1.2)],
                                    [(4.6, 1.0, 1.8), (4.6, 2.0, 1.8), (4.6, 3.0, 1.8)])
    ids["trees"] = world.add_cylinders([(7.7, -0.5, 8.3), (9.3, -0.5, 8.8)], 0.2, 3.5)
    return world, ids


def walk(world, radius, mode, route=ROUTE, step=STEP):
    """Walk one agent (a sphere) along ``route`` in ``mode``, one ``world.move`` per frame.

    As :func:`sidestep.demo.walk`: a step of ``step`` towards the current
    waypoint each frame, the next waypoint once within :data:`ARRIVE` or
    when the leg's frame budget runs out.

    Returns
    -------
    path : (n, 3) float64
    contacts : (c, 3) float64
        Every contact point met, in order.
    """
    position = np.asarray(route[0], float)
    path, contacts = [position], []
    for here, target in zip(route[:-1], route[1:]):
        budget = math.ceil(1.5 * np.linalg.norm(target - here) / step) + 20
        for _ in range(budget):
            gap = target - position
            distance = float(np.linalg.norm(gap))
            if distance <= ARRIVE:
                break
            move = world.move(position, gap * (min(step, distance) / distance),
                              radius=radius, mode=mode)
            position = move.position
            path.append(position)
            contacts.extend(c.point for c in move.contacts)
    return np.array(path), np.array(contacts, float).reshape(-1, 3)


def camera_arm(world, pivot=PIVOT, arm=ARM, radius=CAMERA_RADIUS):
    """Where a third-person camera on a spring arm stands: ``pivot + fraction * arm``.

    The camera, a sphere of ``radius``, is cast from the pivot along the
    arm; it stops at its first contact, never inside anything, so the view
    never shows the inside of a wall (:meth:`~sidestep.World3D.cast`).

    Returns
    -------
    camera : (3,) float64
    hit : CastHit
    """
    hit = world.cast(pivot, arm, radius=radius)
    return pivot + hit.fraction * np.asarray(arm, float), hit


def measure(world, mode, path, contacts, radius):
    """One row of the table: as :func:`sidestep.demo.measure`, in 3D."""
    gap = world.clearance(path) - radius
    return {"mode": mode,
            "travelled": float(np.linalg.norm(np.diff(path, axis=0), axis=1).sum()),
            "contacts": len(contacts),
            "min_clearance": float(gap.min()),
            "penetrations": int(np.count_nonzero(gap < -PROMISE))}


def draw(world, walks, radius, out, kind="png", arm_camera=None):
    """Save the picture: top view with each mode's path, and the camera's view down the corridor.

    ``arm_camera``, the spring arm's camera position (:func:`camera_arm`), adds
    the arm to the top view.
    """
    from matplotlib.figure import Figure

    from .commands.render3d import cast_views, draw_camera, draw_top

    forward = HEADING / np.linalg.norm(HEADING)
    top, camera = cast_views(world, EYE, forward, width=240, height=150, fov=75.0,
                             top_size=300)
    fig = Figure(figsize=(14, 6), layout="constrained")
    ax, cam = fig.subplots(1, 2, width_ratios=(1, 1.2))
    draw_top(ax, top, world=world)
    for mode, (path, contacts) in walks.items():
        ax.plot(path[:, 0], path[:, 2], color=COLOURS[mode], linewidth=1.5,
                linestyle=":" if mode == "ghost" else "-", zorder=4,
                label=f"{mode} ({len(contacts)} contacts)")
        if len(contacts):
            ax.plot(contacts[:, 0], contacts[:, 2], "x", color=COLOURS[mode], markersize=4,
                    zorder=4)
    ax.plot(ROUTE[0, 0], ROUTE[0, 2], "ko", markersize=6, label="start")
    ax.plot(ROUTE[1:, 0], ROUTE[1:, 2], "k+", markersize=10, mew=1.5, label="waypoints")
    ax.plot(EYE[0], EYE[2], "r^", markersize=7, label="camera")
    if arm_camera is not None:
        ax.plot([PIVOT[0], arm_camera[0]], [PIVOT[2], arm_camera[2]], "-", color="tab:orange",
                linewidth=2, zorder=5)
        ax.plot(arm_camera[0], arm_camera[2], "o", color="tab:orange", markersize=5, zorder=5,
                label="spring arm's camera")
    ax.legend(loc="lower left", fontsize=8)
    ax.set_title(f"from above: the corridor, the pillar, the ramp's trees; agent radius "
                 f"{radius:g} m", fontsize=9)
    draw_camera(cam, camera)
    fig.suptitle("sidestep demo --3d: the panel article's corridor (convex corner, doorway) "
                 "walked in four move modes", fontsize=11)
    fig.savefig(out, format=kind, dpi=100)


def run_demo3d(out="sidestep-demo3d.png", radius=0.3):
    """Walk the corridor's route in every mode, print the table and save the picture.

    Parameters
    ----------
    out : str or path-like
        Where to write the picture; the extension picks the format.
    radius : float >= 0
        The agent's radius (it must fit at the start and through the 1 m doorway).

    Returns
    -------
    rows : list of dict
        One per mode, as :func:`measure` makes them.
    """
    from .demo import format_table

    radius = float(radius)
    if not (math.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    world, _ = corridor()
    room = world.clearance(ROUTE[0])
    if radius >= room:
        raise ValueError(f"radius {radius} does not fit at the route's start, which has "
                         f"{room:.2f} m of room")
    kind = picture_format(out)
    import matplotlib    # noqa: F401  (missing? say so before compiling)
    walks = {mode: walk(world, radius, mode) for mode in MODES}
    rows = [measure(world, mode, *walks[mode], radius) for mode in MODES]
    print(format_table(rows))
    camera, hit = camera_arm(world)
    reach = float(np.linalg.norm(ARM))
    print(f"camera arm: {reach:.2f} m wanted, {hit.fraction * reach:.2f} m kept "
          f"(pulled in by obstacle {hit.obstacle}, the pillar)")
    draw(world, walks, radius, out, kind, camera)
    print(f"wrote {out}")
    return rows
