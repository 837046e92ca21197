"""LARS programs: model, text syntax, canonical printer, stream readers and reference semantics.

Never imports clingo (the engine lives in ``asp``).
"""
