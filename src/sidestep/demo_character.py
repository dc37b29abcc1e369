"""The first-person demo: a :class:`~sidestep.Character` walking the Recast dungeon.

The level is Recast's "dungeon" test mesh (10,133 triangles, y up, metres;
bundled as ``sidestep/data/dungeon.obj``, zlib licence beside it): corridors
on a floor at y = 10, a ramp that winds down round a loop to y = 5 under a
bridge, and a long ramp (the level's stairs, modelled as a slope) up to a
landing at y = 15. The character (radius 0.4 m, height 1.8 m, steps up to
0.3 m, slopes up to 45 degrees) walks a scripted tour at 4 m/s, 60 frames a
second, steering towards each waypoint of :data:`TOUR` from where it is.

``sidestep demo --3d`` runs it: a table of the walk (frames on the floor and
in the air, steps climbed, the steepest floor, the smallest clearance) and a
picture: the path from above over the level's floors, the path from the side
(height along the way), and three frames of what the character's camera sees
(the ray-cast view of ``sidestep render``).
"""
import math
from pathlib import Path

import numpy as np

from .character import Character
from .commands.pictures import picture_format
from .tolerances import PROMISE

#: The bundled level.
DUNGEON = Path(__file__).parent / "data" / "dungeon.obj"
#: ``(k, 2)``: the tour's waypoints (x, z) after the start: north to the hub,
#: west and down the winding ramp to the bottom of the loop under the bridge,
#: back up, south through the corridors and up the long ramp to the landing.
START = (0.0, -34.0)
TOUR = np.array([(0, -22), (-8, -20), (-16, -21), (-21, -16), (-22, -11), (-21, -16),
                 (-16, -21), (-8, -20), (0, -22), (0, -34), (10, -42), (20, -50), (20, -64),
                 (20, -70)], float)
#: Walking speed (m/s), frame length (s), and how near (m) a waypoint counts as reached.
SPEED = 4.0
DT = 1.0 / 60.0
ARRIVE = 0.5
#: The character.
RADIUS = 0.4
HEIGHT = 1.8
STEP_HEIGHT = 0.3
#: Eye height over the feet (m).
EYE = 1.6


def load_dungeon(path=DUNGEON):
    """The level as a :class:`~sidestep.World3D`."""
    from .io import load
    return load(path).world


def tour(world, start=START, waypoints=TOUR, max_frames=6000):
    """Walk the character along the tour; one row of record per frame.

    Returns
    -------
    dict of arrays
        ``feet (n, 3)``, ``velocity (n, 3)``, ``on_floor (n,)``,
        ``floor_normal (n, 3)``, ``stepped (n,)`` (height a step lifted it),
        ``stop (n,)`` str, ``reached (k,)`` the frame each waypoint was
        reached at (-1: never).
    """
    drop = world.raycast([start[0], 12.0, start[1]], [0.0, -1.0, 0.0])
    hero = Character(world, drop.point + (0.0, 0.01, 0.0), RADIUS, HEIGHT,
                     step_height=STEP_HEIGHT)
    rows = {k: [] for k in ("feet", "velocity", "on_floor", "floor_normal", "stepped", "stop")}
    reached = np.full(len(waypoints), -1)
    k = 0
    frames = 0
    while k < len(waypoints) and frames < max_frames:
        p = hero.position
        gap = np.array([waypoints[k][0] - p[0], 0.0, waypoints[k][1] - p[2]])
        distance = float(np.linalg.norm(gap))
        if distance < ARRIVE:
            reached[k] = frames
            k += 1
            continue
        hero.update(gap * (SPEED / distance), DT)
        frames += 1
        rows["feet"].append(hero.position)
        rows["velocity"].append(hero.velocity)
        rows["on_floor"].append(hero.on_floor)
        rows["floor_normal"].append(hero.floor_normal)
        rows["stepped"].append(hero.stepped)
        rows["stop"].append(hero.stop)
    out = {key: np.array(value) for key, value in rows.items()}
    out["reached"] = reached
    return out


def clearance(world, feet):
    """``(n,)``: each frame's capsule clearance: its core's distance to the nearest surface, less the radius."""
    half = 0.5 * HEIGHT - RADIUS
    offsets = np.linspace(RADIUS, RADIUS + 2.0 * half, 9)
    core = feet[:, None, :] + offsets[None, :, None] * np.array([0.0, 1.0, 0.0])
    return world.clearance(core.reshape(-1, 3)).reshape(len(feet), -1).min(axis=1) - RADIUS


def measure(world, walk):
    """The table's figures for one walk (see the module)."""
    feet = walk["feet"]
    floor = walk["on_floor"]
    lift = np.clip(walk["floor_normal"][floor, 1], -1.0, 1.0)
    gap = clearance(world, feet)
    steps = walk["stepped"] > 0.0
    return {"frames": len(feet),
            "on_floor": int(floor.sum()),
            "in_air": int((~floor).sum()),
            "waypoints": f"{int((walk['reached'] >= 0).sum())}/{len(walk['reached'])}",
            "step_frames": int(steps.sum()),
            "steepest_floor_deg": float(np.degrees(np.arccos(lift.min()))) if len(lift) else 0.0,
            "height_range_m": float(np.ptp(feet[:, 1])),
            "walked_m": float(np.linalg.norm(np.diff(feet, axis=0), axis=1).sum()),
            "min_clearance_m": float(gap.min()),
            "penetrating_frames": int((gap < -PROMISE).sum())}


