"""Seeded test worlds, one per obstacle family and one with all of them mixed."""
import numpy as np

import sidestep

FAMILIES = ("circle", "wall", "box", "polygon", "grid")


def star_polygon(rng, center, n, r_min, r_max):
    """A simple (star-shaped, often concave) polygon around ``center``."""
    # One vertex per equal sector, jittered inside it: consecutive angles differ
    # by less than pi, so every edge stays in its own wedge around the centre.
    ang = 2 * np.pi * (np.arange(n) + rng.uniform(0.0, 0.8, n)) / n
    rad = rng.uniform(r_min, r_max, n)
    return center + np.column_stack([rad * np.cos(ang), rad * np.sin(ang)])


def add_family(world, family, rng, size=20.0, count=20):
    """Add ``count`` random obstacles of ``family`` inside ``[0, size]^2``."""
    if family == "circle":
        world.add_circles(rng.uniform(0, size, (count, 2)), rng.uniform(0.1, 1.5, count))
    elif family == "wall":
        a = rng.uniform(0, size, (count, 2))
        world.add_walls(a, a + rng.normal(0, 3, (count, 2)), rng.uniform(0.0, 0.5, count))
    elif family == "box":
        lo = rng.uniform(0, size, (count, 2))
        world.add_boxes(lo, lo + rng.uniform(0.2, 3.0, (count, 2)))
    elif family == "polygon":
        for _ in range(max(1, count // 3)):
            world.add_polygon(star_polygon(rng, rng.uniform(0, size, 2),
                                           int(rng.integers(3, 9)), 0.5, 3.0))
    elif family == "grid":
        n = max(4, int(size))
        world.add_grid(rng.random((n, n)) < 0.2, cell_size=size / n,
                       origin=tuple(rng.uniform(-1, 1, 2)))
    else:
        raise ValueError(family)


def make_world(families, seed, size=20.0, count=20):
    """A world holding random obstacles of each family in ``families``."""
    rng = np.random.default_rng(seed)
    world = sidestep.World2D()
    for family in families:
        add_family(world, family, rng, size, count)
    return world
