"""Time of the sensor-averages query (AVG/MAX/SUM of om:floatValue readings GROUP BY ?sensor) over N
readings of 10 sensors, two thirds xsd:double and one third xsd:decimal, in a C-SPARQL
[RANGE 10s STEP 5s] window evaluated at 0…20 (docs/translation.md, "Exact values", Cost).

    PYTHONPATH=. .venv/bin/python bench/aggregates_numeric.py 1000
"""

from __future__ import annotations

import random
import sys
import time

from rdflib import Literal, Namespace, URIRef
from rdflib.namespace import XSD

from translator.evaluate.run import answers
from translator.query.parse import parse
from translator.rdf.streams import StreamElement
from translator.translate.compile import compile_query

OM = Namespace("http://knoesis.wright.edu/ssw/ont/sensor-observation.owl#")
EX = Namespace("http://ex.org/")
STREAM = URIRef("http://ex.org/s")
QUERY = f"""PREFIX om: <{OM}>
SELECT ?sensor (AVG(?v) AS ?avg) (MAX(?v) AS ?mx) (SUM(?v) AS ?s) FROM STREAM <{STREAM}> [RANGE 10s STEP 5s]
WHERE {{ ?obs om:procedure ?sensor ; om:result ?r . ?r om:floatValue ?v . }} GROUP BY ?sensor"""


def main(n: int) -> None:
    compiled = compile_query(parse(QUERY, "csparql"), mode="none")
    rng = random.Random(1)
    elements = []
    for i in range(n):
        t = i * 20 // n
        obs, result = EX[f"o{i}"], EX[f"r{i}"]
        if i % 3:
            value = Literal(repr(rng.uniform(-50, 50)), datatype=XSD.double, normalize=False)
        else:
            value = Literal(f"{rng.randint(0, 9999) / 100}", datatype=XSD.decimal, normalize=False)
        elements += [StreamElement((obs, OM.procedure, EX[f"S{i % 10}"]), t, STREAM),
                     StreamElement((obs, OM.result, result), t, STREAM),
                     StreamElement((result, OM.floatValue, value), t, STREAM)]
    start = time.perf_counter()
    evaluations = list(answers(compiled, elements, (), start=0, end=20))
    print(f"{n} readings, {len(evaluations)} evaluations: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
