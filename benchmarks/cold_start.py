"""How long the first runs take on a machine whose Numba cache is empty, and once it is full.

Each round gives Numba an empty cache (a fresh temporary ``NUMBA_CACHE_DIR``,
which replaces the ``__pycache__`` folders beside the sources, so caches
left there by earlier runs play no part) and then runs, one fresh process
each, in this order, as a new user would:

1. ``sidestep demo`` (wall time of the whole command): every kernel the demo
   needs compiles;
2. a script that builds the demo's world, makes one ``move`` and then its
   first ``move_many`` (1,000 agents): the seconds that call takes, so what a
   first ``move_many`` adds once the demo has run;
3. ``sidestep check`` on a small scene with every obstacle family (wall
   time), and the same command again, cached: what a first ``check`` adds;
4. ``sidestep demo`` again (cached start, wall time), and a fresh process
   that imports sidestep and makes a first move, cached;
5. on a second empty cache, ``sidestep warmup`` (wall time), then the demo
   and the ``move_many`` script once more: what is left to compile after it.

The first demo's CPU time (its own and its worker processes') is printed
too: on a shared machine it says more than the wall time about how much
compiling there was.

It also checks that the compile notice reached stderr (captured: not a
terminal) in step 1 and that the cached demo printed no notice.

Run: ``python benchmarks/cold_start.py [--rounds 3]``. Prints the median
(min-max) of each figure over the rounds, each with the machine's load
average (1 minute) just before it was taken, median (min-max): compiling
keeps every core busy, so another busy process slows it, and a figure means
little without its load.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The small level ``check`` reads: a few of each family (one pair of
#: circles overlapping, so it finds something and exits 1).
SCENE = {
    "format": "sidestep-scene", "version": 1, "name": "cold-start",
    "circles": [{"center": [0.0, 1.0], "radius": 1.0}, {"center": [1.0, 0.0], "radius": 1.0},
                {"center": [6.0, 6.0], "radius": 0.5}],
    "walls": [{"start": [-8.0, -8.0], "end": [8.0, -8.0], "clearance": 0.2},
              {"start": [-8.0, -8.0], "end": [-8.0, 8.0]}],
    "boxes": [{"min": [3.0, 2.0], "max": [4.0, 3.0]}],
    "polygons": [{"vertices": [[-4.0, 2.0], [-3.0, 1.5], [-2.5, 3.0], [-3.5, 2.6]]}],
    "grids": [{"cell_size": 0.5, "origin": [4.0, -4.0], "blocked": ["1000", "0100", "0011"]}],
    "spawns": [[0.0, -3.0], [6.0, 6.0]],
}

#: Step 2: the demo's world, one move (cached by the demo), then the timed first move_many.
MOVE_MANY = """
import time, numpy as np
from sidestep import scenes
world, _ = scenes.demo_world()
world.move((12.0, 4.0), (-0.1, 0.0), radius=0.3)
rng = np.random.default_rng(0)
points = rng.uniform(-20, 15, (1000, 2))
steps = rng.uniform(-0.2, 0.2, (1000, 2))
t0 = time.perf_counter()
world.move_many(points, steps, radius=0.3)
print(time.perf_counter() - t0)
"""

#: Step 4: import and a first move, timed inside the process.
FIRST_MOVE = """
import time
t0 = time.perf_counter()
import sidestep
world = sidestep.World2D()
world.add_circles([(0.0, 1.0)], 1.0)
world.move((0.0, -2.0), (0.0, 3.0), radius=0.25)
print(time.perf_counter() - t0)
"""

NOTICE = "sidestep: compiling"
#: CPU seconds (user + system, the command and its worker processes) of each run, in turn.
CPU = []
#: The 1-minute load average just before each run, in turn.
LOAD = []


class Figures(dict):
    """Figures by name; ``loads[name]`` is the load average before the run that gave it."""

    def __init__(self):
        super().__init__()
        self.loads = {}

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.loads[key] = LOAD[-1]


def run(args, env, expect=(0,)):
    """Run ``args``; return ``(wall seconds, stdout, stderr)``."""
    LOAD.append(os.getloadavg()[0])
    t0 = time.perf_counter()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime)
    if done.returncode not in expect:
        sys.exit(f"cold_start.py: {' '.join(map(str, args))} exited {done.returncode}:\n"
                 f"{done.stderr}")
    return wall, done.stdout, done.stderr


def one_round(python, work):
    """Every figure of one round, in seconds, and the notice checks."""
    figures = Figures()
    scene = work / "scene.json"
    scene.write_text(json.dumps(SCENE))
    sidestep = [python, "-m", "sidestep"]
    demo = sidestep + ["demo", "--out", work / "d.png"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        figures["first demo"], _, err = run(demo, env)
        figures["first demo: CPU of all its processes"] = CPU[-1]
        notice_cold = NOTICE in err
        figures["first move_many after the demo"] = float(
            run([python, "-c", MOVE_MANY], env)[1])
        figures["first check after those"], _, _ = run(
            sidestep + ["check", scene, "--radius", "0.3"], env, expect=(0, 1))
        figures["check, cached"], _, _ = run(sidestep + ["check", scene, "--radius", "0.3"],
                                             env, expect=(0, 1))
        figures["demo, cached"], _, err = run(demo, env)
        notice_warm = NOTICE in err
        figures["import + first move, cached"] = float(run([python, "-c", FIRST_MOVE], env)[1])
    has_warmup = subprocess.run(sidestep + ["warmup", "--help"], capture_output=True).returncode
    if has_warmup != 0:     # a version before the warmup command: no such figures
        return figures, notice_cold, notice_warm
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        figures["warmup (empty cache)"], _, _ = run(sidestep + ["warmup"], env)
        figures["demo after warmup"], _, _ = run(demo, env)
        figures["move_many after warmup"] = float(run([python, "-c", MOVE_MANY], env)[1])
    return figures, notice_cold, notice_warm


def spread(values):
    """``median (min-max)`` of ``values``, to two decimals."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    results, loads = {}, {}
    notices = []
    with tempfile.TemporaryDirectory() as work:
        for r in range(args.rounds):
            load = os.getloadavg()[0]
            figures, cold, warm = one_round(args.python, Path(work))
            notices.append((cold, warm))
            print(f"round {r + 1}/{args.rounds} (load before {load:.2f}): "
                  + ", ".join(f"{k} {v:.2f} s (load {figures.loads[k]:.2f})"
                              for k, v in figures.items()), file=sys.stderr)
            for key, value in figures.items():
                results.setdefault(key, []).append(value)
                loads.setdefault(key, []).append(figures.loads[key])
    print(f"cold start, {args.rounds} rounds, each on an empty Numba cache "
          f"(load average now {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)")
    print("| figure | seconds: median (min-max) | load average before: median (min-max) |")
    print("|---|---|---|")
    for key, values in results.items():
        print(f"| {key} | {spread(values)} | {spread(loads[key])} |")
    print(f"compile notice on captured stderr: first demo "
          f"{sum(c for c, _ in notices)}/{len(notices)}, cached demo "
          f"{sum(w for _, w in notices)}/{len(notices)}")


if __name__ == "__main__":
    main()
