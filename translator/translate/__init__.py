"""Stage 2 of the pipeline: query model → LARS program (Dao-Tran, Beck, Eiter 2015, §4).

SPARQL algebra and normalisation, FILTER/BIND expressions, τ/τ1/τ2 (Fig. 1), execution modes (§4.1),
cs(Q)/cq(Q) compilation, aggregates, and the export of a program as clingo text.
"""
