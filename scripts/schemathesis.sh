#!/usr/bin/env bash
# Property-based fuzzing of the whole API from its own OpenAPI document (schemathesis).
#
# Builds rifa-api (debug) and starts it twice in turn, each time on a fresh database with demo
# data: once on SQLite (a temporary data directory), once on PostgreSQL (a new database on the
# server of TEST_DATABASE_URL). Each round signs in as the generated first admin and runs
# schemathesis against /api/openapi.json, public and authenticated calls alike. Any failure of
# either round, or any panic in the API's log, makes the script exit non-zero.
#
# Environment:
#   TEST_DATABASE_URL  PostgreSQL server to create the fuzz database on
#                      (default postgres://postgres@127.0.0.1:5432/test)
#   REQUIRE_POSTGRES   1: an unreachable PostgreSQL fails instead of skipping its round
#   FUZZ_EXAMPLES      test cases per operation and phase (default 50)
#   FUZZ_SEED          reproduce an earlier run (schemathesis prints its seed)
#   FUZZ_ROUNDS        "sqlite postgres" (default), or just one of them
#   FUZZ_ARGS          extra schemathesis arguments, e.g. "--include-path-regex ^/api/admin/raffles"
#   RIFA_VENV          where the Python venv lives (default $HOME/.cache/rifa/venv)
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${RIFA_VENV:-$HOME/.cache/rifa/venv}"
TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
REQUIRE_POSTGRES="${REQUIRE_POSTGRES:-0}"
FUZZ_EXAMPLES="${FUZZ_EXAMPLES:-50}"
FUZZ_ROUNDS="${FUZZ_ROUNDS:-sqlite postgres}"
# A hard ceiling per round, far above a normal run (about a minute), so a hung server cannot
# hold CI for its whole budget.
ROUND_TIMEOUT_SECONDS="${ROUND_TIMEOUT_SECONDS:-420}"

log() { printf '\n==> %s\n' "$*"; }
die() { printf 'schemathesis.sh: %s\n' "$*" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/rifa-fuzz.XXXXXX")"
SERVER_PID=""
PG_DB=""

stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}

drop_pg_database() {
  if [[ -n "$PG_DB" ]]; then
    psql "$TEST_DATABASE_URL" -qAt -v ON_ERROR_STOP=1 \
      -c "DROP DATABASE IF EXISTS \"$PG_DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    PG_DB=""
  fi
}

