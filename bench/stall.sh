#!/usr/bin/env bash
# Does CPU-heavy work stall the API's other requests? (`make bench-stall` calls this.)
#
#   1. builds rifa-api and rifa-bench in release (or takes RIFA_API_BIN, e.g. an older build, to
#      compare before and after);
#   2. starts the API on a fresh PostgreSQL database (RIFA_WORKERS workers, e-mail delivery off so
#      the outbox worker renders no receipts meanwhile, sign-in limit lifted so every wrong
#      password is really checked);
#   3. `rifa-bench stall`: one client reads `GET /api/raffles` alone for a few seconds, then
#      while BENCH_PDFS requests for the PDF receipt of a BENCH_NUMBERS-number purchase and
#      BENCH_LOGINS sign-ins with a wrong password burst in; target: p99 under 50 ms.
#
# The machine's load (`uptime`) is printed before and after: other work on the cores shows.
#
# Environment (all optional):
#   TEST_DATABASE_URL   server to use       (postgres://postgres@127.0.0.1:5432/test)
#   CARGO_TARGET_DIR    build directory     (this checkout's, scripts/lib.sh)
#   BENCH_PROFILE       cargo profile       (release; `dev` reuses the test build's crates)
#   RIFA_API_BIN        API binary to run   ($CARGO_TARGET_DIR/<profile dir>/rifa-api)
#   RIFA_BENCH_BIN      rifa-bench to run   ($CARGO_TARGET_DIR/<profile dir>/rifa-bench)
#   RIFA_WORKERS        API workers         (2)
#   BENCH_PDFS          PDF requests        (40)
#   BENCH_PDF_PURCHASES distinct purchases  (1)
#   BENCH_NUMBERS       numbers per purchase (10000)
#   BENCH_LOGINS        wrong sign-ins      (40)
#   BENCH_OUT           logs and results    (a new /tmp/rifa-stall.* directory)
#   BENCH_SKIP_BUILD=1  use the binaries already built
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/lib.sh
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$(rifa_target_dir)}
SERVER_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
OUT=${BENCH_OUT:-$(mktemp -d /tmp/rifa-stall.XXXXXX)}
mkdir -p "$OUT"

die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

PROFILE=${BENCH_PROFILE:-release}
PROFILE_DIR=$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    cargo build --profile "$PROFILE" -p rifa-api -p rifa-bench
fi
API_BIN=${RIFA_API_BIN:-$CARGO_TARGET_DIR/$PROFILE_DIR/rifa-api}
BENCH_BIN=${RIFA_BENCH_BIN:-$CARGO_TARGET_DIR/$PROFILE_DIR/rifa-bench}
[[ -x $API_BIN && -x $BENCH_BIN ]] || die "binaries missing: $API_BIN, $BENCH_BIN"

DB=rifa_stall_$$
if [[ $SERVER_URL == *\?* ]]; then
    BASE=${SERVER_URL%%\?*}; QUERY="?${SERVER_URL#*\?}"
else
    BASE=$SERVER_URL; QUERY=""
fi
DB_URL="${BASE%/*}/$DB$QUERY"
API_PID=""
cleanup() {
    local status=$?
    if [[ -n $API_PID ]]; then
        kill "$API_PID" 2>/dev/null || true
        wait "$API_PID" 2>/dev/null || true
    fi
    psql -q "$SERVER_URL" -c "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    exit "$status"
}
trap cleanup EXIT INT TERM
psql -q "$SERVER_URL" -c "CREATE DATABASE \"$DB\"" || die "cannot create a database on $SERVER_URL"

LOG=$OUT/api.log
mkdir -p "$OUT/data"
RIFA_DATA_DIR=$OUT/data DATABASE_URL=$DB_URL RIFA_DEMO_DATA=false RIFA_BOOTSTRAP_ADMIN=true \
    RIFA_LOGINS_PER_MINUTE=100000000 RIFA_PURCHASES_PER_MINUTE=100000000 \
    RIFA_BIND=127.0.0.1:0 RIFA_WORKERS=${RIFA_WORKERS:-2} RIFA_MAIL_DELIVERY=false \
    RIFA_LOG_FORMAT=json "$API_BIN" serve >"$LOG" 2>&1 &
API_PID=$!
line=""
for _ in $(seq 1 300); do
    line=$(grep -m1 -o 'listening on http://[0-9.:]*' "$LOG" || true)
    [[ -n $line ]] && break
    kill -0 "$API_PID" 2>/dev/null || { cat "$LOG" >&2; die "rifa-api exited"; }
    sleep 0.1
done
[[ -n $line ]] || { cat "$LOG" >&2; die "rifa-api did not start"; }
export RIFA_BENCH_URL=${line#listening on }
export RIFA_BENCH_USERNAME RIFA_BENCH_PASSWORD
# The generated login waits in the data directory (never in the log) until the first sign-in.
RIFA_BENCH_USERNAME=$(sed -n 's/^username: //p' "$OUT/data/first-admin-password")
RIFA_BENCH_PASSWORD=$(sed -n 's/^password: //p' "$OUT/data/first-admin-password")
[[ -n $RIFA_BENCH_PASSWORD ]] || die "no first admin login in $OUT/data/first-admin-password"

echo "load before: $(uptime)"
"$BENCH_BIN" stall --pdfs "${BENCH_PDFS:-40}" --purchases "${BENCH_PDF_PURCHASES:-1}" \
    --numbers "${BENCH_NUMBERS:-10000}" --logins "${BENCH_LOGINS:-40}" | tee "$OUT/stall.txt"
echo "load after:  $(uptime)"
echo "logs: $OUT"
