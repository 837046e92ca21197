# rsplars: `make demo` and `make test` do all set-up on a fresh machine.
# PYTHON picks the interpreter; each one gets its own virtual environment: .venv for the default
# python3 (README: .venv/bin/rsplars), .venv-python3.12 for PYTHON=python3.12, and so on.
PYTHON ?= python3
VENV   := $(if $(filter python3,$(PYTHON)),.venv,.venv-$(notdir $(PYTHON)))
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# `make test-fast`: the suite without what needs Spark (tests/spark_jobs, the tests marked spark
# and the Spark fault tests), the notebooks and the fuzz runs (tests/fuzz: thousands of generated
# inputs, more than half the suite's time); CI runs them with `make test` on the default Python
FAST_SKIP := --ignore=tests/spark_jobs --ignore=tests/robustness/test_spark_faults.py \
             --ignore=tests/test_notebooks.py --ignore=tests/fuzz -m "not spark"

.PHONY: install demo lint docs-api java rsp-js test test-fast fuzz bench spark-env clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[spark,test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	bash examples/demo.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/mypy --strict --follow-imports=silent rsplars

# the API reference of `import rsplars` (docs/api.md) from its docstrings, in build/api (ignored);
# any pdoc warning (a broken docstring or annotation) fails it
docs-api: $(STAMP)
	$(BIN)/python -W error::UserWarning -m pdoc --docformat restructuredtext -o build/api rsplars

java:
	@command -v java >/dev/null 2>&1 || { echo "java missing: installing OpenJDK 17"; \
	  (apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless) >/dev/null; }

# RSP-JS for `--live-engine rsp-js` (docs/engines.md): its runner's pinned dependencies, `npm ci` into
# engines/rsp-js/node_modules (not global); needs Node.js 18+ and npm
RSPJS_STAMP := engines/rsp-js/node_modules/.package-lock.json

$(RSPJS_STAMP): engines/rsp-js/package.json engines/rsp-js/package-lock.json
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { \
	  echo "node/npm missing: install Node.js 18+ and npm (e.g. apt-get install nodejs npm), then make rsp-js" >&2; \
	  exit 2; }
	cd engines/rsp-js && npm ci --no-audit --no-fund --loglevel=error
	touch $(RSPJS_STAMP)

rsp-js: $(RSPJS_STAMP)

test: $(STAMP) lint docs-api java rsp-js
	$(BIN)/python -m pytest -q

test-fast: $(STAMP) lint rsp-js
	$(BIN)/python -m pytest -q $(FAST_SKIP)

# >= 10,000 generated inputs per reader (tests/fuzz, docs/robustness.md); prints the counts at the end
fuzz: $(STAMP)
	$(BIN)/python -m pytest -q -m slow -p no:cacheprovider -W ignore::DeprecationWarning tests/fuzz

# what a Spark cluster's workers need (docs/spark.md, "On a cluster"): the packed environment of the
# workers' dependencies (cached by Python version and dependency versions) and the project as a zip,
# in build/spark-env; prints the `export RSPLARS_SPARK_ENV=…` that makes --master spark://… ship them
spark-env: $(STAMP)
	$(BIN)/python -m spark_jobs.submit spark-env --build-dir build/spark-env

bench: $(STAMP) rsp-js
	$(BIN)/python bench/lars_bench.py
	$(BIN)/python bench/fresh_bench.py
	$(BIN)/python bench/aggregate_window_bench.py
	$(BIN)/python bench/citybench_bench.py
	$(BIN)/python bench/agreement_density.py
	$(BIN)/python bench/spark_bench.py
	$(BIN)/python bench/rspjs_bench.py

clean:
	rm -rf .venv .venv-* build *.egg-info .pytest_cache engines/rsp-js/node_modules
