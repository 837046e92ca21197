#!/usr/bin/env node
// Runs RSP-JS (Bonte, github.com/pbonte/RSP-JS; npm rsp-js 1.3.5, MIT) on one RSP-QL query and its
// timestamped streams, and writes every report it emits as one JSON line
//   {"t": CLOSE, "window": [OPEN, CLOSE], "stream": IRI, "answers": [{"var": "N-Triples term"}, ...]}
// with the time of the window that produced it (rsplars reads these lines: docs/engines.md, docs/check.md).
//
//   node run.js --query Q.rq --stream IRI=FILE [--stream IRI=FILE ...] [--static FILE ...]
//               --output OUT.jsonl --log RUN.log
//
// FILE is timestamped N-Triples (one triple and its integer time in quotes per line, the CSRBench
// shape of docs/rdf-io.md, §2.1); times are milliseconds, RSP-JS's clock. --static: Turtle or
// N-Triples, the query's default graph. RSP-JS and its logger write to RUN.log (and RUN.log's folder),
// never to OUT.jsonl or stdout. Exit 0 after the run, 2 on bad input (a message on stderr).
"use strict";

const fs = require("fs");
const path = require("path");

function fail(message) {
  process.stderr.write(`rsp-js runner: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { streams: [], statics: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) fail(`${flag} needs a value`);
    i++;
    if (flag === "--query") args.query = value;
    else if (flag === "--stream") {
      const cut = value.lastIndexOf("=");
      if (cut <= 0) fail(`--stream ${value}: expected IRI=FILE`);
      args.streams.push({ iri: value.slice(0, cut).replace(/^<|>$/g, ""), file: value.slice(cut + 1) });
    } else if (flag === "--static") args.statics.push(value);
    else if (flag === "--output") args.output = value;
    else if (flag === "--log") args.log = value;
    else fail(`unknown option ${flag}`);
  }
  if (!args.query || !args.output || !args.log || args.streams.length === 0) {
    fail("usage: run.js --query Q --stream IRI=FILE [...] [--static FILE] --output OUT --log LOG");
  }
  return args;
}

// ---------------------------------------------------------------------------- the query for RSP-JS

const ISO_DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

function durationMs(text) {
  if (/^\d+$/.test(text)) return text;
  const m = ISO_DURATION.exec(text);
  if (!m || text.toUpperCase() === "P" || text.toUpperCase().endsWith("T")) return text;
  const [d, h, min, s] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? 0 : Number(x)));
  return String(Math.round((((d * 24 + h) * 60 + min) * 60 + s) * 1000));
}

// RSP-JS's own parser (RSPQLParser) reads a window as one line
// `FROM NAMED WINDOW w ON STREAM s [RANGE n STEP n]` with n in milliseconds, and hands every other
// line to Comunica as SPARQL. Three rewrites make the RSP-QL of rsplars' fixtures its dialect; each
// is logged: ISO 8601 durations become milliseconds, `ON s` becomes `ON STREAM s` (spaces in a window
// line collapsed to one), and `FROM <g>` lines are dropped (the static data of --static is the default
// graph; a FROM clause would make Comunica read an empty graph instead).
function forRspJs(text, log) {
  const out = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (/^FROM\s+NAMED\s+WINDOW\b/i.test(trimmed)) {
      let rewritten = trimmed.replace(/\s+/g, " ").replace(/^FROM\s+NAMED\s+WINDOW\s+(\S+)\s+ON\s+(?!STREAM\s)(\S+)/i,
        "FROM NAMED WINDOW $1 ON STREAM $2");
      rewritten = rewritten.replace(/\[\s*RANGE\s+(\S+)\s+STEP\s+(\S+)\s*\]/i,
        (_, r, s) => `[RANGE ${durationMs(r)} STEP ${durationMs(s)}]`);
      if (rewritten !== trimmed) log(`query for RSP-JS: ${trimmed}  ->  ${rewritten}`);
      out.push(rewritten);
    } else if (/^FROM\s+<[^>]*>\s*$/i.test(trimmed)) {
      log(`query for RSP-JS: dropped ${trimmed} (the static data is the default graph)`);
    } else {
      out.push(line);
    }
  }
  return out.join("\n");
}

// ------------------------------------------------------------------------------------ the streams

const TIMESTAMPED = /^(.*?)\s*"(-?\d+)"(?:\^\^<[^>]*>)?\s*\.?\s*$/;

function readStream(N3, file, iri) {
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    fail(`${file}: cannot read the stream: ${err.message}`);
  }
  const elements = [];
  const parser = new N3.Parser({ format: "N-Triples" });
  text.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim() || line.trim().startsWith("#")) return;
    const m = TIMESTAMPED.exec(line);
    if (!m) fail(`${file}:${index + 1}:1: expected a triple and its integer time in quotes, "t"`);
    let quads;
    try {
      quads = parser.parse(`${m[1]} .`);
    } catch (err) {
      fail(`${file}:${index + 1}:1: ${err.message}`);
    }
    for (const q of quads) elements.push({ quad: q, t: Number(m[2]), iri });
  });
  return elements;
}

function readStatic(N3, file) {
  try {
    return new N3.Parser().parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    fail(`${file}: ${err.message}`);
  }
}

// ---------------------------------------------------------------------------- the answers' terms

function escapeString(s) {
  return s.replace(/[\\"\n\r\t\b\f]/g, (c) => ({ "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r",
    "\t": "\\t", "\b": "\\b", "\f": "\\f" })[c]);
}

function ntriples(term) {
  if (term.termType === "NamedNode") return `<${term.value}>`;
  if (term.termType === "BlankNode") return `_:${term.value}`;
  const lexical = `"${escapeString(term.value)}"`;
  if (term.language) return `${lexical}@${term.language}`;
  const dt = term.datatype ? term.datatype.value : "";
  if (!dt || dt === "http://www.w3.org/2001/XMLSchema#string") return lexical;
  return `${lexical}^^<${dt}>`;
}

function bindingRow(binding) {
  const row = {};
  for (const [variable, term] of binding) row[variable.value] = ntriples(term);
  return row;
}

// ------------------------------------------------------------------------------------------ the run

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const resolve = (p) => path.resolve(p);
  args.query = resolve(args.query);
  args.output = resolve(args.output);
  args.log = resolve(args.log);
  args.streams.forEach((s) => { s.file = resolve(s.file); });
  args.statics = args.statics.map(resolve);

  // everything RSP-JS prints goes to the log: console.* (its windows print every element) and its
  // Logger, which appends to ./logs/<class>.log of the working folder
  const logStream = fs.createWriteStream(args.log, { flags: "w" });
  const log = (...parts) => logStream.write(parts.map(String).join(" ") + "\n");
  for (const name of ["log", "info", "debug", "warn", "error", "trace"]) console[name] = log;
  const workDir = path.dirname(args.log);
  fs.mkdirSync(path.join(workDir, "logs"), { recursive: true });
  process.chdir(workDir);

  const N3 = require("n3");
  const { RSPEngine } = require("rsp-js");
  let queryText;
  try {
    queryText = fs.readFileSync(args.query, "utf8");
  } catch (err) {
    fail(`${args.query}: cannot read the query: ${err.message}`);
  }
  const engine = new RSPEngine(forRspJs(queryText, log));
  // RSP-JS itself accepts a query it read no window from (or a window it read no number from) and then
  // never reports: say so instead
  if (engine.windows.length === 0) {
    fail(`${args.query}: RSP-JS's parser reads no window from the query (it reads one line `
      + "FROM NAMED WINDOW w ON STREAM s [RANGE n STEP n] per window)");
  }
  for (const w of engine.windows) {
    if (!(w.width > 0) || !(w.slide > 0)) fail(`${args.query}: window ${w.name}: RSP-JS reads no RANGE/STEP number`);
  }
  for (const file of args.statics) for (const q of readStatic(N3, file)) engine.addStaticData(q);

  // which window instance each report comes from: RSP-JS emits the content container of the window
  // it reports; our listener, subscribed before register(), finds the instance holding that container
  let current = null;
  for (const window of engine.windows) {
    window.subscribe("RStream", (container) => {
      for (const [instance, content] of window.active_windows) {
        if (content === container) current = { open: instance.open, close: instance.close, window: window.name };
      }
    });
  }
  // every R2R evaluation is counted, so that the next element is fed only after its bindings are out
  const r2r = engine.r2r;
  const execute = r2r.execute.bind(r2r);
  let pending = 0;
  let settle = null;
  let failure = null;
  const reports = [];
  const finished = () => {
    pending -= 1;
    if (pending === 0 && settle) { settle(); settle = null; }
  };
  r2r.execute = async (container) => {
    const report = { ...current, answers: [] };
    reports.push(report);
    pending += 1;
    let bindings;
    try {
      bindings = await execute(container);
    } catch (err) {
      failure = err;
      finished();
      throw err;
    }
    bindings.on("end", finished);
    bindings.on("error", (err) => { failure = err; finished(); });
    return bindings;
  };
  const emitter = engine.register();
  emitter.on("RStream", (object) => reports[reports.length - 1].answers.push(bindingRow(object.bindings)));

  const streams = new Map();
  for (const name of engine.get_all_streams()) streams.set(name, engine.getStream(name));
  for (const [name] of streams) log(`RSP-JS stream ${name}`);
  const elements = [];
  args.streams.forEach((s, order) => {
    if (!streams.has(s.iri)) log(`stream ${s.iri}: no window of the query reads it (not fed)`);
    for (const e of readStream(N3, s.file, s.iri)) elements.push({ ...e, order });
  });
  elements.forEach((e, k) => { e.arrival = k; });
  elements.sort((a, b) => a.t - b.t || a.order - b.order || a.arrival - b.arrival);
  const out = fs.openSync(args.output, "w");
  let written = 0;
  const flush = () => {
    for (; written < reports.length; written++) {
      const r = reports[written];
      if (r.answers.length === 0) {  // RSP-JS emits bindings one by one: an empty result is not seen
        log(`report of [${r.open}, ${r.close}) on ${r.window}: no bindings, nothing emitted`);
        continue;
      }
      fs.writeSync(out, JSON.stringify({ t: r.close, window: [r.open, r.close], stream: r.window,
        answers: r.answers }) + "\n");
    }
  };
  for (const e of elements) {
    const stream = streams.get(e.iri);
    if (!stream) continue;
    stream.add(e.quad, e.t);
    if (pending > 0) await new Promise((done) => { settle = done; });
    if (failure) fail(`RSP-JS failed: ${failure.message || failure}`);
    flush();
  }
  flush();
  fs.closeSync(out);
  log(`fed ${elements.length} elements; ${reports.length} reports`);
  await new Promise((done) => logStream.end(done));
}

// an error in RSP-JS's own asynchronous report handler (e.g. Comunica rejecting the query) surfaces here
process.on("unhandledRejection", (err) => fail(`RSP-JS failed: ${err && err.message ? err.message : err}`));

main().catch((err) => {
  process.stderr.write(`rsp-js runner: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
