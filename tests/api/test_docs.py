"""The examples of docs/api.md run as written (from the repository's root) and print what their
comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_five_examples_run(monkeypatch):
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 5
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    printed = []
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "docs/api.md", "exec"), namespace)
        printed.append(out.getvalue())
    assert printed[0].startswith("cqels\n% Q: strategy tau2, mode push")
    assert namespace["frame"].to_dict("records") == [
        {"t": 18, "shop": "<http://example.org/rtgm#b>", "product": '"rayban"',
         "percent": '"25"^^<http://www.w3.org/2001/XMLSchema#integer>'}]
    assert list(namespace["intervals"].columns)[:4] == ["index", "start", "end", "verdict"]
    assert "True [2]" in printed[3] and "csparql" in printed[3]
    assert printed[4].startswith("<input> 2 25\n")
