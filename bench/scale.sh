#!/usr/bin/env bash
# Issue 20's "a year of purchases" and "the public reads under load" (`make bench-scale`):
#
#   1. builds rifa-api and rifa-bench in release;
#   2. seeds a fresh PostgreSQL database with a year of purchases: the API migrates it and
#      creates the payment methods, `rifa-bench seed` writes the SQL, psql runs it with the API
#      stopped (BENCH_PURCHASES purchases, about 3 numbers each, over BENCH_SEED_RAFFLES raffles
#      of 99,999 numbers, a tenth of them on sale);
#   3. `rifa-bench reads`: every read of the panel and the site, one client in sequence, p50
#      and p95, and the CSV export of every purchase (one streamed request: its time and the
#      API's memory while it streams);
#   4. under load: `GET /api/raffles` and `GET /api/raffles/{id}` with BENCH_READERS wrk
#      connections; purchases by BENCH_BUYERS buyers alone; then both at once (requests/s and
#      purchases/s side by side);
#   5. with BENCH_SQLITE=1 (the default), steps 2–4 again on SQLite, the embedded default:
#      the same data (the seed is one generator for both), reads and the home page's list under
#      load (SQLite serialises writers, so buyers are left out there).
#
# Each phase records the machine's load average before it and at its end (other engineers'
# builds share these cores), and the CPU of each program during the load phases.
#
# Environment (all optional):
#   TEST_DATABASE_URL     PostgreSQL server     (postgres://postgres@127.0.0.1:5432/test)
#   BENCH_PURCHASES       purchases to seed     (1000000; 10000 for a quick run)
#   BENCH_SEED_RAFFLES    raffles to seed       (300)
#   BENCH_READ_REQUESTS   requests per read     (10)
#   BENCH_LOAD_SECONDS    seconds per load phase (10)
#   BENCH_READERS         wrk connections       (64)
#   BENCH_BUYERS          concurrent buyers     (64)
#   BENCH_SQLITE          0 to skip SQLite      (1)
#   BENCH_DATABASES       which to measure      (postgres,sqlite; the PostgreSQL database is
#                         seeded even when only SQLite is measured, unless BENCH_SCALE_DB)
#   RIFA_SQLITE_MAX_CONNECTIONS  the API's pool on SQLite (8, its default)
#   BENCH_SQLITE_REQUESTS requests per read on SQLite (BENCH_READ_REQUESTS)
#   BENCH_SCALE_DB        an already seeded PostgreSQL database to measure (skips step 2; kept)
#   BENCH_SCALE_SQLITE    an already seeded SQLite file to measure (skips its seeding; kept)
#   BENCH_PHASES          which of reads,load to run (reads,load)
#   BENCH_KEEP_DB=1       keep the seeded database (its name is printed) and SQLite file
#   BENCH_SKIP_BUILD=1    use the binaries already built
#   BENCH_OUT             logs and results      (a new /tmp/rifa-scale.* directory)
#   RIFA_WORKERS, RIFA_DB_MAX_CONNECTIONS   the API's workers (2) and pool (16)
set -euo pipefail

cd "$(dirname "$0")/.."
BENCH_NAME=scale
. bench/lib.sh

