"""Regenerate every picture under ``docs/`` from the command line that makes it.

Run from the project root after a change that shows in a picture::

    python docs/make_pictures.py

Each picture is made by the exact ``sidestep`` command the README quotes next to
it, so a picture never shows what the code no longer does. Pictures of real
levels need the shared data set beside the clone (``../shared/data``); without
it they are left as they are, and the script says so.
"""
import sys
from pathlib import Path

from sidestep import cli

DOCS = Path(__file__).resolve().parent
DATA = DOCS.parents[1] / "shared" / "data"

#: ``(picture, level or None, sidestep arguments)``: the README's commands, with
#: the level path and the output filled in.
PICTURES = (
    ("walk-den520d.png", "grid/dao/den520d.map",
     ["walk", "{level}", "--radius", "0.3", "--agents", "40", "-o", "{out}"]),
    ("demo.png", None, ["demo", "--out", "{out}"]),
    ("demo3d-character.png", None, ["demo", "--3d", "--out", "{out}"]),
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
    return missing


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
