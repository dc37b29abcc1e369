"""The living level (``sidestep play --living``): a door, a lift and a turnstile that move.

Four rooms, 40 m by 24 m, y up. The character starts in the west hall.

- The **swinging door** (a box hinged at the south jamb of the doorway
  between the west and the east hall) swings to and fro through the doorway,
  both ways, and pushes whoever stands in its sweep.
- The **lift** links the east hall with the south room. Seen from above, a
  lift's car is a block that runs along its shaft between two floors: here the
  shaft is a corridor through the thick wall between the two rooms (the two
  floors) and the car a block that fills it. It waits in one room, runs
  through the shaft into the other and waits there, and carries whoever is
  in its way ahead of it out of the shaft.
- The **turnstile** (two crossed bars turning about the middle of the
  doorway into the far-east room) sweeps whoever walks in round to the other
  side; one caught between a bar and the doorway's jamb is squeezed out.
- The **crowd's door** (a gate across the corridor between the west hall and
  the south room) is on :data:`CROWD_DOOR_LAYER`, a layer the crowd's mask
  (:data:`CROWD_MASK`) ignores: the wanderers walk through it, the character
  cannot.

The bodies' poses are functions of the time since the level started
(:meth:`Living.poses`), so a game is the same every time it is played.

>>> stage = living_stage()
>>> stage.name, stage.start.tolist(), len(stage.living.bodies)
('the living level', [5.0, 18.0], 3)
>>> positions, angles = stage.living.poses(0.0)
>>> positions.tolist(), angles.round(4).tolist()      # door, lift, turnstile
([[14.0, 16.0], [22.2, 5.0], [30.0, 18.0]], [1.5708, 0.0, 0.0])
"""
import math
from dataclasses import dataclass

import numpy as np

from .. import World2D, layers
from .stage import Stage, _free_start, _positive, _speed

#: The level's extent (metres): x from 0 to 40, y from 0 to 24.
SIZE = (40.0, 24.0)
#: Half the thickness of the rooms' walls (their clearance, metres).
WALL = 0.15
#: The thick wall between the halls (north) and the south room: y from 6 to 12 m.
BAND = (6.0, 12.0)
#: Where the character starts: the middle of the west hall.
START = (5.0, 18.0)
#: The character's radius (metres) the level is built for: doorways leave room for it.
RADIUS = 0.3

#: The door's hinge (the doorway's south jamb, on the wall x = 14) and its length: it
#: stops 0.1 m short of the north jamb's surface (y = 20.05), too little to slip through.
HINGE = (14.0, 16.0)
DOOR_LENGTH = 3.95
#: Half the door's thickness (metres).
DOOR_HALF = 0.1
#: The door swings this many radians either way of shut (about 77 degrees) ...
DOOR_SWING = 1.35
#: ... once to and fro every this many seconds (its end moves at 8.4 m/s at most).
DOOR_PERIOD = 4.0

#: The lift's shaft: x from 21 to 23.4 m, through the thick wall.
SHAFT = (21.0, 23.4)
#: Half the car's width and length (metres): 0.1 m from either side of the shaft.
CAR_HALF = (1.1, 1.0)
#: The car's centre waits at y = 5 (all of it in the south room) and at y = 13 (in the
#: east hall), so that it leaves the shaft at either end: whoever it carries out of the
#: shaft is left in a room, never pressed against a wall.
CAR_ENDS = (5.0, 13.0)
#: Seconds the car waits at each end and takes to run between them (at 4 m/s at most).
CAR_WAIT = 1.5
CAR_RUN = 3.0

#: The turnstile's centre, in the doorway (y from 15.5 to 20.5) of the wall x = 30.
TURNSTILE = (30.0, 18.0)
#: Half a bar's length: its end passes 0.1 m from the jambs' surfaces (2.35 m away).
BAR_HALF = 2.25
#: Half a bar's thickness (metres).
BAR_THICK_HALF = 0.1
#: Its turning speed (radians per second, counter-clockwise; its ends move at 2.7 m/s).
TURN_RATE = 1.2

#: The crowd's door: a gate across the corridor x from 4 to 6 m through the thick wall.
CROWD_DOOR = ((4.0, 8.8), (6.0, 9.2))
#: The layer of the crowd's door...
CROWD_DOOR_LAYER = 1
#: ... and the crowd's mask: every layer but that one (the character's sees them all).
CROWD_MASK = layers.ALL & ~layers.bits(CROWD_DOOR_LAYER)


