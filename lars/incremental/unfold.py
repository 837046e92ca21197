"""Unfolding intermediate predicates of the incremental engine's rules (partial evaluation).

The τ translation of a SPARQL join (paper-fixed, ``translator.translate.tau``) gives a chain of
binary joins, ``ans20 :- ans40, ans41``, ``ans10 :- ans20, ans21``, …: the incremental engine
(``lars.incremental``) keeps every predicate of the chain as a relation with support counts and
indexes, so each observation that joins goes through every link of the chain, and leaves the same
way. When the caller reads only some predicates (``outputs``), an intermediate predicate p that
no one else reads need not be kept: its one use is replaced by its definition.

This is *unfolding* (Tamaki and Sato, *Unfold/fold transformation of logic programs*, ICLP 1984;
for normal programs under the stable and well-founded semantics, Brass and Dix, *Semantics of
(disjunctive) logic programs based on partial evaluation*, JLP 1999, the principle of partial
evaluation, GPPE): a rule ``h :- p(L), B`` and the only rule ``p(H) :- C`` of p give
``h σ :- C ρσ, B σ`` where ρ renames the variables of p's rule apart and σ is the most general
unifier of ``L`` and ``Hρ``. The answer stream at every t is unchanged on every predicate but p:
for a non-recursive p defined by one rule, every instance of the new rule is an instance of the
old one together with the instance of p's rule that derives the p atom it uses, and back (rules
apply at t only, D10, so time plays no part in the argument). The engine's support counts then
count instances of the new rule: still non-zero exactly when the head holds.

What p must be (each condition is needed for the argument above, or keeps the engine's own
invariants):

* defined by exactly one rule of the engine — or by several, when p has no facts and one use, which
  then becomes one rule per rule of p (:func:`_unfold_alternatives`, at most ``MAX_ALTERNATIVES``
  rules from one rule of the program) — (after the rules that can never apply are dropped,
  :func:`drop_dead_rules`: the τ translation reads each triple pattern from the default graph
  too, which a run without static data never fills) — which excludes predicates whose atoms the stream
  may carry (D11 adds a copy rule ``p(X) :- p(X) [now]`` for each intensional predicate; the caller
  who knows the stream has no atoms of p, ``stream_predicates`` of ``IncrementalSolver``, lets the
  engine leave that rule out) and predicates with facts — except a renaming (below) beside facts
  when each use reads either its rule's atoms or the facts, never both (:func:`_apart`: the
  static data's ``triple(…, default)`` beside the window's ``triple(…, stream)``): the uses of the
  rule are unfolded and the others keep reading p, which then holds the facts only;
* read by exactly one literal of one rule — or by any number, when p's rule is a *renaming*,
  its body one positive literal with arguments besides 0-ary ones such as ``trigger``
  (:func:`_renaming`: the τ translation's window rule ``triple(S,P,O,stream) :- striple(S,P,O,s) [10]`` is one; each use
  then reads the window's relation where it read p's copy of it, and no join is made twice) —
  positive, in a rule that is not a block's
  (aggregates and recursion, ``lars.incremental.aggregates``: their watch rules read whole
  relations), and not an output (the caller reads its atoms) nor a constraint's head;
* its rule reads no block node (the heads of blocks);
* the arguments of the literal and of p's head are variables or constants (no compound terms
  or arithmetic, so that σ is a substitution of variables by variables or constants);
* and, a matter of cost rather than of exactness: the variables the literal shares with the other
  positive literals of its rule (there must be some, if there are such literals) occur together in
  one positive literal of p's rule. A change of another literal then meets p's body through an
  index on that key, as it met p's relation before; without a shared variable, each such change
  would go through p's whole body where the relation of p held its rows ready. Except when p's
  rule is itself a cross product (:func:`_cross_product`: its literals fall apart into groups
  sharing no variable, as CSRBench Q6's τ translation gives): its relation then holds the product
  of the groups' rows, the worst thing to keep, and unfolded into a use whose literals join the
  groups (the unfolded rule is no cross product), they meet there, in the order the plan picks.
"""

from __future__ import annotations

