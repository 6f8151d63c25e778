#!/usr/bin/env bash
# Issue 20's "purchases as a raffle fills" (`make bench-fill`):
#
#   1. builds rifa-api and rifa-bench in release;
#   2. two fresh PostgreSQL databases migrated by rifa-api: one for the API, one for pgbench;
#   3. `rifa-bench fill`, once per way of picking in BENCH_FILL_PICKS: BENCH_BUYERS buyers sell
#      one raffle of BENCH_FILL_TICKETS numbers from empty to sold out, each loading the
#      availability bitmap, then either picking 3 random numbers it shows free (`buyer`: the
#      picker's "random" buttons) or asking the server to draw 3 (`server`: the site's quick
#      buy), buying, and loading the bitmap again: purchases/s, p50/p99 and the 409 share per
#      tenth of the raffle sold;
#   4. pgbench, BENCH_PG_CLIENTS clients for BENCH_DURATION seconds, the same-shape purchase
#      (bench/pgbench/purchase.sql on raffles of the same size) on the second database;
#   5. the summary: the rate at 80–90% sold over the rate at 10–20% (goal: within 20%), and the
#      whole run's purchases/s over pgbench's tps (goal: at least 75%).
#
# BENCH_FILL_DATABASE=sqlite fills the raffle on the embedded default instead (a SQLite file under
# BENCH_OUT), to show where it stops keeping up; there is no pgbench then, and no ratio.
#
# Environment (all optional):
#   TEST_DATABASE_URL   PostgreSQL server    (postgres://postgres@127.0.0.1:5432/test)
#   BENCH_FILL_TICKETS  numbers in the raffle (99999)
#   BENCH_BUYERS        concurrent buyers    (64)
#   BENCH_FILL_PICKS    who picks, in order  (buyer,server)
#   BENCH_FILL_DATABASE postgres or sqlite   (postgres)
#   BENCH_FILL_MAX_SECONDS  give up after    (3600)
#   BENCH_DURATION      pgbench's seconds    (20)
#   BENCH_PG_CLIENTS    pgbench clients      (64)
#   BENCH_PG_THREADS    pgbench threads      (2)
#   BENCH_KEEP_DB=1     keep both databases
#   BENCH_SKIP_BUILD=1  use the binaries already built
#   BENCH_OUT           logs and results     (a new /tmp/rifa-fill.* directory)
#   RIFA_WORKERS, RIFA_DB_MAX_CONNECTIONS   the API's workers (2) and pool (16)
set -euo pipefail

cd "$(dirname "$0")/.."
BENCH_NAME=fill
. bench/lib.sh

TICKETS=${BENCH_FILL_TICKETS:-99999}
MAX_SECONDS=${BENCH_FILL_MAX_SECONDS:-3600}
BUYERS=${BENCH_BUYERS:-64}
IFS=, read -r -a PICKS <<<"${BENCH_FILL_PICKS:-buyer,server}"
DURATION=${BENCH_DURATION:-20}
PG_CLIENTS=${BENCH_PG_CLIENTS:-64}
PG_THREADS=${BENCH_PG_THREADS:-2}
DATABASE=${BENCH_FILL_DATABASE:-postgres}
[[ $DATABASE == postgres || $DATABASE == sqlite ]] || die "BENCH_FILL_DATABASE is postgres or sqlite"
need_tools psql pgbench jq curl top

API_DB=rifa_fill_api_$$
PG_DB=rifa_fill_pg_$$
API_DB_URL=$(with_database "$SERVER_URL" "$API_DB")
PG_DB_URL=$(with_database "$SERVER_URL" "$PG_DB")
cleanup() {
    local status=$?
    # Best effort from here on: a process already gone must not stop the rest of the cleanup.
    set +e
    [[ -n $TOP_PID ]] && kill "$TOP_PID" 2>/dev/null
    stop_api
    if [[ ${BENCH_KEEP_DB:-0} != 1 ]]; then
        for db in "$API_DB" "$PG_DB"; do
            psql -q "$SERVER_URL" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
        done
    fi
    exit "$status"
}
trap cleanup EXIT INT TERM

build_release_binaries

if [[ $DATABASE == postgres ]]; then
    psql -q "$SERVER_URL" -c "CREATE DATABASE \"$API_DB\"" -c "CREATE DATABASE \"$PG_DB\"" \
        || die "cannot create databases on $SERVER_URL"
    say "migrating $PG_DB with rifa-api"
    start_api "$PG_DB_URL" pgbench
    stop_api
    read -r PG_RAFFLE_BASE PG_RAFFLES PG_METHOD < <(psql -Atq -v tickets="$TICKETS" -f bench/pgbench/setup.sql "$PG_DB_URL") \
        || die "pgbench setup failed"
else
    # The pool the embedded default runs with, unless asked otherwise.
    RIFA_DB_MAX_CONNECTIONS=${RIFA_DB_MAX_CONNECTIONS:-8}
    API_DB_URL="sqlite://$OUT/fill.db?mode=rwc"
fi

start_api "$API_DB_URL" api
create_bench_admin "$API_DB_URL" api
RIFA_BENCH_URL=$API_URL
RIFA_BENCH_TOKEN=$(admin_token)
export RIFA_BENCH_URL RIFA_BENCH_TOKEN

