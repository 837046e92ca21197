"""The W3C tests run the command line, which caches parsed queries (``RSPLARS_CACHE_DIR``): a
cache folder of this test run's own, so that tests write only to temporary folders."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _w3c_cache(tmp_path_factory):
    before = os.environ.get("RSPLARS_CACHE_DIR")
    os.environ["RSPLARS_CACHE_DIR"] = str(tmp_path_factory.mktemp("rsplars-cache"))
    yield
    if before is None:
        del os.environ["RSPLARS_CACHE_DIR"]
    else:
        os.environ["RSPLARS_CACHE_DIR"] = before
