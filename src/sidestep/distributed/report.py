"""Many levels checked: the tasks to run, and their results put together into one report.

:func:`plan_checks` makes the tasks (every level, every radius, every tile);
:func:`gather_checks` merges each level and radius's tiles into one
:class:`~sidestep.commands.findings.Report` (and
:class:`~sidestep.commands.sweep.SweepReport`) in a :class:`CheckRun`, which
prints a summary table, lists every finding with its level, radius and place,
and :func:`write_report` writes it all to a folder (the JSON, the text and one
picture per level with findings), each file atomically.
"""
import json
import os
import tempfile
from dataclasses import dataclass, field

from ..commands.check import merge_parts
from ..commands.check3d import Check3DPart, merge3d_parts
from ..commands.findings import KINDS
from ..commands.sweep import SWEEP_KINDS, merge_sweeps
from .tasks import Task

#: What a report folder holds.
REPORT_JSON = "report.json"
REPORT_TEXT = "report.txt"
#: Subfolder of the pictures, one per level with findings.
PICTURES = "pictures"


def plan_checks(levels, radii, *, tiles=1, load=(), static=True, sweep=None, threads=None,
                height=None, spacing=None):
    """The tasks of a many-level check: every level, radius and tile, in that order.

    Parameters
    ----------
    levels : sequence of str
        Level files (:func:`~sidestep.distributed.levels.expand`); tasks carry
        their absolute paths, reports the names as given.
    radii : sequence of float
    tiles : int >= 1
        Tiles per side each level is cut into (``tiles ** 2`` tasks per level and radius).
    load : tuple of (key, value)
        Reader options for every level.
    static : bool
        Run the level check.
    sweep : SweepSettings, optional
        Also walk the reachability sweep.
    threads : int, optional
        Each task's thread cap.
    height : float, optional
        3D levels: the agent's height (default six radii).
    spacing : float, optional
        3D levels: the floor lattice's spacing of the check.

    Returns
    -------
    list of Task
    """
    radii = [float(r) for r in radii]
    if not radii:
        raise ValueError("radii must hold at least one radius")
    return [Task("check", os.path.abspath(level), radius, label=str(level), tiles=tiles,
                 tile=tile, load=tuple(load), static=static, sweep=sweep, threads=threads,
                 height=height, spacing=spacing)
            for level in levels for radius in radii for tile in range(tiles * tiles)]


def plan_walks(levels, radii, settings, *, load=(), threads=None):
    """The tasks of a many-level walk: every level and radius (a walk is not cut into tiles)."""
    radii = [float(r) for r in radii]
    if not radii:
        raise ValueError("radii must hold at least one radius")
    return [Task("walk", os.path.abspath(level), radius, label=str(level), load=tuple(load),
                 walk=settings, threads=threads) for level in levels for radius in radii]


@dataclass(frozen=True)
class LevelCheck:
    """One level at one radius: its report, its sweep, or why it could not be checked."""

    #: The level as the user named it.
    level: str
    #: The file read (absolute).
    path: str
    #: The agents' radius.
    radius: float
    #: Tiles per side it was cut into.
    tiles: int
    #: :class:`~sidestep.commands.findings.Report`, or None (an error, or a sweep alone).
    report: object = None
    #: :class:`~sidestep.commands.sweep.SweepReport`, or None.
    sweep: object = None
    #: ``"LevelError: ..."`` when the level could not be read or used.
    error: str | None = None
    #: Seconds its tasks took, added up (not part of the answer: two runs
    #: with the same findings compare equal).
    seconds: float = field(default=0.0, compare=False)
    #: Reader options, ``((key, value), ...)``.
    load: tuple = ()

    @property
    def findings(self):
        """Every finding: the check's, then the sweep's."""
        return (tuple(self.report.findings) if self.report else ()) + \
            (tuple(self.sweep.findings) if self.sweep else ())

    @property
    def ok(self):
        """True when the level was checked and nothing was found."""
        return self.error is None and not self.findings


