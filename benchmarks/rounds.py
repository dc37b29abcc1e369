"""One fresh process per library and round, the order rotated: the peer benchmarks' runner.

A benchmark script runs one library in this process when given ``--only NAME`` and
prints one JSON line; :func:`run_rounds` calls the script that way for every library
and round (a pause before each, the order rotated every round, so that neither the
machine's warming nor another process favours one library) and gathers the lines.
"""
import json
import subprocess
import sys
import time


def run_rounds(script, libraries, rounds, pause, extra):
    """``{library: [row, ...]}``: the JSON row of each round of each library.

    ``script`` is run as ``python script --only NAME *extra``; a failing run is reported
    on stderr and left out.
    """
    rows = {name: [] for name in libraries}
    order = list(libraries)
    for r in range(rounds):
        for name in order:
            time.sleep(pause)
            print(f"round {r + 1}/{rounds}: {name}", file=sys.stderr)
            done = subprocess.run([sys.executable, script, "--only", name, *extra],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                print(f"{name} failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                continue
            rows[name].append(json.loads(done.stdout.splitlines()[-1]))
        order = order[1:] + order[:1]
    return rows
