"""The thread cap of the batch calls: an argument, an environment variable, the same answers."""
import math
import threading

import numpy as np
import pytest
from numba import njit

import sidestep
from sidestep import threads
from sidestep.kernels.row_queue import next_rows, row_queue, rows_done, wait_rows


@pytest.fixture(autouse=True)
def no_cap(monkeypatch):
    """Every test starts without a cap and leaves none behind."""
    monkeypatch.delenv(threads.ENV, raising=False)
    previous = threads.set_threads(None)
    yield
    threads.set_threads(previous)


def callers(n_rows):
    """The threads that called a batch kernel over ``n_rows`` rows."""
    seen = []

    def kernel(queue):
        seen.append(threading.get_ident())

    threads.run_rows(kernel, n_rows)
    return seen


def test_a_cap_of_one_runs_the_kernel_on_the_calling_thread_alone():
    threads.set_threads(1)
    assert callers(10_000) == [threading.get_ident()]


def test_a_cap_of_two_runs_the_kernel_on_two_threads():
    threads.set_threads(2)
    seen = callers(10_000)
    assert len(seen) == 2 and len(set(seen)) == 2


def test_the_environment_variable_caps_and_the_argument_wins(monkeypatch):
    monkeypatch.setenv(threads.ENV, "1")
    assert threads.thread_count() == 1
    assert callers(10_000) == [threading.get_ident()]
    threads.set_threads(3)
    assert threads.thread_count() == 3
    assert threads.set_threads(None) == 3
    assert threads.thread_count() == 1
    monkeypatch.setenv(threads.ENV, "")
    assert threads.thread_count() == threads._cores()


@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5"])
def test_a_bad_environment_variable_is_a_value_error_naming_it(monkeypatch, bad):
    monkeypatch.setenv(threads.ENV, bad)
    with pytest.raises(ValueError, match=threads.ENV):
        threads.thread_count()


@pytest.mark.parametrize("bad", [0, -1, 2.5, "2", True])
def test_a_bad_cap_is_a_value_error_naming_the_argument(bad):
    with pytest.raises(ValueError, match="count"):
        threads.set_threads(bad)
    assert threads.thread_count() == threads._cores()      # nothing changed


def test_answers_are_the_same_with_one_and_two_threads():
    rng = np.random.default_rng(3)
    world = sidestep.World2D()
    world.add_circles(rng.uniform(-40, 40, (300, 2)), rng.uniform(0.2, 1.5, 300))
    world.add_walls(rng.uniform(-40, 40, (80, 2)), rng.uniform(-40, 40, (80, 2)), 0.1)
    world.add_grid(rng.random((40, 40)) < 0.2, 0.5, (-10.0, -10.0))
    starts = rng.uniform(-40, 40, (5000, 2))
    steps = rng.normal(0, 2, (5000, 2))
    answers = {}
    for count in (1, 2):
        threads.set_threads(count)
        ends = world.move_many(starts, steps, radius=0.3)
        near = world.nearest(starts)
        hits = world.raycast(starts, steps)
        answers[count] = (ends, world.clearance(starts), near.obstacle, near.normal,
                          hits.distance, hits.obstacle)
    for one, two in zip(answers[1], answers[2]):
        np.testing.assert_array_equal(one, two)


@njit(cache=True, nogil=True)
def _counted_rows(out, plus, done, queue):
    # Rows of ``out`` from ``queue`` (``row + plus``, slowly enough that the threads
    # overlap), counted in ``done`` once written.
    while True:
        a, b = next_rows(queue)
        if a >= b:
            break
        for r in range(a, b):
            x = 0.0
            for i in range(400):
                x += math.sqrt(r + i)
            out[r] = r + plus + 0.0 * x
        rows_done(done, b - a)


@njit(cache=True, nogil=True)
def _two_phases(first, second, cells, done, queue):
    # First phase: rows of ``first`` from the queue ``cells``, counted in ``done``; the
    # second reads rows of the first that the other thread may have written.
    n = first.shape[0]
    _counted_rows(first, 1.0, done, cells)
    wait_rows(done, n)
    while True:
        a, b = next_rows(queue)
        if a >= b:
            break
        for r in range(a, b):
            second[r] = first[(r * 7919) % n]


@pytest.mark.parametrize("count", [1, 2])
def test_a_second_phase_sees_every_row_of_the_first(count):
    """The crowd steps' barrier (row_queue.rows_done, wait_rows): no thread goes on to the
    second phase before every row of the first is written, whichever thread wrote it."""
    threads.set_threads(count)
    n = 20_000
    for _ in range(5):
        first = np.zeros(n)
        second = np.zeros(n)
        threads.run_rows(_two_phases, n, first, second, row_queue(0, n, 64),
                         np.zeros(1, dtype=np.int64))
        assert np.array_equal(second, (np.arange(n) * 7919) % n + 1.0)


@njit(cache=True, nogil=True)
def _counted(out, done, queue):
    # Each row written, the rows counted, and the call returns only once every row is
    # done by whichever thread took it: a kernel the caller need not join.
    _counted_rows(out, 0.0, done, queue)
    wait_rows(done, out.shape[0])


def test_a_kernel_that_counts_its_rows_is_done_when_the_call_returns_unjoined():
    threads.set_threads(2)
    n = 20_000
    for _ in range(5):
        out = np.full(n, -1.0)
        threads.run_rows(_counted, n, out, np.zeros(1, dtype=np.int64), join=False)
        assert np.array_equal(out, np.arange(n, dtype=float))


def test_an_error_in_a_thread_not_joined_is_raised_by_the_next_call():
    threads.set_threads(2)
    main = threading.get_ident()

    def kernel(queue):
        if threading.get_ident() != main:
            raise RuntimeError("a pooled thread failed")

    threads.run_rows(kernel, 10_000, join=False)           # returns without waiting
    for f in list(threads._unjoined):
        f.exception()                                       # let it finish
    with pytest.raises(RuntimeError, match="pooled thread failed"):
        threads.run_rows(kernel, 10_000)
    assert not threads._unjoined
