"""The local process pool: a worker that dies is replaced, its tasks rerun to the same answer."""
import pytest

from sidestep.commands.sweep import SweepSettings
from sidestep.distributed import gather_checks, plan_checks, run_local
from sidestep.distributed.local import _DIE_ONCE


def answers(results):
    return [(c.level, c.radius, c.report, c.sweep, c.error) for c in gather_checks(results).checks]


def test_a_worker_that_dies_is_retried_in_a_fresh_pool_to_the_same_answer(tmp_path,
                                                                          monkeypatch):
    room = tmp_path / "room.map"
    room.write_text("type octile\nheight 4\nwidth 6\nmap\n......\n.@..@.\n.@....\n......\n")
    tasks = plan_checks([room], [0.3, 0.6], tiles=2, sweep=SweepSettings(frames=30))
    here = run_local(tasks, 1)                     # in this process: the hook is not used
    flag = tmp_path / "died"
    monkeypatch.setenv(_DIE_ONCE, str(flag))
    ticks = []
    results = run_local(tasks, 2, progress=lambda done, total: ticks.append((done, total)))
    died = int(flag.read_text())                   # a worker did die
    assert all(r.error is None for r in results)
    assert all(r.worker.split(":")[1] != str(died) for r in results)
    assert answers(results) == answers(here)
    assert ticks[-1] == (len(tasks), len(tasks))


def test_jobs_must_be_a_whole_number():
    with pytest.raises(ValueError, match="jobs must be a whole number"):
        run_local([], 0)
