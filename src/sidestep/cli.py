"""The ``sidestep`` command (also ``python -m sidestep``): demo, render, walk, play, check, warmup.

``sidestep demo`` walks the articles' house in every mode; ``render`` draws a
level, ``walk`` walks agents through it, ``play`` is a game in it (pygame-ce,
:mod:`sidestep.play`), ``check`` lists what a level
designer should fix (exit status 1 when it finds anything); ``warmup``
compiles every kernel into Numba's cache ahead of time. A command whose
kernels are not cached yet first compiles them, on all cores, with a
one-line notice on stderr (:mod:`sidestep.kernel_cache`). Levels are read
with :func:`sidestep.io.load`. Bad input (a missing file, a malformed level,
a bad number) ends the command with status 2 and one line on stderr, never a
traceback. Long runs draw a progress bar on stderr when it is a terminal.
"""
import argparse
import json
import math
import sys
from pathlib import Path

from . import __version__
from .commands.argument_types import number, whole
from .commands import arguments3d
from .distributed import commands as many
from .demo import run_demo
from .world import MODES

#: Level files whose y axis points down (tile maps, Tiled maps, images, navigation
#: meshes made from tile maps):
#: pictures of them are drawn that way unless ``--y-up`` says otherwise.
Y_DOWN_SUFFIXES = (".map", ".tmx", ".tmj", ".png", ".bmp", ".gif", ".mesh")
#: Scenario agents walked at most when ``--agents`` does not say, spread
#: evenly over the scenario list (its rows run from short to long).
SCENARIO_AGENTS = 100
#: Random walkers when nothing says how many.
WANDERERS = 10


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, without the usage text."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


_radius = number("radius", inclusive=True)     # --radius: a finite number >= 0
_speed = number("speed")                        # --speed: a finite number > 0
_count = whole(1)   # --agents, --steps
_limit = whole(0)   # --limit (0 prints the summary line alone)


def _point(text):
    """``--start``, ``--to``: ``X,Y``, two finite numbers."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a point X,Y, got {text!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise argparse.ArgumentTypeError(f"expected a finite point X,Y, got {text!r}")
    return (x, y)


def _wedge(text):
    """``--wedge``: ``X,Y,HEADING,FOV,NEAR,FAR``, a 2D view wedge (angles in degrees)."""
    from .volumes import Frustum

    try:
        x, y, heading, fov, near, far = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a wedge X,Y,HEADING,FOV,NEAR,FAR (degrees), got {text!r}") from None
    h = math.radians(heading)
    try:
        return Frustum.wedge((x, y), (math.cos(h), math.sin(h)), math.radians(fov), near, far)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"bad wedge {text!r}: {exc}") from None


def _option(text):
    """``--load KEY=VALUE``: a loader option; numbers are read as numbers."""
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def _level_arguments(command, many=False):
    """The arguments every level command takes: the file (or files) and how to read it."""
    what = ("level file: a sidestep scene (.json, .toml), Moving AI map (.map), Tiled map "
            "(.tmx, .tmj, .json), image, Doom WAD, Polyanya navigation mesh (.mesh), or a 3D "
            "level (.obj, .glb, .gltf, a 3D scene .json)")
    if many:
        command.add_argument("levels", metavar="LEVEL", nargs="+",
                             help=what + "; or several, folders (searched for levels) and "
                                  "globs ('maps/**/*.map'), each checked as its own task")
    else:
        command.add_argument("level", metavar="LEVEL", help=what)
    command.add_argument("--map", metavar="NAME",
                         help="which map of a Doom WAD (E1M1, MAP01...); the first by default")
    command.add_argument("--load", type=_option, action="append", default=[],
                         metavar="KEY=VALUE",
                         help="an option for the level's reader (repeatable), e.g. "
                              "threshold=100 for an image")


def _orientation_arguments(command):
    """``--y-down`` / ``--y-up`` for commands that draw."""
    way = command.add_mutually_exclusive_group()
    way.add_argument("--y-down", dest="y_down", action="store_true", default=None,
                     help="draw y growing downwards (the default for .map, Tiled and image "
                          "levels, whose rows count down)")
    way.add_argument("--y-up", dest="y_down", action="store_false",
                     help="draw y growing upwards (the default for scenes and WADs)")


def _size(text):
    """``--size``: ``WIDTHxHEIGHT`` in pixels, each >= 64."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if width < 64 or height < 64:
        raise argparse.ArgumentTypeError(f"a window at least 64x64, got {text!r}")
    return (width, height)


