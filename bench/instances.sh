#!/usr/bin/env bash
# Issue 20's "several instances" (`make bench-instances`): purchases/s with one API instance,
# with the same instance behind nginx, and with two instances behind nginx, all on one
# PostgreSQL database; then SQL checks that no number was sold twice and that every 201 the
# buyers got is a purchase holding exactly its numbers; that an admin connected to either
# instance heard of every purchase of the two-instance run (bench/live-listener.mjs); and that
# holds falling due with both instances' sweepers running expire once each (one history entry,
# one e-mail).
#
#   1. builds rifa-api and rifa-bench in release;
#   2. a fresh database; two instances on it (RIFA_TRUST_PROXY=true, as behind any proxy);
#   3. nginx (Debian's nginx-light) on a free local port, round-robin over the instances with
#      keep-alive connections, its configuration written into the run's directory;
#   4. `rifa-bench purchases` (BENCH_BUYERS buyers, 9,999-number raffles sold in turn,
#      BENCH_DURATION seconds) three times: instance 1 directly, instance 1 through nginx, both
#      instances through nginx;
#   5. the checks, and the summary.
#
# Environment (all optional):
#   TEST_DATABASE_URL   PostgreSQL server    (postgres://postgres@127.0.0.1:5432/test)
#   BENCH_DURATION      seconds per run      (20)
#   BENCH_BUYERS        concurrent buyers    (64)
#   BENCH_RAFFLES       raffles in turn      (8)
#   BENCH_NGINX_WORKERS nginx worker processes (1)
#   RIFA_WORKERS        HTTP workers per instance (2)
#   RIFA_DB_MAX_CONNECTIONS pool per instance (16)
#   BENCH_KEEP_DB=1     keep the database
#   BENCH_SKIP_BUILD=1  use the binaries already built
#   BENCH_OUT           logs and results     (a new /tmp/rifa-instances.* directory)
set -euo pipefail

cd "$(dirname "$0")/.."
BENCH_NAME=instances
. bench/lib.sh

DURATION=${BENCH_DURATION:-20}
BUYERS=${BENCH_BUYERS:-64}
RAFFLES=${BENCH_RAFFLES:-8}
need_tools psql jq curl top nginx python3
. scripts/lib.sh
rifa_use_node

DB=rifa_instances_$$
DB_URL=$(with_database "$SERVER_URL" "$DB")
API1_PID="" API2_PID="" NGINX_PID="" LISTENERS=()
cleanup() {
    local status=$?
    # Best effort from here on: a process already gone must not stop the rest of the cleanup.
    set +e
    [[ -n $TOP_PID ]] && kill "$TOP_PID" 2>/dev/null
    for pid in "${LISTENERS[@]}"; do kill "$pid" 2>/dev/null; done
    [[ -n $NGINX_PID ]] && { kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; }
    stop_api "$API1_PID"
    stop_api "$API2_PID"
    if [[ ${BENCH_KEEP_DB:-0} != 1 ]]; then
        psql -q "$SERVER_URL" -c "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    fi
    exit "$status"
}
trap cleanup EXIT INT TERM

build_release_binaries

psql -q "$SERVER_URL" -c "CREATE DATABASE \"$DB\"" || die "cannot create a database on $SERVER_URL"
# Both instances share the database and the token secret (an admin signed in on one is
# signed in on the other); each has its own data directory otherwise.
SECRET=$(head -c 48 /dev/urandom | base64 | tr -d '/+=\n')
start_api "$DB_URL" instance1 RIFA_TRUST_PROXY=true RIFA_JWT_SECRET="$SECRET" RIFA_HOLD_SWEEP_SECONDS=1
API1_PID=$API_PID API1_URL=$API_URL
start_api "$DB_URL" instance2 RIFA_TRUST_PROXY=true RIFA_JWT_SECRET="$SECRET" RIFA_HOLD_SWEEP_SECONDS=1
API2_PID=$API_PID API2_URL=$API_URL
API_PID=""

