"""
A crowd through a door
======================

:class:`sidestep.Crowd`: 200 agents collide with each other and with the walls, and a
player of infinite weight walks against them; nobody overlaps anybody.
"""
import matplotlib.pyplot as plt
import numpy as np

import sidestep
from sidestep import plot

world = sidestep.World2D()
world.add_walls([(0, -10), (0, 1.5)], [(0, -1.5), (0, 10)])        # a wall with a 3 m door
rng = np.random.default_rng(1)
start = np.vstack([rng.uniform((-10, -6), (-2, 6), (200, 2)), [(8.0, 0.0)]])
radii = np.r_[rng.uniform(0.2, 0.35, 200), 0.4]
crowd = sidestep.Crowd(world, start, radii, weights=np.r_[np.ones(200), np.inf])
goal = np.r_[np.tile((10.0, 0.0), (200, 1)), [(-8.0, 0.0)]]
for _ in range(300):
    gap = goal - crowd.positions
    crowd.step(0.08 * gap / np.maximum(np.linalg.norm(gap, axis=1), 0.08)[:, None])

p = crowd.positions
d = np.linalg.norm(p[:, None] - p[None], axis=2) + np.eye(len(p)) * 1e9
print(f"{(p[:200, 0] > 0).sum()} of 200 through the door; closest pair "
      f"{(d - radii[:, None] - radii[None]).min():+.1e} m apart")
assert (d - radii[:, None] - radii[None]).min() >= -1e-6               # no overlap

fig, ax = plt.subplots(figsize=(7, 5))
plot.draw_world(ax, world)
for (x, y), r in zip(p[:200], radii[:200]):
    ax.add_patch(plt.Circle((x, y), r, color="tab:blue", alpha=0.6))
ax.add_patch(plt.Circle(p[200], radii[200], color="tab:red"))
ax.set_xlim(-11, 11)
ax.set_ylim(-8, 8)
ax.set_aspect("equal")
plt.show()