cleanup() {
  stop_server
  drop_pg_database
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- schemathesis in a venv outside the clone --------------------------------------------------
if [[ ! -x "$VENV/bin/schemathesis" ]] \
  || [[ "$("$VENV/bin/python" -m pip show schemathesis 2>/dev/null | sed -n 's/^Version: //p')" != "$SCHEMATHESIS_VERSION" ]]; then
  log "installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  mkdir -p "$(dirname "$VENV")"
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "schemathesis==$SCHEMATHESIS_VERSION"
fi

# --- the server binary ---------------------------------------------------------------------------
log "building rifa-api (debug)"
cd "$ROOT"
# Build caches live outside the clone, as with make.
. scripts/lib.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(rifa_target_dir)}"
cargo build --quiet -p rifa-api
TARGET_DIR="$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
[[ -x "$TARGET_DIR/debug/rifa-api" ]] || die "rifa-api was not built in $TARGET_DIR/debug"
# A private copy: another build sharing the target directory may replace the file mid-run.
API_BIN="$WORK/rifa-api"
cp "$TARGET_DIR/debug/rifa-api" "$API_BIN"

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts the API on $1 (a DATABASE_URL, or empty for the SQLite default under $2), waits for
# /readyz and sets BASE and TOKEN.
start_server() {
  local database_url="$1" data_dir="$2" server_log="$3"
  local port
  port="$(free_port)"
  BASE="http://127.0.0.1:$port"
  mkdir -p "$data_dir"
  (
    unset DATABASE_URL RIFA_JWT_SECRET
    [[ -n "$database_url" ]] && export DATABASE_URL="$database_url"
    # Demo data and the generated first admin on both databases; rate limits far above what
    # the fuzzer sends, so it reaches the handlers instead of a 429.
    export RIFA_DATA_DIR="$data_dir" RIFA_BIND="127.0.0.1:$port" RIFA_DEMO_DATA=true \
      RIFA_BOOTSTRAP_ADMIN=true RIFA_LOOKUPS_PER_MINUTE=1000000 \
      RIFA_LOGINS_PER_MINUTE=1000000 RIFA_PURCHASES_PER_MINUTE=1000000 RIFA_WORKERS=2 \
      RIFA_LOG_FORMAT=pretty RUST_LOG="${RUST_LOG:-warn}" RUST_BACKTRACE=0 NO_COLOR=1
    exec "$API_BIN" serve
  ) >"$server_log" 2>&1 &
  SERVER_PID=$!
  local waited=0
  until curl -fsS "$BASE/readyz" >/dev/null 2>&1; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      tail -n 40 "$server_log" >&2
      die "rifa-api exited before it was ready"
    fi
    ((waited += 1))
    ((waited <= 120)) || { tail -n 40 "$server_log" >&2; die "rifa-api not ready after 60 s"; }
    sleep 0.5
  done
  local password
  # The generated login waits in the data directory (never in the log) until the first sign-in.
  password="$(sed -n 's/^password: //p' "$data_dir/first-admin-password" 2>/dev/null)"
  [[ -n "$password" ]] || { cat "$server_log" >&2; die "no generated admin password in $data_dir/first-admin-password"; }
  TOKEN="$(
    PASSWORD="$password" python3 - "$BASE" <<'PY'
import json, os, sys, urllib.request
body = json.dumps({"username": "admin", "password": os.environ["PASSWORD"]}).encode()
request = urllib.request.Request(
    sys.argv[1] + "/api/admin/login", data=body, headers={"Content-Type": "application/json"}
)
with urllib.request.urlopen(request, timeout=30) as response:
    print(json.load(response)["token"])
PY
  )"
  [[ -n "$TOKEN" ]] || die "admin login failed"
}

# Checks: everything schemathesis has except `positive_data_acceptance`. That one expects every
# schema-valid input to be accepted, but the document describes shapes (types, optional fields),
# while the server deliberately enforces the spec's rules on top with localized 422 messages
# (e-mail syntax, minimum lengths, 10-digit phones, ticket limits, known payment methods…), so
# it would flag the product's validation itself, not a defect.
CHECKS=all
EXCLUDED_CHECKS=positive_data_acceptance

# Operations that end the fuzzer's own session (sign-out, sign-out everywhere, a password
# change): called early, they left every admin route answering 401 for the rest of the run,
# which fuzzed nothing there. They are tested by the API's black-box tests instead.
EXCLUDED_PATHS='^/api/admin/(logout|logout-everywhere|password)$'

# Fails (and prints where) when the API's log holds a panic: the default hook writes
# "thread '…' panicked at file:line:col:" followed by the message.
check_no_panics() {
  local name="$1" server_log="$2" count
  count="$(grep -c "panicked at" "$server_log" || true)"
  if ((count > 0)); then
    echo "[$name] the API panicked $count time(s) during the run:" >&2
    grep -A1 "panicked at" "$server_log" | grep -v '^--$' | sort | uniq -c | sort -rn | head -n 40 >&2
    return 1
  fi
}

