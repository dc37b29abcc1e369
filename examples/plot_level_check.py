"""
Level QA: what ``sidestep check`` finds
=======================================

A small yard with the mistakes levels ship with: a tree planted twice, a spawn point
inside a crate, and a gap between two walls too narrow for the agent. ``check`` (the
function behind ``sidestep check LEVEL --radius R``) lists each with its place.
"""
import matplotlib.pyplot as plt
import numpy as np

import sidestep
from sidestep import plot
from sidestep.commands.check import check
from sidestep.level import Level

world = sidestep.World2D()
world.add_circles([(5, 5), (5, 5)], 1.0)                           # planted twice
world.add_boxes([(0, 0)], [(2, 2)])                                 # a crate...
spawns = np.array([[1.0, 1.0], [6.0, 1.0]])                         # ...with a spawn inside
world.add_walls([(-3, -4), (-0.6, -4)], [(-0.8, -4), (3, -4)])      # 0.2 m between two walls
report = check(Level(world, spawns, name="yard"), radius=0.3)
for finding in report.findings:
    print(f"{finding.kind:14s} at {np.round(finding.position, 2)}: {finding.message}")
kinds = {f.kind for f in report.findings}
assert {"duplicate", "blocked_spawn", "narrow_gap"} <= kinds

fig, ax = plt.subplots(figsize=(6, 5))
plot.draw_world(ax, world, halo=0.3)
ax.plot(spawns[:, 0], spawns[:, 1], "^", color="tab:green", label="spawns")
for finding in report.findings:
    ax.plot(*finding.position, "o", markersize=14, markerfacecolor="none", color="tab:red")
    ax.annotate(finding.kind, finding.position, xytext=(8, 8), textcoords="offset points")
ax.set_aspect("equal")
ax.legend(loc="upper left")
plt.show()
