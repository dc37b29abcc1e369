"""sidestep plugged into the peer benchmark harness of ``../shared/bench`` (public API only).

Factories with the harness's signatures (see its README):
``make_w1`` (one agent, per-frame ``Agent.step``), ``make_w1_move`` (the same
walk through ``World2D.move`` and its full ``Move`` record), ``make_w2``
(``move_many`` of 10,000 agents, slide), ``make_w3`` (``World3D.raycast`` of a
million rays against a 522,242-triangle terrain mesh) and ``make_w4`` (``nearest``).
"""
import numpy as np

import sidestep


def _w1_world(world):
    w = sidestep.World2D()
    trees = world["trees"]
    w.add_circles(trees[:, :2], trees[:, 2])
    walls = world["walls"]
    w.add_walls(walls[:, :2], walls[:, 2:4])
    return w


def make_w1(world):
    """W1 forest walk: 2,000 trees and 204 walls; one agent, one ``step`` per frame."""
    w = _w1_world(world)
    agent = sidestep.Agent(w, world["start"], radius=float(world["agent_radius"]))
    agent.step(0.0, 0.0)      # loads the compiled kernel: counted as construction
    return agent.step


def make_w1_move(world):
    """W1 forest walk through ``World2D.move``: one call and one full ``Move`` record per frame.

    The first example of docs/tutorials/world2d.md, as a game loop would write it: the position
    the last move returned is the next move's start.
    """
    w = _w1_world(world)
    radius = float(world["agent_radius"])
    position = w.move(world["start"], (0.0, 0.0), radius=radius).position   # loads the kernel

    def step(dx, dy):
        nonlocal position
        position = w.move(position, (dx, dy), radius=radius).position
        return position

    return step


def make_w2(world):
    """W2 crowd step: 10,000 agents take one slide step against 110,000 obstacles."""
    w = sidestep.World2D()
    circles = world["circles"]
    w.add_circles(circles[:, :2], circles[:, 2])
    segments = world["segments"]
    w.add_walls(segments[:, :2], segments[:, 2:4])
    agents = np.ascontiguousarray(world["agents"], dtype=np.float64)
    radius = float(world["agent_radius"])
    w.move_many(agents, np.zeros_like(agents), radius=radius)   # warm-up, zero-length

    def step(disp):
        return w.move_many(agents, disp, radius=radius)

    return step


def make_w3(world):
    """W3 raycast: the terrain as one ``World3D`` mesh; one batched ``raycast`` call."""
    w = sidestep.World3D(up="z")
    w.add_mesh(world["vertices"], world["triangles"])
    w.raycast(np.zeros(3), (0.0, 0.0, -1.0))                   # builds the hierarchy

    def cast(origins, dirs, max_dist):
        return w.raycast(origins, dirs, max_dist).distance

    return cast


def make_w4(world):
    """W4 nearest distance: 1,000,000 points against 10,000 segments."""
    w = sidestep.World2D()
    segments = world["segments"]
    ids = w.add_walls(segments[:, :2], segments[:, 2:4])
    w.nearest(np.zeros((1, 2)))                                   # builds the broadphase

    def nearest(points):
        near = w.nearest(points)
        return ids[near.obstacle], near.distance

    return nearest