run_round() {
  local name="$1" database_url="$2"
  local round_dir="$WORK/$name"
  mkdir -p "$round_dir"
  log "[$name] starting rifa-api"
  start_server "$database_url" "$round_dir/data" "$round_dir/server.log"
  log "[$name] schemathesis against $BASE/api/openapi.json ($FUZZ_EXAMPLES examples per operation)"
  local args=(
    run "$BASE/api/openapi.json"
    --header "Authorization: Bearer $TOKEN"
    --checks "$CHECKS"
    --exclude-checks "$EXCLUDED_CHECKS"
    --exclude-path-regex "$EXCLUDED_PATHS"
    --max-examples "$FUZZ_EXAMPLES"
    --continue-on-failure
    --workers 2
    --request-timeout 30
    --generation-database none
    --no-color
  )
  [[ -n "${FUZZ_SEED:-}" ]] && args+=(--seed "$FUZZ_SEED")
  # shellcheck disable=SC2206 # word splitting is the point
  [[ -n "${FUZZ_ARGS:-}" ]] && args+=(${FUZZ_ARGS})
  local status=0
  # Run from the round's folder: schemathesis keeps caches in its working directory.
  (cd "$round_dir" && timeout --foreground --kill-after=10 "$ROUND_TIMEOUT_SECONDS" "$VENV/bin/schemathesis" "${args[@]}") \
    >"$round_dir/schemathesis.out" 2>&1 || status=$?
  cat "$round_dir/schemathesis.out"
  # A token that stopped working turns every admin route into a 401 and the round into a pass
  # that tested nothing behind sign-in.
  if grep -q "Authentication failed" "$round_dir/schemathesis.out"; then
    echo "[$name] operations answered only 401/403: the fuzzer's token stopped working" >&2
    ((status != 0)) || status=1
  fi
  # After the server stopped, so its log is complete. A panic fails the round even when every
  # answer looked fine: actix answers a panicked handler with an empty reply or a bare 500, and
  # schemathesis may not have been the one to see it.
  stop_server
  check_no_panics "$name" "$round_dir/server.log" || { ((status != 0)) || status=1; }
  if ((status == 124)); then
    echo "[$name] schemathesis did not finish within ${ROUND_TIMEOUT_SECONDS}s" >&2
  fi
  if ((status != 0)); then
    echo "[$name] FAILED (exit $status); last lines of the server log:" >&2
    grep -v '^ *[0-9]*: \|^ *at ' "$round_dir/server.log" | tail -n 15 >&2
  else
    echo "[$name] passed"
  fi
  return "$status"
}

# TEST_DATABASE_URL with its database name replaced by $1 (a query string is kept).
postgres_url_for() {
  local without_query="${TEST_DATABASE_URL%%\?*}"
  local query="${TEST_DATABASE_URL#"$without_query"}"
  echo "${without_query%/*}/$1$query"
}

failed=()
passed=()
skipped=()
for round in $FUZZ_ROUNDS; do
  case "$round" in
    sqlite)
      SECONDS=0
      if run_round sqlite ""; then passed+=("sqlite (${SECONDS}s)"); else failed+=(sqlite); fi
      ;;
    postgres)
      if ! command -v psql >/dev/null 2>&1; then
        reason="psql is not installed"
      elif ! psql "$TEST_DATABASE_URL" -qAt -c 'SELECT 1' >/dev/null 2>&1; then
        reason="PostgreSQL is unreachable at $TEST_DATABASE_URL"
      else
        reason=""
      fi
      if [[ -n "$reason" ]]; then
        if [[ "$REQUIRE_POSTGRES" == "1" ]]; then
          echo "schemathesis.sh: $reason, and REQUIRE_POSTGRES=1" >&2
          failed+=("postgres (unavailable)")
        else
          log "[postgres] SKIPPED: $reason (set REQUIRE_POSTGRES=1 to make this an error)"
          skipped+=(postgres)
        fi
        continue
      fi
      PG_DB="rifa_fuzz_$$_$RANDOM"
      psql "$TEST_DATABASE_URL" -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"$PG_DB\"" >/dev/null
      SECONDS=0
      if run_round postgres "$(postgres_url_for "$PG_DB")"; then
        passed+=("postgres (${SECONDS}s)")
      else
        failed+=(postgres)
      fi
      drop_pg_database
      ;;
    *) die "unknown round '$round' in FUZZ_ROUNDS" ;;
  esac
done

echo
echo "API fuzzing rounds: passed: ${passed[*]:-none}; failed: ${failed[*]:-none}; skipped: ${skipped[*]:-none}"
echo "fuzz: ${#passed[@]} passed, ${#failed[@]} failed, ${#skipped[@]} skipped"
((${#failed[@]} == 0))