from lars.incremental.planning import plan_rule
from lars.incremental.rules import BLOCK_NODES, FALSE, NEG, CompiledRule, Lit, term_variables
from lars.model import Arith, Call, Comparison, Constant, Function, Integer, String, Term, Variable
from lars.printer import format_term

_GROUND = (Constant, Integer, String)


def _base(lit: Lit) -> tuple:
    return lit.rel[1] if lit.rel[0] == NEG else lit.rel


def _subst(term: Term, sigma: dict) -> Term:
    if isinstance(term, Variable):
        return sigma.get(term.name, term)
    if isinstance(term, Function):
        return Function(term.name, tuple(_subst(a, sigma) for a in term.args))
    if isinstance(term, Call):
        return Call(term.name, tuple(_subst(a, sigma) for a in term.args))
    if isinstance(term, Arith):
        return Arith(term.op, _subst(term.left, sigma), _subst(term.right, sigma))
    return term


def _lit(lit: Lit, sigma: dict) -> Lit:
    return Lit(lit.rel, tuple(_subst(a, sigma) for a in lit.args), lit.negated)


def _cmp(c: Comparison, sigma: dict) -> Comparison:
    return Comparison(c.op, _subst(c.left, sigma), _subst(c.right, sigma))


def _rule_vars(r: CompiledRule) -> set[str]:
    out: set[str] = set()
    for a in r.head_args:
        out |= term_variables(a)
    for lit in r.lits:
        out |= lit.variables
    for c in r.cmps:
        out |= term_variables(c.left) | term_variables(c.right)
    return out


def _unifier(left: tuple, right: tuple, keep: set[str]) -> dict | None:
    """The most general unifier of two argument tuples of variables and constants, as a mapping
    from variable names to terms (a class of variables goes to its constant, else to one of its
    variables, one of ``keep`` if it has one); ``None`` if they do not unify."""
    parent: dict[str, str] = {}
    const: dict[str, str] = {}  # class root -> canonical text of its constant
    term_of: dict[str, Term] = {}

    def find(v: str) -> str:
        while parent.setdefault(v, v) != v:
            v = parent[v]
        return v

    for a, b in zip(left, right):
        if isinstance(a, _GROUND) and isinstance(b, _GROUND):
            if format_term(a) != format_term(b):
                return None
            continue
        if isinstance(a, _GROUND):
            a, b = b, a
        ra = find(a.name)
        if isinstance(b, _GROUND):
            text = format_term(b)
            if const.get(ra, text) != text:
                return None
            const[ra] = text
            term_of[text] = b
            continue
        rb = find(b.name)
        if ra == rb:
            continue
        if rb in keep and ra not in keep:
            ra, rb = rb, ra
        parent[rb] = ra
        if rb in const:
            text = const.pop(rb)
            if const.get(ra, text) != text:
                return None
            const[ra] = text
    sigma: dict[str, Term] = {}
    for v in list(parent):
        root = find(v)
        target = term_of[const[root]] if root in const else Variable(root)
        if target != Variable(v):
            sigma[v] = target
    return sigma


def _keyed(r: CompiledRule, i: int, body: list[Lit]) -> bool:
    """Is the join of literal i of r with r's other positive literals keyed into ``body`` (p's
    rule, renamed and unified): do the variables they share all occur in one positive literal of
    ``body``? (Or r has no other positive literal with arguments.)"""
    others: set[str] = set()
    for j, lit in enumerate(r.lits):
        if j != i and not lit.negated and lit.args:
            others |= lit.variables
    if not others:
        return True
    shared = r.lits[i].variables & others
    if not (shared and any(shared <= lit.variables for lit in body if not lit.negated)):
        return False
    positive = [lit.variables for lit in body if lit.args and not lit.negated]
    # a join in the body: a change of another literal must bind a variable of every one of its
    # literals (a star around one key, as a SPARQL subject), so that each is an index look-up on
    # it and nothing is built only to be thrown away (CityBench Q1's join on a property, p1, would
    # go through every observation of p1 of both streams where the kept relation held those of one)
    return len(positive) < 2 or bool(shared.intersection(*positive))


