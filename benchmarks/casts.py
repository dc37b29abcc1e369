"""W9 shape casts: a million disc casts in W1's forest, sidestep beside pymunk.

The scene is the peer benchmark's W1 forest (``../shared/bench``: 2,000 trees
and 204 walls in 200 x 200 m, loaded from its saved world; without it, the
W1-style forest of ``forest_walk.py``). The casts are seeded: starts drawn
uniformly in the square and kept where a disc of radius 0.4 m (W1's agent)
is clear of everything by 1 mm (as W1's free points), headings uniform,
lengths uniform in 1-10 m. Each library answers the first contact of each
disc along its motion, no slide:

* sidestep: ``World2D.cast_many`` (one batch, all cores), and ``World2D.cast``
  called once per cast on the first 100,000 (the per-call cost);
* pymunk: ``Space.segment_query_first(a, b, radius, ShapeFilter())`` per cast,
  static circles and radius-0 segments (pymunk's exact fraction, ``alpha``).

Both are warmed up first (sidestep's kernels compiled, pymunk's tree built),
then timed over three rounds; the table prints the median rate and the range.
Exactness: a seeded sample of 1,000 casts is checked against an exact time
of impact in NumPy (disc against every circle and every wall's capsule,
solved in closed form here, independently of sidestep's kernels); the table
prints each library's largest difference in metres along the motion (sidestep
stops a quarter skin, 2.5e-7 m, before the contact on purpose) and hit/miss
disagreements.

Run: ``python benchmarks/casts.py [--casts N] [--rounds R] [--only sidestep|pymunk]``
(pymunk is a ``bench`` extra: ``pip install pymunk``).
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import sidestep
from sidestep.kernels.cast import BACK_OFF

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
RADIUS = 0.4
SEED = 9
SAMPLE = 1000
SINGLE_CASTS = 100_000


def forest_scene():
    """W1's trees (n, 3) [x, y, r] and walls (m, 4) [ax, ay, bx, by], and the scene's name."""
    if (BENCH / "worlds.py").is_file():
        sys.path.insert(0, str(BENCH))
        from worlds import get_w1
        w = get_w1()
        return w["trees"], w["walls"], "W1 forest (../shared/bench)"
    sys.path.insert(0, str(Path(__file__).parent))
    from forest_walk import forest
    trees, walls = forest()
    return trees, walls, "W1-style forest (forest_walk.py; ../shared/bench not found)"


def seeded_casts(world, n, size=200.0):
    """``n`` casts: starts clear of everything by 1 mm, headings uniform, 1-10 m long."""
    rng = np.random.default_rng([SEED, 1])
    starts = np.empty((0, 2))
    while len(starts) < n:
        p = rng.uniform(0.0, size, (max(n, 1024), 2))
        starts = np.vstack([starts, p[world.clearance(p) > RADIUS + 1e-3]])
    starts = starts[:n]
    rng = np.random.default_rng([SEED, 2])
    heading = rng.uniform(0.0, 2.0 * np.pi, n)
    length = rng.uniform(1.0, 10.0, n)
    return starts, length[:, None] * np.column_stack([np.cos(heading), np.sin(heading)])


def exact_fraction(trees, walls, p, d, r):
    """Time of impact of the disc of radius ``r`` moving from ``p`` by ``d``: a fraction
    in [0, 1], or inf for a miss. Every tree is a circle grown by ``r``; every wall a
    capsule of radius ``r`` (its two sides and its two round ends)."""
    def circles(centres, radii):
        # Solve |m + f d|^2 = R^2 for the smaller root f, m = p - c.
        m = p - centres
        a = d @ d
        b = m @ d
        c = np.einsum("ij,ij->i", m, m) - radii ** 2
        disc = b * b - a * c
        f = (-b - np.sqrt(np.maximum(disc, 0.0))) / a
        return np.where((disc >= 0.0) & (b < 0.0) & (f >= 0.0) & (f <= 1.0), f, np.inf)

    best = circles(trees[:, :2], trees[:, 2] + r).min()
    a, b = walls[:, :2], walls[:, 2:]
    e = b - a
    length = np.hypot(e[:, 0], e[:, 1])
    u = e / length[:, None]
    normal = np.column_stack([-u[:, 1], u[:, 0]])
    height = np.einsum("ij,ij->i", p - a, normal)
    rate = normal @ d
    for side in (1.0, -1.0):
        # The side line at height side * r: height + f * rate = side * r.
        with np.errstate(divide="ignore", invalid="ignore"):
            f = (side * r - height) / rate
        along = np.einsum("ij,ij->i", p + f[:, None] * d - a, u)
        ok = (side * height >= r) & (side * rate < 0.0) & (f <= 1.0) & (along >= 0.0) & \
            (along <= length)
        if ok.any():
            best = min(best, f[ok].min())
    best = min(best, circles(a, np.full(len(a), r)).min(), circles(b, np.full(len(b), r)).min())
    return best


def build_pymunk(trees, walls):
    """pymunk's space of the forest and two ways to cast in it, one cast at a time.

    ``first``: ``Space.segment_query_first``, the call made for this. Its broadphase
    tests the bare segment, not the segment grown by the radius (Chipmunk2D
    issue #138, "cpSpatialIndexSegmentQuery() doesn't take a radius param"), so
    a shape whose box the thin segment does not cross is never tested: it
    misses contacts. ``exact``: the workaround, the shapes under the swept
    disc's box (``Space.bb_query``) each tested with ``Shape.segment_query``.
    """
    import pymunk
    space = pymunk.Space()
    body = space.static_body
    shapes = [pymunk.Circle(body, r, (x, y)) for x, y, r in trees.tolist()]
    shapes += [pymunk.Segment(body, (ax, ay), (bx, by), 0.0) for ax, ay, bx, by in walls.tolist()]
    space.add(*shapes)
    every = pymunk.ShapeFilter()

    def first(starts, ends):
        query = space.segment_query_first
        out = []
        for a, b in zip(starts, ends):
            info = query(a, b, RADIUS, every)
            out.append(1.0 if info is None else info.alpha)
        return np.array(out)

    def exact(starts, ends):
        box = pymunk.BB
        near = space.bb_query
        out = []
        for (ax, ay), (bx, by) in zip(starts, ends):
            best = 1.0
            for shape in near(box(min(ax, bx) - RADIUS, min(ay, by) - RADIUS,
                                  max(ax, bx) + RADIUS, max(ay, by) + RADIUS), every):
                info = shape.segment_query((ax, ay), (bx, by), RADIUS)
                if info.shape is not None and info.alpha < best:
                    best = info.alpha
            out.append(best)
        return np.array(out)

    return pymunk.version, first, exact


def timed(call, rounds):
    rates = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        result, count = call()
        rates.append(count / (time.perf_counter() - t0))
    return rates, result


def errors(fraction, hit, want, lengths):
    """(largest difference in metres along the motion over the rows both hit, hit/miss
    disagreements) against the exact fractions ``want`` (inf: a miss)."""
    both = hit & np.isfinite(want)
    worst = float((np.abs(want[both] - fraction[both]) * lengths[both]).max()) \
        if both.any() else 0.0
    return worst, int((hit != np.isfinite(want)).sum())


def run_2d(args):
    """The 2D section: disc casts in W1's forest, a table of rates and exactness."""
    trees, walls, name = forest_scene()
    world = sidestep.World2D()
    world.add_circles(trees[:, :2], trees[:, 2])
    world.add_walls(walls[:, :2], walls[:, 2:4])
    starts, disp = seeded_casts(world, args.casts)
    ends = starts + disp
    lengths = np.hypot(disp[:, 0], disp[:, 1])
    sample = np.random.default_rng([SEED, 3]).choice(args.casts, min(SAMPLE, args.casts),
                                                     replace=False)
    want = np.array([exact_fraction(trees, walls, starts[k], disp[k], RADIUS)
                     for k in sample])
    rows = []
    if args.only in (None, "sidestep"):
        world.cast_many(starts[:1000], disp[:1000], radius=RADIUS)        # compiles
        world.cast(starts[0], disp[0], radius=RADIUS)
        rates, hits = timed(lambda: (world.cast_many(starts, disp, radius=RADIUS), len(starts)),
                            args.rounds)
        worst, wrong = errors(hits.fraction[sample], hits.hit[sample], want, lengths[sample])
        # The time of impact itself, before the back-off along the motion.
        exact_worst, _ = errors(hits.fraction[sample] + BACK_OFF * world.skin / lengths[sample],
                                hits.hit[sample], want, lengths[sample])
        rows.append((f"sidestep {sidestep.__version__} World2D.cast_many "
                     f"({sidestep.threads.thread_count()} threads)", rates, worst, wrong))
        few = min(SINGLE_CASTS, args.casts)
        p_list = [tuple(p) for p in starts[:few].tolist()]
        d_list = [tuple(d) for d in disp[:few].tolist()]

        def one_by_one():
            cast = world.cast
            return [cast(p, d, RADIUS).fraction for p, d in zip(p_list, d_list)], few

        rates_one, fractions = timed(one_by_one, args.rounds)
        assert np.array_equal(np.array(fractions), hits.fraction[:few]), "cast != cast_many"
        rows.append((f"sidestep World2D.cast, one call each (first {few:,})", rates_one,
                     None, None))
    if args.only in (None, "pymunk"):
        try:
            version, first, exact = build_pymunk(trees, walls)
        except ImportError:
            print("pymunk is not installed (pip install pymunk): skipped")
        else:
            a_list = [tuple(p) for p in starts.tolist()]
            b_list = [tuple(p) for p in ends.tolist()]
            for label, call in [("Space.segment_query_first", first),
                                ("Space.bb_query + Shape.segment_query", exact)]:
                call(a_list[:1000], b_list[:1000])                      # warms its tree
                rates, fraction = timed(lambda: (call(a_list, b_list), len(a_list)), args.rounds)
                worst, wrong = errors(fraction[sample], fraction[sample] < 1.0, want,
                                      lengths[sample])
                rows.append((f"pymunk {version} {label}", rates, worst, wrong))
    print(f"W9 disc casts (2D): {name}: {len(trees):,} trees, {len(walls)} walls; "
          f"{args.casts:,} casts, radius {RADIUS} m, 1-10 m long, from free starts; "
          f"median of {args.rounds} rounds after a warm-up")
    print(f"{'':64} {'casts/s':>12} {'(min - max)':>25} {'max error m':>12} {'hit/miss':>9}")
    for label, rates, worst, wrong in rows:
        spread = f"({min(rates):,.0f} - {max(rates):,.0f})"
        exact = "" if worst is None else f"{worst:12.2e} {wrong:9d}"
        print(f"{label:64} {statistics.median(rates):12,.0f} {spread:>25} {exact}")
    rate = {label: statistics.median(rates) for label, rates, _, _ in rows}
    ours = [label for label in rate if label.startswith("sidestep")]
    theirs = [label for label in rate if label.startswith("pymunk")]
    for mine in ours:
        print(f"{mine.split(' (')[0]}: " + ", ".join(
            f"{rate[mine] / rate[peer]:.2f}x {peer.split(' ', 2)[2]}" for peer in theirs))
    print(f"errors: against an exact time of impact (NumPy, closed form) on {len(sample):,} "
          f"seeded casts, in metres along the motion; sidestep stops "
          f"{BACK_OFF * world.skin:.1e} m early by design")
    if args.only in (None, "sidestep"):
        print(f"sidestep's time of impact before that back-off: max error {exact_worst:.2e} m")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--casts", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=["sidestep", "pymunk"])
    args = parser.parse_args()
    # The 3D section (World3D.cast beside its peers) goes beside this one.
    run_2d(args)


if __name__ == "__main__":
    main()
