"""
How far from everything: ``clearance``
======================================

The signed distance to the nearest surface at every point of a grid (negative inside
an obstacle). Where it is below the agent's radius the agent cannot stand: the white
line is the edge of the walkable area for a radius of 0.4.
"""
import matplotlib.pyplot as plt
import numpy as np

from sidestep import plot, scenes

world, ids = scenes.demo_world()
radius = 0.4
fig, ax = plt.subplots(figsize=(6, 6))
plot.draw_clearance(ax, world, resolution=200, radius=radius)
plot.draw_world(ax, world, color="0.2")
ax.set_aspect("equal")

x0, y0, x1, y1 = world.bounds
xs = np.random.default_rng(0).uniform((x0, y0), (x1, y1), (2000, 2))
clear = world.clearance(xs)
print(f"{(clear >= radius).mean():.0%} of the level's box is walkable for radius {radius}")
assert all(world.clearance(p) == c for p, c in zip(xs[:50], clear[:50]))   # batch = one by one
plt.show()