def _zoom(text):
    """``--zoom``: a number between 1/16 and 16."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"zoom must be a number, got {text!r}") from None
    if not 1 / 16 <= value <= 16:
        raise argparse.ArgumentTypeError(f"zoom must be between 0.0625 and 16, got {text}")
    return value


def _play_arguments(commands):
    """``sidestep play [LEVEL]``: the game's options."""
    play = commands.add_parser(
        "play", help="a top-down game: walk a character through a level (pygame-ce)",
        description="A top-down game: arrow keys or WASD move a character (a disc moved by "
                    "sidestep.Agent) that slides round everything, Shift runs; keys 1-4 switch "
                    "slide/push/block/ghost; G (or F1) draws the collision geometry and the "
                    "halos; +/- (or the mouse wheel) zoom; Esc quits. Without a level, the "
                    "articles' house and trees; with --living, a level whose door, lift and "
                    "turnstile move and push everyone. Needs pygame-ce "
                    "(pip install \"sidestep[play]\"); runs without a window with "
                    "SDL_VIDEODRIVER=dummy. Prints the median frame times when it ends.")
    play.add_argument("level", metavar="LEVEL", nargs="?",
                      help="level file, as for render (default: the articles' house)")
    play.add_argument("--map", metavar="NAME",
                      help="which map of a Doom WAD (E1M1, MAP01...); the first by default")
    play.add_argument("--load", type=_option, action="append", default=[],
                      metavar="KEY=VALUE", help="an option for the level's reader (repeatable)")
    play.add_argument("--living", action="store_true",
                      help="play the living level instead: a door swinging to and fro through "
                           "a doorway, a lift (a car running along its shaft between two "
                           "rooms), a turnstile, all pushing the character and the crowd, and "
                           "a door only the crowd passes (its layer is not in the crowd's mask)")
    play.add_argument("--radius", type=number("radius"), metavar="R",
                      help="the character's radius, > 0 (default: 0.3 in the house, 0.3 of a "
                           "cell on a tile map, else 1/300 of the level's diagonal)")
    play.add_argument("--speed", type=_speed, metavar="S",
                      help="walking speed in world units per second (default: 15 radii)")
    play.add_argument("--mode", choices=MODES, default="slide",
                      help="the first move mode (default: %(default)s)")
    play.add_argument("--crowd", type=_limit, default=0, metavar="N",
                      help="N agents wander around the character, moved by sidestep.Crowd")
    play.add_argument("--seed", type=int, default=0, help="seeds the crowd")
    play.add_argument("--debug", action="store_true",
                      help="start with the debug drawing on (G switches it)")
    play.add_argument("--zoom", type=_zoom, default=1.0, metavar="Z",
                      help="the camera's first zoom factor (default: %(default)s)")
    play.add_argument("--size", type=_size, default=(1024, 704), metavar="WxH",
                      help="window size in pixels (default: 1024x704)")
    play.add_argument("--fps", type=_limit, default=60, metavar="N",
                      help="frames per second at most, 0: as fast as it can "
                           "(default: %(default)s)")
    play.add_argument("--frames", type=_count, metavar="N", help="quit after N frames")
    play.add_argument("--script", metavar="KEYS",
                      help="key presses to play, e.g. 'right*120 up+right*60 g 4 left*90': "
                           "keys joined by +, held *N frames, idle*N for none; quits at the "
                           "end unless --frames says")
    play.add_argument("--screenshot", metavar="FILE",
                      help="save the last frame (.png, .jpg, .bmp, .tga)")
    _orientation_arguments(play)


