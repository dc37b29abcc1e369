"""The arcade platformer's frame near a moving platform: what moving the platform costs.

sidestep's :class:`~sidestep.adapters.arcade.PhysicsEnginePlatformer` on a seeded
tile level (a floor 400 tiles long, steps and pillars: 1,200 tiles of 32 px) with
three scenes, each timed apart:

* **still**: the player walks on the floor, no platform moves (the floor of the cost);
* **ride**: the player rides a platform 96 x 16 px that moves 2 px a frame along x
  between two boundaries (arcade's ``change_x`` and ``boundary_left``/``right``);
* **lift**: the same platform lifts and lowers the player (``change_y``);
* **turn**: the game turns the platform a degree a frame (``sprite.angle``) while the
  player stands on it;
* **far**: the platform moves 2 px a frame 3,000 px away from the player.

Each scene: a fresh engine, 300 frames of warm-up (JIT compilation and the grown
worlds excluded), then ``--frames`` frames each timed alone
(``time.perf_counter`` round ``engine.update()``); the median and the 90th
percentile in microseconds. Which sidestep runs is whichever ``sidestep`` Python
imports, so the same script times two checkouts::

    PYTHONPATH=src python benchmarks/platform_frame.py
    PYTHONPATH=/path/to/older/checkout/src python benchmarks/platform_frame.py
"""
import argparse
import statistics
import time

import arcade
import numpy as np

from sidestep.adapters.arcade import PhysicsEnginePlatformer

TILE = 32


def level(seed=11):
    """The walls: a floor, a ceiling far above, and seeded steps and pillars (1,200 tiles)."""
    rng = np.random.default_rng(seed)
    walls = arcade.SpriteList()
    cells = {(i, 0) for i in range(-200, 200)}
    while len(cells) < 1200:
        i = int(rng.integers(-200, 200))
        if -12 <= i <= 12:                       # the platforms' stretch stays open
            continue
        for j in range(1, int(rng.integers(2, 6))):
            cells.add((i, j))
    for i, j in sorted(cells):
        walls.append(arcade.SpriteSolidColor(TILE, TILE, center_x=TILE * i, center_y=TILE * j))
    return walls


def scene(name, walls):
    """A player, a platform list and the per-frame hook of the named scene."""
    player = arcade.SpriteSolidColor(24, 30, center_x=0, center_y=120)
    platform = arcade.SpriteSolidColor(96, 16, center_x=0, center_y=80)
    platforms = arcade.SpriteList()
    platforms.append(platform)
    platform.boundary_left, platform.boundary_right = -300, 300
    platform.boundary_bottom, platform.boundary_top = 40, 200
    hook = None
    if name == "ride":
        platform.change_x = 2
    elif name == "lift":
        platform.change_y = 1
    elif name == "turn":
        def hook():
            platform.angle = (platform.angle + 1.0) % 360.0 if platform.angle < 20 else 0.0
    elif name == "far":
        platform.center_x = 3000
        platform.boundary_left, platform.boundary_right = 2700, 3300
        platform.change_x = 2
    engine = PhysicsEnginePlatformer(player, platforms=platforms, walls=walls,
                                     gravity_constant=1.0)
    return player, engine, hook


def frame_times(name, walls, frames, warmup=300):
    player, engine, hook = scene(name, walls)
    times = []
    for k in range(warmup + frames):
        if name == "still":
            player.change_x = 2 if (k // 100) % 2 == 0 else -2
        if hook is not None:
            hook()
        t = time.perf_counter()
        engine.update()
        times.append(time.perf_counter() - t)
    return np.array(times[warmup:]) * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--scenes", default="still,ride,lift,turn,far")
    args = parser.parse_args()
    walls = level()
    print(f"{'scene':8} {'median us':>10} {'p90 us':>10}")
    for name in args.scenes.split(","):
        t = frame_times(name, walls, args.frames)
        print(f"{name:8} {statistics.median(t):10.1f} {np.percentile(t, 90):10.1f}")


if __name__ == "__main__":
    main()
