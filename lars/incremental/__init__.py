"""An incremental LARS engine for stratified programs (no clingo).

Ticker (Beck, Eiter, Folie, *Ticker: A system for incremental ASP-based stream reasoning*, TPLP
2017) has two engines: an incremental one for stratified programs, whose answer stream at every
time point is unique, and a clingo one for the general case. This module is the incremental one
of rsplars (``rsplars lars --engine incremental``; ``--engine auto`` picks it when the program is
in its fragment, ``compiling.fragment_problem``); ``asp.solver`` is the general one. It computes
what ``lars.reference`` defines (Dao-Tran, Beck, Eiter 2015, §2.4, Definition 3; Beck et al.
2015; decisions D9–D11, docs/decisions.md) — the intensional atoms that hold at t in the answer
stream at t — and yields the same ``lars.solver.Step`` records as ``asp.solver.StreamSolver``
(both are ``lars.solver.Solver``s).

How (Laser, Bazoobi et al. AAAI 2017 §4, keeps *annotated substitutions*: horizon times for ◇,
consideration times for □; here the same information is kept per window and atom):

1. Every windowed literal over a stream predicate is a *base relation* kept incrementally as the
   window slides: ◇ by the last time point of the window the atom occurs at (Laser's horizon less
   the window's length; it enters with its first point in the window and leaves with the point
   that is its last), ``@_T`` by the pairs (atom, T) of the window, □ by the start of
   the atom's current run of consecutive occurrences (its consideration time: it holds iff the run
   started at or before the window's first point). Time points enter and leave the windows once
   each, so the work per reference time is the change, not the window's content.
2. Intensional predicates are relations with a *support count* per ground atom (the number of
   rule instances deriving it, plus one for a fact, plus one while it is in the stream at t): the
   counting algorithm of view maintenance (Gupta, Mumick, Subrahmanian, SIGMOD 1993), exact for
   non-recursive programs, negation and built-ins included. The tuples of a relation that change
   at a time point are joined, as one batch, against hash indexes of the other relations of each
   rule body (the delta rule: the occurrences before the changed one in the body see the relation
   without the batch; ``joins.BatchJoin``), changing the counts of the heads; a head atom whose count
   becomes 0 or stops being 0 is a change of its relation in turn, propagated predicate by
   predicate in topological order.
4. Given ``outputs`` (the predicates the caller reads, as ``rsplars run`` does), the answer holds
   only their atoms, and stream atoms that no output can depend on are dropped as they are read
   (``demand.stream_filters``, a demand analysis over the rules' constants).
3. Rules apply at t only (D10): derived atoms hold at t, and windows see stream atoms only (the
   fragment has no windows over intensional predicates), so the answer at t is the fixpoint above.
   Built-in calls ``@name(…)`` use the same Python functions as the clingo engine, cached per
   distinct argument tuple (the cache is cleared when it grows large: memory stays flat).

4. Rules with aggregates (``#count``, ``#sum``, ``#min``, ``#max``, external ``#@name``) and the rules of recursive
   components are *blocks* (``lars.incremental.aggregates``): nodes of the topological order
   (a component is one node) recomputed when a relation they read changed — only the partitions
   (groups) that the changed rows name, when the block has a partition variable — and diffed
   against their last result; aggregates whose groups can be enumerated keep their element tuples
   per group by the counting algorithm.

The fragment: rules whose head is an atom (or none: a constraint); stratified programs, with
positive recursion (a strongly connected component of intensional predicates without negation or
aggregates inside it) and aggregate assignments whose elements' predicates lie in lower strata
(as ``lars.reference`` requires); windows (time-based; □ only with step 1 and no right-open end)
only over predicates that no rule defines (and ``true``), no tuple or partition windows, no
``@_T`` heads, negated literals only over bound variables (no ``_``), ground facts, safe rules.
Everything else is refused with the rule and the reason (``auto`` then uses clingo).

The modules, each one concern, in the order they depend on each other:

* ``rules``: the compiled form of rules (``CompiledRule``, ``Lit``) and ``NotInFragment``;
* ``texts``: ground terms as canonical texts, built-ins on texts;
* ``joins``: the delta rule for a batch of changed rows (``BatchJoin``);
* ``planning``: join plans per seed literal;
* ``relations``: relations with hash indexes, and the state of each window;
* ``aggregates``: blocks for aggregates and recursive components;
* ``compiling``: a program into compiled rules in topological order (the fragment's check);
* ``demand``: which stream rows can matter to the outputs;
* ``unfold``: intermediate predicates unfolded into their one use;
* ``answer``: the sorted answer and its JSON;
* ``engine``: ``IncrementalSolver`` and the state of a run.
"""

from lars.incremental.compiling import compile_program, fragment_problem
from lars.incremental.demand import stream_filters
from lars.incremental.engine import IncrementalSolver
from lars.incremental.rules import NotInFragment

__all__ = ["IncrementalSolver", "NotInFragment", "compile_program", "fragment_problem", "stream_filters"]
