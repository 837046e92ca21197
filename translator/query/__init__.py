"""Stage 1 of the pipeline: query text → the shared RSP query model (Dao-Tran, Beck, Eiter 2015, §3).

Grammars (``grammars/*.lark``), the Lark transformers, dialect detection, the model
(:mod:`translator.query.model`), its printers and JSON form, and the query errors. Nothing here
evaluates SPARQL or touches streams.
"""
