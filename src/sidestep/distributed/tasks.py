"""The unit of work of a many-level run: one level, one radius, one tile; run anywhere.

A :class:`Task` is small frozen data (a path, numbers, settings) that
pickles to a process pool or a Ray worker; :func:`run_task` reads the level
there, caps that process's threads (:mod:`sidestep.threads`), does the work
and returns a :class:`TaskResult` of plain data. A level that cannot be read
(a :class:`~sidestep.level.LevelError`, a missing file, a 3D level) gives a
result with ``error`` set instead of raising, so the other levels of a run
still finish. The answers depend only on the task: the same in any process,
on any machine with the same versions, whatever the threads or workers.

>>> import sidestep, tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = Path(tmp) / "room.map"
...     _ = path.write_text("type octile\\nheight 3\\nwidth 3\\nmap\\n...\\n.@.\\n...\\n")
...     done = run_task(Task("check", str(path), 0.3))
...     broken = run_task(Task("check", str(Path(tmp) / "nothing.map"), 0.3))
>>> done.error, len(done.value.part.rows.sep) > 0
(None, True)
>>> broken.error                                  # doctest: +ELLIPSIS
'FileNotFoundError: no such level file: .../nothing.map'
"""
import math
import os
import time
from collections import OrderedDict
from dataclasses import dataclass

from .. import threads
from ..commands.check import check_part
from ..commands.regions import tiles
from ..commands.sweep import SweepSettings, sweep_part
from ..level import LevelError
from .walks import WalkSettings, walk_rows

#: What a task does: ``check`` (the level check, the reachability sweep or both) or ``walk``.
TASK_KINDS = ("check", "walk")

#: Levels a worker keeps loaded, so the tiles and radii of one level read it once.
LEVELS_KEPT = 2


@dataclass(frozen=True)
class Task:
    """One level, one radius, one tile of work."""

    #: ``check`` or ``walk`` (:data:`TASK_KINDS`).
    kind: str
    #: The level file to read (an absolute path, for workers on other machines
    #: or in other folders).
    level: str
    #: The agents' radius (world units).
    radius: float
    #: The level as the user named it, for reports ('' gives ``level``).
    label: str = ""
    #: Tiles per side the level is cut into (:func:`~sidestep.commands.regions.tiles`).
    tiles: int = 1
    #: Which of the ``tiles * tiles`` tiles, row by row.
    tile: int = 0
    #: Reader options, ``((key, value), ...)`` (``map`` of a WAD...).
    load: tuple = ()
    #: Run the level check (``check``): degenerate, duplicate, overlapping
    #: obstacles, narrow gaps, blocked spawns.
    static: bool = True
    #: Also walk the reachability sweep with these settings (``check --sweep``).
    sweep: SweepSettings | None = None
    #: The walk's settings (``walk``).
    walk: WalkSettings | None = None
    #: Threads this task's batch calls use at most (None: as the process is set).
    threads: int | None = None
    #: 3D levels: the checked agent's height (an upright capsule); None: six
    #: radii (:data:`~sidestep.commands.floors.HEIGHT_PER_RADIUS`). 2D levels ignore it.
    height: float | None = None
    #: 3D levels: the spacing of the check's floor lattice; None: the level's
    #: longer ground side / :data:`~sidestep.commands.floors.PROBES`.
    spacing: float | None = None

    def __post_init__(self):
        if self.kind not in TASK_KINDS:
            raise ValueError(f"kind must be one of {', '.join(TASK_KINDS)}; got {self.kind!r}")
        radius = self.radius
        if isinstance(radius, bool) or not isinstance(radius, (int, float)) \
                or not math.isfinite(radius) or radius < 0:
            raise ValueError(f"radius must be a finite number >= 0, got {radius!r}")
        if not _whole(self.tiles, 1):
            raise ValueError(f"tiles must be a whole number >= 1, got {self.tiles!r}")
        if not _whole(self.tile, 0) or self.tile >= self.tiles ** 2:
            raise ValueError(f"tile must be a whole number in [0, {self.tiles ** 2}), "
                             f"got {self.tile!r}")
        if self.threads is not None and not _whole(self.threads, 1):
            raise ValueError(f"threads must be a whole number >= 1 or None, got {self.threads!r}")
        for name in ("height", "spacing"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, (int, float))
                                      or not math.isfinite(value) or value <= 0):
                raise ValueError(f"{name} must be a finite number > 0 or None, got {value!r}")

    @property
    def name(self):
        """The level as reports name it."""
        return self.label or self.level


