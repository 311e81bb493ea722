#!/usr/bin/env bash
# Installs what Dicebound needs, skipping whatever is already there (a few seconds when all is present).
#
#   scripts/setup.sh         the build tools (wasm32 target, cargo-leptos, trunk, wasm-bindgen, wasm-opt)
#                            and the bundled local model (scripts/setup-llm.sh: llama-server, SmolLM2)
#   scripts/setup.sh test    the same, plus Chromium, the Playwright packages and PostgreSQL
#
# Tools go to $DICEBOUND_TOOLS (default ~/.cache/dicebound/tools); versions are pinned here, in
# setup-llm.sh and in Cargo.lock / package-lock.json. Needs: rustup + cargo, node + npm, python3
# with pip, apt-get (for cmake and Chromium).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

CARGO_LEPTOS_VERSION=0.3.10
# The client-side-rendered build (Trunk.toml); 0.21 is the last line for our Rust (0.22 needs 1.96).
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock.
WASM_BINDGEN_VERSION=$(grep -A1 '^name = "wasm-bindgen"$' "$ROOT/Cargo.lock" | sed -n 's/^version = "\(.*\)"$/\1/p')
WANT_TEST=${1:-}

SAY_PREFIX=setup
source "$ROOT/scripts/install-helpers.sh"

mkdir -p "$DICEBOUND_TOOLS/bin"

command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup first" >&2; exit 1; }
command -v npm >/dev/null || apt_install nodejs npm

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The release wasm builds its own standard library, smaller (scripts/build-site.sh).
if ! rustup component list --installed | grep -qx rust-src; then
  say "adding the rust-src component"
  rustup component add rust-src
fi

if [ "$(cargo-leptos --version 2>/dev/null)" != "cargo-leptos $CARGO_LEPTOS_VERSION" ]; then
  say "installing cargo-leptos $CARGO_LEPTOS_VERSION (takes ~18 min on 2 cores, once)"
  cargo install --root "$DICEBOUND_TOOLS" cargo-leptos --version "$CARGO_LEPTOS_VERSION" \
    --locked --features no_downloads
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lock file pins a crate version the registry no longer serves.
  cargo install --root "$DICEBOUND_TOOLS" wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  say "installing wasm-opt (npm binaryen@$BINARYEN_VERSION)"
  mkdir -p "$DICEBOUND_TOOLS/wasm-opt"
  cp "$ROOT/scripts/wasm-opt/package.json" "$ROOT/scripts/wasm-opt/package-lock.json" "$DICEBOUND_TOOLS/wasm-opt/"
  (cd "$DICEBOUND_TOOLS/wasm-opt" && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (takes ~15 min on 2 cores, once)"
  cargo install --root "$DICEBOUND_TOOLS" trunk --version "$TRUNK_VERSION" --locked \
    --no-default-features --features rustls
fi

"$ROOT/scripts/setup-llm.sh"

if [ "$WANT_TEST" = "test" ]; then
  if [ ! -x /usr/bin/chromium ]; then
    apt_install chromium
  fi
  # The store's tests run on a throwaway PostgreSQL cluster too (scripts/postgres.sh).
  if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    apt_install postgresql
  fi
  lock="$ROOT/end2end/package-lock.json"
  installed="$ROOT/end2end/node_modules/.package-lock.json"
  if [ ! -f "$installed" ] || [ "$lock" -nt "$installed" ]; then
    say "installing the Playwright packages (browser download skipped: Debian's Chromium is used)"
    (cd "$ROOT/end2end" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  fi
fi

say "ready: $(cargo-leptos --version), $(trunk --version), $(wasm-bindgen --version), wasm-opt $BINARYEN_VERSION"
