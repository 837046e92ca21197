# rsplars: `make demo` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo lint test fuzz bench clean

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
	$(BIN)/mypy lars asp translator/query translator/translate

test: $(STAMP) lint
	@command -v java >/dev/null 2>&1 || { echo "java missing: installing OpenJDK 17"; \
	  (apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless) >/dev/null; }
	$(BIN)/python -m pytest -q

# >= 10,000 generated inputs per reader (tests/fuzz, docs/robustness.md); prints the counts at the end
fuzz: $(STAMP)
	$(BIN)/python -m pytest -q -m slow -p no:cacheprovider -W ignore::DeprecationWarning tests/fuzz

bench: $(STAMP)
	$(BIN)/python bench/lars_bench.py
	$(BIN)/python bench/fresh_bench.py
	$(BIN)/python bench/aggregate_window_bench.py
	$(BIN)/python bench/citybench_bench.py
	$(BIN)/python bench/agreement_density.py
	$(BIN)/python bench/spark_bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
