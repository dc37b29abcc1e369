"""
Line of sight with ``raycast``
==============================

A guard looks round in 720 directions at once (one batched, parallel call); every ray
stops at the first tree, wall or box it meets. The rays that reach their full length
see open ground.
"""
import matplotlib.pyplot as plt
import numpy as np

import sidestep
from sidestep import plot, scenes

world, ids = scenes.demo_world()
guard = np.array([5.0, -5.0])
angles = np.linspace(0, 2 * np.pi, 720, endpoint=False)
directions = np.column_stack([np.cos(angles), np.sin(angles)])
hits = world.raycast(np.tile(guard, (720, 1)), directions, max_distance=12.0)

ends = guard + directions * np.where(np.isfinite(hits.distance), hits.distance, 12.0)[:, None]
seen = np.isfinite(hits.distance)
print(f"{seen.sum()} of 720 rays hit something; nearest at {hits.distance.min():.2f}")
assert world.clearance(guard) > 0 and np.all(np.abs(world.clearance(ends[seen])) < 1e-6)   # hits lie on surfaces

fig, ax = plt.subplots(figsize=(6, 6))
plot.draw_world(ax, world)
ax.fill(ends[:, 0], ends[:, 1], color="gold", alpha=0.35, label="what the guard sees")
ax.plot(*guard, "o", color="tab:red")
ax.set_aspect("equal")
ax.legend(loc="upper right")
plt.show()
