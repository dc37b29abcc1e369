"""Many levels, many radii, many machines: ``sidestep check`` and ``walk`` as tasks.

A run is a list of :class:`~sidestep.distributed.tasks.Task` (one level, one
agent radius, one tile), each done by :func:`~sidestep.distributed.tasks.run_task`
wherever it lands, and its results put together (:mod:`.report`, :mod:`.walks`):

- :mod:`.levels`: the level files that names, folders and globs give;
- :mod:`.tasks`: the task, its result, and doing one (a level that cannot be
  read is a result with an error, not an exception);
- :mod:`.local`: the tasks on this machine's cores, in a process pool;
- :mod:`.ray_backend`: the same tasks as Ray remote tasks on a cluster, retried
  when a worker dies (needs the ``distributed`` extra; imported only when used);
- :mod:`.report`: per level and radius, the tiles merged into one report, a
  summary table, and a report folder written atomically;
- :mod:`.walks`: per-agent rows of batch walks, as Parquet or JSON lines.

The answers do not depend on where tasks ran, on how many workers or threads
there were, nor on how a level was cut into tiles. ``import sidestep`` (and
``import sidestep.distributed``) never imports Ray.
"""
from .levels import expand
from .local import run_local
from .report import CheckRun, gather_checks, plan_checks, plan_walks, write_report
from .tasks import Task, TaskResult, run_task
from .walks import WalkSettings, read_rows, write_rows

__all__ = ["expand", "Task", "TaskResult", "run_task", "run_local", "plan_checks",
           "plan_walks", "gather_checks", "CheckRun", "write_report", "WalkSettings",
           "read_rows", "write_rows"]
