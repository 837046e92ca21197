"""RDF terms, prologue and expressions (SPARQL 1.1 §4.1, §17; W3C grammar [4]–[6], [110]–[137])."""

from __future__ import annotations

import re
from decimal import Decimal

from lark import Token, v_args

from ..iri import resolve_iri
from ..model import (
    BUILTINS,
    DIALECT_BUILTINS,
    IRI,
    XSD,
    Aggregate,
    BinaryOp,
    BlankNode,
    Exists,
    FunctionCall,
    In,
    IRICall,
    Literal,
    UnaryOp,
    Var,
)
from .context import EPSPARQL_WELL_KNOWN, PLACEHOLDER_NAMESPACE, WELL_KNOWN_PREFIXES, ContextMixin

_DIALECT_NAMES = {"csparql": "C-SPARQL", "cqels": "CQELS-QL", "epsparql": "EP-SPARQL", "rspql": "RSP-QL"}
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_LOCAL_ESCAPE = re.compile(r"\\([_~.\-!$&'()*+,;=/?#@%])")


class Args(tuple):
    """Arguments of a call; ``distinct`` for ``f(DISTINCT …)``."""

    distinct: bool = False


def unescape_string(raw: str) -> str:
    """Lexical form of a SPARQL string token (quotes removed, ECHAR escapes resolved, §19.7)."""
    body = raw[3:-3] if raw[:3] in ('"""', "'''") else raw[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)


