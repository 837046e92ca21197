"""What a Spark cluster's Python workers need, built once and shipped with the job.

Spark documents how Python code and its dependencies reach executors that do not share the
driver's environment (https://spark.apache.org/docs/latest/api/python/tutorial/python_packaging.html):
a packed virtual environment given as ``spark.archives`` (``--archives env.tar.gz#environment``)
with the workers' interpreter set to ``./environment/bin/python``, and the project's own code as a
zip on ``spark.submit.pyFiles`` (``--py-files``). This module builds both under one folder:

* ``deps-py3.X-<key>.tar.gz``: a virtual environment holding the workers' dependencies (clingo,
  lark, rdflib, pandas, pyarrow) pinned to the driver's installed versions, packed as venv-pack
  does (the tree of the environment, ``bin/python`` a link to the same interpreter path on every
  node). pyspark itself is not in it: Spark puts its own ``pyspark.zip`` and py4j on the workers'
  path. Cached by the Python version and the pins, so it is built once (≈ 10 s with pip's cache)
  and reused until a dependency changes.
* ``rsplars-<version>-<hash>.zip``: the packages ``translator``, ``lars``, ``asp`` and
  ``spark_jobs`` (package data included), named by a hash of their files, so a change of the code
  gives a new zip (≈ 1 s) and the workers never run stale code.
* ``shipped.json``: the two paths of the latest build; :mod:`spark_jobs.context` reads it when
  ``RSPLARS_SPARK_ENV`` names the folder and the master is not local.

One command builds it (``make spark-env``, or ``python -m spark_jobs.submit spark-env --build-dir DIR``,
which calls :func:`build`); it prints the ``export RSPLARS_SPARK_ENV=…`` line to use (docs/spark.md,
"On a cluster").
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

#: the distributions the Python workers import (pyspark comes from Spark itself)
WORKER_DEPENDENCIES = ("clingo", "lark", "rdflib", "pandas", "pyarrow")
#: the packages of the project shipped as one zip
PACKAGES = ("rsplars", "translator", "lars", "asp", "spark_jobs")
MANIFEST = "shipped.json"
#: the name the archive is unpacked under on every executor (``#environment``)
ARCHIVE_ALIAS = "environment"
WORKER_PYTHON = f"./{ARCHIVE_ALIAS}/bin/python"
SOURCE_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Shipped:
    """The two files a cluster job ships: the packed dependencies and the project's zip."""

    archive: Path
    py_files: Path

    def to_json(self) -> dict[str, str]:
        return {"archive": str(self.archive), "py_files": str(self.py_files), "python": WORKER_PYTHON}


def pins() -> list[str]:
    """``name==version`` of every worker dependency as installed next to the driver."""
    return [f"{name}=={metadata.version(name)}" for name in WORKER_DEPENDENCIES]


def python_tag() -> str:
    return f"py{sys.version_info.major}.{sys.version_info.minor}"


def base_python() -> Path:
    """The interpreter the driver's virtual environment was made from (the same path on every node)."""
    return Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"


def dependencies_archive(build_dir: Path) -> Path:
    """The packed environment of :data:`WORKER_DEPENDENCIES`, built unless cached."""
    key = hashlib.sha256("\n".join([python_tag(), *pins()]).encode()).hexdigest()[:12]
    archive = build_dir / f"deps-{python_tag()}-{key}.tar.gz"
    if archive.exists():
        return archive
    venv = build_dir / f"deps-{python_tag()}-{key}"
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([str(base_python()), "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    *pins()], check=True)
    partial = archive.with_suffix(".partial")
    with tarfile.open(partial, "w:gz", compresslevel=1) as tar:
        for path in sorted(venv.iterdir()):
            tar.add(path, arcname=path.name, filter=_without_caches)
    partial.replace(archive)
    shutil.rmtree(venv)
    return archive


def _without_caches(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    return None if "__pycache__" in info.name.split("/") else info


def project_zip(build_dir: Path, root: Path = SOURCE_ROOT) -> Path:
    """The project's packages as one zip for ``--py-files``, named by a hash of their files."""
    files = sorted(p for package in PACKAGES for p in (root / package).rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    target = build_dir / f"rsplars-{_version()}-{digest.hexdigest()[:12]}.zip"
    if not target.exists():
        partial = target.with_suffix(".partial")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in files:
                zf.write(path, path.relative_to(root).as_posix())
        partial.replace(target)
    return target


def _version() -> str:
    try:
        return metadata.version("rsplars")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a plain checkout
        return "0"


def build(build_dir: str | os.PathLike[str]) -> Shipped:
    """Build (or reuse) both files under ``build_dir`` and record them in its ``shipped.json``."""
    folder = Path(build_dir).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    shipped = Shipped(dependencies_archive(folder), project_zip(folder))
    (folder / MANIFEST).write_text(json.dumps(shipped.to_json(), indent=2) + "\n")
    return shipped


def load(build_dir: str | os.PathLike[str]) -> Shipped:
    """The files recorded by :func:`build` in ``build_dir``."""
    manifest = Path(build_dir) / MANIFEST
    if not manifest.exists():
        raise FileNotFoundError(f"{manifest}: no shipped environment here; build it with `make spark-env`")
    data = json.loads(manifest.read_text())
    return Shipped(Path(data["archive"]), Path(data["py_files"]))
