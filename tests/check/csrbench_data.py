"""The CSRBench input stream (Dell'Aglio et al. 2013, §6.3), rebuilt from the LSD observation table the benchmark's
authors ship (``tests/data/csrbench_recorded/obs3h.csv``, see the README there).

The oracle reads 34 Turtle files ``data_k.ttl`` (hurricane Charley, 2004-08-08 06:05 + 5 min·k), each
loaded with application time k·1000 ms. Those files are the LSD observations of ``obs3h.csv`` in
the SSW vocabulary: per observation five triples (type, observedProperty, procedure, result,
samplingTime), per measurement three (type, floatValue as ``xsd:double``, uom), per instant two.
:func:`stream_lines` writes exactly that shape as timestamped N-Triples; ``test_csrbench_recorded``
checks it against the totals the spec computed from the Turtle files (15,188 triples, 957
AirTemperature and 933 RelativeHumidity observations, 50 triples at t = 4000 ms, 1,282 at 29000 ms).

Station codes: the table names stations by number; ``stations.csv`` gives the LSD code of every
station whose code the recorded answers can show (how each was found is in the README). Other
stations are named ``System_ID<number>``: no answer of the queries judged here can bind them (their
values never pass the queries' filters, which the test asserts).
"""

from __future__ import annotations

import csv
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "csrbench_recorded"
STREAM_IRI = "http://cwi.nl/SRBench/observations"

SSW = "http://knoesis.wright.edu/ssw/"
OM = "http://knoesis.wright.edu/ssw/ont/sensor-observation.owl#"
WEATHER = "http://knoesis.wright.edu/ssw/ont/weather.owl#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
XSD = "http://www.w3.org/2001/XMLSchema#"
TIME = "http://www.w3.org/2006/time#"

#: column of obs3h.csv (the OBSERVATION table of lsd.script) → (property, observation class, unit)
PROPERTIES = {
    4: ("AirTemperature", "TemperatureObservation", "fahrenheit"),
    3: ("RelativeHumidity", "RelativeHumidityObservation", "percentage"),
}


def rows() -> list[list[str]]:
    with open(DATA / "obs3h.csv", newline="") as f:
        return list(csv.reader(f))


def station_codes() -> dict[str, str]:
    with open(DATA / "stations.csv", newline="") as f:
        return {r["stationid"]: r["code"] for r in csv.DictReader(f)}


def instants(table: list[list[str]]) -> list[str]:
    """The sampling instants in time order: instant k has application time k·1000 ms."""
    return sorted({r[0] for r in table})


def _stamp(sampling: str) -> str:
    """``2004-08-08 06:05:00.000000+0:00`` → ``2004_08_08_06_05_00`` (the URIs' form)."""
    date, clock = sampling.split(" ")
    return date.replace("-", "_") + "_" + clock[:8].replace(":", "_")


def _triple(s: str, p: str, o: str, t: int) -> str:
    return f'<{s}> <{p}> {o} "{t}" .'


def stream_lines() -> list[str]:
    """The stream as timestamped N-Triples lines, times in ms, in time order."""
    table = rows()
    times = instants(table)
    codes = station_codes()
    out = []
    for k, sampling in enumerate(times):
        t = k * 1000
        stamp = _stamp(sampling)
        instant = f"{SSW}Instant_{stamp}"
        iso = sampling[:10] + "T" + sampling[11:19]
        out.append(_triple(instant, RDF_TYPE, f"<{TIME}Instant>", t))
        out.append(_triple(instant, f"{TIME}inXSDDateTime", f'"{iso}"', t))
        for row in table:
            if row[0] != sampling:
                continue
            code = codes.get(row[1], f"ID{row[1]}")
            for column, (prop, cls, unit) in PROPERTIES.items():
                value = row[column]
                if value == "":
                    continue
                obs = f"{SSW}Observation_{prop}_{code}_{stamp}"
                measure = f"{SSW}MeasureData_{prop}_{code}_{stamp}"
                out += [
                    _triple(obs, RDF_TYPE, f"<{WEATHER}{cls}>", t),
                    _triple(obs, f"{OM}observedProperty", f"<{WEATHER}_{prop}>", t),
                    _triple(obs, f"{OM}procedure", f"<{SSW}System_{code}>", t),
                    _triple(obs, f"{OM}result", f"<{measure}>", t),
                    _triple(obs, f"{OM}samplingTime", f"<{instant}>", t),
                    _triple(measure, RDF_TYPE, f"<{OM}MeasureData>", t),
                    _triple(measure, f"{OM}floatValue", f'"{value}"^^<{XSD}double>', t),
                    _triple(measure, f"{OM}uom", f"<{WEATHER}{unit}>", t),
                ]
    return out


def write_stream(path: Path) -> Path:
    path.write_text("\n".join(stream_lines()) + "\n")
    return path


def write_turtle_folder(folder: Path) -> Path:
    """The stream as the oracle stores it: one Turtle file ``data_k.ttl`` per instant k (prefixed
    names, one subject per block with ``;``), which the oracle loads at k·1000 ms."""
    prefixes = {"sens-obs": SSW, "om-owl": OM, "weather": WEATHER, "xsd": XSD}

    def short(term: str) -> str:
        if term.startswith("<"):
            iri = term[1:-1]
            if iri == RDF_TYPE:
                return "a"
            for name, ns in prefixes.items():
                local = iri[len(ns):]
                if iri.startswith(ns) and local and all(c.isalnum() or c == "_" for c in local):
                    return f"{name}:{local}"
        return term

    folder.mkdir(parents=True, exist_ok=True)
    blocks: dict[int, dict[str, list[str]]] = {}
    for line in stream_lines():
        body, t = line.rsplit(' "', 1)
        k = int(t.split('"')[0]) // 1000
        s, p, o = body.split(" ", 2)
        blocks.setdefault(k, {}).setdefault(short(s), []).append(f"{short(p)} {short(o)}")
    head = "".join(f"@prefix {name}: <{ns}> .\n" for name, ns in prefixes.items())
    for k, subjects in blocks.items():
        text = head + "".join(f"\n{s}\n      " + " ;\n      ".join(pos) + " .\n" for s, pos in subjects.items())
        (folder / f"data_{k}.ttl").write_text(text)
    return folder
