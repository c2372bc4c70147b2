# One entry point for dev tasks; CI (.ci/run) and the README use these same targets.
# `make help` lists them.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
RUNTIME := $(VENV)/.runtime-installed
TESTENV := $(VENV)/.test-installed
MODULE  ?= json

.PHONY: help install install-system install-test demo repair-demo test check bench fuzz clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(RUNTIME): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e .
	touch $@

# one pip install for both: a fresh clone (CI) resolves and builds the editable package once
$(TESTENV): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[test]'
	touch $(RUNTIME)
	bash scripts/install-node-tools.sh
	touch $@

install-system:  ## Debian packages the sandbox and the tests use (slirp4netns, chromium); a no-op when present
	bash scripts/install-system-packages.sh

install: $(RUNTIME)  ## venv with skillweave installed (editable)

install-test:  ## plus test tools and the Node MCP peers the tests drive
	@# the venv and the Debian packages are independent: a fresh machine (CI) fetches both at once
	$(MAKE) --no-print-directory -j2 $(TESTENV) install-system

demo: install  ## the main job: the seed's Fetch-Analyze-Document workflow, offline (MODULE=json)
	$(BIN)/skillweave run specs/fetch-analyze-document.md --input module_name=$(MODULE)

repair-demo: install  ## a script fails, the LLM repairs it (replayed, offline), the run succeeds
	$(BIN)/skillweave run specs/examples/repair-demo/repair-demo.md \
	  --input-file specs/examples/repair-demo/contacts.json \
	  --llm-replay specs/examples/repair-demo/repair-demo.replay.jsonl

# the suite in parallel: one xdist worker a core (auto), tests marked xdist_group kept on one worker
TEST_WORKERS ?= auto
# The tests start the CLI in a few thousand subprocesses. The editable install leaves our own
# packages without bytecode, and where PYTHONDONTWRITEBYTECODE is set (this machine's image does) each
# start compiled all of orchestrator again (1.05 s of CPU a `skillweave plan`, 0.55 s with the
# .pyc files); compiled once here, every start reads them (an up-to-date tree costs a stat a file).
test: check  ## lint, type-check, then the whole test suite in parallel (what CI runs; TEST_WORKERS=auto)
	$(BIN)/python -m compileall -q -j0 orchestrator mcp_servers
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadgroup

check: install-test  ## lint, type-check (mypy --strict on orchestrator/), and the layering (lint-imports)
	$(BIN)/ruff check orchestrator mcp_servers tests bench skills specs
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: install-test  ## benchmarks; figures go to bench/README.md
	for b in validate compile sandbox engine mcp server temporal e2e fanout; do $(BIN)/python bench/$${b}_bench.py || exit 1; done

FUZZ_EXAMPLES ?= 5000
fuzz: install-test  ## the long fuzz run: specs and skills through the real commands, under limits (FUZZ_EXAMPLES, FUZZ_SEED)
	seed=$${FUZZ_SEED:-$$(date +%s)}; echo "fuzz: $(FUZZ_EXAMPLES) inputs a test, seed $$seed"; \
	SKILLWEAVE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) SKILLWEAVE_FUZZ_SEED=$$seed \
	  $(BIN)/python -m pytest -q -p no:cacheprovider tests/fuzz

clean:  ## remove the venv, the Node tools and caches
	rm -rf $(VENV) .tools .pytest_cache .mypy_cache .ruff_cache
