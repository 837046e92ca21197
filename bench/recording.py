"""Where a benchmark writes its results and which commit they measured (not a test).

Every benchmark of ``bench/`` writes one file per benchmark and variant,
``bench/results/<benchmark>[.<variant>].json`` (the variant names the options that change the
workload, e.g. ``fresh_bench.memory.json``, ``agree_bench.quick.json``), so a new run replaces the
previous result of the same measurement; earlier results are in git's history. Each file records
the commit of the tree that was measured (``git rev-parse --short HEAD``) and whether that tree had
uncommitted changes, so a figure can be traced to the code it measured.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def results_path(benchmark: str, *variant: str) -> Path:
    """``bench/results/<benchmark>.<variant parts…>.json``; empty parts are left out."""
    return RESULTS / (".".join([benchmark, *(part for part in variant if part)]) + ".json")


def revision(tree: Path = ROOT) -> dict:
    """``{"commit": short hash of HEAD, "dirty": tracked files changed}`` of ``tree``; ``None`` for
    both outside a git checkout (e.g. an unpacked release)."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=tree, capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            return None
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status)}
