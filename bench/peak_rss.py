"""Run a command and report its own wall time, CPU time and peak RSS (not a test).

    python bench/peak_rss.py REPORT.json CMD [ARG …]

The benchmarks start their commands from a Python process that holds the answers it compared so
far. On Linux a child's peak RSS (``ru_maxrss``) is at least the RSS of the process it was forked
from, since the high-water mark of the memory it had before ``exec`` is kept: a forked child of a
large bench process reports the bench's size, not its own. This launcher is a small process of its
own; the command, forked from it, reports its own peak. Its standard streams are the command's;
``REPORT.json`` gets ``{"wall_s", "cpu_s", "peak_kib", "exit"}``; the exit code is the command's.
"""

import json
import os
import sys
import time


def main() -> int:
    report, cmd = sys.argv[1], sys.argv[2:]
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    with open(report, "w", encoding="utf-8") as f:
        json.dump({"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_kib": usage.ru_maxrss, "exit": code}, f)
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())
