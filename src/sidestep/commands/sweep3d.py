"""``sidestep check --sweep`` on a 3D level: characters walked from every start, every heading.

The 3D side of :mod:`.sweep`, with its rules and names. The agents are
:class:`sidestep.Character` capsules (radius ``R``, height ``H``, feet on
the floor; they walk up slopes to 45 degrees and steps up to ``H / 6``,
stay on floors going down, fall off edges), one :meth:`Character.update` a
frame at :data:`FRAME` seconds. The starts are the level's spawns (the
feet), or else the floor points of a lattice (:mod:`.floors`, ``spacing``
apart, every floor down each column) where the capsule fits with
:data:`~.sweep.START_ROOM` to spare. From each start one character per
heading walks straight on along it at ``speed`` per frame; held for
:data:`~.sweep.PATIENCE` frames in a row (it moved less than
:data:`~.walk.STUCK` of its step) it turns by about 135 degrees. Reported,
per level and radius:

- ``stuck``: a character held :data:`~.sweep.HOLD` frames in a row at a
  place where its capsule fits: every heading tried, none let it move;
- ``inside``: a character that ended a frame with a surface closer to its
  capsule's axis than its radius by more than 1e-9 (tested exactly, with
  :meth:`World3D.overlapping`): must never happen;
- ``trapped``: a start from which no character got farther (in 3D, feet to
  feet) than ``escape`` (by default the lattice spacing, or a quarter of the
  way a character walks in ``frames`` if that is less).

Defaults follow the agent, not the level's size (a character walks at its
own pace whatever the level): ``speed`` is ``H / 36`` a frame (a 1.8 tall
character at 3 per second), gravity ``9.81 * H / 1.8``. Each character's
walk is its own, so the findings do not depend on how the starts are split
into tiles or tasks.

>>> import sidestep
>>> from sidestep.commands.sweep import SweepSettings
>>> world = sidestep.World3D()
>>> floor = world.add_boxes([(0, -1, 0)], [(12, 0, 12)])
>>> room = world.add_boxes([(1, 0, 1), (1, 0, 3.9), (1, 0, 1.1), (3.9, 0, 1.1), (1, 2, 1)],
...                        [(4, 2, 1.1), (4, 2, 4), (1.1, 2, 3.9), (4, 2, 3.9), (4, 2.1, 4)])
>>> report = sweep3d(world, 0.25, height=1.5, settings=SweepSettings(
...     headings=4, frames=40, speed=0.1, spacing=2.0, escape=2.5))
>>> report.counts(), report.starts               # the start in the closed room is trapped
({'stuck': 0, 'inside': 0, 'trapped': 1}, 37)
>>> report.findings[0].position
(3.0, 0.0, 3.0)
"""
import math

import numpy as np

from .findings import Finding, at
from .floors import Capsule, centre, default_spacing, floors, ground, lattice, stand, touching
from .regions import EVERYWHERE
from .sweep import HOLD, LATTICE, PATIENCE, START_ROOM, SweepPart, SweepSettings, turn_step
from .walk import STUCK

__all__ = ["sweep3d", "sweep3d_part", "settings3d", "starts3d", "FRAME"]

#: Seconds a frame lasts (60 frames a second).
FRAME = 1.0 / 60.0
#: Default step per frame, as a share of the agent's height.
SPEED_PER_HEIGHT = 1.0 / 36.0
#: Gravity per unit of the agent's height (9.81 for a character 1.8 tall).
GRAVITY_PER_HEIGHT = 9.81 / 1.8
#: The default ``escape`` is at most this share of the way walked in all frames.
ESCAPE_SHARE = 0.25


def settings3d(world, agent, settings=None):
    """``settings`` with ``speed``, ``spacing`` and ``escape`` filled in.

    ``speed``: ``H / 36`` a frame; ``spacing``: the longer ground side / 24;
    ``escape``: the spacing, but at most :data:`ESCAPE_SHARE` of the way a
    character walks in ``frames`` (the characters walk at their own pace, so
    on a large level the lattice spacing can be more than they ever walk).
    """
    s = settings or SweepSettings()
    speed = s.speed if s.speed is not None else SPEED_PER_HEIGHT * agent.height
    spacing = s.spacing if s.spacing is not None else default_spacing(world, LATTICE)
    escape = s.escape if s.escape is not None else \
        min(spacing, ESCAPE_SHARE * s.frames * speed)
    return SweepSettings(s.headings, s.frames, float(speed), float(spacing), float(escape))


