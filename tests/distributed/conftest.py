"""One Ray cluster of 2 CPUs for the whole test run (Ray has no local mode any more)."""
import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    """``ray.init(num_cpus=2)`` once; shut down at the end of the run. Skips without Ray."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (the distributed extra)")
    if not ray.is_initialized():
        # address="local": a new instance even where `ray start` left a cluster address.
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
