"""Prefetch hints change nothing but timing."""
import numpy as np
from numba import njit

from sidestep.kernels.prefetch import prefetch


@njit
def _sum_with_hints(values, ahead):
    total = 0.0
    for i in range(values.shape[0]):
        prefetch(values, i + ahead)     # past the end too: a hint never faults
        total += values[i]
    return total


def test_prefetch_leaves_results_and_data_alone():
    values = np.arange(1000.0)
    before = values.copy()
    assert _sum_with_hints(values, 64) == before.sum()
    assert _sum_with_hints(values, 10**12) == before.sum()
    assert np.array_equal(values, before)


def test_prefetch_into_a_2d_array_by_flat_index():
    grid = np.arange(12.0).reshape(3, 4)

    @njit
    def touch(a):
        prefetch(a, 7)
        return a[1, 3]

    assert touch(grid) == 7.0
