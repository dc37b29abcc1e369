"""Test settings: Hypothesis profiles sized for a 2-core CI machine.

``ci`` (the default) draws its examples from a fixed seed, so a run on a
fresh clone checks exactly what the last run here checked and cannot fail
by chance on an unrelated change. ``explore`` draws fresh random examples,
many more of them: run it before a release or after touching a kernel
(``HYPOTHESIS_PROFILE=explore pytest tests/test_properties.py tests/kernels``).

Before the tests start, the kernels missing from Numba's cache are compiled once,
in parallel (:func:`sidestep.kernel_cache.warmup`); ``SIDESTEP_TEST_WARMUP=0`` skips it.
"""
import os
import sys

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Tests marked ``xdist_group`` run in one worker, whatever ``--dist`` says.

    The Ray tests (``tests/distributed/test_ray.py``) share one Ray cluster
    per worker process; grouped, they start one cluster on this 2-core machine
    instead of one in each worker. Ungrouped tests are spread as ``--dist load``
    spreads them.
    """
    if config.getoption("dist") == "load":
        from xdist.scheduler import LoadGroupScheduling
        return LoadGroupScheduling(config, log)
    return None


def pytest_sessionstart(session):
    """Compile the kernels missing from Numba's cache once, before the workers start.

    Without it each of the two test workers compiles every kernel its tests meet on a
    fresh clone, the same ones at the same time (measured here: the suite took 578 to
    618 s on a fresh cache, 228 s on a warm one, and the warmup 137 s on 2 cores). In
    the controller only (an xdist worker has ``workerinput``); on a warm cache it
    finds everything cached and compiles nothing.
    """
    if hasattr(session.config, "workerinput") or os.environ.get("SIDESTEP_TEST_WARMUP") == "0":
        return
    from sidestep.kernel_cache import warmup

    reporter = session.config.pluginmanager.get_plugin("terminalreporter")

    def tell(missing, processes):
        if reporter is not None:
            reporter.write_line(f"sidestep: compiling {len(missing)} kernels missing from "
                                f"Numba's cache by {processes} processes, once")

    done = warmup(on_start=tell)
    if done.compiled and reporter is not None:
        reporter.write_line(f"sidestep: compiled in {done.seconds:.0f} s")
