"""The README is the front door and ``docs/index.md`` reaches every reference page.

* README.md has at most 250 lines and links ``docs/index.md``; every ``docs/*.md`` page is linked
  from that index;
* every relative Markdown link of README.md and of ``docs/*.md`` names a file of the repository, and
  its ``#anchor``, if any, a heading of that file (anchors as GitHub derives them from headings);
* the test command of the README's "The two commands" is the one CI runs (``.ci/run``), and both
  commands are targets of the Makefile;
* the README's Python example runs as written and gives the answer its comment shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
INDEX = DOCS / "index.md"
MAX_README_LINES = 250

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")
CODE_SPAN = re.compile(r"`+[^`]*`+")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the lines outside fenced code blocks, inline code spans blanked."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, CODE_SPAN.sub("", line)))
    return lines


def relative_links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link of ``path`` that is neither a URL nor an e-mail address."""
    found = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
                found.append((number, target))
    return found


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of the headings of a Markdown file (a repeated heading gets ``-1``, ``-2``, …)."""
    seen: dict[str, int] = {}
    result = set()
    text = path.read_text(encoding="utf-8")
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        match = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
    return result


def resolve(source: Path, target: str) -> tuple[Path, str]:
    """The file a link of ``source`` names and its anchor ("" for none)."""
    file_part, _, anchor = target.partition("#")
    return (source if not file_part else (source.parent / file_part).resolve()), anchor


def doc_pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def test_readme_has_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines: move reference text into docs/"


def test_readme_links_the_index():
    targets = {resolve(README, t)[0] for _, t in relative_links(README)}
    assert INDEX in targets, "README.md must link docs/index.md"


def test_every_doc_page_is_linked_from_the_index():
    linked = {resolve(INDEX, t)[0] for _, t in relative_links(INDEX)}
    missing = [page.name for page in doc_pages() if page != INDEX and page not in linked]
    assert not missing, f"docs/index.md does not link: {', '.join(missing)}"


@pytest.mark.parametrize("source", [README, *doc_pages()], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(source):
    broken = []
    for number, target in relative_links(source):
        path, anchor = resolve(source, target)
        if not path.exists():
            broken.append(f"{source.relative_to(ROOT)}:{number}: {target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{source.relative_to(ROOT)}:{number}: {target}: no heading with anchor #{anchor}")
    assert not broken, "\n".join(broken)


def test_the_link_checks_can_fail(tmp_path):
    """A missing file, a missing anchor and a page left out of an index are seen."""
    (tmp_path / "a.md").write_text("# Title: one `page`\n\n```sh\n# not a heading\n```\n## Twice\n## Twice\n",
                                   encoding="utf-8")
    assert anchors(tmp_path / "a.md") == {"title-one-page", "twice", "twice-1"}
    page = tmp_path / "b.md"
    page.write_text("[a](a.md#twice-1) [gone](c.md) [bad](a.md#nowhere) `[code](x.md)` [web](https://x.org/y)\n",
                    encoding="utf-8")
    targets = [t for _, t in relative_links(page)]
    assert targets == ["a.md#twice-1", "c.md", "a.md#nowhere"]
    assert [resolve(page, t)[0].exists() for t in targets] == [True, False, True]
    assert resolve(page, "a.md#nowhere")[1] not in anchors(tmp_path / "a.md")


def two_commands_block() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## The two commands\n"):]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_ci_runs_the_test_command_the_readme_names():
    commands = [line.split("#")[0].strip() for line in two_commands_block().splitlines()]
    assert commands == ["make demo", "make test"]
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert "make test" in ci, ".ci/run must run the README's test command, make test"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("demo", "test"):
        assert re.search(rf"^{target}:", makefile, re.M), f"make {target} is not a Makefile target"


def test_the_readme_python_example_runs_as_written(monkeypatch):
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    frame = namespace["frame"]
    assert list(frame.columns) == ["t", "shop", "product", "percent"]
    assert list(frame["t"]) == [18] and list(frame["shop"]) == ["<http://example.org/b>"]
    assert namespace["result"].solutions()[18][0]["product"] == '"rayban"'
