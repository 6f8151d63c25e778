# Rifa: the two commands are `make run` and `make test`; `make help` lists everything.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# Build caches live outside the clone, so a fresh clone (or CI) reuses them.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/rifa/target
# PostgreSQL for the tests (a fresh database is created per run); REQUIRE_POSTGRES=1 turns an
# unreachable server into a failure instead of skipped PostgreSQL variants.
export TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
export REQUIRE_POSTGRES ?= 0

.PHONY: help run build test test-rust test-api-fuzz lint bench

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

run: ## Build and start the API on SQLite under ./data with demo data (prints the admin login once)
	cargo run -p rifa-api -- serve

build: ## Build the release binary of the API
	cargo build --release -p rifa-api
	@echo "built $(CARGO_TARGET_DIR)/release/rifa-api"

test: test-rust test-api-fuzz ## Run every test: Rust (SQLite and PostgreSQL), then API fuzzing

test-rust: ## cargo test for the whole workspace, and compile the benchmark
	cargo test --workspace
	@# bench/ is not a default member; build its binary too, so it never rots unnoticed.
	@if [ -f bench/Cargo.toml ]; then cargo build -p rifa-bench; fi

test-api-fuzz: ## Fuzz the running API from its OpenAPI document (schemathesis; SQLite and PostgreSQL)
	./scripts/schemathesis.sh

lint: ## cargo fmt --check and clippy with warnings denied
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings

bench: ## Run the benchmarks (figures go to BENCHMARKS.md)
	./bench/run.sh
