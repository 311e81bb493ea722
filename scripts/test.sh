#!/usr/bin/env bash
# Runs every test: unit and integration tests (cargo), the wasm build, and the Playwright
# end-to-end tests in Chromium against a freshly built server on a free loopback port.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$ROOT/scripts/setup.sh" test
cd "$ROOT"

step() { printf '\n==> %s\n' "$*"; }
# cargo-leptos compiles the output name into the binaries; setting it for plain cargo too
# lets both share one build instead of rebuilding each other's dependencies.
export LEPTOS_OUTPUT_NAME=dicebound

step "build the site: server + wasm (cargo leptos build)"
cargo leptos build

step "unit and integration tests (cargo test)"
cargo test -p app -p server

step "end-to-end tests (Playwright, Chromium)"
E2E_PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
export E2E_PORT
export DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/debug/server"
cd end2end
npx playwright test
