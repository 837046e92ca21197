"""RSP query texts (C-SPARQL, CQELS-QL, EP-SPARQL) → one query model → LARS programs."""
