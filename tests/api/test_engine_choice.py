"""``rsplars.run``/``rsplars.agree`` with ``engine=`` and ``spark=SparkOptions(...)``: what is refused
before Spark starts (no JVM needed here; the runs on Spark are in tests/spark_jobs/test_api_on_spark.py)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

import rsplars

from api_helpers import Q1, Q2, RUNNING, S1, S2

STREAMS = {S1: RUNNING / "offers.nt", S2: RUNNING / "near.nt"}
MINUTES = rsplars.TranslationOptions(unit="m")


def test_spark_options_are_public_and_checked():
    assert rsplars.SparkOptions().master == "local[*]"
    assert rsplars.SparkOptions(master="spark://h:7077", partitions=8).partitions == 8
    with pytest.raises(rsplars.RsplarsError, match="positive integer, got 0"):
        rsplars.SparkOptions(partitions=0)
    with pytest.raises(FrozenInstanceError):
        rsplars.SparkOptions().master = "local[2]"  # type: ignore[misc]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: rsplars.run(Q2, STREAMS, options=MINUTES, engine="gpu"), "unknown engine 'gpu'"),
    (lambda: rsplars.run(Q2, STREAMS, options=MINUTES, spark=rsplars.SparkOptions()), "needs engine='spark'"),
    (lambda: rsplars.run(Q2, STREAMS, options=MINUTES, engine="spark", spark="local[2]"),  # type: ignore[arg-type]
     "expected SparkOptions"),
    (lambda: rsplars.run(Q1, STREAMS, RUNNING / "static.ttl", options=MINUTES, engine="spark",
                         profile=rsplars.ProfileOptions("csparql")), "engine profiles .* do not run on Spark"),
    (lambda: rsplars.run(Q2, None, RUNNING / "static.ttl", engine="spark"), "engine='spark' needs streams"),
    (lambda: rsplars.run(Q2, STREAMS, options=MINUTES, engine="spark", start=5, end=2), "start 5 is after end 2"),
    (lambda: rsplars.agree(Q1, STREAMS, RUNNING / "static.ttl", unit="m", engine="gpu"), "unknown engine 'gpu'"),
    (lambda: rsplars.agree(Q1, STREAMS, RUNNING / "static.ttl", unit="m", spark=rsplars.SparkOptions()),
     "needs engine='spark'"),
])
def test_refused_before_spark_starts(call, message):
    with pytest.raises(rsplars.RsplarsError, match=message):
        call()
