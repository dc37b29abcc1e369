"""Batch walks over many levels: one row per agent, written as Parquet or JSON lines.

``sidestep walk LEVELS... --agents N --steps K --out walks.parquet`` walks N
random walkers per level and radius (:func:`sidestep.commands.walk.walk`:
starts at the level's spawns or at random free points, seeded) and writes a
row per agent (:data:`COLUMNS`): the level, the agent, a summary of its path,
its contacts and why its frames ended. ``move_many`` gives positions, not a
``Move.stop`` per agent, so each frame's stop is read from what the agent
did: ``done`` (it went where it asked), ``slid`` (an obstacle turned or
shortened its step, as a ``slid`` move) or ``blocked`` (it moved less than
a tenth of its step, as a ``blocked`` or ``stuck`` move).

On a 3D level (a ``World3D``) the walkers are those of ``sidestep walk
LEVEL.obj`` (:func:`sidestep.commands.walk3d.walk3d`: spheres, or upright
capsules ``height`` tall, a wandering horizontal step plus a pull of
``gravity`` down, moved with ``World3D.move_many``), from the same starts
with the same seed, so a row's start, end, length walked and least
clearance are that command's for the agent. The rows add ``start_z``,
``end_z`` and ``height`` (None on a 2D level). A frame's stop is read from
the walking (horizontal) part of its move, so the floor holding an agent up
is no contact: ``blocked`` (it moved less than a tenth of its step),
``slid`` (an obstacle turned or shortened its horizontal step) or ``done``.

>>> import sidestep
>>> world = sidestep.World2D()
>>> room = [(0, 0), (6, 0), (6, 4), (0, 4)]
>>> walls = world.add_walls(room, room[1:] + room[:1], one_sided=True)
>>> rows = walk_rows(world, 0.25, WalkSettings(agents=3, steps=40, speed=0.2), name="room")
>>> sorted(rows[0])[:6]
['agent', 'blocked_frames', 'contacts', 'displacement', 'done_frames', 'end_x']
>>> all(r["done_frames"] + r["slid_frames"] + r["blocked_frames"] == 40 for r in rows)
True
"""
import json
import math
import os
import tempfile
from dataclasses import dataclass

import numpy as np

from ..commands.walk import DEFLECTED, free_starts, walk
from ..tolerances import PROMISE

#: Each row's columns, in order: the level and radius; the agent; its path
#: (start, end, length walked, distance from start to end, farthest from
#: the start); ``contacts`` (frames an obstacle changed its move); frames by
#: stop (``done``, ``slid``, ``blocked``) and the last frame's stop; the
#: smallest gap to an obstacle after the start; whether it started
#: overlapping something. ``height``, ``start_z`` and ``end_z`` are None
#: on a 2D level.
COLUMNS = ("level", "radius", "height", "agent", "start_x", "start_y", "start_z", "end_x",
           "end_y", "end_z", "travelled", "displacement", "farthest", "contacts",
           "done_frames", "slid_frames", "blocked_frames", "last_stop", "min_clearance",
           "start_overlap")

