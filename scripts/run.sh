#!/usr/bin/env bash
# `make run`: the API and the site together. Installs the proof readers when missing (Tesseract
# with its Spanish model and poppler, through apt, saying so first), builds the API binary and
# (when its sources changed) the site at the same time, starts the API (SQLite under ./data, demo
# data, the first admin's login on the terminal and in ./data/first-admin-password until it
# signs in), waits until it answers, then starts the site on 127.0.0.1:3000, which serves the
# pages and forwards /api, /ws and /uploads to the API with the visitor's address (the API
# trusts exactly that one hop). Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib.sh

CARGO_TARGET_DIR="$(rifa_target_dir)"
export CARGO_TARGET_DIR
export NEXT_TELEMETRY_DISABLED=1
export RIFA_BIND="${RIFA_BIND:-127.0.0.1:8080}"
export WEB_HOST="${WEB_HOST:-127.0.0.1}"
export WEB_PORT="${WEB_PORT:-3000}"
export RIFA_API_ORIGIN="${RIFA_API_ORIGIN:-http://$RIFA_BIND}"
# The site is the API's one proxy: the API takes the visitor's address from the last
# X-Forwarded-For hop, which the site appends (frontend/server.mjs).
export RIFA_TRUST_PROXY="${RIFA_TRUST_PROXY:-true}"
HEALTH_TIMEOUT="${RIFA_HEALTH_TIMEOUT:-120}"

die() { printf '\n  make run: %s\n\n' "$*" >&2; exit 1; }

port_answers() { (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }
port_answers "$RIFA_BIND" && die "something already listens on $RIFA_BIND (another \`make run\`?). Stop it, or choose another address: RIFA_BIND=127.0.0.1:8081 make run"
port_answers "$WEB_HOST:$WEB_PORT" && die "something already listens on $WEB_HOST:$WEB_PORT. Stop it, or choose another port: WEB_PORT=3001 make run"

# The panel reads each proof's amount and reference with these programs; without them every proof
# is amber "not read". RIFA_OCR=off is the operator saying they want none.
if [[ "${RIFA_OCR:-}" != off ]]; then
  rifa_apt_install "make run" "the panel reads payment proofs (PDFs with poppler, pictures with Tesseract's Spanish model)" \
    $(rifa_missing_proof_readers) \
    || echo "make run: going on without them: the panel will say proofs are not read" >&2
fi

rifa_use_node
if [[ ! -d frontend/node_modules ]] || [[ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]]; then
  echo "Installing the site's packages..."
  (cd frontend && npm install --no-audit --no-fund)
fi

# The two builds run side by side: the site's build is mostly single-threaded JavaScript, cargo
# takes the other cores. Only what runs is built: the API binary, not the tests or the bench.
rifa_build_site &
SITE_BUILD=$!
echo "Building the API (cargo build -p rifa-api --bin rifa-api)..."
cargo build --quiet -p rifa-api --bin rifa-api || { kill "$SITE_BUILD" 2>/dev/null; die "the API did not build (see above)"; }
wait "$SITE_BUILD" || die "the site did not build (see above)"

API_PID=""
WEB_PID=""
stop() {
  trap - INT TERM EXIT
  [[ -n "$WEB_PID" ]] && kill "$WEB_PID" 2>/dev/null || true
  [[ -n "$API_PID" ]] && kill "$API_PID" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

"$CARGO_TARGET_DIR/debug/rifa-api" serve &
API_PID=$!

# The site starts only once the API answers; otherwise say why it does not.
deadline=$((SECONDS + HEALTH_TIMEOUT))
until curl -fsS -o /dev/null --max-time 2 "http://$RIFA_BIND/healthz" 2>/dev/null; do
  if ! kill -0 "$API_PID" 2>/dev/null; then
    wait "$API_PID" && status=0 || status=$?
    API_PID=""
    die "the API exited (status $status) before answering on http://$RIFA_BIND/healthz; its messages are above (a port in use says \"failed to bind\")."
  fi
  ((SECONDS < deadline)) || die "the API did not answer on http://$RIFA_BIND/healthz within ${HEALTH_TIMEOUT} s (RIFA_HEALTH_TIMEOUT raises the wait)."
  sleep 0.5
done

(cd frontend && exec node server.mjs) &
WEB_PID=$!

cat <<MSG

  Rifa is running:
    site  http://$WEB_HOST:$WEB_PORT   (the API is reached through it under /api)
    API   http://$RIFA_BIND   (docs: http://$RIFA_BIND/api/docs)
  Ctrl-C stops both.

MSG
wait -n "$API_PID" "$WEB_PID"
