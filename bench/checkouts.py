"""The ``rsplars`` a benchmark runs: this tree's, or another checkout's for an A/B measurement in
the same run (not a test).

``--against CHECKOUT`` (a ``git worktree`` of an earlier commit, say) runs that checkout's code with
this interpreter and its packages, on the same files, beside the same baseline, so that the ratio of
a change is read from one run on one machine under one load.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("lars", "translator", "asp", "spark_jobs")


def rsplars_command(checkout: Path | None = None) -> list[str]:
    """The command that runs ``rsplars`` of this tree, or of ``checkout`` (its folder first on the
    module path; ``-P``: the working directory is not put before it)."""
    if checkout is None:
        return [sys.executable, "-m", "translator"]
    return ["env", f"PYTHONPATH={checkout}", sys.executable, "-P", "-m", "translator"]


def compile_trees(*checkouts: Path | None) -> None:
    """Compile the bytecode of this tree and of ``checkouts`` first (rsplars as installed: the
    first measured run does not pay for it)."""
    for tree in (ROOT, *(c for c in checkouts if c is not None)):
        subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(tree / pkg) for pkg in PACKAGES)],
                       check=True, stdout=subprocess.DEVNULL)
