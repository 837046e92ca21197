"""Where the Python workers run (``spark_jobs.context.worker_python``): the driver's interpreter for
local masters only; on a cluster the shipped environment of ``spark_jobs.shipping``, or nothing
set (the nodes' own Python). No Spark is started here."""

from __future__ import annotations

import json
import os
import sys
import tarfile
import zipfile

import pytest

from spark_jobs.context import SHIPPED_CODE, SHIPPED_ENV_VARIABLE, worker_python
from spark_jobs.shipping import MANIFEST, PACKAGES, WORKER_PYTHON, load, project_zip


@pytest.mark.parametrize("master", ["local", "local[2]", "local[*]", "local[2,4]"])
def test_local_masters_use_the_drivers_interpreter(master, monkeypatch) -> None:
    monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    monkeypatch.setenv(SHIPPED_ENV_VARIABLE, "/nonexistent")  # never read for a local master
    assert worker_python(master) == {}
    assert os.environ["PYSPARK_PYTHON"] == sys.executable


def test_cluster_without_shipped_environment_does_not_impose_the_drivers_python(monkeypatch) -> None:
    monkeypatch.delenv(SHIPPED_ENV_VARIABLE, raising=False)
    monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    monkeypatch.setattr("spark_jobs.context._SET_HERE", [])
    worker_python("local[2]")  # an earlier local SparkSession of this process sets it...
    assert os.environ["PYSPARK_PYTHON"] == sys.executable
    assert worker_python("spark://127.0.0.1:7077") == {}
    assert "PYSPARK_PYTHON" not in os.environ  # ...and a cluster's workers do not get it


def test_the_users_pyspark_python_is_kept_for_a_cluster(monkeypatch) -> None:
    """Exported by the user, even when it is the driver's own interpreter: never removed."""
    monkeypatch.delenv(SHIPPED_ENV_VARIABLE, raising=False)
    monkeypatch.setattr("spark_jobs.context._SET_HERE", [])
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    worker_python("local[2]")
    assert worker_python("spark://127.0.0.1:7077") == {}
    assert os.environ["PYSPARK_PYTHON"] == sys.executable


def test_cluster_ships_the_recorded_environment(tmp_path, monkeypatch) -> None:
    archive, code = tmp_path / "deps.tar.gz", tmp_path / "rsplars.zip"
    (tmp_path / MANIFEST).write_text(json.dumps({"archive": str(archive), "py_files": str(code)}))
    monkeypatch.setenv(SHIPPED_ENV_VARIABLE, str(tmp_path))
    monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    settings = worker_python("spark://127.0.0.1:7077")
    assert settings == {"spark.archives": f"{archive}#environment", "spark.pyspark.python": WORKER_PYTHON,
                        SHIPPED_CODE: str(code)}
    assert os.environ["PYSPARK_PYTHON"] == "./environment/bin/python"


def test_missing_manifest_names_the_command(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="make spark-env"):
        load(tmp_path)


def test_project_zip_holds_the_packages_and_follows_the_code(tmp_path) -> None:
    first = project_zip(tmp_path)
    assert project_zip(tmp_path) == first  # unchanged code: the same zip, not rebuilt
    with zipfile.ZipFile(first) as zf:
        names = zf.namelist()
    assert {name.split("/")[0] for name in names} == set(PACKAGES)
    assert "translator/query/grammars/cqels.lark" in names and not any("__pycache__" in n for n in names)
    root = tmp_path / "copy"
    for package in PACKAGES:
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
    changed = project_zip(tmp_path, root)
    (root / "lars" / "__init__.py").write_text("# changed\n")
    assert project_zip(tmp_path, root) != changed


def test_archive_is_unpacked_as_an_environment(shipped_env) -> None:
    """The packed tree has ``bin/python`` at its top (``./environment/bin/python`` once unpacked)."""
    with tarfile.open(load(shipped_env).archive) as tar:
        names = set(tar.getnames())
    assert "bin/python" in names and "pyvenv.cfg" in names
    assert any(n.startswith("lib/python") and n.endswith("site-packages/clingo") for n in names)