@dataclass(frozen=True)
class CheckRun:
    """Every level and radius of a many-level check."""

    #: :class:`LevelCheck` per level and radius, in the order asked.
    checks: tuple

    @property
    def ok(self):
        """True when every level was read and nothing was found in any."""
        return all(c.ok for c in self.checks)

    @property
    def swept(self):
        """Whether the run walked the reachability sweep."""
        return any(c.sweep is not None for c in self.checks)

    def findings(self):
        """Every finding as a JSON-ready dict with its ``level``, ``radius`` and place (``position``)."""
        rows = []
        for c in self.checks:
            for f in c.findings:
                rows.append({"level": c.level, "radius": c.radius, **f.as_dict()})
        return rows

    def as_dict(self):
        """The run as JSON-ready plain types: a summary per level and radius, then every finding."""
        checks = []
        for c in self.checks:
            entry = {"level": c.level, "path": c.path, "radius": c.radius, "tiles": c.tiles,
                     "ok": c.ok, "error": c.error, "seconds": round(c.seconds, 3)}
            if c.report is not None:
                entry.update(name=c.report.name, obstacles=c.report.obstacles,
                             counts=c.report.counts(), closed_gaps=c.report.closed_gaps,
                             problems=list(c.report.problems))
            height = c.report.height if c.report is not None else \
                c.sweep.height if c.sweep is not None else None
            if height is not None:
                entry["height"] = height
            if c.sweep is not None:
                s = c.sweep.as_dict()
                entry["sweep"] = {k: s[k] for k in ("starts", "agents", "headings", "frames",
                                                    "speed", "spacing", "escape", "counts")}
            checks.append(entry)
        return {"ok": self.ok, "levels": len({c.level for c in self.checks}),
                "checks": checks, "findings": self.findings()}

    def table(self):
        """The summary table: one row per level and radius, a count per kind of finding."""
        kinds = list(KINDS)
        for c in self.checks:
            if c.report is not None:
                kinds += [k for k in c.report.kinds if k not in kinds]
        kinds += list(SWEEP_KINDS) if self.swept else []
        heads = ["level", "radius", "obstacles"] + [k.replace("_", " ") for k in kinds] + \
            ["status"]
        rows = []
        for c in self.checks:
            counts = dict(c.report.counts()) if c.report else {}
            if c.sweep:
                counts.update(c.sweep.counts())
            status = "error" if c.error else ("ok" if c.ok else f"{len(c.findings)} found")
            rows.append([c.level, f"{c.radius:g}",
                         str(c.report.obstacles) if c.report else "-"]
                        + [str(counts[k]) if k in counts else "-" for k in kinds] + [status])
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
                  for i, h in enumerate(heads)]
        lines = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                           for i, (h, w) in enumerate(zip(heads, widths)))]
        for r in rows:
            lines.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                                   for i, (v, w) in enumerate(zip(r, widths))))
        bad = sum(c.error is not None for c in self.checks)
        found = sum(len(c.findings) for c in self.checks)
        lines.append(f"{len(self.checks)} checks of {len({c.level for c in self.checks})} "
                     f"levels: {found} findings, {bad} could not be checked")
        return "\n".join(lines)

    def format(self, limit=20):
        """The run as text: each level's findings and errors, then :meth:`table`."""
        blocks = []
        for c in self.checks:
            if c.error:
                blocks.append(f"{c.level}: radius {c.radius:g}: {c.error}")
                continue
            if c.report is not None and not c.report.ok:
                blocks.append(c.report.format(limit=limit))
            if c.sweep is not None and not c.sweep.ok:
                blocks.append(c.sweep.format(limit=limit))
        blocks.append(self.table())
        return "\n\n".join(blocks)


def gather_checks(results):
    """A :class:`CheckRun` from the :class:`~sidestep.distributed.tasks.TaskResult` of every task.

    The tiles of each level and radius are merged (their order does not
    matter); the checks come in the order their first task was planned.
    """
    groups = {}
    for result in results:
        task = result.task
        groups.setdefault((task.name, task.radius), []).append(result)
    checks = []
    for (name, radius), group in groups.items():
        task = group[0].task
        seconds = sum(r.seconds for r in group)
        errors = [r.error for r in group if r.error]
        common = dict(level=name, path=task.level, radius=radius, tiles=task.tiles,
                      seconds=seconds, load=task.load)
        if errors:
            checks.append(LevelCheck(error=errors[0], **common))
            continue
        want = task.tiles * task.tiles
        have = sorted(r.task.tile for r in group)
        if have != list(range(want)):
            raise ValueError(f"{name} at radius {radius:g}: results for tiles {have}, "
                             f"expected every one of 0..{want - 1} once")
        parts = [r.value.part for r in group if r.value.part is not None]
        sweeps = [r.value.sweep for r in group if r.value.sweep is not None]
        merge = merge3d_parts if parts and isinstance(parts[0], Check3DPart) else merge_parts
        checks.append(LevelCheck(report=merge(parts) if parts else None,
                                 sweep=merge_sweeps(sweeps) if sweeps else None, **common))
    return CheckRun(tuple(checks))


