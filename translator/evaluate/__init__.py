"""Stage 3 of the pipeline: running a compiled query over RDF streams with the clingo engine.

Answer streams per evaluation time, R2S (RStream/IStream/DStream), answer rows and CONSTRUCT
triples, and the writers of the ecosystem's output formats.
"""
