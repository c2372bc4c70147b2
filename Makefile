# One entry point for dev tasks; CI and the README use the same targets.
# `make help` lists them.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
SPEC    ?= specs/fetch-analyze-document.md

.PHONY: help install demo test check bench clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	bash scripts/install-node-tools.sh
	touch $(STAMP)

install: $(STAMP)  ## venv, Python packages (editable) and the Node MCP test peers

demo: install  ## the main job: run the seed's Fetch-Analyze-Document workflow offline
	$(BIN)/skillweave run $(SPEC) --input module_name=json

test: install  ## the whole test suite (what CI runs)
	$(BIN)/python -m pytest -q -p no:cacheprovider

check: install  ## lint and type-check
	$(BIN)/ruff check orchestrator mcp_servers tests bench
	$(BIN)/mypy

bench: install  ## benchmarks; figures go to bench/README.md
	$(BIN)/python bench/run_all.py

clean:  ## remove the venv and caches
	rm -rf $(VENV) .tools .pytest_cache .mypy_cache .ruff_cache