def _parser():
    """The command line: ``sidestep demo|render|walk|play|check|warmup ...``."""
    parser = _Parser(prog="sidestep", description="Collision detection and collide-and-slide "
                     "for game characters and cameras.")
    parser.add_argument("--version", action="version", version=f"sidestep {__version__}")
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
    demo.add_argument("--3d", dest="three_d", action="store_true",
                      help="3D instead: a first-person character walks the Recast dungeon "
                           "(floors, ramps, a bridge; picture: sidestep-demo3d.png unless "
                           "--out says)")
    demo.add_argument("--corridor", action="store_true",
                      help="with --3d: walk the panel article's corridor in every move mode "
                           "instead (an agent of --radius)")

    render = commands.add_parser(
        "render", help="draw a level as the world sees it",
        description="Draw a level's obstacles, wall bands, blocked grid cells and spawn points "
                    "over its clearance field; with --radius, shade where an agent of that "
                    "radius cannot stand. Needs matplotlib.")
    _level_arguments(render)
    render.add_argument("-o", "--out", required=True, metavar="FILE",
                        help="picture to write; .png, .svg or any format matplotlib writes")
    render.add_argument("--radius", type=_radius, default=0.0, metavar="R",
                        help="agent radius whose halo to shade, >= 0 (default: none)")
    render.add_argument("--no-field", dest="field", action="store_false",
                        help="leave out the clearance field under the obstacles")
    render.add_argument("--wedge", type=_wedge, metavar="X,Y,HEADING,FOV,NEAR,FAR",
                        help="a view wedge from (X, Y) facing HEADING degrees, FOV degrees "
                             "wide, from NEAR to FAR: draw it and colour the obstacles it "
                             "culls in (orange: touched, green: contained); 2D levels")
    _orientation_arguments(render)
    arguments3d.render(render)

    walk = commands.add_parser(
        "walk", help="walk agents through a level and measure what happens to them",
        description="Walk agents through a level, each frame one step of --speed towards its "
                    "goal or along a random-walk heading, moved with World2D.move_many in "
                    "--mode. Agents come from --start/--to (one agent), --scen (scenario "
                    "rows), --agents N (random walkers, from the level's spawns or random "
                    "free points), or else the level's own scenarios (or 10 random walkers). "
                    "Scenario agents follow paths: grid A* (8-connected, octile costs, no corner "
                    "cutting) on a Moving AI .map, A* and the funnel on a Polyanya .mesh; each "
                    "reports its length walked against the path's and the file's optimal "
                    "length, and where it got stuck on a path the navigation data calls free "
                    "(--straight: head straight at the goals instead). "
                    "Prints a table per agent (or JSON), and draws the paths (-o) and an "
                    "animation (--gif). 'contacts' counts frames in which an obstacle changed "
                    "an agent's move; 'stuck' frames in which it moved under 10% of its step.")
    _level_arguments(walk, many=True)
    walk.add_argument("--start", type=_point, metavar="X,Y",
                      help="one agent's start (write --start=-2,3 when X is negative)")
    walk.add_argument("--to", type=_point, metavar="X,Y", help="that agent's goal")
    walk.add_argument("--scen", metavar="FILE",
                      help="a Moving AI .scen file of start/goal rows for a .map or .mesh level")
    walk.add_argument("--straight", action="store_true",
                      help="scenario agents head straight at their goals (no path-finding)")
    walk.add_argument("--agents", type=_count, metavar="N",
                      help="random walkers; with --scen, how many scenario rows to walk "
                           f"(default: up to {SCENARIO_AGENTS}, spread over the file)")
    walk.add_argument("--steps", type=_count, metavar="K",
                      help="frames to walk (default: enough for the farthest goal, or 300 "
                           "for random walkers)")
    walk.add_argument("--mode", choices=MODES, default="slide",
                      help="how moves meet obstacles (default: %(default)s)")
    walk.add_argument("--radius", type=_radius, nargs="+", default=[0.0], metavar="R",
                      help="agents' radius, >= 0 (default: 0, a point); several for a walk "
                           "of many levels, one task per level and radius")
    walk.add_argument("--speed", type=_speed, metavar="S",
                      help="step per frame in world units (default: 1/400 of the level's "
                           "diagonal)")
    walk.add_argument("--seed", type=int, default=0, help="seeds random starts and headings")
    walk.add_argument("--crowd", action="store_true",
                      help="the agents collide with each other too (sidestep.Crowd, or "
                           "Crowd3D on a 3D level; needs --radius > 0, modes slide, block, "
                           "ghost)")
    walk.add_argument("-o", "--out", metavar="FILE",
                      help="picture of the paths to write; or, for many levels, the "
                           "per-agent rows: FILE.parquet (needs pyarrow) or FILE.jsonl")
    walk.add_argument("--gif", metavar="FILE", help="animated GIF of the walk to write")
    walk.add_argument("--json", action="store_true",
                      help="print per-agent figures as JSON instead of a table")
    _orientation_arguments(walk)
    arguments3d.walk(walk)
    many.add_run_arguments(walk)

    _play_arguments(commands)

    check = commands.add_parser(
        "check", help="list what to fix in a level before shipping it (exit 1 if anything)",
        description="Report degenerate and duplicate obstacles, overlapping obstacles, gaps "
                    "narrower than the agent (doorways it cannot pass) and spawn points or "
                    "scenario ends where it does not fit; with --sweep, where walking agents "
                    "get stuck, end inside something or cannot get away. On a 3D level (OBJ, "
                    "glTF, GLB, a 3D scene) the agent is an upright capsule (--height) on the "
                    "level's floors: dropped triangles, spawns where it does not fit, floor "
                    "places without headroom; --sweep walks characters. Many levels (files, "
                    "folders, globs) and radii run as tasks, one per level, radius and tile, "
                    "on this machine's cores or a Ray cluster (--ray), with a summary table. "
                    "Exits with 1 when anything is found (or a level cannot be read).")
    _level_arguments(check, many=True)
    check.add_argument("--radius", type=_radius, nargs="+", required=True, metavar="R",
                       help="the agent's radius, >= 0; several check each level for each")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--limit", type=_limit, default=20, metavar="N",
                       help="findings listed per kind in the text report (default: "
                            "%(default)s)")
    check.add_argument("-o", "--out", metavar="FILE",
                       help="also draw the level with every finding marked (one level; "
                            "--report draws many)")
    _orientation_arguments(check)
    many.add_check_arguments(check)
    warmup = commands.add_parser(
        "warmup", help="compile every kernel into Numba's cache ahead of time",
        description="Compile every kernel the API and the commands use, on all cores, into "
                    "Numba's cache (NUMBA_CACHE_DIR if set, else __pycache__ beside "
                    "sidestep's sources), so that later runs start at once. Run it once where "
                    "sidestep is installed, as the user and with the environment the program "
                    "will have.")
    warmup.add_argument("--processes", type=_count, default=None, metavar="N",
                        help="worker processes at most (default: one per core)")

    return parser


