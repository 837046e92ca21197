"""Start-up of ``rsplars run`` and ``rsplars lars``, guarded without timing: what a plain run imports
and what its command line offers (bench/startup_bench.py measures the time).

A plain run (N-Triples stream, query or program already in the user's cache, ``translator.cache``) does
not import the big modules that only other commands or options need: each is imported by a plain
``import`` inside the function that needs it. The runs are real processes (``python -m
translator``), so the list is what a user's run loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from translator.cli import build_parser, main
from translator.cli.main import SUBCOMMANDS

ROOT = Path(__file__).resolve().parents[2]
EX = "http://example.org/srbench/"

#: modules a plain `rsplars run` does not load (each is imported where it is used)
NOT_ON_THE_RUN_PATH = (
    "translator.evaluate.profiles",  # --profile and the other operational options (policy_names has the names)
    "translator.evaluate.report_policy",
    "translator.evaluate.operational",
    "translator.query.dialect",  # the dialect of a cached query comes from the cache
    "lark",  # the query itself comes from the cache (translator.cache)
    "spark_jobs.runs",  # --engine spark (the command line builds spark_jobs.options.SparkOptions only)
    "pyspark",
    "translator.agreement",
    "translator.rdf.static",  # static data only (--static/--named/--static-during; rdflib's parsers)
    # numbers and query constants are read and printed from their N-Triples text: no rdflib term
    "rdflib",
    "translator.rdf.sparql_terms",
)
#: modules a plain `rsplars lars` does not load
NOT_ON_THE_LARS_PATH = ("rdflib", "lark", "lars.syntax", "translator.query", "translator.rdf", "translator.translate",
                        "translator.evaluate.profiles", "spark_jobs.runs", "pyspark")

QUERIES = {
    "group_by": f"""REGISTER QUERY a AS
SELECT ?sensor (AVG(?value) AS ?avg) (COUNT(?obs) AS ?n)
FROM STREAM <{EX}stream> [RANGE 10s STEP 1s]
WHERE {{ ?obs <{EX}procedure> ?sensor . ?obs <{EX}floatValue> ?value . }}
GROUP BY ?sensor
""",
    "filter": f"""REGISTER QUERY hot AS
SELECT ?sensor ?obs ?value
FROM STREAM <{EX}stream> [RANGE 10s STEP 1s]
WHERE {{ ?obs <{EX}procedure> ?sensor . ?obs <{EX}floatValue> ?value . FILTER (?value > 30.5) }}
""",
}

STREAM = "".join(
    f'<{EX}obs/{t}> <{EX}procedure> <{EX}sensor/{t % 2}> "{t}" .\n'
    f'<{EX}obs/{t}> <{EX}floatValue> "{25 + 3 * t}.5"^^<http://www.w3.org/2001/XMLSchema#float> "{t}" .\n'
    for t in range(4)
)

#: run the command line of the process (as the ``rsplars`` script does), then report on stderr the
#: modules loaded and the filters of rdflib's term logger
_PROBE = """
import json, logging, sys
from translator.cli import main
sys.argv = ["rsplars", *sys.argv[1:]]
code = main()
print("PROBE " + json.dumps({"modules": sorted(sys.modules), "rdflib_filters": len(logging.getLogger("rdflib.term").filters)}),
      file=sys.stderr)