# A free port for nginx: the kernel picks one, nginx takes it a moment later.
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$OUT/nginx"
cat >"$OUT/nginx/nginx.conf" <<EOF
# Written by bench/instances.sh: both rifa-api instances behind one local nginx.
worker_processes ${BENCH_NGINX_WORKERS:-1};
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $OUT/nginx/body;
    proxy_temp_path $OUT/nginx/proxy;
    fastcgi_temp_path $OUT/nginx/fastcgi;
    uwsgi_temp_path $OUT/nginx/uwsgi;
    scgi_temp_path $OUT/nginx/scgi;
    client_max_body_size 2m;
    upstream both { server ${API1_URL#http://}; server ${API2_URL#http://}; keepalive 128; }
    upstream one { server ${API1_URL#http://}; keepalive 128; }
    map \$http_upgrade \$connection_upgrade { default upgrade; '' ''; }
    server {
        listen 127.0.0.1:$PORT;
        location /one/ {
            proxy_pass http://one/;
            proxy_http_version 1.1;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        }
        location / {
            proxy_pass http://both;
            proxy_http_version 1.1;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        }
    }
}
EOF
nginx -p "$OUT/nginx" -c "$OUT/nginx/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
for _ in $(seq 1 50); do
    curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$PORT/one/readyz" >/dev/null || die "nginx does not answer on port $PORT"
PROXY_URL=http://127.0.0.1:$PORT

OUT_ADMIN=instance1
create_bench_admin "$DB_URL" "$OUT_ADMIN"
API_URL=$API1_URL
RIFA_BENCH_TOKEN=$(admin_token)
export RIFA_BENCH_TOKEN
# One payment method for every run, made before any instance caches the list of methods.
METHOD=$(curl -fsS "$API1_URL/api/admin/payment-methods" -H "Authorization: Bearer $RIFA_BENCH_TOKEN" \
    -H 'Content-Type: application/json' \
    -d '{"name": "Bench Pay", "type": "digital", "details": {"email": "pagos@example.com"}}' | jq -r .id)
[[ $METHOD =~ ^[0-9]+$ ]] || die "could not create a payment method"

FAILED=0
# Arguments: the label and the base URL the buyers use.
run() {
    local label=$1 url=$2
    say "$label: $BUYERS buyers for up to $DURATION s through $url"
    settle
    local before; before=$(load_average)
    start_top "$label"
    RIFA_BENCH_URL=$url "$BENCH_BIN" purchases --buyers "$BUYERS" --raffles "$RAFFLES" \
        --duration "$DURATION" --settle-ms 1100 --method-id "$METHOD" | tee "$OUT/purchases-$label.txt" || FAILED=1
    local cpu; cpu=$(stop_top "$label")
    tail -n1 "$OUT/purchases-$label.txt" | jq -c --argjson cpu "$cpu" --arg before "$before" \
        --arg after "$(load_average)" --arg run "$label" \
        '{"label": $run, purchases_per_s, requests_per_s, purchases, conflicts, other_status,
          transport_errors, integrity_ok, latency, raffles_sold_out, cpu_pct: $cpu,
          load: [$before, $after]}' >>"$OUT/runs.jsonl"
    # The bench names its measured raffles "Rifa de rifa-bench <turn>": rename this run's so
    # the checks can tell the runs apart.
    psql -q "$DB_URL" -c "UPDATE raffles SET title = '$label: ' || title WHERE title LIKE 'Rifa de rifa-bench %'" >/dev/null
}

# An admin listening on each instance directly: instance 1 hears instance 2's purchases only
# through PostgreSQL's NOTIFY, and the other way round.
listen() {
    node bench/live-listener.mjs "$1" "$OUT/heard-$2.json" >"$OUT/listener-$2.log" 2>&1 &
    LISTENERS+=("$!")
    for _ in $(seq 1 50); do
        grep -q listening "$OUT/listener-$2.log" 2>/dev/null && return 0
        sleep 0.1
    done
    die "the live connection to $1 did not authenticate: $(cat "$OUT/listener-$2.log")"
}

run one-direct "$API1_URL"
run one-via-nginx "$PROXY_URL/one"
listen "$API1_URL" instance1
listen "$API2_URL" instance2
run two-via-nginx "$PROXY_URL"
sleep 1 # the last batch of notices (50 ms) reaches both listeners
kill "${LISTENERS[@]}"
wait "${LISTENERS[@]}" 2>/dev/null || true
LISTENERS=()

# The two-instance run's holds all fall due at once; both instances' sweepers (every second)
# race for them. The database decides: each must expire once, with one history entry and one
# e-mail. How long the two take to expire them all is the sweep's rate.
say "holds falling due under two sweepers"
DUE=$(psql -Atq "$DB_URL" -c "WITH due AS (UPDATE purchases SET hold_expires_at = now() - interval '1 second'
    WHERE status = 'pending' AND hold_expires_at IS NOT NULL AND raffle_id IN
        (SELECT id FROM raffles WHERE title LIKE 'two-via-nginx: %') RETURNING 1) SELECT count(*) FROM due")
SWEEP_START=$(date +%s.%N)
for _ in $(seq 1 600); do
    left=$(psql -Atq "$DB_URL" -c "SELECT count(*) FROM purchases WHERE status = 'pending' AND hold_expires_at < now()")
    [[ $left == 0 ]] && break
    sleep 0.5
done
SWEEP_SECONDS=$(python3 -c "import time; print(round(time.time() - $SWEEP_START, 1))")

say "checks"
CHECKS=$(psql -Atq "$DB_URL" -c "SELECT json_build_object(
    'numbers_held_twice', (SELECT count(*) FROM (SELECT raffle_id, number FROM purchase_tickets
        WHERE held GROUP BY raffle_id, number HAVING count(*) > 1) d),
    'purchases_with_wrong_holds', (SELECT count(*) FROM purchases p WHERE p.status IN ('pending', 'approved')
        AND p.ticket_count <> (SELECT count(*) FROM purchase_tickets t WHERE t.purchase_id = p.id AND t.held)),
    'purchases_per_run', (SELECT json_object_agg(run, n) FROM (SELECT split_part(r.title, ':', 1) AS run, count(*) AS n
        FROM purchases p JOIN raffles r ON r.id = p.raffle_id WHERE r.title LIKE '%: Rifa de rifa-bench %'
        GROUP BY 1) s),
    'holds_due', $DUE,
    'sweep_seconds', $SWEEP_SECONDS,
    'holds_left_due', (SELECT count(*) FROM purchases WHERE status = 'pending' AND hold_expires_at < now()),
    'expired', (SELECT count(*) FROM purchases WHERE status = 'expired'),
    'expired_twice', (SELECT count(*) FROM (SELECT purchase_id FROM purchase_events WHERE kind = 'expired'
        GROUP BY purchase_id HAVING count(*) > 1) e),
    'expiry_mails_twice', (SELECT count(*) FROM (SELECT purchase_id FROM mail_outbox WHERE kind = 'expired'
        GROUP BY purchase_id HAVING count(*) > 1) m),
    'expiry_mails', (SELECT count(*) FROM mail_outbox WHERE kind = 'expired'),
    'two_instance_purchases', (SELECT json_agg(p.id) FROM purchases p JOIN raffles r ON r.id = p.raffle_id
        WHERE r.title LIKE 'two-via-nginx: %'))")
# Each listener against the two-instance run's purchases: how many it heard, and missed.
CHECKS=$(jq -c --slurpfile one "$OUT/heard-instance1.json" --slurpfile two "$OUT/heard-instance2.json" '
    def heard($h): (.two_instance_purchases // []) as $all | ($h.purchase_ids | unique) as $ids
        | {authenticated: $h.authenticated, heard: ([$all[] | select(. as $id | $ids | index($id))] | length),
           missed: ([$all[] | select(. as $id | $ids | index($id) | not)] | length)};
    . + {live: {instance1: heard($one[0]), instance2: heard($two[0])}} | del(.two_instance_purchases)' <<<"$CHECKS")
echo "$CHECKS" | tee "$OUT/checks.json"

jq -s --argjson checks "$CHECKS" '{runs: ., checks: $checks}' "$OUT/runs.jsonl" >"$OUT/summary.json"
jq -r --arg out "$OUT" '
    def r1: . * 10 | round / 10;
    "",
    "================ Rifa: two instances behind nginx ================",
    (.runs[] | "\(.label | . + " " * (16 - length)) \(.purchases_per_s | r1) purchases/s, p50 \(.latency.p50_ms) / p99 \(.latency.p99_ms) ms, \(.purchases) × 201 (database: \($checks.purchases_per_run[.label] // 0)), \(.conflicts) × 409, \(.other_status) other, \(.transport_errors) transport errors; CPU API \(.cpu_pct.rifa_api)%, PostgreSQL \(.cpu_pct.postgres)%, nginx \(.cpu_pct.nginx)%, rifa-bench \(.cpu_pct.rifa_bench)%; load \(.load[0]) → \(.load[1])"),
    "numbers held twice: \(.checks.numbers_held_twice); purchases whose held rows differ from their count: \(.checks.purchases_with_wrong_holds)",
    "live notices of the two-instance run: admin on instance 1 heard \(.checks.live.instance1.heard), missed \(.checks.live.instance1.missed); on instance 2 heard \(.checks.live.instance2.heard), missed \(.checks.live.instance2.missed)",
    "holds fallen due under two sweepers: \(.checks.holds_due) due, \(.checks.expired) expired in \(.checks.sweep_seconds) s, \(.checks.holds_left_due) left due; expired twice: \(.checks.expired_twice); \(.checks.expiry_mails) expiry e-mails, queued twice: \(.checks.expiry_mails_twice)",
    "Logs and JSON: \($out)"' --argjson checks "$CHECKS" "$OUT/summary.json"
jq -e --argjson checks "$CHECKS" \
    '(.runs | length) == 3 and $checks.numbers_held_twice == 0 and $checks.purchases_with_wrong_holds == 0
     and $checks.live.instance1.missed == 0 and $checks.live.instance2.missed == 0
     and $checks.holds_left_due == 0 and $checks.expired_twice == 0 and $checks.expiry_mails_twice == 0
     and all(.runs[]; .purchases == ($checks.purchases_per_run[.label] // 0))' "$OUT/summary.json" >/dev/null \
    || { echo "bench: the checks FAILED" >&2; FAILED=1; }
exit "$FAILED"