@dataclass(frozen=True)
class WalkSettings:
    """How ``sidestep walk`` walks random walkers in a many-level run."""

    #: Agents per level and radius (>= 1).
    agents: int = 10
    #: Frames (>= 1).
    steps: int = 300
    #: Seeds the starts and the random headings.
    seed: int = 0
    #: Step per frame (world units); None: 1/400 of the level's diagonal.
    speed: float | None = None
    #: The move mode.
    mode: str = "slide"
    #: 3D levels: the agents' height (upright capsules above ``2 * radius``);
    #: None: spheres, as ``sidestep walk LEVEL.obj``.
    height: float | None = None
    #: 3D levels: the pull down per frame; None: the speed.
    gravity: float | None = None

    def __post_init__(self):
        for name, least in (("agents", 1), ("steps", 1), ("seed", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
        if self.speed is not None and not (isinstance(self.speed, (int, float))
                                           and math.isfinite(self.speed) and self.speed > 0):
            raise ValueError(f"speed must be a finite number > 0, got {self.speed!r}")
        for name in ("height", "gravity"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float))
                                          and not isinstance(value, bool)
                                          and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


#: Row file formats by extension.
FORMATS = {".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def walk_rows(level, radius, settings, *, name=None):
    """Walk ``settings.agents`` random walkers through ``level``; one dict per agent (:data:`COLUMNS`).

    Parameters
    ----------
    level : Level or World2D
    radius : float >= 0
    settings : WalkSettings
    name : str, optional
        The ``level`` column (default: the level's name).

    Returns
    -------
    tuple of dict
    """
    world = getattr(level, "world", level)
    if not hasattr(world, "segments"):
        return walk_rows3d(level, radius, settings, name=name)
    rng = np.random.default_rng(settings.seed)
    starts = free_starts(world, settings.agents, radius, rng, getattr(level, "spawns", None))
    run = walk(world, starts, steps=settings.steps, speed=settings.speed, radius=radius,
               mode=settings.mode, seed=settings.seed)
    label = name if name is not None else (getattr(level, "name", "") or "level")
    moved = np.diff(run.positions, axis=0)
    stops = np.where(run.stuck, 2, np.where(run.deflected, 1, 0))       # done, slid, blocked
    away = np.hypot(*(run.positions - run.positions[0]).T).T
    travelled = np.hypot(*moved.T).T.sum(axis=0)
    least = run.walked_gaps.min(axis=0)
    overlapping = {o.index for o in run.overlaps}
    rows = []
    for i in range(run.positions.shape[1]):
        start, end = run.positions[0, i], run.positions[-1, i]
        counts = np.bincount(stops[:, i], minlength=3)
        rows.append({
            "level": label, "radius": float(radius), "height": None, "agent": i,
            "start_x": float(start[0]), "start_y": float(start[1]), "start_z": None,
            "end_x": float(end[0]), "end_y": float(end[1]), "end_z": None,
            "travelled": float(travelled[i]),
            "displacement": float(math.hypot(*(end - start))),
            "farthest": float(away[:, i].max()),
            "contacts": int(run.deflected[:, i].sum()),
            "done_frames": int(counts[0]), "slid_frames": int(counts[1]),
            "blocked_frames": int(counts[2]),
            "last_stop": ("done", "slid", "blocked")[stops[-1, i]] if len(stops) else "done",
            "min_clearance": float(least[i]) if np.isfinite(least[i]) else None,
            "start_overlap": i in overlapping,
        })
    return tuple(rows)


def walk_rows3d(level, radius, settings, *, name=None):
    """:func:`walk_rows` on a 3D level: the walkers of ``sidestep walk LEVEL.obj``, one row each.

    >>> import sidestep
    >>> world = sidestep.World3D()
    >>> floor = world.add_boxes([(-5, -1, -5)], [(5, 0, 5)])
    >>> pillar = world.add_boxes([(-1, 0, -1)], [(1, 3, 1)])
    >>> rows = walk_rows3d(world, 0.3, WalkSettings(agents=4, steps=50, height=1.5))
    >>> [r["done_frames"] + r["slid_frames"] + r["blocked_frames"] for r in rows]
    [50, 50, 50, 50]
    >>> all(r["min_clearance"] >= -1e-9 and r["height"] == 1.5 for r in rows)
    True
    """
    from ..commands.walk3d import STUCK as STUCK3D
    from ..commands.walk3d import agent_clearance, free_starts3d, walk3d

    world = getattr(level, "world", level)
    height = float(settings.height or 0.0)
    if settings.height is not None and height <= 2.0 * radius:
        raise ValueError(f"height {height:g} must exceed twice the radius ({radius:g}) for a "
                         "capsule; leave it out for spheres")
    rng = np.random.default_rng(settings.seed)
    starts = free_starts3d(world, settings.agents, radius, height, rng,
                           getattr(level, "spawns", ()))
    run = walk3d(world, starts, steps=settings.steps, speed=settings.speed,
                 gravity=settings.gravity, radius=radius, height=height, mode=settings.mode,
                 seed=settings.seed)
    label = name if name is not None else (getattr(level, "name", "") or "level")
    up = "xyz".index(world.up)
    flat = [i for i in range(3) if i != up]
    p = run.positions
    moved = np.diff(p, axis=0)
    off = np.linalg.norm((moved - run.desired)[:, :, flat], axis=2)
    blocked = np.linalg.norm(moved, axis=2) < STUCK3D * run.speed
    slid = ~blocked & (off > DEFLECTED)
    stops = np.where(blocked, 2, np.where(slid, 1, 0))
    away = np.linalg.norm(p - p[0], axis=2)
    travelled = np.linalg.norm(moved, axis=2).sum(axis=0)
    gaps = run.clearances - radius
    least = gaps[1:].min(axis=0) if len(gaps) > 1 else gaps[0]
    start_gap = agent_clearance(world, p[0], radius, height) - radius
    rows = []
    for i in range(p.shape[1]):
        start, end = p[0, i], p[-1, i]
        counts = np.bincount(stops[:, i], minlength=3)
        rows.append({
            "level": label, "radius": float(radius), "height": height, "agent": i,
            "start_x": float(start[0]), "start_y": float(start[1]), "start_z": float(start[2]),
            "end_x": float(end[0]), "end_y": float(end[1]), "end_z": float(end[2]),
            "travelled": float(travelled[i]),
            "displacement": float(np.linalg.norm(end - start)),
            "farthest": float(away[:, i].max()),
            "contacts": int(counts[1] + counts[2]),
            "done_frames": int(counts[0]), "slid_frames": int(counts[1]),
            "blocked_frames": int(counts[2]),
            "last_stop": ("done", "slid", "blocked")[stops[-1, i]],
            "min_clearance": float(least[i]) if np.isfinite(least[i]) else None,
            "start_overlap": bool(start_gap[i] < -PROMISE),
        })
    return tuple(rows)


def row_format(path):
    """``"parquet"`` or ``"jsonl"`` by ``path``'s extension; ValueError for any other.

    Parquet needs pyarrow (``pip install pyarrow``); without it a ``.parquet``
    path is refused, naming the way out (``.jsonl``).
    """
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    kind = FORMATS.get(suffix)
    if kind is None:
        raise ValueError(f"--out {path}: rows are written as .parquet or .jsonl, not "
                         f"{suffix or 'a file without extension'}")
    if kind == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ValueError(f"--out {path}: Parquet needs pyarrow (pip install pyarrow); "
                             "or write JSON lines (.jsonl)") from None
    return kind


def write_rows(rows, path):
    """Write row dicts to ``path`` (Parquet or JSON lines, by extension), atomically.

    The rows go to a temporary file beside ``path``, renamed over it once
    complete: a failure leaves no half-written file (and an older file whole).
    """
    from .report import file_mode

    kind = row_format(path)
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".sidestep-", suffix=".part")
    try:
        if kind == "jsonl":
            with os.fdopen(handle, "w", encoding="utf-8") as f:
                for row in rows:
                    f.write(json.dumps(row) + "\n")
        else:
            os.close(handle)
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pylist(list(rows), schema=_schema(pa))
            pq.write_table(table, temporary)
        os.chmod(temporary, file_mode())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def read_rows(path):
    """The row dicts of a file :func:`write_rows` wrote."""
    if row_format(path) == "jsonl":
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    import pyarrow.parquet as pq
    return pq.read_table(path).to_pylist()


def _schema(pa):
    """The Parquet schema of :data:`COLUMNS`."""
    kinds = {"level": pa.string(), "last_stop": pa.string(), "start_overlap": pa.bool_(),
             "agent": pa.int64(), "contacts": pa.int64(), "done_frames": pa.int64(),
             "slid_frames": pa.int64(), "blocked_frames": pa.int64()}
    return pa.schema([(c, kinds.get(c, pa.float64())) for c in COLUMNS])