def _cross_product(d: CompiledRule) -> bool:
    """Do the positive literals (with arguments) of ``d``'s body fall apart into groups that share
    no variable? Its relation is then a cross product of theirs, kept row by row (|A| × |B| rows:
    CSRBench Q6, whose τ translation joins its patterns in written order, so that the pattern of one
    observation's value meets its observation only one join later). Unfolded into its one use, the
    groups join there through the variables the use shares with each, in the order the plan picks
    (``lars.incremental.planning``), and no cross product is kept (``_keyed``'s cost condition,
    meant for joins that are keyed already, does not apply) — when the use does join them, i.e.
    the unfolded rule is no cross product itself. Otherwise (CityBench Q3: the product of two
    patterns over the static data, joined with one stream's observations on one of its variables
    only) the product is kept: it changes rarely, and unfolded it would be joined again at every
    change of the other literals."""
    groups: list[set[str]] = []
    for lit in d.lits:
        names = set(lit.variables)
        if lit.negated or not names:  # a ground literal is a condition, not a factor
            continue
        joined = [g for g in groups if g & names]
        for g in joined:
            names |= g
            groups.remove(g)
        groups.append(names)
    return len(groups) > 1


def _unfold_one(r: CompiledRule, i: int, d: CompiledRule, serial: int) -> CompiledRule | None:
    """``r`` with its literal i (over d's head) replaced by d's body, or ``None`` if the
    arguments are not all variables and constants, or do not unify."""
    lit = r.lits[i]
    if any(not isinstance(a, (Variable, *_GROUND)) for a in (*lit.args, *d.head_args)):
        return None
    rename = {v: Variable(f"#u{serial}_{v}") for v in _rule_vars(d)}
    head = tuple(_subst(a, rename) for a in d.head_args)
    sigma = _unifier(lit.args, head, _rule_vars(r))
    if sigma is None:
        return None
    body = [_lit(_lit(x, rename), sigma) for x in d.lits]
    keyed = _keyed(CompiledRule(r.rule, r.head, r.head_args, [_lit(x, sigma) for x in r.lits], []), i, body)
    if not keyed and not _cross_product(d):
        return None
    lits: list[Lit] = []
    seen: set = set()
    for x in (*[_lit(x, sigma) for x in r.lits[:i]], *body, *[_lit(x, sigma) for x in r.lits[i + 1:]]):
        key = (x.rel, x.args, x.negated)
        if key not in seen:  # a literal twice (``trigger``) is one condition
            seen.add(key)
            lits.append(x)
    cmps: list[Comparison] = []
    for c in (*[_cmp(c, sigma) for c in r.cmps], *[_cmp(_cmp(c, rename), sigma) for c in d.cmps]):
        if c not in cmps:
            cmps.append(c)
    new = CompiledRule(r.rule, r.head, tuple(_subst(a, sigma) for a in r.head_args), lits, cmps)
    if not keyed and _cross_product(new):  # the use does not join the product's groups: kept
        return None
    return new


def _may_match(pattern: tuple, args: tuple) -> bool:
    """Could an atom matched by the literal arguments ``pattern`` be one of ``args`` (a rule's
    head arguments or a fact's)? No only when some position holds two different constants; a
    variable, compound or computed argument may match anything."""
    return len(pattern) == len(args) and all(
        not (isinstance(a, _GROUND) and isinstance(b, _GROUND)) or format_term(a) == format_term(b)
        for a, b in zip(pattern, args))


