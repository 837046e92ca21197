"""The Python workers of the tests' SparkSession, with the faults a test asks for (docs/robustness.md).

Spark starts its Python workers through a daemon module (``spark.python.daemon.module``, the way
Spark's own test suite measures the workers' coverage). The tests' SparkSession (``tests/conftest.py``)
names this module and puts its folder on the workers' ``PYTHONPATH``; it then runs PySpark's own
daemon, so that a worker is PySpark's worker with two functions of the project wrapped once they are
imported (after the fork: nothing is imported in the daemon itself):

* ``spark_jobs.solve_blocks.solve_block`` and ``spark_jobs.point_jobs.solve_point_block`` (one call
  per block; the block number noted), for the faults that end the worker's process;
* ``translator.evaluate.engine.make_solver`` (called inside the block's error handling, only when
  the block is solved), for the faults of one block: an error the job names, a crash at every attempt.

Which fault, if any, is read at every block from the file named by ``RSPLARS_TEST_FAULTS`` (the
fixture ``spark_fault`` writes it), one line:

* ``exit-once:MARKER`` — the first worker to start a block exits (MARKER created; the task is retried);
* ``fail-block:B`` — solving block B raises every time (the job fails for good);
* ``exit-block:B`` — the worker solving block B exits every time it solves it (it crashes at every attempt).
"""

from __future__ import annotations

import functools
import importlib.abc
import os
import sys

FAULTS = os.environ.get("RSPLARS_TEST_FAULTS", "")
_block: list[int] = []  # the block being solved in this worker


def fault() -> tuple[str, str]:
    try:
        with open(FAULTS, encoding="utf-8") as f:
            kind, _, arg = f.read().strip().partition(":")
    except OSError:
        return "", ""
    return kind, arg


def _exit_worker() -> None:
    sys.stdout.flush()
    os._exit(3)  # a killed Python worker: no exception, no clean-up


def starting(block: int) -> None:
    """At the start of a block: the faults that end the worker."""
    kind, arg = fault()
    if kind == "exit-once":
        try:
            fd = os.open(arg, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(fd, f"block {block}\n".encode())
        os.close(fd)
        _exit_worker()


def solving() -> None:
    """When the block is solved (the block's attempt has been marked, ``solve_blocks._mark``): the
    faults of one block."""
    kind, arg = fault()
    if not _block or arg != str(_block[-1]):
        return
    if kind == "fail-block":
        raise RuntimeError(f"injected fault in block {_block[-1]}")
    if kind == "exit-block":
        _exit_worker()


def _per_block(fn, block_of):
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        block = block_of(*args)
        starting(block)
        _block.append(block)
        try:
            return fn(*args, **kwargs)
        finally:
            _block.pop()

    return wrapped


def _on_solve(fn):
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        solving()
        return fn(*args, **kwargs)

    return wrapped


WRAPS = {
    "spark_jobs.solve_blocks": ("solve_block", lambda f: _per_block(f, lambda key, pdf, job: int(key[0]))),
    "spark_jobs.point_jobs": ("solve_point_block", lambda f: _per_block(f, lambda solve, block: block.index)),
    "translator.evaluate.engine": ("make_solver", _on_solve),
}


class _WrapOnImport(importlib.abc.MetaPathFinder):
    """Wraps the functions of :data:`WRAPS` as their modules are imported."""

    def find_spec(self, name, path=None, target=None):
        if name not in WRAPS:
            return None
        for finder in sys.meta_path:
            if finder is self:
                continue
            spec = finder.find_spec(name, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None and spec.loader is not None:
                load = spec.loader.exec_module
                attribute, wrap = WRAPS[name]

                def exec_module(module, load=load, attribute=attribute, wrap=wrap):
                    load(module)
                    setattr(module, attribute, wrap(getattr(module, attribute)))

                spec.loader.exec_module = exec_module  # type: ignore[method-assign]
                return spec
        return None


if __name__ == "__main__":
    sys.meta_path.insert(0, _WrapOnImport())
    from pyspark import daemon

    daemon.manager()
