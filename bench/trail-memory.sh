#!/usr/bin/env bash
# The API's resident memory around the trail's heaviest reads (decision 0024): starts the API
# on data seeded by bench/scale.sh (kept with BENCH_KEEP_DB=1), then asks each read once and
# prints the API's resident memory after it. A read that holds a whole year at once shows as a
# step that a second ask repeats.
#
#   bench/trail-memory.sh DATA_DIR              the kept SQLite data directory (rifa.db inside)
#   DATABASE_URL=postgres://… bench/trail-memory.sh DATA_DIR    a kept PostgreSQL database
#
# Environment: CARGO_TARGET_DIR (the release rifa-api is taken from it), BENCH_TRAIL_PORT (18111).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_NAME=trail-memory
. bench/lib.sh
need_tools curl jq

DATA_DIR=${1:?the data directory the API runs with}
API_BIN=$CARGO_TARGET_DIR/release/rifa-api
[[ -x $API_BIN ]] || die "no release rifa-api in $CARGO_TARGET_DIR (cargo build --release -p rifa-api)"
PORT=${BENCH_TRAIL_PORT:-18111}
URL=http://127.0.0.1:$PORT
USERNAME=trail$$
PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')

printf '%s' "$PASSWORD" | RIFA_DATA_DIR=$DATA_DIR "$API_BIN" create-admin --username "$USERNAME" \
    --role owner >"$OUT/create-admin.log" 2>&1 || { tail -n 5 "$OUT/create-admin.log" >&2; die "create-admin failed"; }
RIFA_DATA_DIR=$DATA_DIR RIFA_BIND=127.0.0.1:$PORT RIFA_WORKERS=2 "$API_BIN" >"$OUT/api.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -sf "$URL/api/health" >/dev/null && break; sleep 0.5; done
TOKEN=$(curl -fsS "$URL/api/admin/login" -H 'Content-Type: application/json' \
    -d "$(jq -n --arg u "$USERNAME" --arg p "$PASSWORD" '{username: $u, password: $p}')" | jq -r .token)

rss() { printf '%-24s %5d MB\n' "$1" $(( $(awk '/VmRSS/ {print $2}' "/proc/$PID/status") / 1024 )); }
ask() { curl -fsS -o /dev/null -H "Authorization: Bearer $TOKEN" "$URL$2"; rss "$1"; }

today=$(date -u +%F)
month=$(date -u -d '29 days ago' +%F)
year=$(date -u -d '364 days ago' +%F)
rss "start"
ask "figures 30 days" "/api/admin/audit/figures?from=$month&to=$today&utcOffsetMinutes=0"
ask "figures a year" "/api/admin/audit/figures?from=$year&to=$today&utcOffsetMinutes=0"
ask "figures a year again" "/api/admin/audit/figures?from=$year&to=$today&utcOffsetMinutes=0"
ask "check of the chain" "/api/admin/audit/verification"
ask "check again" "/api/admin/audit/verification"
