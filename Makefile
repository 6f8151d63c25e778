# Rifa: the two commands are `make run` and `make test`; `make help` lists everything.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# Build caches live outside the clone, one per checkout (see scripts/lib.sh): a fresh clone at
# the same path reuses its cache, two clones never share one.
ifndef CARGO_TARGET_DIR
CARGO_TARGET_DIR := $(shell . scripts/lib.sh && rifa_target_dir)
endif
export CARGO_TARGET_DIR
# Frontend recipes run with Node >= 22.12 first in PATH (installed from the npm registry into
# ~/.cache/rifa/node22 when the machine's node is older).
WITH_NODE := . scripts/lib.sh && rifa_use_node &&
# PostgreSQL for the tests (a fresh database is created per run); REQUIRE_POSTGRES=1 turns an
# unreachable server into a failure instead of skipped PostgreSQL variants.
export TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
export REQUIRE_POSTGRES ?= 0

.PHONY: help run build test test-tools test-rust test-api-fuzz lint bench bench-stall bench-scale bench-fill bench-instances bench-proofs bench-attach bench-hostile bench-picker bench-all frontend-install test-frontend

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

run: ## Start the API (SQLite under ./data, demo data, admin login printed once) and the site on http://127.0.0.1:3000
	./scripts/run.sh

build: ## Build the release binary of the API
	cargo build --release -p rifa-api
	@echo "built $(CARGO_TARGET_DIR)/release/rifa-api"

test: test-rust test-api-fuzz test-frontend ## Run every test: Rust (SQLite and PostgreSQL), API fuzzing, then the site

test-rust: test-tools ## cargo test for the whole workspace, and compile the benchmark
	cargo test --workspace
	@# bench/ is not a default member; build its binary too, so it never rots unnoticed.
	@if [ -f bench/Cargo.toml ]; then cargo build -p rifa-bench; fi

test-tools: ## Debian tools the Rust tests call: pdftotext (PDFs read back, PDF proofs read), openssl (TLS test certificates), Tesseract with its Spanish model (proofs read)
	@# Says what it installs and why before running apt-get, as root or through sudo alike.
	@. scripts/lib.sh && rifa_apt_install test-tools "the Rust tests read PDFs with poppler, make TLS test certificates with openssl and read proofs with Tesseract's Spanish model" \
	  $$(rifa_missing_proof_readers; command -v openssl >/dev/null || echo openssl)

test-api-fuzz: ## Fuzz the running API from its OpenAPI document (schemathesis; SQLite and PostgreSQL)
	./scripts/schemathesis.sh

frontend-install: ## Install the site's packages at the versions of package-lock.json
	@# Not `npm ci`: the registry mirror lacks other platforms' optional binaries (@next/swc-darwin-*,
	@# @swc/core-win32-*, …), so the lock cannot list them and `npm ci` refuses it as out of sync.
	@# `npm install` installs the locked versions all the same and leaves the lock as it is.
	$(WITH_NODE) cd frontend && npm install --no-audit --no-fund

test-frontend: ## The site: ESLint, TypeScript, Vitest, then browser tests (real API + Next, Debian's chromium)
	@# Install only when node_modules is missing or older than the lock file.
	@[ frontend/node_modules/.package-lock.json -nt frontend/package-lock.json ] || $(MAKE) frontend-install
	$(WITH_NODE) cd frontend && export NEXT_TELEMETRY_DISABLED=1 && npm run lint && npm run typecheck && npm test && npm run test:e2e

lint: ## cargo fmt --check and clippy with warnings denied
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings

bench: ## Purchases/s against pgbench and the availability bitmap (BENCHMARKS.md; `make bench-all` runs every benchmark)
	./bench/run.sh

bench-stall: ## Does a burst of PDFs and wrong passwords stall other requests? (BENCHMARKS.md)
	./bench/stall.sh

bench-scale: ## A year of purchases (BENCH_PURCHASES, default 1,000,000) on PostgreSQL and SQLite: panel and public reads, the list under load (issue 20)
	./bench/scale.sh

bench-fill: ## A 99,999-number raffle from empty to sold out, buyer picks then server draws: purchases/s per tenth sold, against pgbench (issue 20)
	./bench/fill.sh

bench-proofs: ## The proof checks on the proof corpus: fields read, reuse precision and recall, time per stage (issue 16)
	./bench/proofs.sh

bench-attach: ## The buyer's attach while the checker reads proofs, against an idle checker (issue 16)
	./bench/attach.sh

bench-hostile: ## A buyer's proof check behind three hostile PDFs (a page 5 m wide), and the readers' peak memory (issue 31)
	./bench/hostile-proofs.sh

bench-instances: ## Two API instances behind nginx on one PostgreSQL: purchases/s, no number sold twice (issue 20)
	./bench/instances.sh

bench-picker: ## The picker at 99,999 numbers on a phone: Chromium at 4× CPU, each interaction's time, and Lighthouse (issue 20)
	./bench/picker.sh

bench-all: ## Every benchmark in turn, one build (about 50 minutes at full size on 2 cores)
	cargo build --release -p rifa-api -p rifa-bench
	BENCH_SKIP_BUILD=1 ./bench/run.sh
	BENCH_SKIP_BUILD=1 ./bench/fill.sh
	BENCH_SKIP_BUILD=1 ./bench/instances.sh
	BENCH_SKIP_BUILD=1 ./bench/scale.sh
	BENCH_SKIP_BUILD=1 ./bench/picker.sh
	BENCH_SKIP_BUILD=1 ./bench/proofs.sh
	BENCH_SKIP_BUILD=1 ./bench/attach.sh
	BENCH_SKIP_BUILD=1 ./bench/hostile-proofs.sh
