"""How the LALR parser of a LARS grammar (``lars/grammars/*.lark``) is built.

By default Lark builds its parse tables from the grammar text (``Lark.open_from_package``). A
caller that keeps parse tables between runs installs its own builder with
:func:`build_parsers_with` before the first parse (the command line does, with its user cache,
``translator.cache.lark_parser``): ``lars`` itself reads and writes no file but its grammar.
Importing this module loads no Lark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from lark import Lark

#: ``builder(package, grammar, **options)``: the LALR parser of the grammar file ``grammar`` of
#: ``package`` with Lark's ``options`` (as ``Lark.open_from_package(..., parser="lalr", **options)``)
ParserBuilder = Callable[..., "Lark"]

_builder: ParserBuilder | None = None


def build_parsers_with(builder: ParserBuilder | None) -> None:
    """Build the parsers from now on with ``builder`` (``None``: Lark's own builder). A parser
    already built is kept (``lars.syntax`` builds its parser once per process)."""
    global _builder
    _builder = builder


def lalr_parser(package: str, grammar: str, **options: Any) -> Lark:
    """The LALR parser of ``grammar`` in ``package``, by the installed builder or Lark's own."""
    if _builder is not None:
        return _builder(package, grammar, **options)
    from lark import Lark

    return Lark.open_from_package(package, grammar, parser="lalr", **options)