def format_table(row):
    """The figures as a two-column Markdown table."""
    lines = ["| figure | value |", "|---|---|"]
    for key, value in row.items():
        text = f"{value:.3g}" if isinstance(value, float) and key != "min_clearance_m" \
            else (f"{value:.2e}" if isinstance(value, float) else str(value))
        lines.append(f"| {key.replace('_', ' ')} | {text} |")
    return "\n".join(lines)


def _floor_map(world, step=0.4, ceiling=12.0):
    # Heights of the floors under y = ceiling (the dungeon's roofs are above).
    lo, hi = world.bounds
    xs = np.arange(lo[0], hi[0], step)
    zs = np.arange(lo[2], hi[2], step)
    gx, gz = np.meshgrid(xs, zs)
    origins = np.column_stack([gx.ravel(), np.full(gx.size, ceiling), gz.ravel()])
    hits = world.raycast(origins, np.tile([0.0, -1.0, 0.0], (len(origins), 1)))
    heights = np.where(hits.hit, hits.point[:, 1], np.nan).reshape(gx.shape)
    return xs, zs, heights


def draw(world, walk, out, kind="png", frames=(0.22, 0.47, 0.93)):
    """Save the picture: from above, from the side, and three camera frames."""
    from matplotlib.figure import Figure

    from .commands.render3d import cast_views, draw_camera

    feet = walk["feet"]
    fig = Figure(figsize=(15, 10), layout="constrained")
    grid = fig.add_gridspec(2, 3, height_ratios=(1.25, 1))
    top = fig.add_subplot(grid[0, 0])
    side = fig.add_subplot(grid[0, 1:])
    xs, zs, heights = _floor_map(world)
    mesh = top.pcolormesh(xs, zs, heights, cmap="gist_earth", shading="auto")
    fig.colorbar(mesh, ax=top, label="floor height below y = 12 m (m)", shrink=0.8)
    top.plot(feet[:, 0], feet[:, 2], color="tab:red", linewidth=1.5, label="character")
    top.plot(TOUR[:, 0], TOUR[:, 1], "k+", markersize=8, label="waypoints")
    top.set_aspect("equal")
    top.set_xlabel("x (m)")
    top.set_ylabel("z (m)")
    top.set_title("from above", fontsize=10)
    picks = [min(len(feet) - 1, int(f * len(feet))) for f in frames]
    for i, k in enumerate(picks):
        top.annotate(str(i + 1), feet[k, [0, 2]], color="white", fontsize=9, weight="bold",
                     ha="center", va="center",
                     bbox={"boxstyle": "circle", "fc": "tab:red", "ec": "none"})
    top.legend(loc="lower right", fontsize=8)
    along = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(feet, axis=0), axis=1))])
    air = ~walk["on_floor"]
    side.plot(along, feet[:, 1], color="tab:red", linewidth=1.2, label="feet")
    side.plot(along[air], feet[air, 1], "o", color="tab:orange", markersize=3,
              label=f"in the air ({int(air.sum())} frames)")
    steps = walk["stepped"] > 0.0
    side.plot(along[steps], feet[steps, 1], "^", color="tab:green", markersize=3,
              label=f"climbing a step ({int(steps.sum())} frames)")
    for i, k in enumerate(picks):
        side.annotate(str(i + 1), (along[k], feet[k, 1]), color="white", fontsize=9,
                      weight="bold", ha="center", va="center",
                      bbox={"boxstyle": "circle", "fc": "tab:red", "ec": "none"})
    side.set_xlabel("distance walked (m)")
    side.set_ylabel("height of the feet, y (m)")
    side.set_title("from the side: down the winding ramp under the bridge, back, then up "
                   "the long ramp", fontsize=10)
    side.legend(fontsize=8)
    for i, k in enumerate(picks):
        ax = fig.add_subplot(grid[1, i])
        v = walk["velocity"][k] * (1.0, 0.0, 1.0)
        norm = float(np.linalg.norm(v))
        forward = v / norm if norm > 0 else np.array([0.0, 0.0, -1.0])
        forward = forward - (0.0, 0.15, 0.0)
        forward /= np.linalg.norm(forward)
        _, camera = cast_views(world, feet[k] + (0.0, EYE, 0.0), forward, top=False,
                               width=220, height=140, fov=80.0)
        draw_camera(ax, camera)
        ax.set_title(f"{i + 1}: frame {k}, what the character sees", fontsize=9)
    fig.suptitle("sidestep demo --3d: a character (capsule r 0.4 m, 1.8 m) walking the Recast "
                 "dungeon at 4 m/s", fontsize=12)
    fig.savefig(out, format=kind, dpi=90)


def run_character_demo(out="sidestep-demo3d.png", level=None):
    """Walk the tour, print the table and save the picture.

    Parameters
    ----------
    out : str or path-like
        Where to write the picture; the extension picks the format.
    level : path-like, optional
        Another copy of the dungeon mesh (the bundled one by default).

    Returns
    -------
    dict
        The table's figures (:func:`measure`).
    """
    kind = picture_format(out)
    import matplotlib    # noqa: F401  (missing? say so before compiling)
    world = load_dungeon(DUNGEON if level is None else level)
    walk = tour(world)
    row = measure(world, walk)
    print(format_table(row))
    draw(world, walk, out, kind)
    print(f"wrote {out}")
    return row
