"""``sidestep check`` and ``sidestep walk`` over many levels: their arguments and their runs.

:mod:`sidestep.cli` hands a command here when it names several levels (or a
folder, or a glob), several radii, or asks for what only a many-level run
does (``--report``, ``--jobs``, ``--ray``, ``--tiles``, ``--sweep``; for
``walk`` a ``.parquet`` or ``.jsonl`` ``--out``). One level at one radius
keeps the single-level commands' output.
"""
import dataclasses
import glob
import json
import os
import sys

from ..commands.argument_types import number, whole
from ..commands.sweep import FRAMES, HEADINGS, SweepSettings
from .levels import expand, is_3d_file
from .local import cores, run_local
from .report import gather_checks, plan_checks, plan_walks, write_report
from .walks import FORMATS, WalkSettings, row_format, write_rows


def add_run_arguments(command):
    """``--jobs``, ``--threads``, ``--ray``: where the tasks run."""
    command.add_argument("--jobs", type=whole(1), metavar="N",
                         help="worker processes on this machine (default: one per core)")
    command.add_argument("--threads", type=whole(1), metavar="N",
                         help="threads each task's batch calls use at most (default: the "
                              "cores shared among the workers; 1 on Ray). Also "
                              "SIDESTEP_THREADS")
    command.add_argument("--ray", metavar="ADDRESS",
                         help="run the tasks on a Ray cluster: auto (a running one), local "
                              "(start one here) or an address (ray://host:10001); needs "
                              "pip install \"sidestep[distributed]\"")


def add_check_arguments(check):
    """The many-level options of ``sidestep check``."""
    check.add_argument("--report", metavar="DIR",
                       help="write report.json, report.txt and a picture per level with "
                            "findings into DIR (made if missing)")
    check.add_argument("--tiles", type=whole(1), default=1, metavar="N",
                       help="cut each level into N x N tiles, one task each (findings on "
                            "tile borders are neither lost nor doubled; default: 1)")
    check.add_argument("--sweep", action="store_true",
                       help="also walk agents from every spawn (or a lattice of free points) "
                            "in --headings directions for --frames frames and report where "
                            "they get stuck, end inside something, or cannot get away")
    check.add_argument("--headings", type=whole(1), default=HEADINGS, metavar="N",
                       help="sweep: headings per start (default: %(default)s)")
    check.add_argument("--frames", type=whole(1), default=FRAMES, metavar="K",
                       help="sweep: frames per agent (default: %(default)s)")
    check.add_argument("--spacing", type=number(), metavar="S",
                       help="sweep: lattice spacing of the starts in a level without spawns "
                            "(default: the level's longer side / 24); on 3D levels also the "
                            "spacing of the check's floor probes (default: longer side / 64)")
    check.add_argument("--height", type=number(), metavar="H",
                       help="3D levels: the agent is an upright capsule H tall (H >= 2 x "
                            "radius; default: 6 x radius, the proportions of a 0.3 x 1.8 "
                            "character); 2D levels ignore it")
    add_run_arguments(check)


def is_many(args, command):
    """Whether ``args`` ask for a many-level run of ``command`` (``check`` or ``walk``)."""
    levels = args.levels
    if len(levels) != 1 or os.path.isdir(levels[0]) or (
            glob.has_magic(levels[0]) and not os.path.exists(levels[0])):
        return True
    if len(args.radius) != 1 or args.jobs or args.ray or args.threads:
        return True
    if command == "check":
        return bool(args.report or args.tiles != 1 or args.sweep)
    out = args.out or ""
    return os.path.splitext(out)[1].lower() in FORMATS


def _load_options(args):
    options = list(args.load)
    if args.map is not None:
        options.append(("map", args.map))
    return tuple(options)


def _kernels(levels, two_d, three_d):
    """The kernel lists (``kernel_cache.COMMANDS`` names) a run over ``levels`` calls."""
    dims = {is_3d_file(level) for level in levels}
    return ([n for n in two_d if False in dims] + [n for n in three_d if True in dims])


