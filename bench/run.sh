#!/usr/bin/env bash
# Rifa's benchmark, all in one run (`make bench` calls this):
#
#   1. builds rifa-api and rifa-bench in release;
#   2. creates two fresh PostgreSQL databases on TEST_DATABASE_URL's server and lets rifa-api
#      migrate both (one for the API, one for pgbench);
#   3. starts the API in release on the first (no demo data, RIFA_WORKERS workers) and signs in
#      as an admin made for the run (`rifa-api create-admin`);
#   4. `rifa-bench purchases`: BENCH_BUYERS concurrent buyers on 9,999-number raffles sold in
#      turn (BENCH_RAFFLES of them) for BENCH_DURATION seconds (or until all are sold out); the
#      API queues each buyer's e-mail in the purchase's statement but does not deliver
#      (RIFA_MAIL_DELIVERY=false: delivery belongs to a worker instance);
#   5. pgbench with BENCH_PG_CLIENTS clients for the same duration, running a transaction of the
#      same shape (bench/pgbench/purchase.sql) on the second database;
#   6. `rifa-bench availability`: a 99,999-number raffle, 90% sold, bitmap latency and size;
#   7. prints the summary: API purchases/s against pgbench tps (target: at least 50%), and the
#      availability p99 (target: under 20 ms) and body size (target: under 16 KB).
#
# While each load phase runs, `top` samples the CPU use of rifa-api, postgres, the load
# generator and everything else (other builds on the machine make the figures noisy).
#
# Environment (all optional):
#   TEST_DATABASE_URL        server to use     (postgres://postgres@127.0.0.1:5432/test)
#   CARGO_TARGET_DIR         build directory   (this checkout's, see scripts/lib.sh)
#   BENCH_DURATION           seconds per phase (20)
#   BENCH_BUYERS             API buyers        (64)
#   BENCH_RAFFLES            raffles in turn   (8)
#   BENCH_PG_CLIENTS         pgbench clients   (64)
#   BENCH_PG_THREADS         pgbench threads   (2)
#   RIFA_WORKERS             API workers       (2)
#   RIFA_DB_MAX_CONNECTIONS  API pool size     (16)
#   BENCH_OUT                where logs and results go (a new /tmp/rifa-bench.* directory)
#   BENCH_KEEP_DB=1          keep the two databases afterwards
#   BENCH_SKIP_BUILD=1       use the binaries already built
#   RIFA_METRICS_TOKEN       metrics on in the API, scraped every 15 s as Prometheus would
#                            (BENCHMARKS.md "Metrics on" compares runs with and without)
set -euo pipefail

cd "$(dirname "$0")/.."
BENCH_NAME=bench
. bench/lib.sh
DURATION=${BENCH_DURATION:-20}
BUYERS=${BENCH_BUYERS:-64}
PG_CLIENTS=${BENCH_PG_CLIENTS:-64}
PG_THREADS=${BENCH_PG_THREADS:-2}
WORKERS=${RIFA_WORKERS:-2}
POOL=${RIFA_DB_MAX_CONNECTIONS:-16}
need_tools psql pgbench jq curl top

API_DB=rifa_bench_api_$$
PG_DB=rifa_bench_pg_$$
API_DB_URL=$(with_database "$SERVER_URL" "$API_DB")
PG_DB_URL=$(with_database "$SERVER_URL" "$PG_DB")

cleanup() {
    local status=$?
    [[ -n $TOP_PID ]] && kill "$TOP_PID" 2>/dev/null || true
    [[ -n ${SCRAPER_PID:-} ]] && kill "$SCRAPER_PID" 2>/dev/null || true
    if [[ -n $API_PID ]]; then
        kill "$API_PID" 2>/dev/null || true
        wait "$API_PID" 2>/dev/null || true
    fi
    if [[ ${BENCH_KEEP_DB:-0} != 1 ]]; then
        for db in "$API_DB" "$PG_DB"; do
            psql -q "$SERVER_URL" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
        done
    fi
    exit "$status"
}
trap cleanup EXIT INT TERM

# --- 1. Build ---------------------------------------------------------------------------------
build_release_binaries

# --- 2. Databases -----------------------------------------------------------------------------
say "creating databases $API_DB and $PG_DB"
psql -q "$SERVER_URL" -c "CREATE DATABASE \"$API_DB\"" -c "CREATE DATABASE \"$PG_DB\"" \
    || die "cannot create databases on $SERVER_URL"