def _load(args, **extra):
    """Read ``args.level`` with :func:`sidestep.io.load` and the command's loader options."""
    # Imported here so ``sidestep demo`` works even where the readers cannot load.
    from . import io

    options = dict(args.load)
    if args.map is not None:
        options["map"] = args.map
    options.update(extra)
    level = io.load(args.level, **options)
    if not arguments3d.is_3d(level):     # the warm-up list holds the 2D kernels
        _compile_ahead(args)
    return level


def _y_down(args):
    """Whether to draw y downwards: as asked, or by the level file's kind."""
    if args.y_down is not None:
        return args.y_down
    return Path(args.level).suffix.lower() in Y_DOWN_SUFFIXES


def _progress(label):
    """A progress bar on stderr (silent unless stderr is a terminal)."""
    from .commands.progress import Progress

    return Progress(0, label)


def _run_demo(args):
    if args.three_d:
        _compile_ahead(args, "demo3d")
        return arguments3d.run_demo(args)
    _compile_ahead(args)
    run_demo(out=args.out, radius=args.radius)
    return 0


def _run_render(args):
    from .commands.render import render

    level = _load(args)
    if arguments3d.is_3d(level):
        return arguments3d.run_render(args, level)
    render(level, args.out, radius=args.radius, field=args.field, y_down=_y_down(args),
           view=args.wedge)
    print(f"wrote {args.out}")
    return 0


def _agents(args, level):
    """Starts, goals (or None) and, for scenario rows, optimal lengths (or None) of the agents."""
    import numpy as np

    from .commands.walk import free_starts

    if (args.start is None) != (args.to is None):
        raise ValueError("--start and --to go together: give both for one agent")
    if args.start is not None:
        if args.scen or args.agents:
            raise ValueError("--start/--to walk one agent: leave out --scen and --agents")
        return np.array([args.start]), np.array([args.to]), None
    scenarios = level.scenarios
    if args.scen is not None:
        if scenarios is None or not len(scenarios.starts):
            raise ValueError(f"{args.scen} has no usable scenario rows for {args.level}")
    elif args.agents is not None or scenarios is None or not len(scenarios.starts):
        rng = np.random.default_rng(args.seed)
        count = args.agents or WANDERERS
        return free_starts(level.world, count, args.radius, rng, level.spawns), None, None
    count = min(args.agents or SCENARIO_AGENTS, len(scenarios.starts))
    rows = np.unique(np.linspace(0, len(scenarios.starts) - 1, count).round().astype(int))
    # Scenario agents carry their file's optimal lengths (NaN when it gives none).
    given = len(scenarios.lengths) == len(scenarios.starts)
    lengths = scenarios.lengths[rows] if given else np.full(len(rows), np.nan)
    return scenarios.starts[rows], scenarios.goals[rows], lengths