def drop_dead_rules(rules: list[CompiledRule], facts) -> list[CompiledRule]:
    """The rules without those that can never apply: a rule with a positive literal over an
    intensional predicate whose atoms no fact and no rule head can give (the τ translation reads
    every triple pattern from the default graph and from each stream, ``triple(…, default)`` and
    ``triple(…, s)``; with no static data, the first kind never holds). A literal ``p(L)`` is
    dead when no fact of p and no head of a rule of p agrees with L on its constants
    (:func:`_may_match`); dropping a rule may leave another literal dead, so this runs to a
    fixpoint. The answers do not change: a dropped rule has no instance whose body holds at any
    time point, so it derives nothing. Rules of aggregate blocks and the relations they give are
    left alone (their heads' arguments are not the atoms'); with D11's copy rule for a predicate
    the stream may carry (its head is all variables), no literal of it is dead."""
    heads: dict[tuple, list[tuple]] = {}
    for f in facts:
        heads.setdefault(f.signature, []).append(f.args)
    while True:
        given = dict(heads)
        opaque: set[tuple] = set()  # given by a rule whose head arguments are not the atom's
        for r in rules:
            if r.head == FALSE:
                continue
            if r.head[0].startswith("#") or len(r.head_args) != r.head[1]:
                opaque.add(r.head)
            given.setdefault(r.head, []).append(r.head_args)

        def dead(lit: Lit) -> bool:
            rel = lit.rel
            if lit.negated or not (isinstance(rel[0], str) and not rel[0].startswith("#")) or rel in opaque:
                return False
            return not any(_may_match(lit.args, args) for args in given.get(rel, ()))

        kept = [r for r in rules if (r.head != FALSE and r.head[0].startswith("#")) or not any(dead(x) for x in r.lits)]
        if len(kept) == len(rules):
            return rules
        rules = kept


def _one_positive(d: CompiledRule) -> bool:
    """Does ``d``'s body have exactly one positive literal with arguments (besides 0-ary ones such
    as ``trigger``, negated literals and comparisons)? A change met through an index of d's
    relation then meets the same index of that literal's relation: the join is not made again."""
    return sum(1 for x in d.lits if x.args and not x.negated) == 1


def _renaming(d: CompiledRule) -> bool:
    """Is ``d`` a rule whose body is one positive literal with arguments (and 0-ary positive
    literals such as ``trigger``, and comparisons)? Unfolding it into any number of uses makes no
    join: each use reads the body's relation, filtered by d's constants, where it read d's copy."""
    return _one_positive(d) and not any(x.negated for x in d.lits)




def unfold_rules(rules: list[CompiledRule], order: list[tuple], outputs: set[tuple], facts) -> tuple[list[CompiledRule], list[tuple], set[tuple]]:
    """The rules (compiled, ``lars.incremental.compile_program``) without the rules that can
    never apply (:func:`drop_dead_rules`), and with every predicate unfolded that the module
    docstring allows, bottom-up in the topological ``order``; the order without those
    predicates, and the set of them. The new rules are planned (``plan_rule``)."""
    fact_args: dict[tuple, list[tuple]] = {}
    for f in facts:
        fact_args.setdefault(f.signature, []).append(f.args)
    rules = drop_dead_rules(list(rules), facts)
    order = list(order)
    gone: set[tuple] = set()
    serial = 0
    width: dict[CompiledRule, int] = {}  # a rule -> how many rules its original became (_unfold_alternatives)
    for p in list(order):
        if p == FALSE or p in outputs or p[0] in BLOCK_NODES or p[0].startswith("#"):
            continue
        defs = [r for r in rules if r.head == p]
        uses = [(r, i) for r in rules for i, lit in enumerate(r.lits) if _base(lit) == p]
        if len(defs) > 1 and len(uses) == 1 and p not in fact_args:
            got = _unfold_alternatives(rules, p, defs, uses[0], serial, width)
            serial += len(defs)
            if got is not None:
                rules = got
                order.remove(p)
                gone.add(p)
            continue
        if len(defs) != 1 or not uses or (len(uses) > 1 and not _renaming(defs[0])):
            continue
        (d,) = defs
        if any(r is d or r.lits[i].negated or (r.head != FALSE and r.head[0].startswith("#")) for r, i in uses):
            continue
        if any(_base(x)[0] in BLOCK_NODES for x in d.lits) or any(_base(x)[0] in BLOCK_NODES for r, _ in uses for x in r.lits):
            continue
        kept = fact_args.get(p)
        if kept is not None:  # p has facts too: only a renaming whose uses each read its rule or the facts (_apart)
            if not _renaming(d) or not _apart(uses, d, kept):
                continue
            done = _unfold_uses(rules, p, d, serial, lambda lit: _may_match(lit.args, d.head_args))
        else:
            done = _unfold_uses(rules, p, d, serial)
        serial += len(uses)
        if done is None:
            continue
        rules = [x for x in done if x is not d]
        if kept is None:
            order.remove(p)
            gone.add(p)
    return rules, order, gone


