"""
A top-down game on a tile map
=============================

A look-up-table grid (the panel article's 2D map) of 0.5 m tiles and a hero moved each
frame by :class:`sidestep.Agent`, the per-frame API: the input asks for a straight run
at the walls, the hero slides along them and round the corners.
"""
import matplotlib.pyplot as plt
import numpy as np

import sidestep
from sidestep import plot

tiles = np.zeros((16, 24), dtype=bool)
tiles[0, :] = tiles[-1, :] = tiles[:, 0] = tiles[:, -1] = True    # the border
tiles[4:12, 8] = True                                              # a wall of tiles
tiles[8, 14:20] = True
tiles[11:13, 16:18] = True                                         # a block
world = sidestep.World2D()
world.add_grid(tiles, cell_size=0.5)

hero = sidestep.Agent(world, (1.5, 1.5), radius=0.3)
path = [hero.position]
for frame in range(600):                                           # 10 s at 60 frames a second
    heading = 0.6 + 1.4 * np.sin(frame / 90)
    x, y = hero.step(0.06 * np.cos(heading), 0.06 * np.sin(heading))
    path.append((x, y))
path = np.array(path)
print(f"walked {np.linalg.norm(np.diff(path, axis=0), axis=1).sum():.1f} m; last stop {hero.stop!r}")
assert np.all(world.clearance(path) >= 0.3 - 1e-9)                # never inside a tile

fig, ax = plt.subplots(figsize=(7, 5))
plot.draw_world(ax, world, halo=0.3)
plot.draw_path(ax, path, color="tab:blue")
ax.set_aspect("equal")
plt.show()
