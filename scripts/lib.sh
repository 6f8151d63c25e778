# Shared by the Makefile, scripts/*.sh, bench/*.sh and .ci/run: where builds go, which Node runs
# the site, and the site's build. Source it; it only defines functions.

# The Rust build directory of this checkout: CARGO_TARGET_DIR when set, else a directory of its
# own under ~/.cache/rifa named by a hash of the checkout's path. Outside the clone (a fresh clone
# of the same path reuses it), but never shared by two clones: two builds of different sources
# in one target directory overwrite each other's artefacts (a doc-test then failed with "can't
# find crate"). frontend/tests/e2e/global-setup.ts computes the same name.
rifa_target_dir() {
  if [[ -n "${CARGO_TARGET_DIR:-}" ]]; then
    printf '%s\n' "$CARGO_TARGET_DIR"
    return
  fi
  local root hash
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
  hash="$(printf '%s' "$root" | sha256sum | cut -c1-12)"
  printf '%s\n' "${HOME}/.cache/rifa/target-${hash}"
}

# The site wants Node 22 (.nvmrc; @axe-core/playwright needs >= 22.12). When the machine's node is
# older or missing, Node 22 comes from the npm registry (the official `node-linux-<arch>` binary
# package, integrity-checked by npm) into ~/.cache/rifa/node22 and goes first in PATH.
RIFA_NODE_MIN="22.12.0"

rifa_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e '
    const want = process.argv[1].split(".").map(Number);
    const have = process.versions.node.split(".").map(Number);
    const cmp = have[0] - want[0] || have[1] - want[1] || have[2] - want[2];
    process.exit(have[0] >= 22 && cmp >= 0 ? 0 : 1);
  ' "$RIFA_NODE_MIN"
}

rifa_use_node() {
  rifa_node_ok && return 0
  local dir="${RIFA_NODE_DIR:-$HOME/.cache/rifa/node22}"
  export PATH="$dir/bin:$PATH"
  hash -r
  rifa_node_ok && return 0
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "Node >= $RIFA_NODE_MIN is needed; install Node 22 (see .nvmrc)" >&2; return 1 ;;
  esac
  command -v npm >/dev/null 2>&1 || { echo "Node >= $RIFA_NODE_MIN and npm are needed" >&2; return 1; }
  # The lock file lives beside the install; its directory must exist before the redirection
  # below opens it (on a fresh machine ~/.cache/rifa does not).
  mkdir -p "$(dirname "$dir")"
  (
    # Two checkouts may get here at once: one installs, the other waits for it.
    flock 9
    [[ -x "$dir/bin/node" ]] && exit 0
    echo "node $(node --version 2>/dev/null || echo missing) is older than $RIFA_NODE_MIN: installing Node 22 from the npm registry into $dir" >&2
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && npm pack --silent "node-linux-$arch@22" >/dev/null && tar xzf node-linux-*.tgz) || {
      echo "could not fetch node-linux-$arch@22 from the npm registry" >&2
      exit 1
    }
    mv "$tmp/package" "$dir"
  ) 9>"$dir.lock" || return 1
  hash -r
  rifa_node_ok || { echo "the Node in $dir does not run here" >&2; return 1; }
}

# The site's production build (`next build`), only when its sources are newer than the last one.
# Run from the checkout's root with Node 22 in PATH (rifa_use_node); quiet unless it fails.
rifa_build_site() {
  if [[ -f frontend/.next/BUILD_ID ]] && [[ -z "$(find frontend/src frontend/messages frontend/public \
    frontend/next.config.ts frontend/package-lock.json -newer frontend/.next/BUILD_ID -print -quit)" ]]; then
    return 0
  fi
  echo "Building the site (next build)..."
  local log
  log="$(mktemp)"
  (cd frontend && node_modules/.bin/next build >"$log" 2>&1) || {
    cat "$log" >&2
    rm -f "$log"
    return 1
  }
  rm -f "$log"
}

# Installs Debian packages, saying first who wants them, which and why: as root, or through sudo
# (which may ask for a password). Arguments: who (`make run`, `test-tools`…), why (one line),
# then the packages; none is a no-op. Fails, saying what to install by hand, where there is no
# apt-get or the install fails. Shared by `make run` and `make test-tools`.
rifa_apt_install() {
  local who=$1 why=$2
  shift 2
  (($#)) || return 0
  echo "$who: $why;" >&2
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$who: no apt-get here: install $* (Debian's names) yourself" >&2
    return 1
  fi
  local sudo=""
  if [[ "$(id -u)" != 0 ]]; then
    sudo=sudo
    echo "$who: not root, so through sudo (it may ask for your password; Ctrl-C to install them yourself)" >&2
  fi
  echo "$who: installing Debian's $*: ${sudo:+sudo }apt-get update && ${sudo:+sudo }apt-get install -y --no-install-recommends $*" >&2
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null || {
    echo "$who: could not install $*" >&2
    return 1
  }
}

# The Debian packages of the proof readers (decision 0021) whose programs are missing here:
# poppler's pdftotext and pdftoppm (a PDF's text, or its page as a picture), Tesseract and its
# Spanish model (a picture's text). The API finds them at start; without them the panel says
# proofs are not read.
rifa_missing_proof_readers() {
  { command -v pdftotext && command -v pdftoppm; } >/dev/null 2>&1 || echo poppler-utils
  command -v tesseract >/dev/null 2>&1 || echo tesseract-ocr
  tesseract --list-langs 2>/dev/null | grep -qx spa || echo tesseract-ocr-spa
}
