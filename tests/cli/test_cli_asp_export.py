"""The ASP export runs in plain clingo and gives exactly the engine's answers.

``rsplars run … --print-asp-at T`` prints the encoding (docs/asp-encoding.md), a ``#script
(python)`` block for the SPARQL functions and the external atoms true at T; a separate clingo
process (``python -m clingo --enable-python``, the pip clingo) must derive ``answer(…)`` atoms equal
to the answers of ``rsplars run`` at T — at every evaluation time, for push and pull, with FILTER
(``@sparql_test``) and BIND (``@sparql_value``)."""

from __future__ import annotations

import json
import subprocess
import sys

from cli_helpers import Q1, Q2, RUNNING, S1, S2, jsonl, running_example_data
from lars.streams import parse_ground_atom
from translator.rdf.terms import from_lars, to_nt


def plain_clingo(path) -> list[list[str]]:
    """The models (shown atoms) of clingo on the file, all of them, in a separate process."""
    proc = subprocess.run([sys.executable, "-m", "clingo", "--enable-python", "--outf=2", "0", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 10, 30), proc.stderr  # pyclingo exits 0; clingo 10/30 = SAT
    result = json.loads(proc.stdout)
    assert result["Result"] == "SATISFIABLE", proc.stdout
    return [w["Value"] for call in result["Call"] for w in call.get("Witnesses", [])]


def answers_of(atoms: list[str], variables: list[str]) -> list[dict[str, str]]:
    out = []
    for text in atoms:
        if not text.startswith("answer("):
            continue
        atom = parse_ground_atom(text)
        terms = [from_lars(a) for a in atom.args]
        out.append({v: to_nt(x) for v, x in zip(variables, terms) if x is not None})
    return sorted(out, key=lambda d: sorted(d.items()))


def check_every_time(run_cli, tmp_path, query, args, variables):
    code, out, err = run_cli("run", query, *args)
    assert code == 0, err
    expected = jsonl(out)
    assert expected, "the run has evaluation times"
    for t, answers in expected.items():
        lp = tmp_path / f"at{t}.lp"
        code, _, err = run_cli("run", query, *args, "--print-asp-at", t, "--output", lp)
        assert code == 0, err
        models = plain_clingo(lp)
        assert len(models) == 1, (t, models)  # stratified: exactly one answer set
        assert answers_of(models[0], variables) == answers, t
    return expected


VARS = ["shop", "product", "percent"]


def test_q2_push_plain_clingo_equals_engine(run_cli, tmp_path):
    got = check_every_time(run_cli, tmp_path, Q2, running_example_data("stream"), VARS)
    assert any(got.values())  # not vacuous: the answer at 18 is there


def test_q1_pull_plain_clingo_equals_engine(run_cli, tmp_path):
    got = check_every_time(run_cli, tmp_path, Q1, [*running_example_data("nt"), "--period", "3m", "--to", "24"], VARS)
    assert sorted(got) == list(range(0, 25, 3)) and got[18] and got[21] and not got[24]


def test_bind_and_filter_functions_in_plain_clingo(run_cli, tmp_path):
    query = tmp_path / "bind.rq"
    query.write_text(f"""PREFIX : <http://example.org/rtgm#>
SELECT ?shop ?label ?half WHERE {{
  STREAM <{S1}> [RANGE 30m] {{ ?shop :offers ?c . ?c :reduce ?p . ?c :on ?product . }}
  BIND (CONCAT(UCASE(?product), "@", STR(?shop)) AS ?label)
  BIND (?p / 2 AS ?half)
  FILTER (STRLEN(?label) > 3 && ?half < 15)
}}""")
    args = ["--stream", f"{S1}={RUNNING / 'offers.stream'}", "--unit", "m"]
    got = check_every_time(run_cli, tmp_path, query, args, ["shop", "label", "half"])
    # 30/2 = 15 is not < 15; 25/2 = 12.5 (an xsd:decimal, exact)
    assert got[15] == [{"shop": "<http://example.org/rtgm#b>",
                        "label": '"RAYBAN@http://example.org/rtgm#b"',
                        "half": '"12.5"^^<http://www.w3.org/2001/XMLSchema#decimal>'}]


def test_translate_to_asp_has_the_script_only_when_needed(run_cli):
    code, out, _ = run_cli("translate", Q2, "--to", "asp")
    assert code == 0 and out.count("#script (python)") == 1 and "def sparql_test" in out
    assert "def sparql_value" not in out  # only the functions the program calls


def test_translate_to_asp_without_calls_has_no_script(run_cli, tmp_path):
    q = tmp_path / "q.rq"
    q.write_text(f"SELECT ?s WHERE {{ STREAM <{S2}> [NOW] {{ ?s ?p ?o }} }}")
    code, out, _ = run_cli("translate", q, "--to", "asp")
    assert code == 0 and "#script" not in out and "striple" in out


def test_print_asp_before_the_timeline_is_an_error(run_cli):
    code, out, err = run_cli("run", Q2, *running_example_data("stream"), "--print-asp-at", "-1")
    assert code == 2 and out == "" and "before the start" in err


def test_translate_to_asp_alone_is_valid_clingo_input(run_cli, tmp_path):
    """Without inputs (no external atom true) clingo reads and grounds the text, script included,
    and derives no answer: the windows are empty."""
    code, out, _ = run_cli("translate", Q1, "--to", "asp", "--unit", "m", "--period", "1m")
    assert code == 0
    lp = tmp_path / "q1.lp"
    lp.write_text(out)
    (model,) = plain_clingo(lp)
    assert not any(atom.startswith("answer(") for atom in model)
