"""The repository speaks of itself, not of how it was made: no tracked text file names the
documents its users do not have or the history of its development.

Papers are cited by authors, year and section (``docs/references.md``), the project's own choices
as D1–D11 (``docs/decisions.md``); history lives in git. Forbidden in every file ``git ls-files``
lists (binary files skipped):

* ``session``/``sessions`` as a word, in any case — except Spark's and pytest's own names, which
  are API, not history (``SparkSession`` and ``sparkSession`` are one word and never match;
  ``spark.sql.session…`` settings and pytest's ``scope="session"`` are allowed);
* ``seed 000`` … ``seed 009`` (also ``seed000``, ``seeds 001``) and ``spec 000`` … ``spec 009``
  (also ``spec/001-…``): the internal names of the papers and of their extracts;
* the paths ``shared/spec`` and ``shared/seeds``;
* the word ``issue`` (``issue 14``, ``the issue's query``, ``test_…_of_the_issue``): the project's
  tracker (history lives in git). An external engine's tracker may be cited by its address
  (``…/issues/3``) or as its ``issue tracker``;
* test files named by a development label, ``test_<letter><digits>_….py``: a test file's name
  says what it tests.

A random seed (``--seed 1``, ``seeds 1–3``) is not a document name and is allowed.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HISTORY_WORDS = {
    "the word session": re.compile(r"\bsessions?\b", re.IGNORECASE),
    "a paper named by its seed number": re.compile(r"\bseeds? ?00[0-9]", re.IGNORECASE),
    "an extract named by its spec number": re.compile(r"\bspecs? ?00[0-9]\b|\bspec/00[0-9]", re.IGNORECASE),
    "a path users do not have": re.compile(r"shared/spec|shared/seeds", re.IGNORECASE),
    "an issue of the project's tracker": re.compile(r"(?<![A-Za-z/#])issues?(?![A-Za-z]| tracker)", re.IGNORECASE),
    "a test file named by a development label": re.compile(r"\btest_[a-z][0-9]+_\w*\.py\b", re.IGNORECASE),
}

#: a tracked test file's name made of a development label (``test_<letter><digits>_…``)
LABELLED_TEST_FILE = re.compile(r"^test_[a-z][0-9]+_", re.IGNORECASE)

#: API names that contain the word: Spark's configuration keys and pytest's fixture scope
ALLOWED = re.compile(r"spark\.sql\.session|scope\s*=\s*[\"']session[\"']", re.IGNORECASE)


def tracked_text_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    files = []
    for name in listed.decode("utf-8").split("\0"):
        path = ROOT / name
        if name and path.is_file() and path != Path(__file__).resolve():
            files.append(path)
    return files


def read_text(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def history_words(text: str) -> list[tuple[int, str, str]]:
    """(line number, what, the matched text) for every forbidden word of ``text``."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        cleaned = ALLOWED.sub("", line)
        for what, pattern in HISTORY_WORDS.items():
            found += [(number, what, m.group(0)) for m in pattern.finditer(cleaned)]
    return found


@pytest.mark.parametrize("text, expected", [
    ("see seed 002 §3.3", ["a paper named by its seed number"]),
    ("(Seed 000, Ex. 4)", ["a paper named by its seed number"]),
    ("seed003_figure1.stream", ["a paper named by its seed number"]),
    ("the extract, spec 001 T9", ["an extract named by its spec number"]),
    ("`spec/004-csparql.md` §8.2", ["an extract named by its spec number"]),
    ("../shared/spec/000-core.md", ["an extract named by its spec number", "a path users do not have"]),
    ("# measured in " + "session 11", ["the word session"]),  # written in two parts: the tree never holds it
    ("Streams of fresh terms (" + "issue 14)", ["an issue of the project's tracker"]),
    ("github.com/CityBench/Benchmark/issues/3", []),
    ("The " + "issue's query (#12)", ["an issue of the project's tracker"]),
    ("def test_optional_of_the_" + "issue():", ["an issue of the project's tracker"]),
    ("ISSUE" + "_EXAMPLE = ...", ["an issue of the project's tracker"]),
    ("(robustness, not an " + "issue target)", ["an issue of the project's tracker"]),
    ("reported on the CQELS " + "issue tracker", []),
    ("an issued token; tissues", []),
    ("see tests/check/test_" + "g6_expiry.py", ["a test file named by a development label"]),
    ("test_time_varying_static_graph.py; test_d1_q2_sliding_count()", []),
    ("Sess" + "ions 7 and 8", ["the word session"]),
    ("from spark_jobs.session import build_session", ["the word session"]),
    ("rsplars gen coupons --seed 1; seeds 1–3 pooled; random.Random(seed)", []),
    ("spark = SparkSession.builder.getOrCreate(); df.sparkSession", []),
    ('.config("spark.sql.session.timeZone", "UTC")', []),
    ('@pytest.fixture(scope="session")', []),
    ("Dell'Aglio et al. 2013, §7; Dao-Tran, Beck, Eiter 2015, §4.3", []),
])
def test_the_patterns_find_what_they_should(text, expected):
    assert [what for _, what, _ in history_words(text)] == expected


def test_no_tracked_file_speaks_of_history_or_of_documents_users_do_not_have():
    found = []
    for path in tracked_text_files():
        text = read_text(path)
        if text is not None:
            found += [f"{path.relative_to(ROOT)}:{n}: {what}: {match!r}" for n, what, match in history_words(text)]
    assert not found, "history words in tracked files (cite docs/references.md, docs/decisions.md):\n" + "\n".join(found)


def test_no_test_file_is_named_by_a_development_label():
    """``tests/check/test_window_expiry_hidden_by_istream.py``, not ``test_`` + ``g6_expiry.py``."""
    labelled = [str(path.relative_to(ROOT)) for path in tracked_text_files()
                if path.suffix == ".py" and LABELLED_TEST_FILE.match(path.name)]
    assert not labelled, "test files named by a development label: " + ", ".join(labelled)
