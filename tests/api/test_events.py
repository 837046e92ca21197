"""EP-SPARQL runs through the API equal ``rsplars run`` on event patterns (docs/epsparql.md): each
complex event once, with its interval, under the selection and consumption policies of RSEP-QL."""

from __future__ import annotations

import pytest

import rsplars

from api_helpers import DATA

FIGURE1 = DATA / "epsparql" / "rsepql_figure1.stream"
SEQ = DATA / "epsparql" / "rsepql_seq.rq"
S = "http://example.org/S"
NS = "http://rsplars.invalid/bare#"
STOCK = f"@prefix : <{NS}> .\n:company1 :hasStockPrice 1 [1] .\n:company1 :hasStockPrice 2 [2] .\n"


@pytest.mark.parametrize("events, argv", [
    (rsplars.EventOptions(), []),
    (rsplars.EventOptions("chronological", "chronological"), ["--selection", "chronological",
                                                               "--consumption", "chronological"]),
    (rsplars.EventOptions(selection="recent"), ["--selection", "recent"]),
])
def test_policies_equal_the_cli(cli, events, argv):
    result = rsplars.run(SEQ, {S: FIGURE1}, events=events)
    for fmt in ("jsonl", "csv"):
        code, out, err = cli("run", SEQ, "--stream", f"{S}={FIGURE1}", *argv, "--format", fmt)
        assert code == 0, err
        assert result.write(fmt) == out
    frame = result.to_dataframe()
    assert list(frame.columns)[-2:] == ["@start", "@end"]
    assert sorted(zip(frame["@start"], frame["@end"])) == sorted(
        (d["@start"], d["@end"]) for ds in result.solutions().values() for d in ds)


@pytest.mark.parametrize("text", [
    "SELECT ?company WHERE { ?company hasStockPrice ?price1 } SEQ { ?company hasStockPrice ?price2 }",
    "CONSTRUCT ?company hasPrice ?price1 WHERE { ?company hasStockPrice ?price1 }",
])
def test_event_streams_as_pairs_equal_the_cli_on_a_file(cli, tmp_path, text):
    query, stream = tmp_path / "q.rq", tmp_path / "s.stream"
    query.write_text(text)
    stream.write_text(STOCK)
    integer = "<http://www.w3.org/2001/XMLSchema#integer>"
    pairs = [((f"<{NS}company1>", f"<{NS}hasStockPrice>", f'"{k}"^^{integer}'), k) for k in (1, 2)]
    result = rsplars.run(text, {"http://example.org/s": pairs})
    code, out, err = cli("run", query, "--stream", f"http://example.org/s={stream}")
    assert code == 0, err
    assert result.write("jsonl") == out
    assert result.events and len(result.to_dataframe()) >= 1


def test_event_queries_refuse_what_does_not_apply():
    with pytest.raises(rsplars.RsplarsError, match="need windows"):
        rsplars.run(SEQ, {S: FIGURE1}, profile=rsplars.ProfileOptions("csparql"))
    with pytest.raises(rsplars.RsplarsError, match="r2s does not apply"):
        rsplars.run(SEQ, {S: FIGURE1}, r2s="istream")
    with pytest.raises(rsplars.RsplarsError, match="EP-SPARQL runs write"):
        rsplars.run(SEQ, {S: FIGURE1}).write("sparql-json")


RSEPQL = DATA / "rsepql"
BARE_S = f"{NS}S"


@pytest.mark.parametrize("query, events, argv", [
    (RSEPQL / "example4.rq", rsplars.EventOptions(), []),
    (RSEPQL / "example4.rq", rsplars.EventOptions(at=(8, 10)), ["--at", "8,10"]),
    (RSEPQL / "example4_landmark1.rq", rsplars.EventOptions(selection="recent"), ["--selection", "recent"]),
])
def test_rsepql_runs_equal_the_cli(cli, query, events, argv):
    result = rsplars.run(query, {BARE_S: FIGURE1}, events=events)
    for fmt in ("jsonl", "csv"):
        code, out, err = cli("run", query, "--stream", f"{BARE_S}={FIGURE1}", *argv, "--format", fmt)
        assert code == 0, err
        assert result.write(fmt) == out
    assert result.events and len(result) == len(events.at or (2, 4, 6, 8, 10))  # the times of the items


def test_rsepql_matches_carry_their_intervals():
    result = rsplars.run(RSEPQL / "example4_landmark1.rq", {BARE_S: FIGURE1})
    found = {(t, d["@start"], d["@end"]) for t, ds in result.solutions().items() for d in ds}
    assert found and all(start <= end <= t for t, start, end in found)
    assert set(result.to_dataframe().columns) == {"t", *result.variables, "@start", "@end"}


@pytest.mark.parametrize("bounds", ["left-open", "closed"])
def test_agreement_with_an_epsparql_push_query_equals_the_cli(cli, tmp_path, bounds):
    import json

    ep, cs, stream = tmp_path / "ep.rq", tmp_path / "cs.rq", tmp_path / "s.stream"
    ep.write_text("SELECT ?company ?price WHERE { ?company hasStockPrice ?price }")
    cs.write_text(f"PREFIX : <{NS}>\nSELECT ?company ?price\nFROM STREAM <http://example.org/s> [RANGE 5s STEP 5s]\n"
                  "WHERE { ?company :hasStockPrice ?price }\n")
    stream.write_text(STOCK + ":company2 :hasStockPrice 3 [5] .\n")
    result = rsplars.agree(pull=str(cs), push=str(ep), streams={"http://example.org/s": str(stream)}, end=10,
                           window_bounds=bounds)
    report = tmp_path / "r.json"
    code, _, err = cli("agree", "--pull", cs, "--push", ep, "--stream", f"http://example.org/s={stream}", "--to", "10",
                       "--window-bounds", bounds, "--report", report)
    assert code == 0, err
    assert result.to_dict() == json.loads(report.read_text())
    assert result.all_agree is (bounds == "left-open")  # closed: [0,5] and [5,10] share 5, the pull side sees more
