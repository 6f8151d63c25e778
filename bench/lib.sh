# Shared by bench/run.sh, scale.sh, fill.sh, instances.sh and picker.sh. Source it after `cd` to
# the checkout's root, with BENCH_NAME set (it names the results directory). It sets
#
#   CARGO_TARGET_DIR  this checkout's build directory (scripts/lib.sh), exported
#   SERVER_URL        the PostgreSQL server databases are created on (TEST_DATABASE_URL)
#   OUT               logs and results (BENCH_OUT, or a new /tmp/rifa-$BENCH_NAME.* directory)
#
# and defines the helpers below. start_api needs API_BIN; every API it starts gets
# RIFA_WORKERS and RIFA_DB_MAX_CONNECTIONS.

. scripts/lib.sh
CARGO_TARGET_DIR=$(rifa_target_dir)
export CARGO_TARGET_DIR
SERVER_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
OUT=${BENCH_OUT:-$(mktemp -d "/tmp/rifa-$BENCH_NAME.XXXXXX")}
mkdir -p "$OUT"

say() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# The Debian package of each tool a benchmark calls.
declare -A TOOL_PACKAGES=(
    [psql]=postgresql-client [pgbench]=postgresql-client [jq]=jq [curl]=curl [top]=procps
    [wrk]=wrk [sqlite3]=sqlite3 [nginx]=nginx-light [chromium]=chromium
)

# Installs the missing ones from Debian, saying what and why first (as root or through sudo).
need_tools() {
    local tool missing=()
    for tool in "$@"; do
        command -v "$tool" >/dev/null || missing+=("${TOOL_PACKAGES[$tool]:?no package known for $tool}")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    local sudo=""
    [[ $(id -u) == 0 ]] || sudo=sudo
    say "the benchmark needs ${missing[*]}: ${sudo:+sudo }apt-get install -y ${missing[*]}"
    $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
        || die "could not install ${missing[*]}"
}

# rifa-api and rifa-bench in release (unless BENCH_SKIP_BUILD=1); sets API_BIN and BENCH_BIN.
build_release_binaries() {
    if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
        say "building rifa-api and rifa-bench in release (CARGO_TARGET_DIR=$CARGO_TARGET_DIR)"
        cargo build --release -p rifa-api -p rifa-bench
    fi
    API_BIN=$CARGO_TARGET_DIR/release/rifa-api
    BENCH_BIN=$CARGO_TARGET_DIR/release/rifa-bench
    [[ -x $API_BIN && -x $BENCH_BIN ]] || die "release binaries missing in $CARGO_TARGET_DIR/release"
}

# postgres://u@h:p/db?x=y  →  postgres://u@h:p/<name>?x=y
with_database() {
    local url=$1 name=$2 query=""
    if [[ $url == *\?* ]]; then query="?${url#*\?}"; url=${url%%\?*}; fi
    printf '%s/%s%s' "${url%/*}" "$name" "$query"
}

# The machine's load, for the record: other engineers' builds share these cores.
load_average() { uptime | sed 's/.*load average: //'; }