def _one_level(args):
    """The single-level form of a command that takes many: ``args.level`` and one ``args.radius``."""
    args.level = args.levels[0]
    args.radius = args.radius[0]


def _run_walk(args):
    from .commands.walk import animate_walk, draw_walk, format_table, walk
    from .commands.pictures import picture_format

    if many.is_many(args, "walk"):
        return many.run_walk(args, _progress, lambda name: _compile_ahead(args, name))
    _one_level(args)
    # Check the output paths before walking: a long walk should not end in
    # "no such directory".
    if args.out:
        picture_format(args.out)
    if args.gif:
        _check_gif(args.gif)
    try:
        level = _load(args, **({"scenarios": args.scen} if args.scen else {}))
    except TypeError as exc:
        if args.scen:
            raise ValueError(f"--scen needs a level whose reader takes scenarios (a Moving AI "
                             f".map or a .mesh): {exc}") from None
        raise
    if arguments3d.is_3d(level):
        return arguments3d.run_walk(args, level, _progress, _wrote)
    starts, goals, lengths = _agents(args, level)
    navigator = None
    if lengths is not None and not args.straight:
        from .paths import navigator as find_navigator
        navigator = find_navigator(level)
        if navigator is None:
            print(f"walk: {level.name or args.level} has no navigation data (a grid or a "
                  "navmesh): scenario agents head straight at their goals", file=sys.stderr)
    if navigator is not None:
        from .commands import follow
        with _progress("paths") as bar:
            routes = follow.find_routes(navigator, starts, goals, progress=bar)
    with _progress("walk") as bar:
        if navigator is not None:
            run = follow.follow(level.world, navigator, starts, goals, optimal=lengths,
                                steps=args.steps, speed=args.speed, radius=args.radius,
                                mode=args.mode, routes=routes, progress=bar,
                                crowd=args.crowd)
        else:
            run = walk(level.world, starts, goals=goals, steps=args.steps, speed=args.speed,
                       radius=args.radius, mode=args.mode, seed=args.seed, progress=bar,
                       crowd=args.crowd)
    walked = run.walk if navigator is not None else run
    y_down = _y_down(args)
    if args.out:
        if navigator is not None:
            follow.draw_follow(level, run, args.out, y_down=y_down)
        else:
            draw_walk(level, run, args.out, y_down=y_down)
        _wrote(args.out)
    if args.gif:
        with _progress("gif") as bar:
            animate_walk(level, walked, args.gif, y_down=y_down, progress=bar)
        _wrote(args.gif)
    summary = run.summary()
    if navigator is None and goals is not None:
        summary["route"] = "straight"
    if args.json:
        print(json.dumps({"level": level.name, "summary": summary, "agents": run.agents()}))
    else:
        print(follow.format_table(run) if navigator is not None else format_table(run))
    return 0


def _wrote(path):
    """Say on stderr where a picture went (stdout stays the table or the JSON)."""
    sys.stderr.write(f"wrote {path}\n")


