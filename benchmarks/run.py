"""sidestep against its peers, measured side by side in one run, and its own scale figures.

Runs the peer benchmark harness of ``../shared/bench`` (W1 forest walk, W2
crowd step, W4 nearest distance, and on request W3 rays against a terrain;
see its README) with sidestep plugged in
through ``sidestep_plugin.py`` (W1 twice: through ``Agent.step`` and through
``World2D.move``), using the harness's protocol: one fresh process per library
and round, a pause before each, the order rotated every round.
Then the scale, memory and start-up figures. Prints one table.

Run (a Python that has the peers: ``pip install -e ".[bench]"``)::

    python benchmarks/run.py [--rounds 5] [--pause 3] [--bench ../shared/bench]
                             [--workloads w1 w2 w4] [--no-scale]

Needs ``../shared/bench``; the peers that are not installed are skipped. W3
compares every library with open3d's hits, which the harness caches in its
``results/`` folder: with a read-only ``../shared``, copy the harness
somewhere writable and pass ``--bench`` (``cp -r ../shared/bench /tmp/bench``)::

    python benchmarks/run.py --workloads w3 --rounds 3 --no-scale --bench /tmp/bench
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: workload script -> (sidestep's entries: label -> plugin factory; peers to run beside
#: them; the peer the targets compare with)
WORKLOADS = {
    "w1_forest_walk.py": ({"sidestep Agent.step": "sidestep_plugin:make_w1",
                           "sidestep World2D.move": "sidestep_plugin:make_w1_move"},
                          ["pymunk-default", "panda3d-pusher", "pure-python-reference"],
                          "pymunk-default"),
    "w2_crowd_step.py": ({"sidestep": "sidestep_plugin:make_w2:resolve"},
                         ["pymunk", "python-fcl", "shapely-strtree"], "pymunk"),
    "w4_nearest.py": ({"sidestep": "sidestep_plugin:make_w4"},
                      ["shapely-strtree", "pymunk-point-query"], "shapely-strtree"),
    "w3_raycast.py": ({"sidestep": "sidestep_plugin:make_w3"},
                      ["embreex-direct", "open3d-1thread", "open3d-2threads", "pybullet-1thread",
                       "pybullet-2threads"], "embreex-direct"),
}
#: (workload script, sidestep entry) -> the target ratio against the workload's peer
TARGETS = {("w1_forest_walk.py", "sidestep Agent.step"): 2.0,
           ("w1_forest_walk.py", "sidestep World2D.move"): 1.0,
           ("w2_crowd_step.py", "sidestep"): 20.0, ("w4_nearest.py", "sidestep"): 10.0,
           ("w3_raycast.py", "sidestep"): 0.5}
#: Further peers a sidestep entry is compared with, and the target against each:
#: W3's rays on two threads against pybullet's on two.
MORE_TARGETS = {("w3_raycast.py", "sidestep"): {"pybullet-2threads": 5.0}}

STARTUP = """
import time
t0 = time.perf_counter()
import sidestep
world = sidestep.World2D()
world.add_circles([(0.0, 1.0)], 1.0)
world.move((0.0, -2.0), (0.0, 3.0), radius=0.25)
print(time.perf_counter() - t0)
"""


def run_one(python, bench, script, library, plugin):
    """One fresh process: a sidestep ``plugin`` (a factory) or, if None, one built-in peer."""
    args = [python, script, "--reps", "1"]
    args += ["--only", "none", "--plugin", plugin] if plugin else ["--only", library]
    env = dict(os.environ, PYTHONPATH=f"{HERE}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    done = subprocess.run(args, cwd=bench, env=env, capture_output=True, text=True)
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    print(f"  {script} {library}: no result ({done.stderr.strip().splitlines()[-1:]})",
          file=sys.stderr)
    return None


def installed_peers(python, bench, script):
    done = subprocess.run([python, script, "--list"], cwd=bench, capture_output=True, text=True)
    return set(done.stdout.split())


def correctness(workload, c):
    if c is None:
        return ""
    if "pen_frames_gt_1e6" in c:
        return (f"{c['pen_frames_gt_1e6']} penetrating frames (max {c['max_pen_m']:.3g} m); "
                f"{c['travelled_m']:,.0f} m of {c['desired_m']:,.0f}")
    if "pen_agents_gt_1e6" in c:
        return f"{c['pen_agents_gt_1e6']} agents penetrating (max {c['max_pen_m']:.3g} m)"
    if "false_neg" in c:
        return f"detection only: {c['false_neg']} missed, {c['false_pos']} false"
    if "hit_miss_disagree" in c:
        diff = c["max_abs_diff_m"]
        return (f"{c['hits']:,} hits; {c['hit_miss_disagree']} hit/miss disagreements with "
                f"{c['vs']}; max difference {diff:.2g} m" if diff is not None else
                f"{c['hits']:,} hits")
    if "max_abs_dist_err" in c:
        return (f"{c['checked']:,} of {c['queries']:,} checked: max error "
                f"{c['max_abs_dist_err']:.2g} m, {c['index_mismatch']} index mismatches")
    return json.dumps(c)[:80]


def startup(python):
    """Seconds to import sidestep and make a first move: (uncached, cached)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = [float(subprocess.run([python, "-c", STARTUP], env=env, capture_output=True,
                                     text=True, check=True).stdout) for _ in range(3)]
    return runs[0], statistics.median(runs[1:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pause", type=float, default=3.0)
    ap.add_argument("--bench", type=Path, default=HERE.parents[1] / "shared" / "bench")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--workloads", nargs="+", choices=["w1", "w2", "w3", "w4"],
                    default=["w1", "w2", "w4"],
                    help="which workloads to run (default w1 w2 w4; w3 needs open3d, "
                         "embreex and pybullet, and a --bench folder it can write its "
                         "reference hits to)")
    ap.add_argument("--no-scale", action="store_true",
                    help="skip the start-up and scale figures")
    args = ap.parse_args()
    if not (args.bench / "w1_forest_walk.py").is_file():
        sys.exit(f"run.py: no peer benchmark at {args.bench} (pass --bench)")
    workloads = {script: spec for script, spec in WORKLOADS.items()
                 if script[:2] in args.workloads}
    jobs = []
    for script, (plugins, peers, _) in workloads.items():
        have = installed_peers(args.python, args.bench, script)
        jobs.append((script, plugins, list(plugins) + [p for p in peers if p in have]))
    results = {}
    for r in range(args.rounds):
        for script, plugins, libraries in jobs:
            for i in range(len(libraries)):
                library = libraries[(i + r) % len(libraries)]
                print(f"round {r + 1}/{args.rounds}: {script} {library}", file=sys.stderr)
                time.sleep(args.pause)
                rec = run_one(args.python, args.bench, script, library, plugins.get(library))
                if rec:
                    results.setdefault((script, library), []).append(rec)
    print(f"| workload | library | rate: median (min-max), n={args.rounds} | correctness | "
          f"vs peer |")
    print("|---|---|---|---|---|")
    for script, (plugins, peers, key) in workloads.items():
        for library in list(plugins) + peers:
            recs = results.get((script, library))
            if not recs:
                continue
            rates = [x["median"] for x in recs]
            med = statistics.median(rates)
            ratios = []
            if library in plugins:
                against = {key: TARGETS[script, library],
                           **MORE_TARGETS.get((script, library), {})}
                for peer, goal in against.items():
                    peer_rates = [x["median"] for x in results.get((script, peer), [])]
                    if peer_rates:
                        ratios.append(f"{med / statistics.median(peer_rates):.2f}x {peer} "
                                      f"(target {goal:g}x)")
            print(f"| {recs[0]['workload']} | {library} | {med:,.0f} {recs[0]['metric']} "
                  f"({min(rates):,.0f}-{max(rates):,.0f}) | "
                  f"{correctness(script, recs[-1].get('correctness'))} | {'; '.join(ratios)} |")
    if args.no_scale:
        return
    first, cached = startup(args.python)
    print(f"\nstart-up, import + first move in a fresh process: {first:.2f} s uncached, "
          f"{cached:.2f} s cached")
    print("scale (python benchmarks/scale.py):", file=sys.stderr)
    scale = subprocess.run([args.python, str(HERE / "scale.py"), "--repeats", "3"],
                           capture_output=True, text=True, check=True)
    print(scale.stdout)


if __name__ == "__main__":
    main()