def _run(tasks, args, progress, commands):
    """Run ``tasks`` where ``args`` say: Ray, a local pool, or this process.

    ``commands`` name the kernels the tasks call (``kernel_cache.COMMANDS``):
    on Ray each node compiles the ones its cache lacks first, once.
    """
    if args.ray:
        import importlib.util

        from .ray_backend import connect, run_ray, warm_nodes

        if importlib.util.find_spec("ray") is None:
            raise ValueError("--ray needs Ray: pip install \"sidestep[distributed]\"")
        connect(args.ray)
        warm_nodes(commands)
        return run_ray(tasks, threads=args.threads or 1, progress=progress)
    jobs = args.jobs or cores()
    jobs = min(jobs, max(1, len(tasks)))
    threads = args.threads or (None if jobs == 1 else max(1, cores() // jobs))
    if threads is not None:
        tasks = [dataclasses.replace(t, threads=threads) for t in tasks]
    return run_local(tasks, jobs, progress=progress)


def run_check(args, progress, compile_ahead):
    """``sidestep check LEVELS... --radius R [R ...]``: status 0 when nothing was found anywhere."""
    levels = expand(args.levels)
    if not levels:
        raise ValueError(f"no level files in {', '.join(args.levels)}")
    if args.report:
        parent = os.path.dirname(os.path.abspath(args.report))
        if not os.path.isdir(parent):
            raise FileNotFoundError(f"cannot write the report in {args.report}: no "
                                    f"directory {parent}")
    sweep = SweepSettings(args.headings, args.frames, spacing=args.spacing) if args.sweep \
        else None
    tasks = plan_checks(levels, args.radius, tiles=args.tiles, load=_load_options(args),
                        sweep=sweep, height=args.height, spacing=args.spacing)
    kernels = _kernels(levels, ("check", "walk") if args.sweep else ("check",), ("check3d",))
    for name in kernels:
        compile_ahead(name)
    with progress("check") as bar:
        results = _run(tasks, args, bar, tuple(kernels))
    run = gather_checks(results)
    if args.report:
        written = write_report(run, args.report, y_down=args.y_down)
        sys.stderr.write(f"wrote {len(written)} files in {args.report}\n")
    if args.json:
        print(json.dumps(run.as_dict()))
    else:
        print(run.format(limit=args.limit))
    return 0 if run.ok else 1


def run_walk(args, progress, compile_ahead):
    """``sidestep walk LEVELS... --agents N --steps K --out rows.parquet``: one row per agent."""
    for name in ("start", "to", "scen", "gif"):
        if getattr(args, name):
            raise ValueError(f"--{name} walks one level: leave it out when walking many")
    if args.crowd or args.straight:
        raise ValueError("--crowd and --straight walk one level: leave them out when "
                         "walking many")
    if not args.out:
        raise ValueError("walking many levels writes rows: give --out FILE.parquet or "
                         "FILE.jsonl")
    row_format(args.out)
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"cannot write {args.out}: no directory {folder}")
    levels = expand(args.levels)
    if not levels:
        raise ValueError(f"no level files in {', '.join(args.levels)}")
    settings = WalkSettings(agents=args.agents or 10, steps=args.steps or 300, seed=args.seed,
                            speed=args.speed, mode=args.mode, height=args.height,
                            gravity=args.gravity)
    tasks = plan_walks(levels, args.radius, settings, load=_load_options(args))
    kernels = _kernels(levels, ("walk",), ("walk3d",))
    for name in kernels:
        compile_ahead(name)
    with progress("walk") as bar:
        results = _run(tasks, args, bar, tuple(kernels))
    rows = [row for r in results if r.error is None for row in r.value]
    write_rows(rows, args.out)
    sys.stderr.write(f"wrote {len(rows)} rows to {args.out}\n")
    summary = walk_summary(results)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_walk_summary(summary))
    return 0 if all(r.error is None for r in results) else 1


def walk_summary(results):
    """Per level and radius: agents, their mean travel, contact and blocked frames, or the error."""
    out = []
    for r in results:
        entry = {"level": r.task.name, "radius": r.task.radius, "error": r.error}
        if r.error is None:
            rows = r.value
            entry.update(agents=len(rows),
                         travelled=sum(x["travelled"] for x in rows) / max(1, len(rows)),
                         contacts=sum(x["contacts"] for x in rows),
                         blocked_frames=sum(x["blocked_frames"] for x in rows),
                         start_overlaps=sum(x["start_overlap"] for x in rows))
        out.append(entry)
    return out


def format_walk_summary(summary):
    """:func:`walk_summary` as a table."""
    width = max([5] + [len(e["level"]) for e in summary])
    lines = [f"{'level':<{width}}  {'radius':>6}  {'agents':>6}  {'mean travelled':>14}  "
             f"{'contacts':>8}  {'blocked':>8}"]
    for e in summary:
        if e["error"]:
            lines.append(f"{e['level']:<{width}}  {e['radius']:>6g}  {e['error']}")
        else:
            lines.append(f"{e['level']:<{width}}  {e['radius']:>6g}  {e['agents']:>6}  "
                         f"{e['travelled']:>14.4g}  {e['contacts']:>8}  "
                         f"{e['blocked_frames']:>8}")
    return "\n".join(lines)