def _check_gif(path):
    """``--gif``: a .gif file in an existing folder."""
    import os

    if Path(path).suffix.lower() != ".gif":
        raise ValueError(f"--gif writes a GIF: name the file .gif, got {path}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"cannot write {path}: no directory {folder}")


def _run_play(args):
    try:
        from .play import app, living, stage
    except ImportError as exc:
        raise ImportError(f"needs pygame-ce (pip install \"sidestep[play]\"): {exc}") from None
    if args.living:
        if args.level is not None or args.map is not None or args.load:
            raise ValueError("--living is a level of its own: give no LEVEL, --map or --load")
        _compile_ahead(args)
        where = living.living_stage(args.radius, args.speed)
    elif args.level is None:
        if args.map is not None or args.load:
            raise ValueError("--map and --load read a level file: give one")
        _compile_ahead(args)
        where = stage.default_stage(args.radius, args.speed)
    else:
        level = _load(args)
        if arguments3d.is_3d(level):
            raise ValueError(f"play walks 2D levels only; {args.level} is a 3D level")
        where = stage.level_stage(level, args.radius, args.speed, _y_down(args))
    timing = app.play(where, mode=args.mode, crowd=args.crowd, seed=args.seed,
                      debug=args.debug, zoom=args.zoom, size=args.size, frames=args.frames,
                      script=args.script, screenshot=args.screenshot, fps=args.fps)
    if args.screenshot:
        _wrote(args.screenshot)
    crowd = f" with a crowd of {args.crowd}" if args.crowd else ""
    print(f"play {where.name}{crowd}: {timing.format()}")
    return 0


def _run_check(args):
    from .commands.check import check, draw_report

    if many.is_many(args, "check"):
        if args.out:
            raise ValueError("-o draws one level: with many levels, radii or tasks use "
                             "--report DIR")
        return many.run_check(args, _progress, lambda name: _compile_ahead(args, name))
    _one_level(args)
    if args.out:
        from .commands.pictures import picture_format

        picture_format(args.out)
    level = _load(args)
    if arguments3d.is_3d(level):
        from .commands.check3d import check3d, draw_report3d

        _compile_ahead(args, "check3d")
        report = check3d(level, args.radius, height=args.height, spacing=args.spacing)
        if args.out:
            draw_report3d(level, report, args.out)
            _wrote(args.out)
    else:
        with _progress("check") as bar:
            report = check(level, args.radius, progress=bar)
        if args.out:
            draw_report(level, report, args.out, y_down=_y_down(args))
            _wrote(args.out)
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print(report.format(limit=args.limit))
    return 0 if report.ok else 1


def _run_warmup(args, notice):
    import numba

    from .kernel_cache import warmup

    done = warmup(processes=args.processes, on_start=notice.parallel)
    where = numba.config.CACHE_DIR or str(Path(__file__).parent / "kernels" / "__pycache__")
    workers = f" by {done.processes} processes" if done.processes else ""
    print(f"compiled {len(done.compiled)} kernel{'' if len(done.compiled) == 1 else 's'}"
          f"{workers} in {done.seconds:.1f} s, {len(done.cached)} were cached; cache: {where}")
    return 0


def _compile_ahead(args, command=None):
    """Compile the kernels ``args.command`` (or ``command``) calls that are not cached yet, on all cores.

    Called once the input is known to be good (a level read), so that bad
    input is refused at once, not after a minute of compiling.
    """
    import importlib.util

    from .kernel_cache import COMMANDS, warmup

    if args.command == "demo" and importlib.util.find_spec("matplotlib") is None:
        return   # the demo stops at once with its message; compile nothing first
    warmup(COMMANDS[command or args.command], on_start=args.compile_notice.parallel)


_COMMANDS = {"demo": _run_demo, "render": _run_render, "walk": _run_walk, "check": _run_check,
             "play": _run_play}


def _one_line(exc):
    """An exception as one line: ``No such file`` errors name the file plainly."""
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return f"{exc.filename}: no such file"
    return " ".join(str(exc).split()) or type(exc).__name__


def main(argv=None):
    """Run the ``sidestep`` command.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        0 on success; 1 when ``check`` found something; 141 when stdout was
        closed early (``| head``), quietly. Bad input exits
        through ``SystemExit`` with status 2 and a one-line message on stderr.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    from .commands.compile_notice import CompileNotice

    try:
        with CompileNotice() as args.compile_notice:
            if args.command == "warmup":
                status = _run_warmup(args, args.compile_notice)
            else:
                status = _COMMANDS[args.command](args)
            sys.stdout.flush()    # a closed pipe shows here, inside the handler below
            return status
    except BrokenPipeError:
        # The reader went away (``sidestep check ... | head``): no message, and
        # the status a command killed by SIGPIPE has (128 + 13), as ``cat`` gives.
        # Point stdout at devnull so the interpreter's final flush is quiet.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except ImportError as exc:
        parser.error(f"{args.command} needs matplotlib (pip install \"sidestep[demo]\"): {exc}"
                     if "matplotlib" in str(exc) or "PIL" in str(exc)
                     else f"{args.command}: {_one_line(exc)}")
    except (OSError, ValueError, TypeError) as exc:
        # LevelError is a ValueError: its message names the file and the place.
        parser.error(_one_line(exc))
    except KeyboardInterrupt:
        sys.stderr.write(f"{parser.prog}: interrupted\n")
        return 130
