"""Relative IRI references resolved against a base IRI, exactly as RFC 3986 §5.2 says (Berners-Lee,
Fielding, Masinter 2005; SPARQL 1.1 §4.1.1.1 points there for BASE and relative IRIs).

Python's ``urllib.parse.urljoin`` is not used: it drops an empty fragment or query (``#`` against
``http://a/b`` gives ``http://a/b``, where §5.2.2 keeps ``http://a/b#``) and handles dot segments
of some references otherwise than §5.2.4."""

from __future__ import annotations

import re

_REFERENCE = re.compile(r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.DOTALL)
"""RFC 3986 Appendix B: scheme, authority, path, query, fragment (None: the part is absent)."""


def _split(reference: str) -> tuple[str | None, str | None, str, str | None, str | None]:
    match = _REFERENCE.match(reference)
    assert match is not None  # every string matches Appendix B's expression
    scheme, authority, path, query, fragment = match.groups()
    return scheme, authority, path, query, fragment


def remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4: the ``.`` and ``..`` segments of a path removed."""
    output: list[str] = []
    while path:
        if path.startswith("../"):
            path = path[3:]
        elif path.startswith("./"):
            path = path[2:]
        elif path.startswith("/./"):
            path = path[2:]
        elif path == "/.":
            path = "/"
        elif path.startswith("/../"):
            path = path[3:]
            if output:
                output.pop()
        elif path == "/..":
            path = "/"
            if output:
                output.pop()
        elif path in (".", ".."):
            path = ""
        else:
            end = path.find("/", 1)
            end = len(path) if end < 0 else end
            output.append(path[:end])
            path = path[end:]
    return "".join(output)


def _merge(base_authority: str | None, base_path: str, path: str) -> str:
    """RFC 3986 §5.2.3."""
    if base_authority is not None and base_path == "":
        return "/" + path
    cut = base_path.rfind("/")
    return base_path[: cut + 1] + path if cut >= 0 else path


def resolve_iri(base: str, reference: str) -> str:
    """The target IRI of ``reference`` against ``base`` (RFC 3986 §5.2.2, strict: a reference
    with a scheme is taken as it is, dot segments removed), recomposed as §5.3 says."""
    r_scheme, r_authority, r_path, r_query, r_fragment = _split(reference)
    b_scheme, b_authority, b_path, b_query, _ = _split(base)
    scheme: str | None
    authority: str | None
    query: str | None
    if r_scheme is not None:
        scheme, authority, path, query = r_scheme, r_authority, remove_dot_segments(r_path), r_query
    elif r_authority is not None:
        scheme, authority, path, query = b_scheme, r_authority, remove_dot_segments(r_path), r_query
    elif r_path == "":
        scheme, authority, path = b_scheme, b_authority, b_path
        query = r_query if r_query is not None else b_query
    else:
        if r_path.startswith("/"):
            path = remove_dot_segments(r_path)
        else:
            path = remove_dot_segments(_merge(b_authority, b_path, r_path))
        scheme, authority, query = b_scheme, b_authority, r_query
    result = ""
    if scheme is not None:
        result += scheme + ":"
    if authority is not None:
        result += "//" + authority
    result += path
    if query is not None:
        result += "?" + query
    if r_fragment is not None:
        result += "#" + r_fragment
    return result