FAILED=0
FILLS='{}'
for picks in "${PICKS[@]}"; do
    say "fill: $BUYERS buyers, a raffle of $TICKETS numbers from empty to sold out, numbers picked by the $picks"
    LOAD_BEFORE_FILL=$(load_average)
    settle
    start_top "fill-$picks"
    "$BENCH_BIN" fill --buyers "$BUYERS" --tickets "$TICKETS" --max-seconds "$MAX_SECONDS" --picks "$picks" \
        | tee "$OUT/fill-$picks.txt" || FAILED=1
    CPU_FILL=$(stop_top "fill-$picks")
    LOAD_AFTER_FILL=$(load_average)
    FILL_JSON=$(tail -n1 "$OUT/fill-$picks.txt")
    jq -e . >/dev/null 2>&1 <<<"$FILL_JSON" || { FAILED=1; FILL_JSON='{}'; }
    FILLS=$(jq -n --argjson fills "$FILLS" --arg picks "$picks" --argjson fill "$FILL_JSON" \
        --argjson cpu "$CPU_FILL" --arg l1 "$LOAD_BEFORE_FILL" --arg l2 "$LOAD_AFTER_FILL" \
        '$fills + {($picks): ($fill + {cpu_pct: $cpu, load: [$l1, $l2]})}')
done
stop_api

PG_TPS=0 PG_ROWS_PER_TX="" CPU_PGBENCH='{}' LOAD_BEFORE_PG="" LOAD_AFTER_PG=""
if [[ $DATABASE == postgres ]]; then
    say "pgbench: $PG_CLIENTS clients, $PG_THREADS threads, $DURATION s, raffles of $TICKETS numbers"
    LOAD_BEFORE_PG=$(load_average)
    settle
    start_top pgbench
    pgbench -n -M prepared -c "$PG_CLIENTS" -j "$PG_THREADS" -T "$DURATION" \
        -f bench/pgbench/purchase.sql -D raffle_base="$PG_RAFFLE_BASE" -D raffles="$PG_RAFFLES" \
        -D method="$PG_METHOD" -D tickets="$TICKETS" "$PG_DB_URL" 2>&1 | tee "$OUT/pgbench.txt" || FAILED=1
    CPU_PGBENCH=$(stop_top pgbench)
    LOAD_AFTER_PG=$(load_average)
    PG_TPS=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$OUT/pgbench.txt" | head -n1)
    [[ -n $PG_TPS ]] || { FAILED=1; PG_TPS=0; }
    PG_ROWS_PER_TX=$(psql -Atq "$PG_DB_URL" -c \
        "SELECT round((SELECT count(*) FROM purchase_tickets)::numeric / greatest(count(*), 1), 2) FROM purchases")
fi

SUMMARY=$(jq -n --argjson fills "$FILLS" --argjson tps "$PG_TPS" --arg rows "$PG_ROWS_PER_TX" \
    --argjson cpu_pg "$CPU_PGBENCH" --arg lp1 "$LOAD_BEFORE_PG" --arg lp2 "$LOAD_AFTER_PG" \
    --arg workers "${RIFA_WORKERS:-2}" --arg pool "${RIFA_DB_MAX_CONNECTIONS:-16}" --arg database "$DATABASE" \
    '{database: $database, fills: ($fills | map_values(. + {ratio: (if $tps > 0 then (.purchases_per_s / $tps) else null end)})),
      pgbench: {tps: $tps, ticket_rows_per_tx: ($rows | tonumber? // null), cpu_pct: $cpu_pg, load: [$lp1, $lp2]},
      api: {workers: ($workers | tonumber), pool: ($pool | tonumber)}}')
echo "$SUMMARY" >"$OUT/summary.json"
echo "$SUMMARY" | jq -r --arg out "$OUT" '
    def r1: if . == null then null else . * 10 | round / 10 end;
    def rate($k): .tenths[$k].purchases_per_s // 0;
    "",
    "================ Rifa fill benchmark ================",
    (.fills | to_entries[] | .key as $picks | .value |
        (if rate(1) > 0 then rate(8) / rate(1) else 0 end) as $eighty |
        "Numbers picked by the \($picks)",
        "  fill over HTTP      \(.purchases_per_s | r1) purchases/s over \(.elapsed_s) s, \(if .sold_out then "sold out" else "NOT sold out" end), \(.purchases) × 201, \(.conflicts) × 409, \(.other_status) other, \(.transport_errors) transport errors",
        "  80–90% over 10–20%  \($eighty * 100 | r1)%   goal ≥ 80%: \(if $eighty >= 0.8 then "met" else "MISSED" end)",
        "  90–100% over 10–20% \((.rate_90_over_10 // 0) * 100 | r1)%",
        (if .ratio == null then "  ratio to pgbench    none (no pgbench on SQLite)"
         else "  ratio to pgbench    \(.ratio * 100 | r1)%   goal ≥ 75%: \(if .ratio >= 0.75 then "met" else "MISSED" end)" end),
        "  CPU                 API \(.cpu_pct.rifa_api)%, PostgreSQL \(.cpu_pct.postgres)%, rifa-bench \(.cpu_pct.rifa_bench)%, other \(.cpu_pct.other)%, idle \(.cpu_pct.idle_pct)%",
        "  load average        \(.load[0]) → \(.load[1])"),
    "Database              \(.database)",
    "pgbench (same shape)  \(.pgbench.tps | r1) tps, \(.pgbench.ticket_rows_per_tx) ticket rows per transaction, load \(.pgbench.load[0]) → \(.pgbench.load[1])",
    "Logs and JSON         \($out)"'
exit "$FAILED"
