"""The API reference: the examples in the docstrings run (doctest), and pdoc renders the reference
without a warning (a broken docstring, annotation or link fails here, as in ``make docs-api``)."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import warnings

import pytest

import rsplars

MODULES = sorted(m.name for m in pkgutil.iter_modules(rsplars.__path__, "rsplars."))


@pytest.mark.parametrize("name", ["rsplars", *MODULES])
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_public_functions_and_results_are_documented_with_examples():
    for name in ("parse", "translate", "translations", "run", "agree", "check", "infer"):
        doc = getattr(rsplars, name).__doc__
        assert doc and ">>> " in doc, name
    for name in rsplars.__all__:
        value = getattr(rsplars, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__doc__, name


def test_pdoc_renders_the_reference_without_warnings(tmp_path):
    import pdoc
    import pdoc.render

    pdoc.render.configure(docformat="restructuredtext")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.pdoc("rsplars", output_directory=tmp_path)
    said = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert said == []
    page = (tmp_path / "rsplars.html").read_text(encoding="utf-8")
    for name in ("RunResult", "to_dataframe", "TranslationOptions", "SourceError", "agree"):
        assert name in page
