"""An independent evaluator of RSEP-QL event patterns, written from the definitions of Dell'Aglio,
Dao-Tran, Calbimonte, Le Phuoc, Della Valle 2016 (§3.2 Def 3, §4.2 Eqs. 4–7), with nested loops
over the stream items: no LARS, no code of rsplars. Unrestricted SEQ only.

A stream is a list of items ``(t, frozenset of (s, p, o))``; an event pattern is ``("E", window,
triples)`` (window ``("lnd", t0)`` or ``("tau", a, b)``; triples with variables ``"?x"``),
``("FIRST", E)``, ``("LAST", E)`` or ``("SEQ", E1, E2)``. A result is a bag, a list of
``(frozenset(mu.items()), t1, t2)`` with one entry per event mapping: a basic event pattern gives
one per match in an item, SEQ one per pair (Eq. 7 over the pairs, SPARQL 1.1 §18.5's Join), so
two pairs with the same mapping and interval through other events are two entries.
"""

from __future__ import annotations


def window(stream, w, t):
    """W(S, t) of Def 3: the items of the landmark window [t0, t] or of the time-based window
    (t' − a, t'], t' = ⌊t/b⌋·b."""
    if w[0] == "lnd":
        return [(ti, g) for ti, g in stream if w[1] <= ti <= t]
    a, b = w[1], w[2]
    tp = (t // b) * b
    return [(ti, g) for ti, g in stream if tp - a < ti <= tp]


def bgp(triples, graph, mu):
    """The solutions of a BGP in one graph, extending mu (substitution μ2(E1))."""
    out = []

    def go(i, m):
        if i == len(triples):
            out.append(dict(m))
            return
        for triple in graph:
            m2 = dict(m)
            ok = True
            for pattern, value in zip(triples[i], triple):
                if pattern.startswith("?"):
                    if m2.setdefault(pattern[1:], value) != value:
                        ok = False
                elif pattern != value:
                    ok = False
            if ok:
                go(i + 1, m2)

    go(0, mu)
    return out


def before(a, b):
    return a[1] < b[0]


def evaluate(e, stream, t, mu=None, cut=None):
    """[[E]]^t_W with W = W^int[0, cut−1] (None: W^id) and the bindings mu substituted."""
    mu = mu or {}
    if e[0] == "E":
        items = [(ti, g) for ti, g in window(stream, e[1], t) if cut is None or ti <= cut - 1]
        return [(frozenset(m.items()), ti, ti) for ti, g in items for m in bgp(e[2], g, mu)]
    if e[0] in ("FIRST", "LAST"):
        inner = evaluate(e[1], stream, t, mu, cut)
        if e[0] == "FIRST":
            return [x for x in inner if not any(before(y[1:], x[1:]) for y in inner)]
        return [x for x in inner if not any(before(x[1:], y[1:]) for y in inner)]
    assert e[0] == "SEQ"
    out = []
    for m2, t3, t4 in evaluate(e[2], stream, t, mu, cut):
        new_cut = t3 if cut is None else min(cut, t3)
        for m1, t1, _ in evaluate(e[1], stream, t, {**mu, **dict(m2)}, new_cut):
            out.append((frozenset({**dict(m1), **dict(m2)}.items()), t1, t4))
    return out


def all_items(stream):
    return sorted({t for t, _ in stream})


__all__ = ["evaluate", "window", "all_items"]
