"""The row queue batch kernels share between threads: every row exactly once."""
import numpy as np
from numba import njit

from sidestep.kernels.row_queue import next_rows, row_queue
from sidestep.threads import SERIAL_ROWS, run_rows


@njit(nogil=True)
def _take_all(queue):
    chunks = []
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        chunks.append((first, stop))
    return chunks


@njit(nogil=True)
def _count_rows(counts, queue):
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for r in range(first, stop):
            counts[r] += 1


def test_chunks_cover_the_rows_in_order():
    assert _take_all(row_queue(3, 20, 5)) == [(3, 8), (8, 13), (13, 18), (18, 20)]


def test_empty_range_gives_no_chunk():
    assert _take_all(row_queue(4, 4, 8)) == []


def test_chunk_below_one_is_one():
    assert _take_all(row_queue(0, 3, 0)) == [(0, 1), (1, 2), (2, 3)]


def test_threads_take_every_row_exactly_once():
    n = 50 * SERIAL_ROWS + 7
    for _ in range(5):
        counts = np.zeros(n, dtype=np.int64)
        run_rows(_count_rows, n, counts)
        assert (counts == 1).all()


def test_few_rows_run_on_the_calling_thread():
    counts = np.zeros(SERIAL_ROWS - 1, dtype=np.int64)
    run_rows(_count_rows, len(counts), counts)
    assert (counts == 1).all()
