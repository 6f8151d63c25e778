#!/usr/bin/env bash
# Does reading proofs slow the buyer's attach? (issue 16; `make bench-attach` calls this.)
#
#   1. builds rifa-api and rifa-bench in release (or takes RIFA_API_BIN);
#   2. twice, on a fresh PostgreSQL database each: starts the API, makes BENCH_PROOFS purchases,
#      and BENCH_CONCURRENCY buyers upload and attach a receipt of the proof corpus each, timing
#      the attach call alone:
#        - "reading": the checker runs every 2 s, so it reads (OCR) the proofs attached before
#          while the later ones attach; the bench then waits until all are checked;
#        - "idle": the checker waits an hour, so nothing is read meanwhile;
#   3. prints both, and the machine's load before and after.
#
# Environment (all optional): TEST_DATABASE_URL, CARGO_TARGET_DIR, BENCH_PROFILE (release),
# RIFA_API_BIN, RIFA_BENCH_BIN, BENCH_PROOFS (200), BENCH_CONCURRENCY (8), BENCH_OUT,
# BENCH_SKIP_BUILD=1.
set -euo pipefail

cd "$(dirname "$0")/.."
BENCH_NAME=attach
. bench/lib.sh
need_tools psql jq curl
PROFILE=${BENCH_PROFILE:-release}
PROFILE_DIR=$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    cargo build --profile "$PROFILE" -p rifa-api -p rifa-bench
fi
API_BIN=${RIFA_API_BIN:-$CARGO_TARGET_DIR/$PROFILE_DIR/rifa-api}
BENCH_BIN=${RIFA_BENCH_BIN:-$CARGO_TARGET_DIR/$PROFILE_DIR/rifa-bench}
[[ -x $API_BIN && -x $BENCH_BIN ]] || die "binaries missing: $API_BIN, $BENCH_BIN"

DATABASES=()
cleanup() {
    local status=$?
    stop_api
    for db in "${DATABASES[@]}"; do
        psql -q "$SERVER_URL" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
    done
    exit "$status"
}
trap cleanup EXIT INT TERM

run() {
    local name=$1 every=$2 wait=$3 db="rifa_attach_${1}_$$"
    DATABASES+=("$db")
    psql -q "$SERVER_URL" -c "CREATE DATABASE \"$db\"" || die "cannot create a database on $SERVER_URL"
    local url
    url=$(with_database "$SERVER_URL" "$db")
    start_api "$url" "$name" RIFA_PROOF_CHECK_SECONDS="$every"
    create_bench_admin "$url" "$name"
    say "$name: checker every ${every}s"
    RIFA_BENCH_URL=$API_URL RIFA_BENCH_USERNAME=$ADMIN_USERNAME RIFA_BENCH_PASSWORD=$ADMIN_PASSWORD \
        "$BENCH_BIN" attach --proofs "${BENCH_PROOFS:-200}" \
        --concurrency "${BENCH_CONCURRENCY:-8}" --max-check-seconds "$wait" | tee "$OUT/$name.txt"
    stop_api
}

echo "load before: $(load_average)"
run reading 2 900
run idle 3600 0
echo "load after: $(load_average)"
echo "logs: $OUT"
