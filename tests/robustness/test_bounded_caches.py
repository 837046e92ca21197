"""Caches keyed by terms stay within ``lars.bounds.TERM_CACHE_SIZE`` however many fresh terms a
stream brings (memory flat; the memory itself is measured in ``bench/fresh_bench.py``)."""

from __future__ import annotations

import lars.incremental.aggregates as incremental_aggregates
import lars.incremental.texts as incremental_texts
import translator.evaluate.live as live
import translator.evaluate.run as run
import translator.rdf.sparql_terms as sparql_terms
import translator.rdf.streams as streams
import translator.translate.expressions as expressions
from lars.bounds import TERM_CACHE_SIZE
from translator.evaluate.writers import AnswerTexts

N = TERM_CACHE_SIZE


def test_stream_token_texts_stay_bounded() -> None:
    texts = streams.LarsTexts()
    for i in range(3 * N):
        texts.tokens[f"<http://e/obs/{i}>"]
        texts.tokens[f'"{i}.5"^^<http://www.w3.org/2001/XMLSchema#float>']
    assert len(texts.tokens) <= N


def test_answer_texts_stay_bounded() -> None:
    answers = AnswerTexts(("x",))
    for i in range(0, 3 * N, 100):
        answers.joined(frozenset((f"<http://e/{j}>",) for j in range(i, i + 100)))
    assert len(answers.cache) <= N and all(len(m) <= N for m in answers.members)


def test_term_keyed_caches_are_bounded() -> None:
    memoised = [run._row_of, run._nt_of_arg, live._lars_term, streams._cached_term, sparql_terms._term,
                expressions._number, expressions._exact, expressions._pieces, expressions.sparql_order_key, expressions._order_of]
    assert len(memoised) >= 8
    for f in memoised:
        assert f.cache_info().maxsize is not None and f.cache_info().maxsize <= N, f
    assert incremental_texts.CACHE_MAX <= N and incremental_aggregates._KEYS_MAX <= N and expressions._FLOAT_TERMS_MAX <= N


def test_answer_argument_texts_stay_bounded() -> None:
    for i in range(3 * N):
        run._row_of(f'answer("<http://e/obs/{i}>","\\"{i}.5\\"^^<http://www.w3.org/2001/XMLSchema#float>")')
    assert len(run._ARG_TEXTS) <= N and len(run._PIECE_TEXTS) <= N
