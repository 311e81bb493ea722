#!/usr/bin/env bash
# Runs every test: unit and integration tests (cargo), the wasm build, and the Playwright
# end-to-end tests in Chromium against a freshly built server on a free loopback port.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$ROOT/scripts/setup.sh" test
cd "$ROOT"

step() { printf '\n==> %s\n' "$*"; }

step "build the site: server + wasm (cargo leptos build)"
cargo leptos build

step "unit and integration tests (cargo test)"
# A target dir of its own: cargo-leptos builds with other flags (`--cfg erase_components` in dev),
# so sharing one would rebuild both sides every run and leave a server that doesn't match the wasm.
cargo test -p app -p server --target-dir "$CARGO_TARGET_DIR/native-tests"

step "end-to-end tests (Playwright, Chromium)"
E2E_PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
export E2E_PORT
export DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/debug/server"
cd end2end
npx playwright test