PURCHASES=${BENCH_PURCHASES:-1000000}
RAFFLES=${BENCH_SEED_RAFFLES:-300}
REQUESTS=${BENCH_READ_REQUESTS:-10}
SECONDS_PER_PHASE=${BENCH_LOAD_SECONDS:-10}
READERS=${BENCH_READERS:-64}
BUYERS=${BENCH_BUYERS:-64}
PHASES=${BENCH_PHASES:-reads,load}
DATABASES=${BENCH_DATABASES:-postgres,sqlite}
[[ ${BENCH_SQLITE:-1} == 1 ]] || DATABASES=${DATABASES//sqlite/}
export BENCH_PURCHASES=$PURCHASES BENCH_SEED_RAFFLES=$RAFFLES

need_tools psql jq curl top wrk
[[ ,$DATABASES, == *,sqlite,* ]] && need_tools sqlite3

DB=${BENCH_SCALE_DB:-rifa_scale_$$}
DB_URL=$(with_database "$SERVER_URL" "$DB")
SQLITE_FILE=${BENCH_SCALE_SQLITE:-$OUT/data-sqlite/rifa.db}
CREATED_DB=0
cleanup() {
    local status=$?
    # Best effort from here on: a process already gone must not stop the rest of the cleanup.
    set +e
    [[ -n $TOP_PID ]] && kill "$TOP_PID" 2>/dev/null
    [[ -n ${BUYERS_PID:-} ]] && kill "$BUYERS_PID" 2>/dev/null
    stop_api
    if [[ $CREATED_DB == 1 && ${BENCH_KEEP_DB:-0} != 1 ]]; then
        psql -q "$SERVER_URL" -c "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    fi
    if [[ -z ${BENCH_SCALE_SQLITE:-} && ${BENCH_KEEP_DB:-0} != 1 ]]; then
        rm -f "$OUT/data-sqlite/rifa.db" "$OUT/data-sqlite/rifa.db-wal" "$OUT/data-sqlite/rifa.db-shm"
    fi
    exit "$status"
}
trap cleanup EXIT INT TERM

# --- 1. Build ---------------------------------------------------------------------------------
build_release_binaries

echo "load before: $(load_average)" | tee "$OUT/load.txt"
top -b -n 1 -w 200 | head -n 20 >"$OUT/top-at-start.txt"

# Appends a phase's record to $OUT/phases.jsonl: {"phase", "seconds", "load_before", "load_after"}.
phase_begin() { PHASE_LOAD=$(load_average); PHASE_START=$(date +%s%N); }
phase_end() {
    jq -cn --arg phase "$1" --arg before "$PHASE_LOAD" --arg after "$(load_average)" \
        --argjson seconds "$(( ($(date +%s%N) - PHASE_START) / 1000000 ))e-3" \
        '{phase: $phase, seconds: $seconds, load_before: $before, load_after: $after}' \
        | tee -a "$OUT/phases.jsonl" >&2
}

# --- 2. A year of purchases -------------------------------------------------------------------
# Arguments: the dialect, the database URL for the API, the data directory's name, and the
# command that runs the SQL on stdin.
seed() {
    local dialect=$1 db_url=$2 name=$3
    shift 3
    start_api "$db_url" "$name"
    create_bench_admin "$db_url" "$name"
    RIFA_BENCH_URL=$API_URL RIFA_BENCH_TOKEN=$(admin_token) \
        "$BENCH_BIN" seed --dialect "$dialect" --purchases "$PURCHASES" --raffles "$RAFFLES" \
        >"$OUT/seed-$dialect.sql"
    stop_api
    say "seeding $dialect: $PURCHASES purchases over $RAFFLES raffles"
    phase_begin
    "$@" <"$OUT/seed-$dialect.sql" >"$OUT/seed-$dialect.log" 2>&1 \
        || { tail -n 20 "$OUT/seed-$dialect.log" >&2; die "seeding $dialect failed"; }
    phase_end "seed-$dialect"
}

if [[ -z ${BENCH_SCALE_DB:-} ]]; then
    psql -q "$SERVER_URL" -c "CREATE DATABASE \"$DB\"" || die "cannot create a database on $SERVER_URL"
    CREATED_DB=1
    seed postgres "$DB_URL" postgres psql -q -v ON_ERROR_STOP=1 "$DB_URL"
fi
psql -Atq "$DB_URL" -c "SELECT json_build_object(
        'purchases', (SELECT count(*) FROM purchases),
        'ticket_rows', (SELECT count(*) FROM purchase_tickets),
        'held_rows', (SELECT count(*) FROM purchase_tickets WHERE held),
        'outbox_rows', (SELECT count(*) FROM mail_outbox),
        'audit_entries', (SELECT count(*) FROM audit_log),
        'raffles', (SELECT count(*) FROM raffles),
        'on_sale', (SELECT count(*) FROM raffles WHERE status = 'available'),
        'statuses', (SELECT json_object_agg(status, n) FROM (SELECT status, count(*) n FROM purchases GROUP BY status) s),
        'first_day', (SELECT min(created_at)::date FROM purchases),
        'last_day', (SELECT max(created_at)::date FROM purchases),
        'database_mb', pg_database_size(current_database()) / 1048576)" | tee "$OUT/data-postgres.json" >&2