# --- 3. pgbench's database: migrated by the API, then one raffle ------------------------------
say "migrating $PG_DB with rifa-api"
start_api "$PG_DB_URL" pgbench
stop_api
read -r PG_RAFFLE_BASE PG_RAFFLES PG_METHOD < <(psql -Atq -f bench/pgbench/setup.sql "$PG_DB_URL") \
    || die "pgbench setup failed"

# --- 4. The API and the purchases scenario ----------------------------------------------------
say "starting rifa-api on $API_DB (workers $WORKERS, pool $POOL)"
start_api "$API_DB_URL" api
create_bench_admin "$API_DB_URL" api
TOKEN=$(admin_token)
export RIFA_BENCH_URL=$API_URL RIFA_BENCH_TOKEN=$TOKEN

# With metrics on, a scraper reads /metrics every 15 s while the load runs.
SCRAPER_PID=""
if [[ -n ${RIFA_METRICS_TOKEN:-} ]]; then
    (while curl -fsS -o "$OUT/metrics.txt" -H "Authorization: Bearer $RIFA_METRICS_TOKEN" "$API_URL/metrics"; do
        echo scraped >>"$OUT/scrapes.log"
        sleep 15
    done) &
    SCRAPER_PID=$!
fi

FAILED=0
say "purchases: $BUYERS buyers, up to $DURATION s"
settle
start_top purchases
"$BENCH_BIN" purchases --buyers "$BUYERS" --raffles "${BENCH_RAFFLES:-8}" --duration "$DURATION" | tee "$OUT/purchases.txt" \
    || FAILED=1
CPU_PURCHASES=$(stop_top purchases)
PURCHASES_JSON=$(tail -n1 "$OUT/purchases.txt")
jq -e . >/dev/null 2>&1 <<<"$PURCHASES_JSON" || { FAILED=1; PURCHASES_JSON='{}'; }

# --- 5. pgbench -------------------------------------------------------------------------------
say "pgbench: $PG_CLIENTS clients, $PG_THREADS threads, $DURATION s"
settle
start_top pgbench
pgbench -n -M prepared -c "$PG_CLIENTS" -j "$PG_THREADS" -T "$DURATION" \
    -f bench/pgbench/purchase.sql -D raffle_base="$PG_RAFFLE_BASE" -D raffles="$PG_RAFFLES" -D method="$PG_METHOD" -D tickets=9999 \
    "$PG_DB_URL" 2>&1 | tee "$OUT/pgbench.txt" || FAILED=1
CPU_PGBENCH=$(stop_top pgbench)
PG_TPS=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$OUT/pgbench.txt" | head -n1)
PG_LAT=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' "$OUT/pgbench.txt" | head -n1)
PG_FAILED=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$OUT/pgbench.txt" | head -n1)
if [[ -z $PG_TPS ]] || grep -q 'aborted' "$OUT/pgbench.txt"; then
    printf 'bench: pgbench failed (does bench/pgbench/purchase.sql match the schema?)\n' >&2
    FAILED=1
    PG_TPS=0
fi
# The shape check: every transaction should have written its three ticket rows.
PG_ROWS_PER_TX=$(psql -Atq "$PG_DB_URL" -c \
    "SELECT round((SELECT count(*) FROM purchase_tickets)::numeric / greatest(count(*), 1), 2) FROM purchases")

# --- 6. Availability --------------------------------------------------------------------------
say "availability: 99,999 numbers, 90% sold"
settle
start_top availability
"$BENCH_BIN" availability | tee "$OUT/availability.txt" || FAILED=1
CPU_AVAILABILITY=$(stop_top availability)
AVAILABILITY_JSON=$(tail -n1 "$OUT/availability.txt")
jq -e . >/dev/null 2>&1 <<<"$AVAILABILITY_JSON" || { FAILED=1; AVAILABILITY_JSON='{}'; }
[[ -n $SCRAPER_PID ]] && kill "$SCRAPER_PID" 2>/dev/null || true
SCRAPER_PID=""
SCRAPES=$(wc -l <"$OUT/scrapes.log" 2>/dev/null || echo 0)
stop_api