def starts3d(level, agent, spacing, region=EVERYWHERE):
    """The starts placed in ``region``: ``(feet (n, 3), keys)``.

    The level's spawns (their feet; key ``(0, i, 0)``) where the capsule
    fits (a spawn where it does not is the check's ``blocked_spawn``), or
    else the lattice's floor points where the capsule fits, and with
    :data:`~.sweep.START_ROOM` to spare round it when raised clear of the
    floor (key ``(1, column, layer)``). Keys order the starts as one pass
    would, whatever the region.
    """
    world = getattr(level, "world", level)
    spawns = getattr(level, "spawns", None)
    if spawns is not None and len(spawns):
        feet = np.asarray(spawns, float).reshape(-1, 3)
        mine = [int(i) for i in np.flatnonzero(region.holds(ground(world, feet)))
                if not len(touching(world, centre(world, feet[i], agent.height), agent))]
        return feet[mine].reshape(-1, 3), [(0, i, 0) for i in mine]
    columns = lattice(world, spacing)
    index = np.flatnonzero(region.holds(columns)) if len(columns) else np.zeros(0, np.int64)
    found = floors(world, columns[index], radius=agent.radius, max_slope=agent.max_slope,
                   index=index)
    feet = stand(world, found, agent)
    # Room to spare round the capsule, but not below it: the floor it stands
    # on is as near as its radius, so the wider capsule is raised clear of it.
    raise_by = np.zeros(3)
    raise_by["xyz".index(world.up)] = 2.0 * (START_ROOM - 1.0) * agent.radius
    keep = [k for k in range(len(feet))
            if not len(touching(world, centre(world, feet[k], agent.height), agent))
            and not len(touching(world, centre(world, feet[k], agent.height) + raise_by, agent,
                                 room=START_ROOM))]
    return feet[keep].reshape(-1, 3), [(1, int(found.columns[k]), int(found.layers[k]))
                                       for k in keep]


def sweep3d_part(level, agent, region=EVERYWHERE, settings=None):
    """Walk the characters from the starts placed in ``region`` (of the ground plane).

    Parameters
    ----------
    level : Level or World3D
    agent : Capsule
    region : Region
    settings : SweepSettings, optional

    Returns
    -------
    SweepPart
        With ``height`` the agent's.
    """
    world = getattr(level, "world", level)
    name = getattr(level, "name", "") or "level"
    s = settings3d(world, agent, settings)
    feet, keys = starts3d(level, agent, s.spacing, region)
    listed = _walk(world, agent, feet, keys, s) if len(feet) else []
    return SweepPart(name, agent.radius, len(feet), tuple(listed), s, agent.height)


def sweep3d(level, radius, *, height=None, settings=None):
    """Sweep a whole 3D level: :func:`sweep3d_part` over the ground plane, merged."""
    from .sweep import merge_sweeps

    return merge_sweeps([sweep3d_part(level, Capsule.of(radius, height), settings=settings)])


def _name(key):
    """``"spawn 2"`` or ``"the start in column 14, layer 0"``."""
    return f"spawn {key[1]}" if key[0] == 0 else f"start {key[1]}/{key[2]}"


def _details(key):
    return {"spawn": key[1]} if key[0] == 0 else {"column": key[1], "layer": key[2]}


def _walk(world, agent, feet, keys, s):
    """The findings of the characters from ``feet`` (the starts ``keys``)."""
    from ..character import Character

    up = "xyz".index(world.up)
    a, b = (i for i in range(3) if i != up)
    # Unit headings from Python's scalar cos and sin, so a character's walk
    # is the same bits whichever task walks it.
    units = [(math.cos(2 * math.pi * k / s.headings), math.sin(2 * math.pi * k / s.headings))
             for k in range(s.headings)]
    turn = turn_step(s.headings)
    pace = s.speed / FRAME
    gravity = GRAVITY_PER_HEIGHT * agent.height
    listed = []
    farthest = np.zeros((len(feet), s.headings))
    for n, (start, key) in enumerate(zip(feet, keys)):
        for way in range(s.headings):
            body = Character(world, start, agent.radius, agent.height,
                             max_slope=agent.max_slope, step_height=agent.step_height,
                             gravity=gravity)
            heading, held, far = way, 0, 0.0
            stuck_at = inside_at = -1
            here = start
            for frame in range(1, s.frames + 1):
                velocity = [0.0, 0.0, 0.0]
                velocity[a] = pace * units[heading][0]
                velocity[b] = pace * units[heading][1]
                body.update(tuple(velocity), FRAME)
                there = body.position
                moved = float(np.linalg.norm(there - here))
                held = held + 1 if moved < STUCK * s.speed else 0
                fits = not len(touching(world, centre(world, there, agent.height), agent))
                if inside_at < 0 and not fits:
                    inside_at = frame
                    listed.append(((1, *key, way), Finding(
                        "inside", f"agent from {_name(key)} heading {way} ended frame {frame} "
                        f"inside something at {at(there)}", tuple(map(float, there)),
                        details={**_details(key), "heading": way, "frame": frame})))
                if stuck_at < 0 and held >= HOLD and fits:
                    stuck_at = frame
                    listed.append(((0, *key, way), Finding(
                        "stuck", f"agent from {_name(key)} heading {way} held {HOLD} frames "
                        f"at {at(there)} (frame {frame}): no heading lets it move",
                        tuple(map(float, there)),
                        details={**_details(key), "heading": way, "frame": frame})))
                if held > 0 and held % PATIENCE == 0:
                    heading = (heading + turn) % s.headings
                far = max(far, float(np.linalg.norm(there - start)))
                here = there
            farthest[n, way] = far
    for n, key in enumerate(keys):
        reach = float(farthest[n].max())
        if reach < s.escape:
            listed.append(((2, *key, 0), Finding(
                "trapped", f"{_name(key)} at {at(feet[n])}: no agent got farther than "
                f"{reach:.4g} in {s.headings} headings x {s.frames} frames (escape: "
                f"{s.escape:.4g})", tuple(map(float, feet[n])),
                details={**_details(key), "farthest": reach})))
    return listed
