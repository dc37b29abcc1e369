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
    """The README's crowd example, drawn: 300 agents leave a room by its door while a
    player (infinite weight) walks in against them."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    import sidestep

    world = sidestep.World2D()
    world.add_walls([(0, -12), (0, 1.5)], [(0, -1.5), (0, 12)])          # a wall with a door
    rng = np.random.default_rng(1)
    start = np.vstack([rng.uniform((-12, -6), (-2, 6), (300, 2)), [(10.0, 0.0)]])
    crowd = sidestep.Crowd(world, start, radii=np.r_[rng.uniform(0.2, 0.35, 300), 0.4],
                           weights=np.r_[np.ones(300), np.inf])
    goal = np.r_[np.tile((12.0, 0.0), (300, 1)), [(-10.0, 0.0)]]
    tracks = [crowd.positions.copy()]
    for _ in range(500):
        gap = goal - crowd.positions
        done = crowd.step(0.08 * gap / np.maximum(np.linalg.norm(gap, axis=1), 0.08)[:, None])
        tracks.append(done.positions)
    tracks = np.array(tracks)
    fig, ax = plt.subplots(figsize=(9, 6), layout="constrained")
    ax.plot([0, 0], [-12, -1.5], "k", lw=3)
    ax.plot([0, 0], [1.5, 12], "k", lw=3)
    ax.plot(tracks[:, :300, 0], tracks[:, :300, 1], color="tab:blue", lw=0.4, alpha=0.4)
    for (x, y), r in zip(tracks[-1, :300], crowd.radii[:300]):
        ax.add_patch(plt.Circle((x, y), r, color="tab:blue", alpha=0.8))
    ax.plot(tracks[:, 300, 0], tracks[:, 300, 1], color="tab:red", lw=2)
    ax.add_patch(plt.Circle(tracks[-1, 300], 0.4, color="tab:red"))
    ax.set_aspect("equal")
    ax.set_xlim(-13, 13)
    ax.set_ylim(-8, 8)
    ax.set_title("sidestep.Crowd: 300 agents leave by a 3 m door while a player of infinite "
                 "weight (red) walks in against them; 500 steps", fontsize=9)
    fig.savefig(out, dpi=90)


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
