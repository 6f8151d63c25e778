#!/usr/bin/env bash
# Do hostile proofs stall the proof checker? (issue 31; `make bench-hostile` calls this.)
#
#   1. builds rifa-api and rifa-bench (release; BENCH_PROFILE=dev reuses the test build), or
#      takes RIFA_API_BIN (e.g. an older build, to compare before and after);
#   2. starts the API on a fresh PostgreSQL database, its checker looking every second;
#   3. `rifa-bench hostile-proofs`: BENCH_HOSTILE PDFs of a few hundred bytes whose page is
#      BENCH_PAGE_POINTS a side, then one receipt of the proof corpus; prints the receipt's
#      time from attach to checked, and how the hostile checks stood then and at the end;
#   4. meanwhile samples, every 0.2 s, the resident memory of the API's reader processes
#      (pdftoppm, pdftotext, tesseract: its children) and prints the peak.
#
# The machine's load (`uptime`) is printed before and after: other work on the cores shows.
#
# Environment (all optional): TEST_DATABASE_URL, CARGO_TARGET_DIR, BENCH_PROFILE (release),
# RIFA_API_BIN, RIFA_BENCH_BIN, BENCH_HOSTILE (3), BENCH_PAGE_POINTS (14400),
# BENCH_MAX_SECONDS (900), BENCH_OUT, BENCH_SKIP_BUILD=1.
set -euo pipefail

cd "$(dirname "$0")/.."
BENCH_NAME=hostile-proofs
. bench/lib.sh
need_tools psql curl
PROFILE=${BENCH_PROFILE:-release}
PROFILE_DIR=$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    cargo build --profile "$PROFILE" -p rifa-api -p rifa-bench
fi
API_BIN=${RIFA_API_BIN:-$CARGO_TARGET_DIR/$PROFILE_DIR/rifa-api}
BENCH_BIN=${RIFA_BENCH_BIN:-$CARGO_TARGET_DIR/$PROFILE_DIR/rifa-bench}
[[ -x $API_BIN && -x $BENCH_BIN ]] || die "binaries missing: $API_BIN, $BENCH_BIN"

DB=rifa_hostile_$$
SAMPLER=""
cleanup() {
    local status=$?
    [[ -n $SAMPLER ]] && kill "$SAMPLER" 2>/dev/null || true
    stop_api
    psql -q "$SERVER_URL" -c "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    exit "$status"
}
trap cleanup EXIT INT TERM
psql -q "$SERVER_URL" -c "CREATE DATABASE \"$DB\"" || die "cannot create a database on $SERVER_URL"
URL=$(with_database "$SERVER_URL" "$DB")
start_api "$URL" api RIFA_PROOF_CHECK_SECONDS=1
create_bench_admin "$URL" api

# The readers are the API's children (prlimit and nice execute them in place): the largest
# resident set seen, in MB, per program and for all at once.
(
    peak_all=0
    declare -A peak=()
    while kill -0 "$API_PID" 2>/dev/null; do
        all=0
        while read -r rss comm; do
            [[ -n ${rss:-} ]] || continue
            all=$((all + rss))
            ((rss > ${peak[$comm]:-0})) && peak[$comm]=$rss
        done < <(ps --ppid "$API_PID" -o rss= -o comm= 2>/dev/null || true)
        ((all > peak_all)) && peak_all=$all
        {
            printf 'readers peak MB: all %d' $((peak_all / 1024))
            for comm in "${!peak[@]}"; do printf ', %s %d' "$comm" $((peak[$comm] / 1024)); done
            printf '\n'
        } >"$OUT/readers-peak.txt"
        sleep 0.2
    done
) &
SAMPLER=$!

echo "load before: $(uptime)"
RIFA_BENCH_URL=$API_URL RIFA_BENCH_USERNAME=$ADMIN_USERNAME RIFA_BENCH_PASSWORD=$ADMIN_PASSWORD \
    "$BENCH_BIN" hostile-proofs --hostile "${BENCH_HOSTILE:-3}" \
    --page-points "${BENCH_PAGE_POINTS:-14400}" --max-seconds "${BENCH_MAX_SECONDS:-900}" \
    | tee "$OUT/hostile.txt"
echo "load after:  $(uptime)"
cat "$OUT/readers-peak.txt" 2>/dev/null || echo "readers peak MB: none seen"
echo "logs: $OUT"
