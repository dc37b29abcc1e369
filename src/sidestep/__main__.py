"""``python -m sidestep``: the same as the ``sidestep`` command."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
