"""The ``sidestep`` command (also ``python -m sidestep``): for now, ``sidestep demo``."""
import argparse
import math

from .demo import run_demo


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, without the usage text."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _radius(text):
    """``--radius``: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"radius must be a number, got {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"radius must be a finite number >= 0, got {text}")
    return value


def _parser():
    """The command line: ``sidestep demo [--out FILE] [--radius R]``."""
    parser = _Parser(prog="sidestep", description="Collision detection and collide-and-slide "
                     "for game characters and cameras.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=_Parser)
    demo = commands.add_parser(
        "demo", help="walk an agent through the articles' house in every move mode",
        description="Walk one agent along a scripted route through the wall article's house "
                    "and the radial article's trees in each move mode (slide, push, block, "
                    "ghost), print a table comparing them and save a picture. Needs "
                    "matplotlib (pip install \"sidestep[demo]\").")
    demo.add_argument("--out", default="sidestep-demo.png", metavar="FILE",
                      help="picture to write; the extension picks the format "
                           "(default: %(default)s)")
    demo.add_argument("--radius", type=_radius, default=0.3, metavar="R",
                      help="the agent's radius in metres, >= 0 (default: %(default)s)")
    return parser


def main(argv=None):
    """Run the ``sidestep`` command.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        0 on success. Bad input exits through ``SystemExit`` with status 2 and
        a one-line message on stderr.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        run_demo(out=args.out, radius=args.radius)
    except ImportError as exc:
        parser.error(f"the demo needs matplotlib (pip install \"sidestep[demo]\"): {exc}")
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    return 0