# --- 3 and 4: reads, then load ----------------------------------------------------------------
# Arguments: the database URL, the data directory's name, the label, requests per read.
measure_reads() {
    local db_url=$1 name=$2 label=$3 requests=$4
    say "reads on $label: $requests requests each"
    phase_begin
    "$BENCH_BIN" --timeout-seconds 600 reads --requests "$requests" \
        --api-pid "$API_PID" \
        | tee "$OUT/reads-$label.txt" || FAILED=1
    phase_end "reads-$label"
}

# The public list under load, alone; then buyers alone; then both at once. Arguments: the
# label, and whether buyers take part (SQLite: no).
measure_load() {
    local label=$1 with_buyers=$2 db=$3 raffle
    raffle=$(curl -fsS "$API_URL/api/raffles" | jq 'max_by(.ticketsSold).id')
    say "load on $label: $READERS wrk connections on GET /api/raffles, $SECONDS_PER_PHASE s"
    settle
    phase_begin; start_top "list-$label"
    run_wrk "$API_URL/api/raffles" "$READERS" "$SECONDS_PER_PHASE" "list-$label" >"$OUT/load-list-$label.json"
    jq -c --argjson cpu "$(stop_top "list-$label")" '. + {cpu_pct: $cpu}' "$OUT/load-list-$label.json" | tee "$OUT/load-list-$label.json.tmp" >&2
    mv "$OUT/load-list-$label.json.tmp" "$OUT/load-list-$label.json"
    phase_end "load-list-$label"

    say "load on $label: $READERS wrk connections on GET /api/raffles/$raffle, $SECONDS_PER_PHASE s"
    wait_idle "$API_PID" "$db"
    settle
    phase_begin; start_top "raffle-$label"
    run_wrk "$API_URL/api/raffles/$raffle" "$READERS" "$SECONDS_PER_PHASE" "raffle-$label" >"$OUT/load-raffle-$label.json"
    jq -c --argjson cpu "$(stop_top "raffle-$label")" '. + {cpu_pct: $cpu}' "$OUT/load-raffle-$label.json" | tee "$OUT/load-raffle-$label.json.tmp" >&2
    mv "$OUT/load-raffle-$label.json.tmp" "$OUT/load-raffle-$label.json"
    phase_end "load-raffle-$label"

    [[ $with_buyers == 1 ]] || return 0
    # One 99,999-number raffle per phase (it does not sell out in the phase), so the list the
    # readers ask for grows by two raffles (a warm-up one and this one) per buyers' phase.
    local buy=(purchases --buyers "$BUYERS" --raffles 1 --tickets 99999 --duration "$SECONDS_PER_PHASE" --warmup 2 --json-only)
    say "load on $label: $BUYERS buyers alone, $SECONDS_PER_PHASE s"
    wait_idle "$API_PID" "$db"
    settle
    phase_begin; start_top "buyers-$label"
    "$BENCH_BIN" "${buy[@]}" >"$OUT/buyers-alone-$label.json" || FAILED=1
    stop_top "buyers-$label" >"$OUT/cpu-buyers-alone-$label.json"
    phase_end "buyers-alone-$label"

    say "load on $label: $BUYERS buyers and $READERS readers at once, $SECONDS_PER_PHASE s"
    wait_idle "$API_PID" "$db"
    settle
    phase_begin; start_top "both-$label"
    "$BENCH_BIN" "${buy[@]}" >"$OUT/buyers-with-readers-$label.json" &
    BUYERS_PID=$!
    sleep 2.5 # the buyers' warm-up
    run_wrk "$API_URL/api/raffles" "$READERS" "$SECONDS_PER_PHASE" "both-$label" >"$OUT/load-list-with-buyers-$label.json"
    wait "$BUYERS_PID" || FAILED=1
    BUYERS_PID=""
    stop_top "both-$label" >"$OUT/cpu-both-$label.json"
    phase_end "both-$label"
}

