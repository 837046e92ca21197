"""Golden LARS and ASP texts of the papers' queries (``rsplars translate --to lars|asp``).

Run from the repository root after an intended change of the translation or of a printer:

    .venv/bin/python tests/data/golden/regenerate.py

then review ``git diff tests/data/golden`` (every changed line is a change of the translation).
``tests/cli/test_cli_golden.py`` compares the CLI's output with these files exactly and parses
every ``.lars`` file back with ``lars.syntax.parse_program``.

Each case of :data:`CASES` writes ``NAME.lars`` and ``NAME.lp`` (``--unicode`` cases: ``.lars`` only) — or, for a query that is not
translatable (yet), ``NAME.unsupported`` holding the CLI's error message (when the construct becomes
supported, the test fails until the files are regenerated).
"""

from __future__ import annotations

import contextlib
import io
import sys
from dataclasses import dataclass
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent
QUERIES = GOLDEN.parent / "queries"

RTGM_S1, RTGM_S2 = "http://example.org/rtgm/s1", "http://example.org/rtgm/s2"


@dataclass(frozen=True)
class Case:
    name: str
    query: str  # relative to tests/data/queries
    options: tuple[str, ...] = ()

    @property
    def path(self) -> Path:
        return QUERIES / self.query

    @property
    def unit(self) -> str:
        return self.options[self.options.index("--unit") + 1] if "--unit" in self.options else "s"


CASES: tuple[Case, ...] = (
    # Dao-Tran, Beck, Eiter 2015, Ex. 4: Q1 (C-SPARQL, pull: no STEP, so a period is given) and Q2 (CQELS, push)
    Case("s000_q1_csparql_pull", "seeds/s000_ex4_q1.rq", ("--unit", "m", "--period", "1m")),
    Case("s000_q2_cqels_push", "seeds/s000_ex4_q2.rq", ("--unit", "m")),
    Case("s000_q2_cqels_right_open", "seeds/s000_ex4_q2.rq", ("--unit", "m", "--window-bounds", "right-open")),
    Case("s000_q2_cs", "seeds/s000_ex4_q2.rq", ("--unit", "m", "--as", "csparql", "--mode", "pull", "--period", "1m")),
    Case("s000_q1_cq_all", "seeds/s000_ex4_q1.rq",
         ("--unit", "m", "--as", "cqels-all", "--mode", "push",
          "--assign", f"1={RTGM_S1}", "--assign", f"2={RTGM_S1}", "--assign", f"3={RTGM_S1}",
          "--assign", f"4={RTGM_S2}")),
    # CSRBench Listing 1 (Dell'Aglio et al. 2013): RANGE 10s STEP 10s, pull every 10 s
    Case("s002_listing1", "seeds/s002_listing1.rq", ("--unit", "s")),
    # the queries of Barbieri et al. 2010 (C-SPARQL) and the static sub-query
    # (Q1 reads static data only, "clearly not continuous": evaluated without a mode)
    Case("s004_q1", "seeds/s004_q1.rq", ("--unit", "m", "--lenient", "--mode", "none")),
    *(Case(f"s004_q{i}", f"seeds/s004_q{i}.rq", ("--unit", "m", "--lenient")) for i in range(2, 9)),
    Case("s004_static", "seeds/s004_static.rq", ("--unit", "m", "--mode", "none")),
    # CityBench (the same queries in C-SPARQL and CQELS-QL)
    Case("citybench_csparql_q1", "csparql/Q1.txt", ("--unit", "s")),
    Case("citybench_cqels_q1", "cqels/Q1.txt", ("--unit", "s")),
    Case("citybench_csparql_q5", "csparql/Q5.txt", ("--unit", "s")),
    Case("citybench_cqels_q5", "cqels/Q5.txt", ("--unit", "s")),
    Case("citybench_cqels_q1_unicode", "cqels/Q1.txt", ("--unit", "s", "--unicode")),
)


def render(case: Case) -> dict[str, str]:
    """``{suffix: text}`` of a case, exactly what ``rsplars translate`` prints on stdout (or, when it
    fails with a user error, the message it prints on stderr)."""
    from translator.cli import main

    out: dict[str, str] = {}
    targets = (("lars", ".lars"),) if "--unicode" in case.options else (("lars", ".lars"), ("asp", ".lp"))
    for target, suffix in targets:
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = main(["translate", str(case.path), "--to", target, *case.options])
        if code != 0:
            message = stderr.getvalue().splitlines()[-1]
            return {".unsupported": message.replace(str(QUERIES) + "/", "") + "\n"}
        out[suffix] = stdout.getvalue()
    return out


def main() -> int:
    for old in [*GOLDEN.glob("*.lars"), *GOLDEN.glob("*.lp"), *GOLDEN.glob("*.unsupported")]:
        old.unlink()
    for case in CASES:
        texts = render(case)
        for suffix, text in texts.items():
            (GOLDEN / (case.name + suffix)).write_text(text, encoding="utf-8")
        print(case.name, ", ".join(sorted(texts)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
