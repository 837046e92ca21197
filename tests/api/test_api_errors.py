"""Errors of the API: the documented types, with the file, line and column the command line names."""

from __future__ import annotations

import re

import pandas as pd
import pytest

import rsplars

from api_helpers import CHECK, CSR_STREAM, DATA, Q2, RUNNING, S1, S2

MALFORMED = sorted((DATA / "queries" / "malformed").glob("*.rq"))


def cli_position(err: str) -> tuple[str, int, int]:
    """FILE:LINE:COLUMN of the command line's error message."""
    m = re.search(r"^(.+?):(\d+):(\d+): ", err, re.M)
    assert m, err
    return m.group(1), int(m.group(2)), int(m.group(3))


@pytest.mark.parametrize("path", MALFORMED[:6], ids=lambda p: p.name)
def test_query_errors_carry_the_cli_position(cli, path):
    code, _, err = cli("translate", path)
    assert code == 2
    with pytest.raises(rsplars.SourceError) as caught:
        rsplars.parse(path)
    error = caught.value
    assert isinstance(error, rsplars.RsplarsError)
    assert (error.source, error.line, error.column) == cli_position(err)
    assert str(error) in err


def test_query_text_errors_name_the_input():
    with pytest.raises(rsplars.QuerySyntaxError) as caught:
        rsplars.parse("PREFIX : <http://example.org/>\nSELECT ?x\nWHERE { ?x :p }", dialect="rspql")
    assert (caught.value.source, caught.value.line) == ("<input>", 3)
    assert caught.value.column is not None and caught.value.expected


def test_stream_file_errors_carry_the_cli_position(cli, tmp_path):
    bad = tmp_path / "offers.nt"
    lines = (RUNNING / "offers.nt").read_text().splitlines()
    lines[1] = lines[1].replace("<http", "<ht tp", 1)
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = cli("run", Q2, "--stream", f"{S1}={bad}", "--stream", f"{S2}={RUNNING / 'near.nt'}", "--unit", "m")
    assert code == 2
    with pytest.raises(rsplars.SourceError) as caught:
        rsplars.run(Q2, {S1: bad, S2: RUNNING / "near.nt"}, options=rsplars.TranslationOptions(unit="m"))
    assert (caught.value.source, caught.value.line, caught.value.column) == cli_position(err)


def test_dataframe_errors_name_the_stream_and_row():
    frame = pd.DataFrame([("<http://ex.org/a>", "<http://ex.org/p>", "<http://ex.org/b>", 1),
                          ("<http://ex.org/a>", "<http://ex.org/p>", '"unclosed', 2)],
                         columns=["subject", "predicate", "object", "time"])
    with pytest.raises(rsplars.SourceError) as caught:
        rsplars.run(Q2, {S1: frame})
    assert caught.value.source == f"stream <{S1}>" and caught.value.line == 2
    with pytest.raises(rsplars.RsplarsError, match="no column time"):
        rsplars.run(Q2, {S1: frame.drop(columns=["time"])})
    backwards = [(("<http://ex.org/a>", "<http://ex.org/p>", "<http://ex.org/b>"), t) for t in (3, 1)]
    with pytest.raises(rsplars.RsplarsError, match="element 2: time 1 comes after time 3"):
        rsplars.run(Q2, {S1: backwards})


def test_unknown_stream_is_named():
    with pytest.raises(rsplars.RsplarsError, match=r"stream <http://ex.org/typo> is not a stream of the query"):
        rsplars.run(Q2, {"http://ex.org/typo": []})


def test_answers_errors_carry_the_cli_position(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"relations": [\n  {"timestamp": 1, "results": {"bindings": [}}\n]}\n')
    code, _, err = cli("check", CHECK / "listing1.rq", "--stream", f"{CSR_STREAM}={CHECK / 'listing1.nt'}",
                       "--stream-time-unit", "ms", "--answers", bad, "--profile", "csparql")
    assert code == 2
    with pytest.raises(rsplars.SourceError) as caught:
        rsplars.check(CHECK / "listing1.rq", bad, {CSR_STREAM: CHECK / "listing1.nt"}, profile="csparql",
                      stream_time_unit="ms")
    assert (caught.value.source, caught.value.line, caught.value.column) == cli_position(err)


def test_bad_profile_is_a_policy_error():
    with pytest.raises(rsplars.PolicyError, match="unknown profile 'nope'"):
        rsplars.run(CHECK / "listing1.rq", {CSR_STREAM: CHECK / "listing1.nt"},
                    profile=rsplars.ProfileOptions("nope"))


def test_a_missing_query_file_is_named(tmp_path):
    missing = tmp_path / "q1.rq"
    for given in (missing, str(missing)):
        with pytest.raises(rsplars.RsplarsError, match=f"cannot read query {re.escape(str(missing))}"):
            rsplars.parse(given)


def test_a_stream_given_twice_is_an_error():
    with pytest.raises(rsplars.RsplarsError, match=f"stream <{S1}> is given twice"):
        rsplars.run(Q2, {S1: [], f"<{S1}>": []})
