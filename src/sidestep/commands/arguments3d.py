"""The ``sidestep`` command's 3D side: extra options, and running render, walk and demo on 3D.

:mod:`sidestep.cli` hands a level over here when :func:`sidestep.load` gave
a :class:`~sidestep.World3D` (an OBJ, glTF or GLB file), and ``demo --3d``
comes here too, so the 2D command line stays as it was.
"""
import argparse
import json
import math

from .argument_types import number

#: Random walkers on a 3D level when ``--agents`` does not say.
WANDERERS = 10
#: Frames walked on a 3D level when ``--steps`` does not say.
STEPS = 300


def _vector(text):
    """``--eye``, ``--heading``: ``X,Y,Z``, three finite numbers (``--heading`` also takes a yaw)."""
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y,Z, got {text!r}") from None
    if len(values) not in (1, 3) or not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(f"expected finite X,Y,Z, got {text!r}")
    return values[0] if len(values) == 1 else tuple(values)


def _point3(text):
    value = _vector(text)
    if not isinstance(value, tuple):
        raise argparse.ArgumentTypeError(f"expected a point X,Y,Z, got {text!r}")
    return value


_positive_number = number()     # a finite number > 0


def _pixels(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= value <= 4096:
        raise argparse.ArgumentTypeError(f"expected 1..4096 pixels, got {text}")
    return value


def render(command):
    """Add ``render``'s 3D options to its parser."""
    from .render3d import FOV, HEIGHT, VIEWS, WIDTH

    group = command.add_argument_group("3D levels (OBJ, glTF, GLB)")
    group.add_argument("--eye", type=_point3, metavar="X,Y,Z",
                       help="the camera's position (write --eye=-3,1,2 when X is negative; "
                            "default: the first spawn, or overlooking the level)")
    group.add_argument("--heading", type=_vector, metavar="DEG|X,Y,Z",
                       help="where the camera looks: a yaw in degrees in the ground plane, or "
                            "a direction (default: towards the level's centre)")
    group.add_argument("--view", choices=VIEWS, default="both",
                       help="top view, camera view or both (default: %(default)s)")
    group.add_argument("--fov", type=_positive_number, default=FOV, metavar="DEG",
                       help="the camera's horizontal field of view (default: %(default)s)")
    group.add_argument("--size", type=_pixels, nargs=2, default=(WIDTH, HEIGHT),
                       metavar=("W", "H"), help="camera image in pixels (default: %(default)s)")


def walk(command):
    """Add ``walk``'s 3D options to its parser."""
    group = command.add_argument_group("3D levels (OBJ, glTF, GLB)")
    group.add_argument("--height", type=_positive_number, metavar="H",
                       help="agents are upright capsules H tall (H > 2 x radius); spheres "
                            "without it")
    group.add_argument("--gravity", type=float, metavar="G",
                       help="pull down along up per frame (default: the speed)")


def is_3d(level):
    """Whether ``level`` holds a :class:`~sidestep.World3D`."""
    from ..world3d import World3D

    return isinstance(getattr(level, "world", level), World3D)


def run_render(args, level):
    """``sidestep render`` of a 3D level."""
    from .render3d import render3d

    width, height = args.size
    render3d(level, args.out, eye=args.eye, heading=args.heading, view=args.view,
             width=width, height=height, fov=args.fov)
    print(f"wrote {args.out}")
    return 0


def run_walk(args, level, progress, wrote):
    """``sidestep walk`` on a 3D level: random walkers under gravity (see :mod:`.walk3d`)."""
    import numpy as np

    from .walk3d import draw_walk3d, format_table, free_starts3d, walk3d

    for flag, value in (("--start/--to", args.start or args.to), ("--scen", args.scen),
                        ("--gif", args.gif)):
        if value:
            raise ValueError(f"{flag} walks 2D levels; a 3D level takes --agents random walkers")
    height = args.height or 0.0
    if args.height is not None and height <= 2.0 * args.radius:
        raise ValueError(f"--height {height} must exceed twice the radius ({args.radius}) "
                         "for a capsule; leave it out for spheres")
    if args.gravity is not None and not (math.isfinite(args.gravity) and args.gravity >= 0):
        raise ValueError(f"--gravity must be a finite number >= 0, got {args.gravity}")
    rng = np.random.default_rng(args.seed)
    starts = free_starts3d(level.world, args.agents or WANDERERS, args.radius, height, rng,
                           level.spawns)
    with progress("walk") as bar:
        run = walk3d(level.world, starts, steps=args.steps or STEPS, speed=args.speed,
                     gravity=args.gravity, radius=args.radius, height=height, mode=args.mode,
                     seed=args.seed, progress=bar, crowd=args.crowd)
    if args.out:
        draw_walk3d(level, run, args.out)
        wrote(args.out)
    if args.json:
        print(json.dumps({"level": level.name, "summary": run.summary(),
                          "agents": run.agents()}))
    else:
        print(format_table(run))
    return 0


def run_demo(args):
    """``sidestep demo --3d``: the character in the dungeon (:mod:`sidestep.demo_character`).

    With ``--corridor``, the panel article's corridor in every move mode
    (:mod:`sidestep.demo3d`).
    """
    out = args.out if args.out != "sidestep-demo.png" else "sidestep-demo3d.png"
    if args.corridor:
        from ..demo3d import run_demo3d
        run_demo3d(out=out, radius=args.radius)
    else:
        from ..demo_character import run_character_demo
        run_character_demo(out=out)
    return 0
