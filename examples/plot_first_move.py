"""
First world, first move
=======================

Three trees, a wall and a crate; an agent of radius 0.25 asked to walk straight through
the wall slides along it instead, and stops where the crate stands in its way.
"""
import matplotlib.pyplot as plt

import sidestep
from sidestep import plot

world = sidestep.World2D()
world.add_circles([(0, 1), (1.5, -0.5), (-1.5, 0)], 0.6)            # trees
world.add_walls([(-4, -2.5)], [(4, -2.5)], clearance=0.2)           # a wall with a collision distance
world.add_boxes([(2.5, -2.3)], [(3.5, -1.3)])                        # a crate

start, wish = (-3.0, -0.5), (6.0, -4.0)
move = world.move(start, wish, radius=0.25)
print(move.stop, move.position, [c.obstacle for c in move.contacts])
assert world.clearance(move.position) >= 0.25 - 1e-9                # never inside

fig, ax = plt.subplots(figsize=(6, 4))
plot.draw_world(ax, world, halo=0.25)                                # obstacles grown by the radius
ax.annotate("", xy=(start[0] + wish[0], start[1] + wish[1]), xytext=start,
            arrowprops=dict(arrowstyle="->", color="0.6", linestyle="--"))
plot.draw_path(ax, [start, move.position], color="tab:blue", label="where it went")
plot.draw_contacts(ax, [c.point for c in move.contacts], color="tab:red", label="contacts")
ax.set_aspect("equal")
ax.legend(loc="upper right")
ax.set_title(f"asked for the dashed arrow: {move.stop}")
plt.show()
