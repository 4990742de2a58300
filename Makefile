# Property Intelligence API — every target installs what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
DATA_DIR ?= ./data
ADDRESSES ?= 10000
SEED ?= 42
PORT ?= 8080

node_modules/.install-stamp: package.json package-lock.json
	@# npm ci refuses this lock file: npm 11 leaves the other platforms' optional DuckDB
	@# bindings out of it. npm install honours the lock file and installs the same versions.
	@# fs-ext (the flock lock) is built by node-gyp against the installed Node's own headers
	@# (/usr/include/node), never downloaded ones.
	npm_config_nodedir=$${npm_config_nodedir:-/usr} npm install --no-audit --no-fund --loglevel=error
	@touch $@

.PHONY: help
help: ## List every target
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

.PHONY: install
install: node_modules/.install-stamp ## Install dependencies (exact versions from package-lock.json)

.PHONY: console
CONSOLE_SRC := $(wildcard console/src/*.ts console/src/pages/*.ts console/src/*.css console/src/*.html) console/build.ts
console/dist/.stamp: node_modules/.install-stamp $(CONSOLE_SRC)
	npx tsx console/build.ts
	@touch $@
console: console/dist/.stamp ## Bundle the customer console (console/src → console/dist, served at /console) and print its size

.PHONY: demo
demo: install console ## Generate a synthetic region ending last month, publish its ETL build, create a demo key, print example requests, serve on PORT (OPEN_DATA=1: without AddressBase, docs/open-data.md)
	npm run --silent synth -- --out $(DATA_DIR)/synth --addresses $(ADDRESSES) --seed $(SEED) --end-month last-complete $(if $(OPEN_DATA),--no-addressbase)
	npm run --silent etl -- run --sources $(DATA_DIR)/synth --data-dir $(DATA_DIR)
	@DATA_DIR=$(DATA_DIR) npm run --silent accounts -- create --tier premium --name demo --json > $(DATA_DIR)/demo-account.json
	@npx tsx scripts/demo-examples.ts $(DATA_DIR)/demo-account.json $(PORT) $(DATA_DIR)
	PORT=$(PORT) DATA_DIR=$(DATA_DIR) npm start

.PHONY: etl
etl: install ## Run one ETL build over SOURCES (default $(DATA_DIR)/synth) into $(DATA_DIR)
	npm run --silent etl -- run --sources $(or $(SOURCES),$(DATA_DIR)/synth) --data-dir $(DATA_DIR)

.PHONY: sql
sql: install ## Interactive SQL over the current build's Parquet tables
	DATA_DIR=$(DATA_DIR) npm run --silent sql

.PHONY: system-deps
system-deps: ## Install the Debian packages the tests need (chromium, postgresql, libjemalloc2) where missing: root or sudo; no apt call when all are present
	@scripts/install-system-deps.sh

.PHONY: typecheck
typecheck: install ## TypeScript strict type check (no emit): the server side, then the console's browser code
	npx tsc --noEmit -p tsconfig.json
	npx tsc --noEmit -p console/tsconfig.json

.PHONY: client
CLIENT := clients/typescript
$(CLIENT)/node_modules/.install-stamp: $(CLIENT)/package.json $(CLIENT)/package-lock.json
	npm --prefix $(CLIENT) install --no-audit --no-fund --loglevel=error
	@touch $@
client: install $(CLIENT)/node_modules/.install-stamp ## Regenerate docs/openapi.json, the vocabulary table of docs/api.md and the typed client's types (clients/typescript/schema.d.ts), then compile the client
	npx tsx service/openapi.ts --write
	npx tsx scripts/vocabulary.ts --write
	npm --prefix $(CLIENT) run --silent generate
	npm --prefix $(CLIENT) run --silent check

.PHONY: client-check
client-check: install $(CLIENT)/node_modules/.install-stamp ## Fail when docs/openapi.json or the client's types drift from the route schemas, or the client does not compile
	@tmp=$$(mktemp -d) && npx tsx -e "import('./service/openapi.ts').then(m => process.stdout.write(m.renderOpenApi()))" > $$tmp/openapi.json \
	  && diff -q $$tmp/openapi.json docs/openapi.json >/dev/null || { echo "docs/openapi.json drifted: run make client"; exit 1; }; \
	  (cd $(CLIENT) && npx openapi-typescript ../../docs/openapi.json --output $$tmp/schema.d.ts >/dev/null 2>&1) \
	  && diff -q $$tmp/schema.d.ts $(CLIENT)/schema.d.ts >/dev/null || { echo "$(CLIENT)/schema.d.ts drifted: run make client"; exit 1; }; rm -rf $$tmp
	npm --prefix $(CLIENT) run --silent check

.PHONY: deps
deps: install ## Check the layer rules (.dependency-cruiser.cjs): a wrong-way import fails
	npx depcruise $(wildcard schemas lib etl service tools console/src) --config .dependency-cruiser.cjs

.PHONY: test
test: system-deps install typecheck deps client-check console ## Install the Debian packages and npm dependencies, type-check, check the layer rules, bundle the console, then run the unit, integration and contract tests (the reliability suites: make reliability)
	node scripts/run-tests.mjs

.PHONY: bench
BENCH_NODE := UV_THREADPOOL_SIZE=16 node --expose-gc --max-old-space-size=14000 --import tsx
bench: install ## Run every benchmark in bench/ (medians, results in bench/results/); BENCH_ADDRESSES sets the ETL scale; endpoint benches run on the 1M bench build (made once, about 7 min)
	$(BENCH_NODE) bench/mixed.ts --addresses $(or $(BENCH_ADDRESSES),1000000)
	npx tsx bench/service-time.ts --addresses $(or $(BENCH_ADDRESSES),1000000)
	npx tsx bench/grid-accuracy.ts
	npx tsx bench/airbnb-readers.ts
	npx tsx bench/synth.ts --addresses 1000000
	npx tsx bench/etl.ts --addresses $(or $(BENCH_ADDRESSES),100000)
	npx tsx bench/etl-match.ts --addresses $(or $(BENCH_ADDRESSES),100000) --runs 3
	npx tsx bench/stream-rows.ts
	npx tsx bench/determinism.ts --addresses $(or $(BENCH_ADDRESSES),100000)
	npx tsx bench/spatial.ts
	npx tsx bench/ledger.ts
	npx tsx bench/middleware.ts
	$(BENCH_NODE) bench/search.ts --addresses 1000000 --seconds 10
	$(BENCH_NODE) bench/typeahead.ts --set real --pg-targets 500
	npx tsx bench/latency-production.ts
	$(BENCH_NODE) bench/mixed.ts --addresses $(or $(BENCH_ADDRESSES),1000000) --workers 1,2 --runs 5 --seconds 20
	npx tsx bench/latency-disk.ts --addresses $(or $(BENCH_ADDRESSES),1000000)
	$(BENCH_NODE) bench/risks.ts
	$(BENCH_NODE) bench/valuation-sale.ts
	$(BENCH_NODE) bench/valuation-other.ts
	$(BENCH_NODE) bench/backtest.ts
	$(BENCH_NODE) bench/str-estimate.ts
	$(BENCH_NODE) bench/str-market.ts
	$(BENCH_NODE) bench/str-market-grades.ts
	$(BENCH_NODE) bench/str-estimate-accuracy.ts --addresses 60000 --seed 42
	npx tsx bench/store-decode.ts --addresses $(or $(BENCH_ADDRESSES),100000)
	$(BENCH_NODE) bench/serving-memory.ts --addresses 100000,1000000 --runs 3
	$(BENCH_NODE) bench/paged-records.ts --addresses 1000000 --runs 3
	$(BENCH_NODE) bench/search-paged.ts --addresses 1000000 --runs 3
	$(BENCH_NODE) bench/candidate-scratch.ts --runs 3
	npx tsx bench/lookup-latency.ts --addresses 1000000 --runs 3 --per-endpoint 200
	$(BENCH_NODE) bench/national.ts --addresses $(or $(BENCH_ADDRESSES),1000000)

.PHONY: reliability
reliability: system-deps install ## Reliability suites (list in vitest.config.ts) at full scale: every endpoint fuzzed (10,000 cases each), ETL and server killed mid-work, builds published and ETL killed under load, ledger crashes, ledger disk full, replicas killed and PostgreSQL restarted, paused or its limiter stopped; CHAOS_SCALE=ci FUZZ_CASES=N for CI's smaller scale, CHAOS_SEED=N to replay a failure
	TEST_SUITE=reliability FUZZ_CASES=$(or $(FUZZ_CASES),10000) node scripts/run-tests.mjs

.PHONY: clean
clean: ## Remove generated data (keeps data/README.md)
	find $(DATA_DIR) -mindepth 1 ! -name README.md -exec rm -rf {} +
