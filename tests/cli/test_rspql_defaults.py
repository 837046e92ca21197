"""An RSP-QL query runs under its ``rsp-ql`` profile with the R2S operator of its registration
(``REGISTER ISTREAM <s> AS`` → istream, Dell'Aglio et al. 2014, Defs 20–22) in ``translate --to
lars`` and ``check`` as in ``run``, unless options name a profile, a mode or an R2S operator."""

from __future__ import annotations

from cli_helpers import cli

QUERY = """PREFIX : <http://example.org/>
REGISTER ISTREAM <http://example.org/out> AS
SELECT ?x
FROM NAMED WINDOW :w ON :s [RANGE PT3S STEP PT1S]
WHERE { WINDOW :w { ?x :p ?y } }
"""
STREAM = "".join(f'<http://example.org/a{t % 2}> <http://example.org/p> <http://example.org/b> "{t}" .\n'
                 for t in range(0, 8, 2))


def header(capsys, path, *options) -> str:
    code, out, err = cli(capsys, "translate", path, "--to", "lars", "--unit", "s", *options)
    assert code == 0, err
    return out.splitlines()[0]


def test_translate_to_lars_puts_rspql_on_its_profile_with_the_registration_r2s(capsys, tmp_path):
    path = tmp_path / "q.rq"
    path.write_text(QUERY)
    default = header(capsys, path)
    assert "report policy" in default and "r2s istream" in default
    explicit = header(capsys, path, "--profile", "rsp-ql")
    assert "r2s istream" in explicit
    assert "r2s dstream" in header(capsys, path, "--profile", "rsp-ql", "--r2s", "dstream")  # an option wins
    plain = header(capsys, path, "--mode", "pull")
    assert "mode pull" in plain and "report policy" not in plain


def test_check_judges_rspql_under_its_profile_by_default(capsys, tmp_path):
    path = tmp_path / "q.rq"
    path.write_text(QUERY)
    stream = tmp_path / "s.nt"
    stream.write_text(STREAM)
    data = ["--unit", "s", "--stream", f"http://example.org/s={stream}"]
    code, answers, err = cli(capsys, "run", path, *data)  # the rsp-ql profile, istream: run's default
    assert code == 0, err
    recorded = tmp_path / "answers.jsonl"
    recorded.write_text(answers)
    code, out, err = cli(capsys, "check", path, *data, "--answers", recorded)
    assert code == 0, out + err
    assert out.startswith("correct")
    code, out, err = cli(capsys, "check", path, *data, "--answers", recorded, "--r2s", "rstream")
    assert code == 1 and out.startswith("incorrect"), "the registration's istream is what the default judges"