def write_report(run, folder, *, pictures=True, y_down=None):
    """Write ``run`` into ``folder``: ``pictures/``, ``report.txt``, then ``report.json``.

    Every file is written to a temporary name beside it and renamed once
    complete, so a failure (a full disk, a picture that cannot be drawn)
    leaves no half-written file; the JSON comes last, so its presence says
    the report is whole.

    Parameters
    ----------
    run : CheckRun
    folder : str or path
        Made if missing (its parent must exist).
    pictures : bool
        Draw one picture per level with findings (needs matplotlib).
    y_down : bool, optional
        Draw y downwards; by default by each level file's kind (tile maps do).

    Returns
    -------
    list of str
        The files written.
    """
    folder = os.fspath(folder)
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent):
        raise FileNotFoundError(f"cannot write the report in {folder}: no directory {parent}")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(f"cannot write the report in {folder}: it is a file")
    os.makedirs(folder, exist_ok=True)
    written = []
    if pictures:
        written += _pictures(run, os.path.join(folder, PICTURES), y_down)
    text = os.path.join(folder, REPORT_TEXT)
    atomic_write(text, lambda f: f.write(run.format(limit=10 ** 9) + "\n"))
    data = run.as_dict()
    data["pictures"] = [os.path.relpath(p, folder) for p in written]
    out = os.path.join(folder, REPORT_JSON)
    atomic_write(out, lambda f: json.dump(data, f, indent=1))
    return written + [text, out]


def atomic_write(path, fill, *, binary=False):
    """Write ``path`` by calling ``fill(file)`` on a temporary file beside it, then renaming it.

    A failure removes the temporary file and leaves ``path`` as it was.
    """
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".sidestep-", suffix=".part")
    try:
        with os.fdopen(handle, "wb" if binary else "w", **({} if binary else
                                                           {"encoding": "utf-8"})) as f:
            fill(f)
        os.chmod(temporary, file_mode())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def file_mode():
    """The permissions a new file gets here (``0o666`` less the umask); ``mkstemp`` gives ``0o600``."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def picture_name(level, taken):
    """A file name for ``level``'s picture, unique among ``taken`` (a set it adds to).

    >>> taken = set()
    >>> picture_name("maps/arena.map", taken), picture_name("x/arena.map", taken)
    ('arena.map.png', 'arena.map-2.png')
    """
    base = os.path.basename(os.fspath(level)) or "level"
    name, k = f"{base}.png", 1
    while name in taken:
        k += 1
        name = f"{base}-{k}.png"
    taken.add(name)
    return name


def _pictures(run, folder, y_down):
    """One picture per level with findings: a panel per radius that found something."""
    from ..cli import Y_DOWN_SUFFIXES
    from ..commands.check import draw_findings, findings_extent
    from ..commands.findings import Report
    from ..commands.pictures import DPI, HEIGHTS, WIDTH
    from .tasks import load_level

    by_level = {}
    for c in run.checks:
        if c.error is None and c.findings:
            by_level.setdefault(c.level, []).append(c)
    if not by_level:
        return []
    from matplotlib.figure import Figure

    os.makedirs(folder, exist_ok=True)
    written, taken = [], set()
    for level, checks in by_level.items():
        loaded = load_level(checks[0].path, checks[0].load)
        world = loaded.world
        if not hasattr(world, "segments"):
            written.append(_picture3d(world, checks, os.path.join(
                folder, picture_name(level, taken))))
            continue
        down = y_down if y_down is not None else \
            os.path.splitext(level)[1].lower() in Y_DOWN_SUFFIXES
        extents = [findings_extent(world, c.radius, c.findings) for c in checks]
        x0, x1, y0, y1 = extents[0]
        shape = (y1 - y0) / (x1 - x0) if x1 > x0 else 1.0
        height = min(max(WIDTH * shape, HEIGHTS[0]), HEIGHTS[1])
        width = min(WIDTH, height / shape + 2.5)
        fig = Figure(figsize=(width + 2.5, (height + 0.8) * len(checks)), layout="constrained")
        axes = fig.subplots(len(checks), 1, squeeze=False)[:, 0]
        for ax, c, extent in zip(axes, checks, extents):
            ax.set_aspect("equal")
            report = c.report or Report(c.sweep.name, c.radius, len(world), ())
            draw_findings(ax, world, report, extent, y_down=down,
                          more=c.sweep.findings if c.sweep else ())
        path = os.path.join(folder, picture_name(level, taken))
        atomic_write(path, lambda f: fig.savefig(f, format="png", dpi=DPI), binary=True)
        written.append(path)
    return written


def _picture3d(world, checks, path):
    """A 3D level's picture: a top view per radius that found something, findings marked."""
    from matplotlib.figure import Figure

    from ..commands.check3d import draw_findings3d
    from ..commands.findings import KINDS_3D, Report
    from ..commands.pictures import DPI

    fig = Figure(figsize=(9.5, 6.5 * len(checks)), layout="constrained")
    axes = fig.subplots(len(checks), 1, squeeze=False)[:, 0]
    for ax, c in zip(axes, checks):
        report = c.report or Report(c.sweep.name, c.radius, len(world), (), kinds=KINDS_3D,
                                    height=c.sweep.height)
        draw_findings3d(ax, world, report, more=c.sweep.findings if c.sweep else ())
    atomic_write(path, lambda f: fig.savefig(f, format="png", dpi=DPI), binary=True)
    return path
