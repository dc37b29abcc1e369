"""Regenerate every picture under ``docs/`` from the command line that makes it.

Run from the project root after a change that shows in a picture::

    python docs/make_pictures.py

Each picture is made by the exact ``sidestep`` command the README or the docs
page showing it quotes next to it, so a picture never shows what the code no
longer does. Pictures of real levels need the shared data set beside the clone (``../shared/data``); without
it they are left as they are, and the script says so.
"""
import os
import sys
from pathlib import Path

from sidestep import cli

# ``sidestep play`` draws its screenshots without a window.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

DOCS = Path(__file__).resolve().parent
DATA = DOCS.parents[1] / "shared" / "data"

#: ``(picture, level or None, sidestep arguments)``: the quoted commands, with
#: the level path and the output filled in.
PICTURES = (
    ("walk-den520d.png", "grid/dao/den520d.map",
     ["walk", "{level}", "--radius", "0.3", "--agents", "40", "-o", "{out}"]),
    ("demo.png", None, ["demo", "--out", "{out}"]),
    ("demo3d-character.png", None, ["demo", "--3d", "--out", "{out}"]),
    ("play.png", None,
     ["play", "--debug", "--zoom", "1.5", "--fps", "0", "--script", "left*100 down+left*80",
      "--screenshot", "{out}"]),
    ("play-living.png", None,
     ["play", "--living", "--crowd", "40", "--fps", "0", "--script", "right*130 idle*20",
      "--screenshot", "{out}"]),
    ("play-crowd.png", "grid/dao/arena.map",
     ["play", "{level}", "--crowd", "1000", "--fps", "0", "--script", "idle*200 up*100",
      "--screenshot", "{out}"]),
)


def main():
    """Make every picture; return the number that could not be made."""
    missing = 0
    for name, level, argv in PICTURES:
        out = DOCS / name
        if level is not None and not (DATA / level).is_file():
            print(f"skipped {name}: {DATA / level} is not here", file=sys.stderr)
            missing += 1
            continue
        args = [a.format(level=DATA / level if level else "", out=out) for a in argv]
        print("sidestep " + " ".join(args), file=sys.stderr)
        status = cli.main(args)
        if status not in (0, 1):      # check and walk may report findings with 1
            raise SystemExit(f"sidestep {' '.join(args)} ended with status {status}")
    crowd_picture(DOCS / "crowd.png")
    return missing


def crowd_picture(out):
    """The README's crowd example, drawn: two groups of 200 pass each other through a
    3 m door with avoidance on, at two moments."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    import sidestep

    world = sidestep.World2D()
    world.add_walls([(0, -12), (0, 1.5)], [(0, -1.5), (0, 12)])          # a wall with a door
    grid = np.stack(np.meshgrid(np.arange(-11, -1, 0.8), np.arange(-6, 6.1, 0.8)),
                    -1).reshape(-1, 2)
    rng = np.random.default_rng(3)
    start = np.vstack([grid[rng.choice(len(grid), 200, replace=False)],
                       grid[rng.choice(len(grid), 200, replace=False)] * (-1, 1)])
    goal = start * (-1, 1)
    heading = np.sign(goal[:, 0])
    crowd = sidestep.Crowd(world, start, radii=0.25)
    shown = {}
    for k in range(1, 1201):
        p = crowd.positions
        through = p[:, 0] * heading > 0.25
        gap = np.where(through[:, None], goal, np.c_[heading, np.zeros(400)]) - p
        crowd.step(0.1 * gap / np.maximum(np.linalg.norm(gap, axis=1), 0.1)[:, None],
                   avoid=True)
        if k in (400, 1200):
            shown[k] = crowd.positions.copy()
    fig, axes = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
    for ax, (k, here) in zip(axes, shown.items()):
        ax.plot([0, 0], [-12, -1.5], "k", lw=3)
        ax.plot([0, 0], [1.5, 12], "k", lw=3)
        for (x, y), east in zip(here, heading > 0):
            ax.add_patch(plt.Circle((x, y), 0.25, color="tab:red" if east else "tab:blue",
                                    alpha=0.85))
        across = float(np.mean(here[:, 0] * heading > 0))
        ax.set_aspect("equal")
        ax.set_xlim(-12.5, 12.5)
        ax.set_ylim(-8, 8)
        ax.set_title(f"step {k}: {across:.0%} across", fontsize=9)
    fig.suptitle("sidestep.Crowd, avoid=True: 200 agents heading east (red) and 200 heading "
                 "west (blue) through one 3 m door, never overlapping", fontsize=9)
    fig.savefig(out, dpi=80)


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