FAILED=0
run_phases() {
    local db_url=$1 name=$2 label=$3 requests=$4 with_buyers=$5 db=$6
    shift 6
    start_api "$db_url" "$name" "$@"
    create_bench_admin "$db_url" "$name"
    RIFA_BENCH_URL=$API_URL
    RIFA_BENCH_TOKEN=$(admin_token)
    export RIFA_BENCH_URL RIFA_BENCH_TOKEN
    [[ ,$PHASES, == *,reads,* ]] && measure_reads "$db_url" "$name" "$label" "$requests"
    [[ ,$PHASES, == *,load,* ]] && measure_load "$label" "$with_buyers" "$db"
    stop_api
}

[[ ,$DATABASES, == *,postgres,* ]] && run_phases "$DB_URL" postgres postgres "$REQUESTS" 1 "$DB"

# --- 5. SQLite --------------------------------------------------------------------------------
if [[ ,$DATABASES, == *,sqlite,* ]]; then
    SQLITE_URL="sqlite://$SQLITE_FILE"
    if [[ -z ${BENCH_SCALE_SQLITE:-} ]]; then
        rm -f "$SQLITE_FILE"
        seed sqlite "$SQLITE_URL" sqlite sqlite3 "$SQLITE_FILE"
    fi
    sqlite3 "$SQLITE_FILE" "SELECT json_object('purchases', (SELECT count(*) FROM purchases),
        'ticket_rows', (SELECT count(*) FROM purchase_tickets), 'raffles', (SELECT count(*) FROM raffles),
        'audit_entries', (SELECT count(*) FROM audit_log))" \
        | tee "$OUT/data-sqlite.json" >&2
    echo "SQLite file: $(du -m "$SQLITE_FILE" | cut -f1) MB" >&2
    # SQLite's own default pool (8), not PostgreSQL's: what an embedded install runs with.
    run_phases "$SQLITE_URL" sqlite sqlite "${BENCH_SQLITE_REQUESTS:-$REQUESTS}" 0 "" \
        RIFA_DB_MAX_CONNECTIONS="${RIFA_SQLITE_MAX_CONNECTIONS:-8}"
fi

echo "load after: $(load_average)" | tee -a "$OUT/load.txt"

# --- Summary ----------------------------------------------------------------------------------
summary() {
    local label=$1 f
    echo "== $label"
    f=$OUT/reads-$label.txt
    [[ -f $f ]] && sed -n '/^Reads:/,/^{/p' "$f" | sed '$d'
    for f in list raffle list-with-buyers; do
        [[ -f $OUT/load-$f-$label.json ]] || continue
        jq -r --arg f "$f" '"wrk \($f): \(.requests_per_s) requests/s, p50 \(.p50_ms) ms, p99 \(.p99_ms) ms, non-2xx \(.non_2xx), errors \(.errors)"' \
            "$OUT/load-$f-$label.json"
    done
    for f in buyers-alone buyers-with-readers; do
        [[ -f $OUT/$f-$label.json ]] || continue
        jq -r --arg f "$f" '"\($f): \(.purchases_per_s) purchases/s, p50 \(.latency.p50_ms) ms, p99 \(.latency.p99_ms) ms, other \(.other_status), transport errors \(.transport_errors)"' \
            "$OUT/$f-$label.json"
    done
}
{
    echo
    echo "================ Rifa scale benchmark ($(jq .purchases "$OUT/data-postgres.json") purchases, $(nproc) cores) ================"
    summary postgres
    [[ ,$DATABASES, == *,sqlite,* ]] && summary sqlite
    echo "phases:"
    cat "$OUT/phases.jsonl"
    echo "Logs and JSON: $OUT"
    if [[ ${BENCH_KEEP_DB:-0} == 1 && $CREATED_DB == 1 ]]; then
        echo "kept database: $DB (BENCH_SCALE_DB=$DB to measure it again)"
    fi
    if [[ ${BENCH_KEEP_DB:-0} == 1 && -z ${BENCH_SCALE_SQLITE:-} && ,$DATABASES, == *,sqlite,* ]]; then
        echo "kept SQLite file: $SQLITE_FILE (BENCH_SCALE_SQLITE=… to measure it again)"
    fi
} | tee "$OUT/summary.txt"
exit "$FAILED"
