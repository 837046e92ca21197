"""A Spark standalone cluster on this machine for the tests: one master and N workers started from
the installed pyspark's ``spark-class`` (``org.apache.spark.deploy.master.Master`` and
``org.apache.spark.deploy.worker.Worker``), loopback only, free ports, one core each, work
directories and logs in a temporary folder.

The workers run with an environment of their own (``PATH=/usr/bin:/bin``, no ``PYSPARK_PYTHON``,
no ``PYTHONPATH``): they do not see the driver's virtual environment, so a job runs only if it
ships its Python dependencies (``spark_jobs.shipping``)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent


def children(pid: int) -> list[int]:
    """Every descendant process of ``pid`` (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@dataclass
class Cluster:
    folder: Path
    master_url: str = ""
    ui_url: str = ""
    master: subprocess.Popen | None = None
    workers: list[subprocess.Popen] = field(default_factory=list)

    def environment(self) -> dict[str, str]:
        """The daemons' environment: nothing of the driver's Python."""
        env = {"PATH": "/usr/bin:/bin", "HOME": str(self.folder), "SPARK_HOME": str(spark_home()),
               "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_DAEMON_MEMORY": "256m",
               "SPARK_LOG_DIR": str(self.folder / "logs"), "SPARK_CONF_DIR": str(self.folder / "conf")}
        if "JAVA_HOME" in os.environ:
            env["JAVA_HOME"] = os.environ["JAVA_HOME"]
        return env

    def _daemon(self, name: str, *args: str) -> subprocess.Popen:
        log = open(self.folder / "logs" / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        return subprocess.Popen([str(spark_home() / "bin" / "spark-class"), *args], env=self.environment(),
                                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=self.folder, start_new_session=True)

    def start(self, workers: int = 2, timeout: float = 120) -> "Cluster":
        (self.folder / "logs").mkdir(parents=True, exist_ok=True)
        (self.folder / "conf").mkdir(exist_ok=True)
        port, ui = free_port(), free_port()
        self.master_url, self.ui_url = f"spark://127.0.0.1:{port}", f"http://127.0.0.1:{ui}/json/"
        self.master = self._daemon("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                   "--port", str(port), "--webui-port", str(ui))
        for i in range(workers):
            self.add_worker(i)
        self.wait_for_workers(workers, timeout)
        return self

    def add_worker(self, i: int) -> subprocess.Popen:
        work = self.folder / f"worker{i}"
        work.mkdir(exist_ok=True)
        worker = self._daemon(f"worker{i}", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                              "--port", str(free_port()), "--webui-port", str(free_port()), "--cores", "1",
                              "--memory", "1g", "--work-dir", str(work), self.master_url)
        self.workers.append(worker)
        return worker

    def state(self) -> dict:
        with urllib.request.urlopen(self.ui_url, timeout=5) as response:
            return json.loads(response.read())

    def alive_workers(self) -> int:
        try:
            return sum(w["state"] == "ALIVE" for w in self.state()["workers"])
        except OSError:
            return 0

    def wait_for_workers(self, count: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.alive_workers() < count:
            if time.monotonic() > deadline or self.master.poll() is not None:
                logs = "\n".join(p.read_text()[-1500:] for p in sorted((self.folder / "logs").glob("*.log")))
                raise RuntimeError(f"{count} workers did not register with {self.master_url}:\n{logs}")
            time.sleep(0.5)

    def python_workers(self, worker: subprocess.Popen) -> list[int]:
        """The Python processes (pyspark's daemon and workers) under a worker's executor."""
        return [pid for pid in children(worker.pid)
                if any(module in command_line(pid) for module in ("pyspark.daemon", "pyspark.worker"))]

    def kill_worker(self, worker: subprocess.Popen) -> list[int]:
        """``kill -9`` the worker JVM, its executor JVM and their Python workers; the pids killed."""
        victims = [worker.pid, *children(worker.pid)]
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        worker.wait(timeout=30)
        return victims

    def stop(self) -> None:
        """Stop every daemon and what it started (executors, Python workers)."""
        daemons = [p for p in [*self.workers, self.master] if p is not None]
        pids = [pid for p in daemons for pid in children(p.pid)]
        for p in daemons:
            if p.poll() is None:
                p.terminate()
        for p in daemons:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def java_available() -> bool:
    return shutil.which("java") is not None or "JAVA_HOME" in os.environ
