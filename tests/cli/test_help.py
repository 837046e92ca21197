"""``rsplars COMMAND --help`` reads in two screens: the options of ``translate``, ``run``, ``agree``
and ``check`` in named groups (input, query, semantics, engine profile, EP-SPARQL, output, scale-out,
robustness), every option in exactly one of them, and at most :data:`MAX_LINES` lines at 100
columns."""

from __future__ import annotations

import re

import pytest

from translator.cli import build_parser, main

#: two screens of a terminal
MAX_LINES = 100

#: group titles (their first words) each command's help shows
GROUPS = {
    "translate": ["input", "query", "semantics", "engine profile", "EP-SPARQL", "output"],
    "run": ["input", "query", "semantics", "engine profile", "EP-SPARQL", "output",
            "evaluation engine and scale-out (Spark", "robustness"],
    "agree": ["input", "query", "semantics", "engine profile", "EP-SPARQL", "comparison", "output",
              "evaluation engine and scale-out (Spark", "robustness"],
    "check": ["input", "query", "semantics", "engine profile", "EP-SPARQL", "comparison", "output",
              "evaluation engine and scale-out (Spark", "robustness"],
}


def help_text(capsys, monkeypatch, command: str) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def headings(text: str) -> list[str]:
    """The section headings of a help text (``title:`` lines without indentation), in order."""
    return [line[:-1] for line in text.splitlines() if line.endswith(":") and not line.startswith(" ")]


@pytest.mark.parametrize("command", list(GROUPS))
def test_help_has_the_named_groups_in_order_and_fits_two_screens(capsys, monkeypatch, command):
    text = help_text(capsys, monkeypatch, command)
    lines = text.splitlines()
    assert len(lines) <= MAX_LINES, f"rsplars {command} --help: {len(lines)} lines"
    assert max(len(line) for line in lines) <= 100
    shown = headings(text)
    assert shown[0] == "options"  # argparse's own group: -h only (the next test)
    titles = [next((t for t in shown if t.startswith(name)), None) for name in GROUPS[command]]
    assert None not in titles, (command, shown)
    assert titles == [t for t in shown if t in titles]  # in the order of GROUPS


def _subparser(command: str):
    parser = build_parser(command)
    [sub] = [a for a in parser._actions if a.dest == "command"]  # noqa: SLF001 - argparse's subparsers
    return sub.choices[command]


@pytest.mark.parametrize("command", list(GROUPS))
def test_every_option_is_in_exactly_one_named_group(command):
    p = _subparser(command)
    groups = p._action_groups  # noqa: SLF001 - argparse has no public accessor for its groups
    generic = {p._positionals.title, p._optionals.title}  # noqa: SLF001
    for action in p._actions:  # noqa: SLF001
        holders = [g.title for g in groups if action in g._group_actions]  # noqa: SLF001
        assert len(holders) == 1, (action.option_strings or action.dest, holders)
        if action.dest != "help":
            assert holders[0] not in generic, f"{command}: {action.option_strings or action.dest} in {holders[0]!r}"


@pytest.mark.parametrize("command", ["translate", "run", "lars", "agree", "gen", "check", "profiles"])
def test_help_cites_papers_not_internal_labels(capsys, monkeypatch, command):
    """Help texts cite the papers (docs/references.md), never the labels of internal extracts."""
    text = help_text(capsys, monkeypatch, command)
    assert not re.search(r"\bseed 0\d\d|\bspec 0\d\d|\bsession\b|erratum", text, re.I), text


def test_run_help_names_both_lars_engines(capsys, monkeypatch):
    """``run`` evaluates with the incremental engine or clingo (``--lars-engine``), not clingo only."""
    text = " ".join(help_text(capsys, monkeypatch, "run").split())
    description = text.split(" options: ")[0]
    assert "incremental" in description and "clingo" in description
    assert "--lars-engine ENGINE auto (default: incremental" in text
