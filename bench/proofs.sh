#!/usr/bin/env bash
# The proof checks on the proof corpus (issue 16; `make bench-proofs` calls this): builds
# rifa-bench in release and runs `rifa-bench proofs` in process (no API, no database) with the
# readers the API uses (Debian's Tesseract and poppler, installed by `make test-tools`): fields
# read, pairs taken for the same picture or a reuse (precision, recall), time per stage.
#
# Environment (all optional):
#   CARGO_TARGET_DIR    build directory     (this checkout's, scripts/lib.sh)
#   BENCH_PROFILE       cargo profile       (release)
#   BENCH_SKIP_BUILD=1  use the binary already built
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/lib.sh
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$(rifa_target_dir)}
PROFILE=${BENCH_PROFILE:-release}
PROFILE_DIR=$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    cargo build --profile "$PROFILE" -p rifa-bench
fi
echo "load before: $(uptime | sed 's/.*load average: //')" >&2
"$CARGO_TARGET_DIR/$PROFILE_DIR/rifa-bench" proofs --corpus crates/adapters/proofs/tests/corpus
echo "load after: $(uptime | sed 's/.*load average: //')" >&2