@v_args(inline=True)
class TermRules(ContextMixin):
    # ---- prologue -------------------------------------------------------------------------
    def base_decl(self, iriref: Token) -> None:
        self.base = self._resolve_relative(str(iriref)[1:-1])

    def prefix_decl(self, pname_ns: Token, iriref: Token) -> None:
        self.prefixes[str(pname_ns)[:-1]] = self._resolve_relative(str(iriref)[1:-1])

    def prologue(self, *_decls: None) -> None:
        return None

    def _resolve_relative(self, value: str) -> str:
        if self.base and not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", value):
            return resolve_iri(self.base, value)
        return value

    # ---- IRIs -----------------------------------------------------------------------------
    def iri_ref(self, tok: Token) -> IRI:
        return IRI(self._resolve_relative(str(tok)[1:-1]))

    def prefixed_name(self, tok: Token) -> IRI:
        prefix, _, local = str(tok).partition(":")
        return IRI(self.namespace(prefix, tok) + _LOCAL_ESCAPE.sub(r"\1", local))

    def bare_name(self, tok: Token) -> IRI:
        """EP-SPARQL (ETALIS manual) bare name such as ``hasStockPrice``: an IRI in the bare-name
        namespace (``--bare-ns``, default :data:`translator.query.model.DEFAULT_BARE_NAMESPACE`);
        the namespace assumed is noted once (docs/epsparql.md)."""
        if self.dialect == "epsparql":
            self.note_bare_namespace(tok)
            return IRI(self.ctx.bare_ns + str(tok))
        return IRI(self.namespace("", tok, bare=str(tok)) + str(tok))

    def note_bare_namespace(self, tok: Token) -> None:
        if not getattr(self, "_bare_noted", False):
            self._bare_noted = True
            self.note(f"bare names such as '{tok}' read as IRIs in <{self.ctx.bare_ns}> (set with --bare-ns)", tok)

    def namespace(self, prefix: str, tok: Token, bare: str | None = None) -> str:
        if prefix in self.prefixes:
            return self.prefixes[prefix]
        if prefix in self.ctx.predeclared:
            return self.ctx.predeclared[prefix]
        if self.dialect == "epsparql" and bare is None and (prefix == "" or prefix in EPSPARQL_WELL_KNOWN):
            # ETALIS's queries use ':' and 'xsd:' undeclared: ':' is the bare-name namespace
            ns = self.ctx.bare_ns if prefix == "" else WELL_KNOWN_PREFIXES[prefix]
            if prefix not in self.assumed_prefixes:
                self.assumed_prefixes[prefix] = ns
                self.note(f"undeclared prefix '{prefix}:' read as <{ns}>", tok)
            return ns
        what = f"bare name '{bare}' (read as ':{bare}')" if bare else f"prefix '{prefix}:'"
        if not self.ctx.lenient:
            raise self.error(
                f"undeclared {what}",
                tok,
                expected=f"a declaration such as PREFIX {prefix}: <…> before the query "
                "(or --lenient, which assumes the well-known namespaces)",
            )
        ns = WELL_KNOWN_PREFIXES.get(prefix, f"{PLACEHOLDER_NAMESPACE}{prefix}#")
        if prefix not in self.assumed_prefixes:
            self.assumed_prefixes[prefix] = ns
            self.note(f"lenient: undeclared prefix '{prefix}:' read as <{ns}>", tok)
        return ns

    def rdf_type(self, _tok: Token | None = None) -> IRI:
        return IRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")

    def nil(self, _tok: Token | None = None) -> IRI:
        return IRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#nil")

    # ---- other terms ----------------------------------------------------------------------
    def var(self, tok: Token) -> Var:
        name = str(tok)[1:]
        if "-" in name:
            self.note(f"lenient: hyphenated variable ?{name} (as in the §2.2 example of Barbieri et al. 2010)", tok)
        return Var(name)

    def blank_node(self, tok: Token) -> BlankNode:
        if str(tok).startswith("_:"):
            self.blank_scopes.written(tok)
            return BlankNode(str(tok)[2:])
        return BlankNode(self.fresh_blank_label())

    def string(self, tok: Token) -> str:
        return unescape_string(str(tok))

    def rdf_literal(self, lexical: str, qualifier: Token | IRI | None = None) -> Literal:
        if isinstance(qualifier, IRI):
            return Literal(lexical, datatype=qualifier.value)
        if qualifier is not None:
            return Literal(lexical, lang=str(qualifier)[1:].lower())
        return Literal(lexical)

    def integer(self, tok: Token) -> Literal:
        return Literal(str(tok), XSD + "integer")

    def decimal(self, tok: Token) -> Literal:
        return Literal(str(tok), XSD + "decimal")

    def double(self, tok: Token) -> Literal:
        return Literal(str(tok), XSD + "double")

    def signed_number(self, tok: Token) -> Literal:
        text = str(tok)
        kind = "double" if "e" in text.lower() else "decimal" if "." in text else "integer"
        return Literal(text, XSD + kind)

    def boolean_literal(self, tok: Token) -> Literal:
        return Literal(str(tok).lower(), XSD + "boolean")

    # ---- expressions ----------------------------------------------------------------------
    def or_expr(self, left, right):
        return BinaryOp("||", left, right)

    def and_expr(self, left, *rest):
        if len(rest) == 2:  # lenient '^^' read as && (the §3.4 example of Barbieri et al. 2010)
            self.note("lenient: '^^' read as && (as in the §3.4 example of Barbieri et al. 2010)", rest[0])
        return BinaryOp("&&", left, rest[-1])

    def eq(self, a, b):
        return BinaryOp("=", a, b)

    def ne(self, a, b):
        return BinaryOp("!=", a, b)

    def lt(self, a, b):
        return BinaryOp("<", a, b)

    def gt(self, a, b):
        return BinaryOp(">", a, b)

    def le(self, a, b):
        return BinaryOp("<=", a, b)

    def ge(self, a, b):
        return BinaryOp(">=", a, b)

    def add(self, a, b):
        return BinaryOp("+", a, b)

    def sub(self, a, b):
        return BinaryOp("-", a, b)

    def mul(self, a, b):
        return BinaryOp("*", a, b)

    def div(self, a, b):
        return BinaryOp("/", a, b)

    def in_expr(self, expr, values):
        return In(expr, values)

    def not_in_expr(self, expr, values):
        return In(expr, values, negated=True)

    def expression_list(self, *items):
        return tuple(x for x in items if not isinstance(x, Token))

    def not_expr(self, operand):
        return UnaryOp("!", operand)

    def uplus(self, operand):
        return UnaryOp("+", operand)

    def uminus(self, operand):
        """``-`` before a numeric literal is folded into a negative literal (W3C
        NumericLiteralNegative); otherwise a unary minus."""
        if (
            isinstance(operand, Literal)
            and operand.datatype in (XSD + "integer", XSD + "decimal", XSD + "double")
            and not operand.lexical.startswith(("-", "+"))
        ):
            return Literal("-" + operand.lexical, operand.datatype)
        return UnaryOp("-", operand)

    def arg_list(self, *items) -> Args:
        args = Args(x for x in items if not isinstance(x, Token))
        args.distinct = any(isinstance(x, Token) and x.type == "DISTINCT" for x in items)
        return args

    def builtin_call(self, name: Token, args: Args) -> FunctionCall:
        canonical = BUILTINS[str(name).upper()]
        owner = DIALECT_BUILTINS.get(canonical)
        if owner is not None and owner != self.dialect:
            raise self.error(
                f"{canonical}() is {'an' if owner == 'epsparql' else 'a'} {_DIALECT_NAMES[owner]} function, but this query is read as "
                f"{_DIALECT_NAMES[self.dialect]}",
                name,
                expected=f"--dialect {owner} (or remove {canonical}())",
            )
        base = self.base if canonical in ("IRI", "URI") else None
        return FunctionCall(canonical, tuple(args), base)

    def function_call(self, iri: IRI, args: Args) -> IRICall:
        return IRICall(iri, tuple(args), args.distinct)

    def iri_or_function(self, iri: IRI, args: Args | None = None):
        return iri if args is None else IRICall(iri, tuple(args), args.distinct)

    def exists_func(self, group):
        return Exists(group)

    def not_exists_func(self, group):
        return Exists(group, negated=True)

    def aggregate(self, name: Token, *rest) -> Aggregate:
        distinct = any(isinstance(x, Token) and x.type == "DISTINCT" for x in rest)
        arg = rest[-1]
        return Aggregate(str(name).upper(), None if isinstance(arg, Token) else arg, distinct)

    def group_concat(self, _name: Token, *rest) -> Aggregate:
        distinct = any(isinstance(x, Token) and x.type == "DISTINCT" for x in rest)
        values = [x for x in rest if not isinstance(x, Token)]
        separator = values[1] if len(values) > 1 else None
        return Aggregate("GROUP_CONCAT", values[0], distinct, separator)


def decimal_of(text: str) -> Decimal:
    return Decimal(text)
