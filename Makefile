# Property Intelligence API — every target installs what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
DATA_DIR ?= ./data
ADDRESSES ?= 10000
SEED ?= 42

node_modules/.install-stamp: package.json package-lock.json
	@# npm ci refuses this lock file: npm 11 leaves the other platforms' optional DuckDB
	@# bindings out of it. npm install honours the lock file and installs the same versions.
	npm install --no-audit --no-fund --loglevel=error
	@touch $@

.PHONY: help
help: ## List every target
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

.PHONY: install
install: node_modules/.install-stamp ## Install dependencies (exact versions from package-lock.json)

.PHONY: demo
demo: install ## Generate the synthetic region into $(DATA_DIR)/synth and print what was written
	npm run --silent synth -- --out $(DATA_DIR)/synth --addresses $(ADDRESSES) --seed $(SEED)

.PHONY: typecheck
typecheck: install ## TypeScript strict type check (no emit)
	npx tsc --noEmit -p tsconfig.json

.PHONY: test
test: install typecheck ## Install, type-check, then run every test (unit, ETL, service)
	node scripts/run-tests.mjs

.PHONY: bench
bench: install ## Run the benchmarks in bench/ and write bench/results/
	npx tsx bench/run.ts

.PHONY: clean
clean: ## Remove generated data (keeps data/README.md)
	find $(DATA_DIR) -mindepth 1 ! -name README.md -exec rm -rf {} +
