"""
A 3D character on steps and slopes
==================================

:class:`sidestep.Character` walks at 2 m/s over a floor, up a 0.25 m step, across a
platform and off its far edge, and is stopped by a slope too steep to walk up. Height
of its feet against distance walked, frame by frame.
"""
import math

import matplotlib.pyplot as plt
import numpy as np

import sidestep

level = sidestep.World3D()                                      # y is up
level.add_boxes([(-10, -1, -2)], [(20, 0, 2)])                  # the floor
level.add_boxes([(2, 0, -2)], [(6, 0.25, 2)])                   # a step up onto a platform
rise = math.tan(math.radians(55)) * 4                           # a 55-degree slope: a wall
level.add_panels([[(10, 0, -2), (10, 0, 2), (14, rise, 2), (14, rise, -2)]])
hero = sidestep.Character(level, feet=(0, 0, 0), radius=0.3, height=1.8,
                          max_slope=math.radians(45), step_height=0.3)
feet, stops = [], []
for frame in range(360):                                        # 6 s at 60 frames a second
    stops.append(hero.update((2.0, 0.0, 0.0), 1 / 60))
    feet.append(hero.position.copy())
feet = np.array(feet)
print(f"reached x = {feet[-1, 0]:.2f} m; highest {feet[:, 1].max():.3f} m; "
      f"stops seen: {sorted(set(stops))}")
assert abs(feet[:, 1].max() - 0.25) < 1e-3 and feet[-1, 0] < 10.5    # up the step, not the wall

fig, ax = plt.subplots(figsize=(7, 3))
ax.fill_between([2, 6], 0, 0.25, color="0.7", label="step")
ax.fill([10, 14, 14], [0, rise, 0], color="0.5", label="55-degree slope")
ax.plot(feet[:, 0], feet[:, 1], color="tab:blue", label="feet")
ax.set_xlabel("x (m)")
ax.set_ylabel("height (m)")
ax.set_ylim(-0.2, 2)
ax.set_xlim(-0.5, 14)
ax.legend(loc="upper left")
plt.show()