#: the most rules one rule of the program may become by unfolding predicates of several rules
MAX_ALTERNATIVES = 4


def _unfold_alternatives(rules: list[CompiledRule], p: tuple, defs: list[CompiledRule], use: tuple, serial: int,
                         width: dict[CompiledRule, int]) -> list[CompiledRule] | None:
    """``rules`` with p's one use replaced by one rule per rule of p whose head may give the atom
    it reads (Tamaki and Sato 1984: unfolding with each clause of p), and p's rules gone; ``None``
    when p must stay. The τ translation gives this shape: each triple pattern is read from the
    default graph and from the stream (``ans40(…) :- triple(…, default)`` and ``ans40(…) :-
    striple(…) [3]``), and its one use joins it with the subject's other patterns; unfolded, the
    stream's alternative joins them in one rule over the window (a star, ``lars.incremental.planning.Star``),
    and p's relation, its support counts and its index are not kept. Every instance of the use
    and of the rule of p that derives the atom it reads is an instance of one new rule, and back,
    so a head's support stays non-zero exactly when it holds. The same conditions as for one rule
    (module docstring) hold for each alternative, and a rule of the program becomes at most
    ``MAX_ALTERNATIVES`` rules (each alternative joins again what the other ones join)."""
    r, i = use
    if r in defs or r.lits[i].negated or (r.head != FALSE and r.head[0].startswith("#")):
        return None
    if any(_base(x)[0] in BLOCK_NODES for d in defs for x in d.lits) or any(_base(x)[0] in BLOCK_NODES for x in r.lits):
        return None
    matching = [d for d in defs if _may_match(r.lits[i].args, d.head_args)]
    size = width.get(r, 1) * len(matching)
    if not matching or size > MAX_ALTERNATIVES:
        return None
    new: list[CompiledRule] = []
    for k, d in enumerate(matching):
        one = _unfold_one(r, i, d, serial + k + 1)
        if one is None:
            return None
        plan_rule(one)
        width[one] = size
        new.append(one)
    at = rules.index(r)
    return [x for x in rules[:at] if x not in defs] + new + [x for x in rules[at + 1:] if x not in defs]


def _apart(uses: list, d: CompiledRule, facts: list[tuple]) -> bool:
    """Does each use of p (a literal over p) read either the atoms of p's one rule ``d`` or p's
    facts, never both (:func:`_may_match` on their constants)? The τ translation gives this shape:
    ``triple(S,P,O,stream) :- striple(S,P,O,s) [3]`` next to the static data's facts
    ``triple(…, default)``, read by ``triple(…, stream)`` and ``triple(…, default)`` literals. The
    uses of the rule are then unfolded (their instances are those of the unfolded rules, as for a
    predicate without facts), and the others read a relation of p that holds the facts only: they
    never matched an atom of the rule, so what they read is unchanged. p itself then loses the
    rule's atoms, which no one reads (p is no output: ``unfold_rules``)."""
    for r, i in uses:
        args = r.lits[i].args
        if _may_match(args, d.head_args) and any(_may_match(args, f) for f in facts):
            return False
    return True


def _unfold_uses(rules: list[CompiledRule], p: tuple, d: CompiledRule, serial: int, reads=None) -> list[CompiledRule] | None:
    """``rules`` with every literal over p replaced by d's body (only those ``reads`` accepts, when
    given), one at a time (a rule may read p twice), the new rules planned; ``None`` if one of them
    cannot be unfolded (then none is)."""
    while True:
        use = next(((r, i) for r in rules for i, lit in enumerate(r.lits)
                    if _base(lit) == p and r is not d and (reads is None or reads(lit))), None)
        if use is None:
            return rules
        r, i = use
        serial += 1
        new = _unfold_one(r, i, d, serial)
        if new is None:
            return None
        plan_rule(new)
        rules = [new if x is r else x for x in rules]
