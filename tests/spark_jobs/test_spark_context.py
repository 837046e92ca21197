"""The SparkSession of :mod:`spark_jobs.context` starts offline and runs a pandas UDF job."""

from __future__ import annotations

import pandas as pd
import pytest

pytestmark = pytest.mark.spark


def test_spark_settings(spark) -> None:
    conf = spark.sparkContext.getConf()
    from spark_jobs.context import TASK_ATTEMPTS

    # local[2] retries a failed task (docs/robustness.md): Spark runs it as local[2,F]
    assert spark.sparkContext.master == f"local[2,{TASK_ATTEMPTS}]"
    assert conf.get("spark.sql.shuffle.partitions") == "2"
    assert conf.get("spark.sql.session.timeZone") == "UTC"


def test_apply_in_pandas_groups(spark) -> None:
    df = spark.createDataFrame(
        pd.DataFrame({"interval": [0, 0, 1, 1, 1], "t": [1, 2, 5, 6, 7]})
    )

    def span(key, pdf):  # both parameters unannotated on purpose (STYLE.md §3)
        return pd.DataFrame({"interval": [key[0]], "n": [len(pdf)], "last": [pdf["t"].max()]})

    out = (
        df.groupBy("interval")
        .applyInPandas(span, schema="interval long, n long, last long")
        .orderBy("interval")
        .toPandas()
    )
    assert out.to_dict("records") == [
        {"interval": 0, "n": 2, "last": 2},
        {"interval": 1, "n": 3, "last": 7},
    ]