@dataclass(frozen=True)
class Living:
    """What moves in a level, and how: its bodies and their poses at each time."""

    #: ``(k,) int64``: the bodies (door, lift, turnstile).
    bodies: np.ndarray
    #: ``(m,) int64``: the obstacles in them (drawn every frame where they are).
    moving: np.ndarray
    #: ``(j,) int64``: the obstacles only the crowd passes (drawn in the crowd's colour).
    crowd_doors: np.ndarray

    def poses(self, seconds):
        """The bodies' poses ``seconds`` after the level started.

        Returns
        -------
        positions : (k, 2) float64
        angles : (k,) float64
            Radians, counter-clockwise.
        """
        t = float(seconds)
        door = math.pi / 2 + DOOR_SWING * math.sin(2 * math.pi * t / DOOR_PERIOD)
        low, high = CAR_ENDS
        car = low + (high - low) * _shuttle(t, CAR_WAIT, CAR_RUN)
        positions = np.array([HINGE, (sum(SHAFT) / 2, car), TURNSTILE])
        return positions, np.array([door, 0.0, TURN_RATE * t])

    def animate(self, world, seconds, dt=1.0):
        """Put the bodies where they are ``seconds`` after the start, ``dt`` seconds after
        their last poses (:meth:`sidestep.World2D.set_poses`)."""
        positions, angles = self.poses(seconds)
        world.set_poses(self.bodies, positions, angles, dt=dt)


def _shuttle(t, wait, run):
    """Where a shuttle is at time ``t``, 0 to 1: it waits at 0 for ``wait`` seconds, runs
    to 1 in ``run`` seconds (smoothstep: it starts and stops gently), waits, runs back.

    >>> [round(_shuttle(t, 1.0, 2.0), 3) for t in (0.5, 2.0, 3.5, 5.0, 6.0)]
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    t = t % (2 * (wait + run))
    if t < wait:
        return 0.0
    if t < wait + run:
        s = (t - wait) / run
        return s * s * (3 - 2 * s)
    return 1.0 - _shuttle(t - wait - run, wait, run)


def living_world():
    """The level's world and its :class:`Living` part (bodies at their poses at time 0)."""
    world = World2D()
    width, height = SIZE
    corners = np.array([(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)])
    starts, ends = [corners], [np.roll(corners, -1, axis=0)]
    # The walls between the halls: x = 14 (the door's doorway, y 16-20, its edges 0.2 m
    # off the hinge and the door's end) and x = 30 (the turnstile's, y 15.5-20.5).
    for a, b in (((14.0, 12.0), (14.0, 15.8)), ((14.0, 20.2), (14.0, height)),
                 ((30.0, 12.0), (30.0, 15.5)), ((30.0, 20.5), (30.0, height))):
        starts.append([a])
        ends.append([b])
    world.add_walls(np.concatenate(starts), np.concatenate(ends), WALL)
    # The thick wall, cut by the crowd's corridor (x 4-6), the shaft and a passage (x 35-37).
    lo, hi = BAND
    cuts = [0.0, 4.0, 6.0, SHAFT[0], SHAFT[1], 35.0, 37.0, width]
    world.add_boxes([(a, lo) for a in cuts[0::2]], [(b, hi) for b in cuts[1::2]])
    gate = world.add_boxes([CROWD_DOOR[0]], [CROWD_DOOR[1]], layer=CROWD_DOOR_LAYER)
    # The bodies, each built in its own frame (its pivot at the origin).
    door = world.add_boxes([(-DOOR_HALF, -DOOR_HALF)], [(DOOR_LENGTH, DOOR_HALF)])
    car = world.add_boxes([(-CAR_HALF[0], -CAR_HALF[1])], [CAR_HALF])
    bars = world.add_boxes([(-BAR_HALF, -BAR_THICK_HALF), (-BAR_THICK_HALF, -BAR_HALF)],
                           [(BAR_HALF, BAR_THICK_HALF), (BAR_THICK_HALF, BAR_HALF)])
    bodies = np.array([world.add_body(ids) for ids in (door, car, bars)], dtype=np.int64)
    living = Living(bodies, np.concatenate([door, car, bars]).astype(np.int64),
                    np.asarray(gate, dtype=np.int64))
    living.animate(world, 0.0)
    return world, living


def living_stage(radius=None, speed=None):
    """The living level as a :class:`~sidestep.play.stage.Stage` (see the module).

    Parameters
    ----------
    radius : float > 0, optional
        The character's radius in metres; :data:`RADIUS` by default.
    speed : float > 0, optional
        Walking speed in metres per second; 15 radii a second by default.

    Returns
    -------
    Stage
    """
    world, living = living_world()
    radius = RADIUS if radius is None else _positive(radius, "radius")
    start = np.array(START)
    if not world.clearance(start) >= radius:
        start = _free_start(world, radius, world.bounds)
    return Stage(world, start, radius, _speed(speed, radius), False, "the living level",
                 living=living, crowd_mask=CROWD_MASK)
