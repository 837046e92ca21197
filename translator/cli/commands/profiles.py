"""``rsplars profiles``: the engine profiles with their parameters and the passages of the papers
they come from (:mod:`translator.evaluate.profiles`)."""

from __future__ import annotations

import argparse
import json

from translator.exits import EXIT_OK

HELP = "list the engine profiles (C-SPARQL, CQELS, SPARQLstream, RSP-QL, RSP4J, RSP-JS) with their parameters and sources"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("profiles", help=HELP, description=HELP)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from translator.evaluate.profiles import PROFILES

    if args.json:
        data = {name: {"engine": p.engine, "parameters": p.params.as_dict(), "sources": p.sources, "notes": list(p.notes)}
                for name, p in PROFILES.items()}
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK
    for name, p in PROFILES.items():
        print(f"{name}  ({p.engine})")
        for key, value in p.params.as_dict().items():
            if value is None:
                continue
            source = p.sources.get(key)
            print(f"  {key:16} {value}" + (f"    [{source}]" if source else ""))
        for note in p.notes:
            print(f"  note: {note}")
        print()
    return EXIT_OK
