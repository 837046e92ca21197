"""``rsplars run`` on an RSEP-QL query (docs/epsparql.md, "RSEP-QL"): the LARS program of the basic
event patterns on their windows, MATCH evaluated at every evaluation time (every time point with a
stream item, or the times of ``--at``), the full answer ``[[MATCH E]]^t`` written at each with every
event mapping's interval (``"@start"``, ``"@end"``). ``--selection`` / ``--consumption`` /
``--policy-reading`` are EP-SPARQL's (Dell'Aglio et al. 2016, §4.3–4.4)."""

from __future__ import annotations

import argparse



def add_rsepql_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--at", metavar="T[,T…]",
                   help="RSEP-QL: the evaluation times ET (Dell'Aglio et al. 2016, Def 5; default: every time point "
                        "with a stream item, content change)")
