#!/usr/bin/env bash
# `make run`: the API and the site together. Builds the frontend when needed, starts the API
# (SQLite under ./data, demo data, the admin login printed once), waits for it, then starts Next
# on 127.0.0.1:3000, which serves the site and forwards /api, /ws and /uploads to the API.
# Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/rifa/target}"
export NEXT_TELEMETRY_DISABLED=1
API_BIND="${RIFA_BIND:-127.0.0.1:8080}"
WEB_HOST="${WEB_HOST:-127.0.0.1}"
WEB_PORT="${WEB_PORT:-3000}"
export RIFA_API_ORIGIN="${RIFA_API_ORIGIN:-http://$API_BIND}"

if [[ ! -d frontend/node_modules ]]; then
  echo "Installing the frontend's packages..."
  make frontend-install
fi
# Rebuild the site when a source file is newer than the last build, or the build was made for
# another API address (Next writes the /api rewrites into the build).
STAMP=frontend/.next/rifa-api-origin
if [[ ! -f frontend/.next/BUILD_ID ]] || [[ "$(cat "$STAMP" 2>/dev/null)" != "$RIFA_API_ORIGIN" ]] \
  || [[ -n "$(find frontend/src frontend/messages frontend/public frontend/next.config.ts frontend/package-lock.json -newer frontend/.next/BUILD_ID -print -quit)" ]]; then
  echo "Building the site (next build)..."
  (cd frontend && node_modules/.bin/next build)
  printf "%s" "$RIFA_API_ORIGIN" > "$STAMP"
fi

cargo build -p rifa-api
"$CARGO_TARGET_DIR/debug/rifa-api" serve &
API_PID=$!
WEB_PID=""
stop() {
  trap - INT TERM EXIT
  [[ -n "$WEB_PID" ]] && kill "$WEB_PID" 2>/dev/null || true
  kill "$API_PID" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

for _ in $(seq 1 120); do
  if curl -fsS "http://$API_BIND/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$API_PID" 2>/dev/null; then echo "The API exited; see its log above." >&2; exit 1; fi
  sleep 0.5
done

(cd frontend && exec node_modules/.bin/next start --hostname "$WEB_HOST" --port "$WEB_PORT") &
WEB_PID=$!

cat <<MSG

  Rifa is running:
    site  http://$WEB_HOST:$WEB_PORT   (the API is reached through it under /api)
    API   http://$API_BIND   (docs: http://$API_BIND/api/docs)
  Ctrl-C stops both.

MSG
wait -n "$API_PID" "$WEB_PID"