sys.exit(code)
"""


def _process(tmp_path: Path, *argv: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RSPLARS_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    probe = [line for line in done.stderr.splitlines() if line.startswith("PROBE ")]
    assert len(probe) == 1, done.stderr
    return done, json.loads(probe[0][len("PROBE "):])


def _loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return [name for name in names if any(m == name or m.startswith(name + ".") for m in modules)]


@pytest.mark.parametrize("kind", sorted(QUERIES))
def test_a_plain_run_loads_only_what_it_needs(tmp_path: Path, capsys, kind: str) -> None:
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERIES[kind])
    stream.write_text(STREAM)
    argv = ("run", str(query), "--stream", f"{EX}stream={stream}", "--unit", "s")
    cold, _ = _process(tmp_path, *argv)  # parses the query (and fills the cache)
    warm, probe = _process(tmp_path, *argv)
    aggregates = "translator.translate.aggregates"  # loaded for a query that aggregates only
    assert _loaded(probe["modules"], NOT_ON_THE_RUN_PATH + ((aggregates,) if kind == "filter" else ())) == []
    # the modules the run does need are loaded (so the check above can fail on a broken probe)
    assert {"translator.rdf.sparql_ops", "translator.translate.compile", "lars.incremental"} <= set(probe["modules"])
    assert (aggregates in probe["modules"]) == (kind == "group_by")
    # the answers and messages are those of the same run in this process (main([...]))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0 and warm.stdout == cold.stdout == out and out.count('"t":') == 4
    assert [line for line in warm.stderr.splitlines() if not line.startswith("PROBE ")] == err.splitlines()


@pytest.mark.parametrize("kind", sorted(QUERIES))
def test_a_run_with_static_data_loads_rdflib(tmp_path: Path, kind: str) -> None:
    """With ``--static`` the data is parsed by rdflib (``translator.rdf.static``): the same answers
    (the static triple matches no pattern), and rdflib's warnings come without tracebacks
    (``translator.cli.main._no_library_tracebacks``: one filter on its term logger)."""
    query, stream, static = tmp_path / "q.rq", tmp_path / "s.nt", tmp_path / "d.ttl"
    query.write_text(QUERIES[kind])
    stream.write_text(STREAM)
    static.write_text(f'<{EX}a> <{EX}label> "x" .\n')
    argv = ("run", str(query), "--stream", f"{EX}stream={stream}", "--unit", "s")
    plain, _ = _process(tmp_path, *argv)
    done, probe = _process(tmp_path, *argv, "--static", str(static))
    assert {"rdflib", "translator.rdf.static"} <= set(probe["modules"]) and probe["rdflib_filters"] == 1
    assert done.stdout == plain.stdout and done.stdout.count('"t":') == 4


@pytest.mark.parametrize("kind", sorted(QUERIES))
def test_a_run_with_ntriples_static_data_loads_no_rdflib(tmp_path: Path, kind: str) -> None:
    """``--static FILE.nt`` is read without rdflib (``translator.rdf.static.ntriples_quads``): the
    answers, which the static triples change, are those of the same triples read by rdflib from
    Turtle, and rdflib is not loaded."""
    query, stream, nt, ttl = tmp_path / "q.rq", tmp_path / "s.nt", tmp_path / "d.nt", tmp_path / "d.ttl"
    query.write_text(QUERIES[kind])
    stream.write_text(STREAM)
    triples = (f'<{EX}obs/s> <{EX}procedure> <{EX}sensor/s> .\n'
               f'<{EX}obs/s> <{EX}floatValue> "99.5"^^<http://www.w3.org/2001/XMLSchema#float> .\n')
    nt.write_text(triples)
    ttl.write_text(triples)
    argv = ("run", str(query), "--stream", f"{EX}stream={stream}", "--unit", "s")
    plain, _ = _process(tmp_path, *argv)
    from_ttl, ttl_probe = _process(tmp_path, *argv, "--static", str(ttl))
    from_nt, probe = _process(tmp_path, *argv, "--static", str(nt))
    assert _loaded(probe["modules"], NOT_ON_THE_RUN_PATH) == ["translator.rdf.static"]
    assert "rdflib" in ttl_probe["modules"]
    assert from_nt.stdout == from_ttl.stdout != plain.stdout and f"{EX}sensor/s" in from_nt.stdout
    assert from_nt.stderr.splitlines()[:-1] == from_ttl.stderr.splitlines()[:-1]  # all but the PROBE line


def test_a_plain_lars_run_loads_only_what_it_needs(tmp_path: Path, capsys) -> None:
    program, stream = tmp_path / "p.lars", tmp_path / "s.txt"
    program.write_text("a(X,Y) :- p(X,Y) [4].\nb(X) :- q(X) always [2].\n")
    stream.write_text("0: p(a,b), q(c)\n1: p(d,e), q(c)\n3: q(c)\n")
    argv = ("lars", str(program), "--stream", str(stream))
    cold, _ = _process(tmp_path, *argv)
    warm, probe = _process(tmp_path, *argv)
    assert _loaded(probe["modules"], NOT_ON_THE_LARS_PATH) == []
    assert {"lars.model", "lars.incremental"} <= set(probe["modules"])
    code = main(list(argv))
    out, _ = capsys.readouterr()
    assert code == 0 and warm.stdout == cold.stdout == out and len(out.splitlines()) == 4


def _subparser(parser, name: str):
    [action] = [a for a in parser._actions if a.dest == "command"]  # noqa: SLF001 - argparse's subparsers
    return action.choices[name]


def _sub_help(parser, name: str) -> str:
    return _subparser(parser, name).format_help()


@pytest.mark.parametrize("name", list(SUBCOMMANDS))
def test_each_command_builds_the_help_of_the_full_parser(name: str) -> None:
    """``rsplars NAME`` builds only its own subcommand (start-up): the same options and help text as
    in the parser of every command."""
    assert _sub_help(build_parser(name), name) == _sub_help(build_parser(), name)


def test_the_option_names_are_those_of_the_profiles_and_policies() -> None:
    """The command line takes the names of profiles, ticks, content-change readings and
    empty-relation modes from ``translator.evaluate.policy_names`` (without loading the policy code):
    they are the very names the code accepts."""
    from translator.evaluate import policy_names, report_policy
    from translator.evaluate.profiles import PROFILES

    assert policy_names.PROFILE_NAMES == tuple(PROFILES)
    assert (report_policy.CC_MODES, report_policy.TICKS, report_policy.EMPTY_RELATIONS) == (
        policy_names.CC_MODES, policy_names.TICKS, policy_names.EMPTY_RELATIONS)
    for name in ("run", "check", "translate", "agree"):
        choices = {a.dest: a.choices for a in _subparser(build_parser(name), name)._actions}  # noqa: SLF001
        assert choices["profile"] == list(PROFILES)
        assert choices["tick"] == list(report_policy.TICKS)
        assert choices["cc_mode"] == list(report_policy.CC_MODES)
        assert choices["empty_relations"] == list(report_policy.EMPTY_RELATIONS)
