"""
Frustum culling with bounding volumes
=====================================

A camera's view frustum against 20,000 boxes (one batched call, exact where a plane
test is not) and against a :class:`sidestep.World3D` of spheres through its hierarchy;
the picture shows the world from above, coloured by state.
"""
import math

import matplotlib.pyplot as plt
import numpy as np

import sidestep
from sidestep import volumes
from sidestep.plot_query import draw_query
from sidestep.volumes import Box, Containment, Frustum

camera = Frustum.perspective(eye=(0, 2, 0), target=(20, 2, 10), up=(0, 1, 0),
                             fov_y=math.radians(50), aspect=16 / 9, near=0.5, far=30.0)
rng = np.random.default_rng(2)
mins = rng.uniform((-40, 0, -40), (40, 4, 40), (20_000, 3))
states = volumes.contains_boxes(camera, mins, mins + 0.5)
print(dict(zip(["disjoint", "intersects", "contains"], np.bincount(states, minlength=3))))
assert all(states[i] == camera.contains(Box(mins[i], mins[i] + 0.5)) for i in range(0, 20_000, 97))

world = sidestep.World3D()
world.add_spheres(rng.uniform((-40, 0, -40), (40, 4, 40), (600, 3)), 0.8)
seen = world.query(camera)
print(f"{len(seen.obstacle)} of 600 spheres in view, "
      f"{int((seen.state == Containment.CONTAINS).sum())} of them whole")

fig, ax = plt.subplots(figsize=(7, 7))
draw_query(ax, world, camera)
ax.set_title("spheres in view (orange: partly, green: whole)")
plt.show()
