"""The research notebooks run top to bottom: every cell executes without error.

Each notebook under ``notebooks/`` is executed with nbclient in a fresh kernel whose working
directory is ``notebooks/`` (as when a reader opens it); the executed copy goes to a temporary
directory and the figures and result files the notebook writes go there too (environment variables
``RSPLARS_NB_FIGURES`` / ``RSPLARS_NB_RESULTS``), so a test run never rewrites committed files.

Checks per notebook: no cell raises; the run stays inside its time budget (a hard deadline for the
whole notebook, and nbclient's per-cell timeout); the closing cell prints
its findings (a ``Findings`` line, computed in the run); it saves at least one PNG figure; and the
committed file stays small enough to render on a code host.
"""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
EXPECTED = ("01_running_example", "02_translations", "03_agreement_vs_density", "04_performance", "05_judging_engines")
CELL_TIMEOUT_S = 240
NOTEBOOK_BUDGET_S = 300
MAX_COMMITTED_BYTES = 600_000


@contextmanager
def deadline(seconds: int, what: str) -> Iterator[None]:
    """Raise TimeoutError in the main thread after ``seconds`` (the notebook's whole budget; nbclient's
    own ``timeout`` only bounds each cell). nbclient shuts the kernel down when the error unwinds."""

    def expire(signum, frame):
        raise TimeoutError(f"{what} did not finish within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def notebook_paths() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def test_every_documented_notebook_is_there() -> None:
    assert sorted(p.stem for p in notebook_paths()) == sorted(EXPECTED)


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_notebook_runs_clean(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert path.stat().st_size <= MAX_COMMITTED_BYTES, f"{path.name}: strip heavy outputs before committing"
    figures, results = tmp_path / "figures", tmp_path / "results"
    monkeypatch.setenv("RSPLARS_NB_FIGURES", str(figures))
    monkeypatch.setenv("RSPLARS_NB_RESULTS", str(results))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:  # execute from a clean slate, not on top of the stored outputs
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    start = time.perf_counter()
    with deadline(NOTEBOOK_BUDGET_S, path.name):
        client.execute()  # raises CellExecutionError on the first failing cell
    elapsed = time.perf_counter() - start
    nbformat.write(nb, tmp_path / path.name)

    assert elapsed < NOTEBOOK_BUDGET_S, f"{path.name} took {elapsed:.0f} s (budget {NOTEBOOK_BUDGET_S} s)"
    code = [c for c in nb.cells if c.cell_type == "code"]
    closing = "".join(o.get("text", "") for o in code[-1].outputs if o.output_type == "stream")
    assert "Findings" in closing, f"{path.name}: the closing cell must print its findings"
    assert sorted(figures.glob("*.png")), f"{path.name} saved no figure"
