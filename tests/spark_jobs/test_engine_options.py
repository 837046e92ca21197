"""The engine options of the command line and the typed Spark settings they become, the
spark-submit entry point's options and the reporting of worker errors (no Spark needed)."""

from __future__ import annotations

import argparse

import pytest

from lars.errors import RsplarsError
from spark_jobs.options import SparkOptions
from spark_jobs.runs import user_errors
from spark_jobs.submit import build_parser as submit_parser
from translator.cli import build_parser as rsplars_parser
from translator.cli.commands.engine_options import add_engine_options, spark_options


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}  # noqa: SLF001 - argparse has no public listing


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    return sub.choices[name]


def test_engine_options_defaults_and_errors(capsys) -> None:
    p = argparse.ArgumentParser()
    add_engine_options(p)
    args = p.parse_args([])
    assert (args.engine, args.master, args.partitions, args.parquet) == ("sequential", "local[*]", None, None)
    args = p.parse_args(["--engine", "spark", "--master", "spark://h:7077", "--partitions", "16", "--parquet", "o"])
    assert (args.engine, args.master, args.partitions, args.parquet) == ("spark", "spark://h:7077", 16, "o")
    with pytest.raises(SystemExit):
        p.parse_args(["--partitions", "0"])
    assert "positive integer" in capsys.readouterr().err


def test_engine_options_become_spark_options() -> None:
    p = argparse.ArgumentParser()
    add_engine_options(p, state=True)
    args = p.parse_args(["--master", "local[2]", "--partitions", "6", "--parquet", "out", "--spark-state", "kept"])
    assert spark_options(args) == SparkOptions(master="local[2]", partitions=6, parquet="out", state="kept")
    q = argparse.ArgumentParser()
    add_engine_options(q, parquet=False)
    assert spark_options(q.parse_args([])) == SparkOptions()


@pytest.mark.parametrize("given", [{"partitions": 0}, {"partitions": -2}, {"partitions": True}, {"partitions": 2.5},
                                   {"master": ""}, {"master": "  "}])
def test_spark_options_refuse_bad_settings(given) -> None:
    with pytest.raises(RsplarsError, match="Spark (partitions|master)"):
        SparkOptions(**given)


def test_submit_run_has_the_options_of_rsplars_run() -> None:
    """The options of the shared builders of ``translator.cli.commands.common`` plus the run options
    (submit.py builds its own parser: the Spark layer does not import the command line)."""
    from translator.cli.commands.common import add_data_options, add_query_options, add_translation_options

    shared = argparse.ArgumentParser()
    add_query_options(shared)
    add_data_options(shared, stream_required=False)
    add_translation_options(shared)
    ours = _options(_subparser(submit_parser(), "run"))
    run_options = {"--r2s", "--from", "--to", "--format", "--output"}
    assert _options(shared) | run_options <= ours
    assert run_options <= _options(_subparser(rsplars_parser(), "run"))
    assert {"--engine", "--master", "--partitions", "--parquet", "--elements"} <= ours
    assert _subparser(submit_parser(), "run").parse_args(["q.rq"]).engine == "spark"


def test_worker_errors_become_user_errors() -> None:
    captured = type("PythonException", (Exception,), {"__module__": "pyspark.errors.exceptions.captured"})
    text = ("An exception was thrown from the Python worker:\nTraceback (most recent call last):\n"
            '  File "x.py", line 1, in f\nlars.errors.SourceError: <term>: malformed RDF term \'<oops\'\n'
            "expected: an N-Triples term\n  File \"y\"\nSQLSTATE: 38000")
    with pytest.raises(RsplarsError, match=r"spark job failed: <term>: malformed RDF term '<oops'\nexpected: an N-Triples term$"):
        with user_errors():
            raise captured(text)
    with pytest.raises(ZeroDivisionError):  # anything else is a bug and keeps its traceback
        with user_errors():
            raise ZeroDivisionError