# Starts rifa-api on a database and waits until it listens (its migrations have run by then).
# Arguments: the database URL, a name for its data directory and log, then any extra
# VAR=value settings. Sets API_PID and API_URL.
#
# Rate limits are lifted: one address (this machine) stands for thousands of visitors here.
start_api() {
    local db_url=$1 name=$2
    shift 2
    local log=$OUT/api-$name.log
    mkdir -p "$OUT/data-$name"
    # A restart appends to the same log: only lines after this start count.
    local skip=0 line=""
    [[ -f $log ]] && skip=$(wc -l <"$log")
    env RIFA_DATA_DIR="$OUT/data-$name" DATABASE_URL="$db_url" RIFA_DEMO_DATA=false \
        RIFA_BOOTSTRAP_ADMIN=false RIFA_PURCHASES_PER_MINUTE=100000000 \
        RIFA_LOOKUPS_PER_MINUTE=100000000 RIFA_BIND=127.0.0.1:0 \
        RIFA_WORKERS="${RIFA_WORKERS:-2}" RIFA_DB_MAX_CONNECTIONS="${RIFA_DB_MAX_CONNECTIONS:-16}" \
        RIFA_MAIL_DELIVERY=false RIFA_LOG_FORMAT=json "$@" "$API_BIN" serve >>"$log" 2>&1 &
    API_PID=$!
    for _ in $(seq 1 600); do
        line=$(tail -n +"$((skip + 1))" "$log" | grep -o 'listening on http://[0-9.:]*' | head -n1 || true)
        [[ -n $line ]] && break
        kill -0 "$API_PID" 2>/dev/null || { tail -n 20 "$log" >&2; die "rifa-api exited"; }
        sleep 0.1
    done
    [[ -n $line ]] || { tail -n 20 "$log" >&2; die "rifa-api did not start"; }
    API_URL=${line#listening on }
    for _ in $(seq 1 100); do
        curl -fsS "$API_URL/readyz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    die "rifa-api on $API_URL is not ready"
}

API_PID=""
API_URL=""
stop_api() {
    local pid=${1:-$API_PID}
    [[ -n $pid ]] || return 0
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    [[ $pid == "$API_PID" ]] && API_PID=""
    return 0
}

# An administrator for this run, made with `rifa-api create-admin` (works on a fresh database
# the API has migrated and on one kept from an earlier run alike). Arguments: the database URL
# and the data directory's name. Sets ADMIN_USERNAME and ADMIN_PASSWORD.
create_bench_admin() {
    local db_url=$1 name=$2
    ADMIN_USERNAME="bench$$x$RANDOM"
    ADMIN_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
    printf '%s' "$ADMIN_PASSWORD" | env RIFA_DATA_DIR="$OUT/data-$name" DATABASE_URL="$db_url" \
        RIFA_LOG_FORMAT=json "$API_BIN" create-admin --username "$ADMIN_USERNAME" --privileged \
        >>"$OUT/api-$name.log" 2>&1 || { tail -n 5 "$OUT/api-$name.log" >&2; die "create-admin failed"; }
}

# A bearer token for the admin create_bench_admin made.
admin_token() {
    local url=${1:-$API_URL} token
    token=$(curl -fsS "$url/api/admin/login" -H 'Content-Type: application/json' \
        -d "$(jq -n --arg u "${ADMIN_USERNAME:-admin}" --arg p "$ADMIN_PASSWORD" \
            '{username: $u, password: $p}')" | jq -r .token)
    [[ -n $token && $token != null ]] || die "admin login failed on $url"
    printf '%s' "$token"
}

# Each load phase starts from the same state: the previous phase's dirty pages written out.
settle() {
    psql -q "$SERVER_URL" -c "CHECKPOINT" >/dev/null || die "CHECKPOINT failed (needs a superuser)"
    sleep 2
}

# Waits (up to two minutes) until the API has worked off what the last phase left queued: wrk
# gives up on a request after its timeout, but the API still answers it, and on SQLite a
# backlog of slow reads outlives the phase by far. Idle: under 10% of a core over one second,
# and (with a database name) no query of that database running.
wait_idle() {
    local pid=${1:-$API_PID} db=${2:-} before after busy
    for _ in $(seq 1 120); do
        before=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
        sleep 1
        after=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
        busy=0
        [[ -n $db ]] && busy=$(psql -Atq "$SERVER_URL" -c "SELECT count(*) FROM pg_stat_activity
            WHERE datname = '$db' AND state = 'active' AND pid <> pg_backend_pid()")
        (( after - before < 10 && busy == 0 )) && return 0
    done
    printf 'bench: the API was still busy two minutes after the phase\n' >&2
}

# CPU sampling: `top` once a second while a phase runs.
TOP_PID=""
start_top() {
    top -b -w 512 -d 1 >"$OUT/top-$1.txt" 2>/dev/null &
    TOP_PID=$!
}

# Prints {"samples", "idle_pct", "rifa_api", "postgres", "rifa_bench", "wrk", "nginx", "other"}:
# %CPU summed per program (100 = one core), averaged over the samples.
stop_top() {
    kill "$TOP_PID" 2>/dev/null || true
    wait "$TOP_PID" 2>/dev/null || true
    TOP_PID=""
    awk '
        /^top -/ { samples++; next }
        samples < 2 { next }
        /^%Cpu/ { for (i = 1; i <= NF; i++) if ($i ~ /^id,?$/) { idle += $(i - 1) } next }
        $1 ~ /^[0-9]+$/ && NF >= 12 {
            cmd = $12; cpu = $9
            if (cmd == "rifa-api" || cmd ~ /^actix/) g = "rifa_api"
            else if (cmd == "postgres") g = "postgres"
            else if (cmd == "rifa-bench" || cmd ~ /^tokio/) g = "rifa_bench"
            else if (cmd == "wrk") g = "wrk"
            else if (cmd == "nginx") g = "nginx"
            else if (cmd == "pgbench") g = "pgbench"
            else g = "other"
            sum[g] += cpu
        }
        END {
            n = samples - 1; if (n < 1) n = 1
            printf "{\"samples\":%d,\"idle_pct\":%.0f", n, idle / n
            split("rifa_api postgres rifa_bench wrk nginx pgbench other", gs, " ")
            for (i = 1; i <= 7; i++) printf ",\"%s\":%.0f", gs[i], sum[gs[i]] / n
            printf "}\n"
        }' "$OUT/top-$1.txt"
}

# Runs wrk against one URL and prints one JSON line (bench/wrk/report.lua):
# {"requests", "duration_s", "requests_per_s", "p50_ms", "p90_ms", "p99_ms", "max_ms",
#  "non_2xx", "errors"}. Arguments: URL, connections, seconds, label (for the log).
run_wrk() {
    local url=$1 connections=$2 seconds=$3 label=$4
    wrk -t "${BENCH_WRK_THREADS:-2}" -c "$connections" -d "${seconds}s" --timeout 10s \
        -s bench/wrk/report.lua "$url" >"$OUT/wrk-$label.txt" 2>&1 || true
    local json
    json=$(grep '^{"wrk"' "$OUT/wrk-$label.txt" | tail -n1 | sed 's/^{"wrk":true,/{/')
    [[ -n $json ]] || { cat "$OUT/wrk-$label.txt" >&2; die "wrk printed no result"; }
    printf '%s\n' "$json"
}
