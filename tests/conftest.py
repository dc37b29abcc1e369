"""Test settings: Hypothesis profiles sized for a 2-core CI machine.

``ci`` (the default) draws its examples from a fixed seed, so a run on a
fresh clone checks exactly what the last run here checked and cannot fail
by chance on an unrelated change. ``explore`` draws fresh random examples,
many more of them: run it before a release or after touching a kernel
(``HYPOTHESIS_PROFILE=explore pytest tests/test_properties.py tests/kernels``).
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