# --- 7. Summary -------------------------------------------------------------------------------
SUMMARY=$(jq -n \
    --argjson p "$PURCHASES_JSON" --argjson a "$AVAILABILITY_JSON" \
    --argjson tps "$PG_TPS" --arg rows "${PG_ROWS_PER_TX:-}" --arg lat "${PG_LAT:-}" --arg pgfailed "${PG_FAILED:-}" \
    --argjson cpu_p "$CPU_PURCHASES" --argjson cpu_g "$CPU_PGBENCH" --argjson cpu_a "$CPU_AVAILABILITY" \
    --arg workers "$WORKERS" --arg pool "$POOL" --arg nproc "$(nproc)" \
    --arg metrics "${RIFA_METRICS_TOKEN:+on}" --arg scrapes "$SCRAPES" \
    '{
        machine: {nproc: ($nproc | tonumber)}, api: {workers: ($workers | tonumber), pool: ($pool | tonumber), metrics: ($metrics == "on"), scrapes: ($scrapes | tonumber)},
        purchases: ($p | del(.timeline_created_conflicts_per_s)),
        timeline_created_conflicts_per_s: $p.timeline_created_conflicts_per_s,
        pgbench: {tps: $tps, ticket_rows_per_tx: ($rows | tonumber? // null), latency_avg_ms: ($lat | tonumber? // null), failed: ($pgfailed | tonumber? // null)},
        ratio: (if $tps > 0 then ($p.purchases_per_s / $tps) else null end),
        ratio_requests: (if $tps > 0 then ($p.requests_per_s / $tps) else null end),
        availability: $a,
        cpu_pct: {purchases: $cpu_p, pgbench: $cpu_g, availability: $cpu_a}
    }')
echo "$SUMMARY" >"$OUT/summary.json"

echo "$SUMMARY" | jq -r --arg out "$OUT" '
    def r1: if . == null then null else . * 10 | round / 10 end;
    def cpu: "API \(.rifa_api)%, PostgreSQL \(.postgres)%, rifa-bench \(.rifa_bench)%, pgbench \(.pgbench)%, other \(.other)%, idle \(.idle_pct)% of the machine";
    "",
    "================ Rifa benchmark summary (\(.machine.nproc) cores, API workers \(.api.workers), pool \(.api.pool), metrics \(if .api.metrics then "on, \(.api.scrapes) scrapes" else "off" end)) ================",
    "Purchases over HTTP   \(.purchases.purchases_per_s | r1) purchases/s, \(.purchases.requests_per_s | r1) requests/s (\(.purchases.buyers) buyers, \(.purchases.elapsed_s) s\(if .purchases.sold_out then ", sold out" else "" end))",
    "  latency             p50 \(.purchases.latency.p50_ms) ms, p90 \(.purchases.latency.p90_ms) ms, p99 \(.purchases.latency.p99_ms) ms, max \(.purchases.latency.max_ms) ms",
    "  answers             \(.purchases.purchases) × 201, \(.purchases.conflicts) × 409, \(.purchases.other_status) other, \(.purchases.transport_errors) transport errors",
    "  CPU                 \(.cpu_pct.purchases | cpu)",
    "pgbench (same shape)  \(.pgbench.tps | r1) tps, latency avg \(.pgbench.latency_avg_ms) ms, \(.pgbench.failed) failed, \(.pgbench.ticket_rows_per_tx) ticket rows per transaction",
    "  CPU                 \(.cpu_pct.pgbench | cpu)",
    "Ratio                 \((.ratio // 0) * 100 | r1)% of pgbench (requests: \((.ratio_requests // 0) * 100 | r1)%)   target ≥ 50%: \(if (.ratio // 0) >= 0.5 then "met" else "MISSED" end)",
    "Availability          p50 \(.availability.sequential.p50_ms) ms, p99 \(.availability.sequential.p99_ms) ms sequential; p99 \(.availability.concurrent.latency.p99_ms) ms with \(.availability.concurrent.clients) clients   target < 20 ms: \(if (.availability.sequential.p99_ms // 1e9) < 20 then "met" else "MISSED" end)",
    "  body                \(.availability.body_bytes) bytes (\(.availability.gzip_body_bytes) gzip)   target < 16 KB: \(if (.availability.body_bytes // 1e9) < 16384 then "met" else "MISSED" end)",
    "  CPU                 \(.cpu_pct.availability | cpu)",
    "Logs and JSON         \($out)"'
exit "$FAILED"
