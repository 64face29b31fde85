"""The process pool that extracts files: one that a failed or interrupted run ends at once, and
whose dead worker ends the run instead of hanging it.

`concurrent.futures.ProcessPoolExecutor` alone gives neither:
- `with ProcessPoolExecutor` waits for every worker, so Ctrl-C would wait for the files in flight;
- a worker killed while it writes a result (the OOM killer, a crash in native code, `kill -9`)
  leaves part of a message in the result pipe. The pool's manager thread, woken by the readable
  pipe before it looks at the dead worker, then waits for the rest of the message, which never
  comes: no future ever completes and no `BrokenProcessPool` is raised (seen on CPython 3.11).
So results are awaited a moment at a time, with a look at the workers in between, and a run that
ends early ends the pool's workers and its manager thread.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence, TypeVar

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")

WATCH_SECONDS = 0.2  # how long a result is awaited before the workers are looked at again


@contextmanager
def worker_pool(jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> Iterator[ProcessPoolExecutor]:
    """A pool of `jobs` workers. Leaving it normally waits for them; leaving it by an exception
    (Ctrl-C, a dead worker) cancels the pending work and terminates them."""
    pool = ProcessPoolExecutor(jobs, initializer=initializer, initargs=initargs)
    try:
        yield pool
    except BaseException:
        _tear_down(pool)
        raise
    pool.shutdown(wait=True)


def ordered(pool: ProcessPoolExecutor, function: Callable[[Item], Outcome], items: Sequence[Item],
            chunksize: int) -> Iterator[Outcome]:
    """`pool.map(function, items, chunksize=chunksize)`, except that a worker which dies raises
    `BrokenProcessPool` here even when the pool's own manager never notices (see the module)."""
    chunks = [items[start:start + chunksize] for start in range(0, len(items), chunksize)]
    futures = [pool.submit(_each, function, chunk) for chunk in chunks]
    for future in futures:
        while not wait([future], timeout=WATCH_SECONDS).done:
            dead = [worker for worker in _workers(pool) if worker.exitcode is not None]
            if dead:
                raise BrokenProcessPool(f"worker process {dead[0].pid} ended with exit code {dead[0].exitcode} "
                                        "in the middle of the run")
        yield from future.result()


def _each(function: Callable[[Item], Outcome], chunk: Sequence[Item]) -> list[Outcome]:
    """One chunk's outcomes, in a worker: one message back for several small files."""
    return [function(item) for item in chunk]


def _workers(pool: ProcessPoolExecutor) -> list[Any]:
    return list((getattr(pool, "_processes", None) or {}).values())


def _tear_down(pool: ProcessPoolExecutor) -> None:
    """Cancel what is pending, terminate the workers, and let the manager thread go."""
    workers = _workers(pool)
    manager = getattr(pool, "_executor_manager_thread", None)
    results = getattr(pool, "_result_queue", None)  # `shutdown` forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(1)
    # A manager stuck on a dead worker's half-written message reads on until every writer of the
    # result pipe is gone; the workers are, and this process's copy goes now, so it reads the end
    # of the pipe and leaves (the interpreter's exit would otherwise wait for it forever).
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()
    # the manager closes its wake-up pipe on the way out; the interpreter's exit hook writes to
    # that pipe, and racing the close it prints an EBADF traceback on Ctrl-C
    if manager is not None:
        manager.join(1)
