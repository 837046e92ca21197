#!/usr/bin/env bash
# `make demo`: the running example of Dao-Tran, Beck, Eiter 2015 (Dao-Tran, Beck, Eiter, "Towards Comparing RDF Stream
# Processing Semantics", Ex. 1-8) end to end: Q1 (C-SPARQL) and Q2 (CQELS) translated into LARS,
# run by the clingo engine, and compared interval by interval (Dao-Tran, Beck, Eiter 2015, §5). Reports go to
# examples/out/ (git-ignored). Time unit: minutes; timeline [0, 50] as in the paper's Ex. 5.
set -euo pipefail
cd "$(dirname "$0")/.."
RSPLARS=${RSPLARS:-.venv/bin/rsplars}
EX=examples/running_example
OUT=examples/out
mkdir -p "$OUT"
DATA=(--stream "http://example.org/stream/offers=$EX/offers.stream"
      --stream "http://example.org/stream/near=$EX/near.stream"
      --static "$EX/static.n3" --unit m)

if [ -t 1 ]; then BOLD=$'\033[1m' PLAIN=$'\033[0m'; else BOLD= PLAIN=; fi
section() { printf '\n%s== %s%s\n' "$BOLD" "$*" "$PLAIN"; }

section "Q1 (C-SPARQL): $EX/q1.rq"
grep -v '^#' "$EX/q1.rq"
section "Q1 as a LARS program: τ1, pull-based with period U = 5 min"
$RSPLARS translate "$EX/q1.rq" --to lars --unit m --period 5m 2>/dev/null

section "Q2 (CQELS): $EX/q2.rq"
grep -v '^#' "$EX/q2.rq"
section "Q2 as a LARS program: τ2, push-based"
$RSPLARS translate "$EX/q2.rq" --to lars --unit m 2>/dev/null

section "the data: offers, near (stream notation) and the static product classification"
cat "$EX/offers.stream" "$EX/near.stream" "$EX/static.n3" | grep -v '^#'

section "run Q1 pull-based every 5 min on [0, 50] -> $OUT/q1.jsonl"
$RSPLARS run "$EX/q1.rq" "${DATA[@]}" --period 5m --to 50 --output "$OUT/q1.jsonl" 2>/dev/null
cat "$OUT/q1.jsonl"
section "run Q2 push-based (at the time points with input) -> $OUT/q2.jsonl"
$RSPLARS run "$EX/q2.rq" "${DATA[@]}" --to 50 --output "$OUT/q2.jsonl" 2>/dev/null
cat "$OUT/q2.jsonl"

section "agreement of Q1 (pull, U = 5 min) and Q2 (push) on [0, 50]"
$RSPLARS agree --pull "$EX/q1.rq" --push "$EX/q2.rq" "${DATA[@]}" --period 5m --to 50 \
  --report "$OUT/agree-5m.json" --html "$OUT/agree-5m.html" 2>/dev/null

section "the same with U = 3 min: Claire's coupon from shop b is pulled at 21, never pushed in (18, 21]"
$RSPLARS agree --pull "$EX/q1.rq" --push "$EX/q2.rq" "${DATA[@]}" --period 3m --to 50 \
  --report "$OUT/agree-3m.json" --html "$OUT/agree-3m.html" 2>/dev/null

section "cause (ii): Claire's position also in the static data (condition (ii) violated), U = 5 min"
$RSPLARS agree "$EX/q1.rq" "${DATA[@]}" --static "$EX/static-shared.n3" --period 5m --to 50 \
  --report "$OUT/agree-shared.json" --html "$OUT/agree-shared.html" 2>/dev/null

section "a denser generated coupon stream (rsplars gen coupons --rate 0.5 --duration 60 --seed 1), U = 5 min"
$RSPLARS gen coupons --rate 0.5 --duration 60 --seed 1 --shops 3 --customers 2 --products 4 --output-dir "$OUT/generated" 2>/dev/null
$RSPLARS agree "$EX/q1.rq" --stream "http://example.org/stream/offers=$OUT/generated/offers.nt" \
  --stream "http://example.org/stream/near=$OUT/generated/near.nt" --static "$OUT/generated/static.n3" \
  --unit m --period 5m --max-rows 14 --report "$OUT/agree-generated.json" --html "$OUT/agree-generated.html" 2>/dev/null

section "reports"
ls -l "$OUT"