def _whole(value, least):
    """Whether ``value`` is an int (not a bool) >= ``least``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


@dataclass(frozen=True)
class CheckOutcome:
    """A check task's answer: the parts its tile adds to the level's report and sweep."""

    #: :class:`~sidestep.commands.check.CheckPart` (a 3D level's:
    #: :class:`~sidestep.commands.check3d.Check3DPart`), or None without the
    #: static check.
    part: object = None
    #: :class:`~sidestep.commands.sweep.SweepPart`, or None without the sweep.
    sweep: object = None


@dataclass(frozen=True)
class TaskResult:
    """What :func:`run_task` gave for one task."""

    #: The task.
    task: Task
    #: :class:`CheckOutcome` (check), or a tuple of row dicts (walk); None on error.
    value: object = None
    #: ``"LevelError: file: place: why"`` when the level could not be read or used.
    error: str | None = None
    #: Seconds the task took where it ran (reading the level included).
    seconds: float = 0.0
    #: Where it ran: ``host:pid``.
    worker: str = ""


_levels: OrderedDict[tuple[object, ...], object] = OrderedDict()


def load_level(path, options=()):
    """Read a level, or take it from this process's last :data:`LEVELS_KEPT` levels.

    The key holds the file's size and modification time, so a level edited
    between two runs of a long-lived worker is read again.
    """
    from ..io import load

    try:
        stat = os.stat(path)
    except OSError:
        return load(path, **dict(options))      # raises the reader's own error
    key = (os.path.realpath(path), tuple(options), stat.st_size, stat.st_mtime_ns)
    if key in _levels:
        _levels.move_to_end(key)
        return _levels[key]
    level = load(path, **dict(options))
    _levels[key] = level
    while len(_levels) > LEVELS_KEPT:
        _levels.popitem(last=False)
    return level


def run_task(task):
    """Do ``task`` in this process and return its :class:`TaskResult` (errors of the level included)."""
    if task.kind not in TASK_KINDS:
        raise ValueError(f"task.kind must be one of {', '.join(TASK_KINDS)}; got {task.kind!r}")
    start = time.perf_counter()
    previous = threads.set_threads(task.threads) if task.threads is not None else None
    try:
        try:
            value = _work(task)
        except (LevelError, OSError, ValueError, TypeError, ImportError) as exc:
            return TaskResult(task, None, _describe(exc), time.perf_counter() - start, _worker())
    finally:
        if task.threads is not None:
            threads.set_threads(previous)
    return TaskResult(task, value, None, time.perf_counter() - start, _worker())


def _work(task):
    """The task's answer; raises what makes the level unusable."""
    level = load_level(task.level, task.load)
    world = level.world
    if task.kind == "walk":
        return walk_rows(level, task.radius, task.walk or WalkSettings(), name=task.name)
    if not hasattr(world, "segments"):
        return _check3d(task, level, world)
    region = tiles(world.bounds, task.tiles)[task.tile]
    part = check_part(level, task.radius, region) if task.static else None
    swept = sweep_part(level, task.radius, region, task.sweep) if task.sweep is not None \
        else None
    return CheckOutcome(part, swept)


def _check3d(task, level, world):
    """A check task on a 3D level: its tile of the ground plane, for an upright capsule."""
    from ..commands.check3d import check3d_part
    from ..commands.floors import Capsule, ground_bounds
    from ..commands.sweep3d import sweep3d_part

    agent = Capsule.of(task.radius, task.height)
    region = tiles(ground_bounds(world), task.tiles)[task.tile]
    part = check3d_part(level, agent, region, spacing=task.spacing) if task.static else None
    swept = sweep3d_part(level, agent, region, task.sweep) if task.sweep is not None else None
    return CheckOutcome(part, swept)


def _describe(exc):
    """``"LevelError: message"``: an exception as one line naming its type."""
    if isinstance(exc, FileNotFoundError) and exc.filename and not exc.args[1:]:
        text = f"{exc.filename}: no such file"
    else:
        text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"


def _worker():
    """``host:pid`` of this process."""
    return f"{os.uname().nodename if hasattr(os, 'uname') else 'host'}:{os.getpid()}"
