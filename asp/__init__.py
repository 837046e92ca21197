"""LARS → clingo: the ASP encoding and the multi-shot stream solver."""
