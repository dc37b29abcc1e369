"""How ``sidestep check --sweep`` over many levels scales: 1 core, 2 cores, Ray on 2 workers.

The work: every Moving AI map of ``../shared/data/grid`` (10 maps, 49x49 to
1491x656 cells) at two agent radii (0.3 and 0.6 cells), the level check and
the reachability sweep with its defaults (8 headings x 200 frames from a
lattice of free starts): 20 tasks, one per level and radius. Each is run,
once, as the command would run it (all kernels cached beforehand):

1. locally on 1 core: the tasks one after the other in this process, each
   capped at one thread (``sidestep check ... --jobs 1 --threads 1``);
2. locally on 2 cores: a pool of 2 spawned worker processes, one thread each
   (``--jobs 2 --threads 1``); the wall time includes starting the pool;
3. through Ray on 2 workers (``ray.init(num_cpus=2)``, ``--ray``): the first
   run includes starting the workers and their imports, the second reuses
   the warm workers.

Every run must give the same findings as the first (checked and printed).
Then a projection of the Ray run on W workers from the per-task times of
run 1: the tasks dealt longest first to the least loaded worker (LPT list
scheduling), plus the fixed cost the 2-worker Ray run showed beyond that
schedule (dispatch, gathering, the driver's merge). The model assumes
independent tasks whose times do not change with W (a core per worker, no
memory-bandwidth contention, levels read from a shared folder at no cost,
warm workers with cached kernels) and a constant overhead; the longest task
bounds the speed-up unless ``--tiles`` cuts the big levels.

Run: ``python benchmarks/distributed_check.py [--data ../shared/data]``.
"""
import argparse
import heapq
import os
import sys
import time
from pathlib import Path

from sidestep.commands.sweep import SweepSettings
from sidestep.distributed import expand, gather_checks, plan_checks, run_local

RADII = (0.3, 0.6)
WORKERS = (1, 2, 4, 8, 16, 32, 64)


def makespan(times, workers):
    """Seconds to run ``times`` on ``workers``: longest first, each to the least loaded worker."""
    loads = [0.0] * workers
    for t in sorted(times, reverse=True):
        heapq.heapreplace(loads, loads[0] + t)
    return max(loads)


def timed(label, command, run):
    start = time.perf_counter()
    results = run()
    wall = time.perf_counter() - start
    print(f"{label:<34} {wall:7.2f} s   ({command})", flush=True)
    return wall, results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared"
                                              / "data"))
    args = parser.parse_args()
    grid = Path(args.data) / "grid"
    if not grid.is_dir():
        sys.exit(f"no {grid}: give --data, the shared level folder")
    levels = expand([grid])
    tasks = plan_checks(levels, RADII, sweep=SweepSettings(), threads=1)
    from sidestep.kernel_cache import COMMANDS, warmup
    warmup(COMMANDS["check"] + COMMANDS["walk"])
    print(f"{len(levels)} grid maps x {len(RADII)} radii = {len(tasks)} tasks "
          f"(check + sweep: 8 headings x 200 frames); {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f}")
    base = f"sidestep check {grid} --radius {' '.join(map(str, RADII))} --sweep"
    one, serial = timed("local, 1 core", f"{base} --jobs 1 --threads 1",
                        lambda: run_local(tasks, 1))
    two, pooled = timed("local, 2 cores (2 processes)", f"{base} --jobs 2 --threads 1",
                        lambda: run_local(tasks, 2))
    import ray

    from sidestep.distributed.ray_backend import run_ray, warm_nodes
    start = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    warm_nodes(("check", "walk"))
    print(f"{'(ray.init + warm_nodes)':<34} {time.perf_counter() - start:7.2f} s")
    cold, on_ray = timed("Ray, 2 workers, first run", f"{base} --ray ADDRESS",
                         lambda: run_ray(tasks))
    warm, again = timed("Ray, 2 workers, warm workers", f"{base} --ray ADDRESS",
                        lambda: run_ray(tasks))
    ray.shutdown()
    reference = gather_checks(serial)
    same = all(gather_checks(r) == reference for r in (pooled, on_ray, again))
    found = sum(len(c.findings) for c in reference.checks)
    print(f"same findings in every run: {'yes' if same else 'NO'} ({found} findings)")
    print(f"speed-up on 2 cores: {one / two:.2f}x locally, {one / cold:.2f}x on Ray "
          f"(first run), {one / warm:.2f}x on Ray (warm workers)")
    times = [r.seconds for r in serial]
    total, longest = sum(times), max(times)
    slowest = serial[times.index(longest)].task
    overhead = max(0.0, warm - makespan(times, 2))
    print(f"\nper-task times (1 core): {total:.2f} s in all, longest {longest:.2f} s "
          f"({Path(slowest.level).name} at radius {slowest.radius:g}), median "
          f"{sorted(times)[len(times) // 2]:.2f} s; fixed Ray cost beyond the 2-worker "
          f"schedule: {overhead:.2f} s")
    print("projected Ray wall time on W workers (LPT schedule of the per-task times + "
          "that fixed cost):")
    print(f"{'W':>4} {'seconds':>8} {'speed-up':>9} {'efficiency':>10}")
    for w in WORKERS:
        t = makespan(times, w) + overhead
        print(f"{w:>4} {t:>8.2f} {total / t:>8.2f}x {total / t / w:>9.0%}")
    print(f"(no W does better than the longest task: {longest + overhead:.2f} s, "
          f"{total / (longest + overhead):.1f}x; --tiles cuts big levels into more tasks)")


if __name__ == "__main__":
    main()
