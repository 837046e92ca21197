"""How a command ends (the ``rsplars`` command line, ``spark-submit spark_jobs/submit.py``): the exit
codes, and a user's error printed without a traceback.

The errors themselves (:class:`lars.errors.RsplarsError` and the errors derived from it) are raised
by every stage; a command prints ``str(error)`` and exits with :data:`EXIT_USAGE` (2).
"""

from __future__ import annotations

import sys

from lars.errors import RsplarsError, SourceError

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


def report_error(err: RsplarsError) -> int:
    """Print a user error without a traceback and return the exit code 2. A SourceError starts with
    FILE:LINE:COLUMN; anything else is prefixed with the program name."""
    print(err if isinstance(err, SourceError) else f"rsplars: {err}", file=sys.stderr)
    return EXIT_USAGE
